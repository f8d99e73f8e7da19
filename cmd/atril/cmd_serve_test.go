package main

import (
	"strings"
	"testing"
)

// TestWordListsFlag: --word-list takes NAME=FILE, once a name (and
// --word-list-title NAME=TITLE alike).
func TestWordListsFlag(t *testing.T) {
	w := namedValues{m: map[string]string{}, form: "NAME=FILE"}
	for _, tc := range []struct {
		arg string
		ok  bool
	}{
		{"en-nwl2023=/srv/lists/nwl2023.txt", true},
		{" es-drae = drae.txt.gz ", true},
		{"en-nwl2023=other.txt", false},
		{"en-nwl2023", false},
		{"=file.txt", false},
		{"en-x=", false},
	} {
		err := w.Set(tc.arg)
		if (err == nil) != tc.ok {
			t.Errorf("--word-list %q: %v, want ok %v", tc.arg, err, tc.ok)
		}
		if err != nil && tc.arg != "en-nwl2023=other.txt" && !strings.Contains(err.Error(), "want NAME=FILE") {
			t.Errorf("--word-list %q: %v, not saying the form", tc.arg, err)
		}
	}
	if got, want := w.String(), "en-nwl2023=/srv/lists/nwl2023.txt,es-drae=drae.txt.gz"; got != want {
		t.Errorf("the word lists: %s, want %s", got, want)
	}
}

// TestPushHostsFlag: --push-hosts not given is the server's default,
// "none" turns push messages off, a list is taken as given.
func TestPushHostsFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, nil},
		{[]string{"none"}, []string{}},
		{[]string{"fcm.googleapis.com, *.push.apple.com"}, []string{"fcm.googleapis.com", "*.push.apple.com"}},
	} {
		var l stringList
		for _, a := range tc.args {
			if err := l.Set(a); err != nil {
				t.Fatal(err)
			}
		}
		got := pushHostsOf(l)
		if (got == nil) != (tc.want == nil) || strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("--push-hosts %q: %q, want %q", tc.args, got, tc.want)
		}
	}
}
