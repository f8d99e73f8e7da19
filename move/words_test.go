package move

import (
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name  string
		moves []string
		play  string
		want  string // words joined by spaces
	}{
		{"main word only", nil, "8H CAT", "CAT"},
		{"hook: main and cross", []string{"8H CAT"}, "9I TA", "TA AT TA"},
		{"one tile makes a cross word only", []string{"8H CAT"}, "K8 S", "CATS"},
		{"through a tile", []string{"8H CAT"}, "I7 A.", "AA"},
		{"Spanish tiles count as one", []string{}, "8H [CH]E", "CHE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vname, words := "english", enWords
			if strings.Contains(tc.play, "[") {
				vname, words = "spanish", []string{"CHE"}
			}
			b := setup(t, vname, words, tc.moves...)
			m, err := Parse(b, tc.play)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range Words(b, m) {
				got = append(got, b.Variant.Alphabet.Word(w))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("words %q, want %q", got, tc.want)
			}
			if tc.name == "Spanish tiles count as one" && len(Words(b, m)[0]) != 2 {
				t.Errorf("CHE is %d tiles, want 2", len(Words(b, m)[0]))
			}
		})
	}
	if Words(nil, &Move{Kind: Pass}) != nil {
		t.Error("a pass forms words")
	}
}
