package main

import (
	"testing"

	"atril/cgp"
	"atril/lexicon"
	"atril/variant"
)

func TestResolveLexicon(t *testing.T) {
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"en-sowpods", "en-sowpods", true},
		{"sowpods", "en-sowpods", true},
		{"SOWPODS", "en-sowpods", true},
		{"fise", "es-fise", true},
		{"NWL20", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		got, err := resolveLexicon(tc.name)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("resolveLexicon(%q) = %q, %v; want %q, ok %v", tc.name, got, err, tc.want, tc.ok)
		}
	}
}

// TestCGPView checks the view built from a CGP: the unseen tiles are the
// set minus the board and the rack (a designated blank counts as a
// blank), the opponent's rack is not read, and the bag holds what a full
// opposing rack leaves.
func TestCGPView(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "ANEROID", "CAT")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{V: v, Lex: lex}
	tests := []struct {
		line          string
		unseen, bag   int
		lastWasPass   bool
		blanksOnBoard int
	}{
		{"15/15/15/15/15/15/15/5ANEROID3/15/15/15/15/15/15/15 AENRS??/ 0/0 0", 100 - 7 - 7, 100 - 14 - 7, false, 0},
		{"15/15/15/15/15/15/15/5ANEROId3/15/15/15/15/15/15/15 AENRS?/XYZ 10/20 1", 100 - 7 - 6, 100 - 13 - 7, false, 1},
	}
	for _, tc := range tests {
		p, err := cgp.Parse(tc.line, v)
		if err != nil {
			t.Fatal(err)
		}
		view, err := cgpView(p, e)
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		if view.Unseen.Len() != tc.unseen || view.BagLen != tc.bag || view.LastWasPass != tc.lastWasPass {
			t.Errorf("%s: unseen %d bag %d lastPass %v, want %d %d %v", tc.line, view.Unseen.Len(), view.BagLen, view.LastWasPass, tc.unseen, tc.bag, tc.lastWasPass)
		}
		if want := v.Counts[0] - tc.blanksOnBoard - int(view.Rack[0]); int(view.Unseen[0]) != want {
			t.Errorf("%s: %d blanks unseen, want %d", tc.line, view.Unseen[0], want)
		}
	}
}
