package main

import "testing"

// TestWordListsFlag: --word-list takes NAME=FILE, once a name.
func TestWordListsFlag(t *testing.T) {
	w := wordLists{}
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
		if err := w.Set(tc.arg); (err == nil) != tc.ok {
			t.Errorf("--word-list %q: %v, want ok %v", tc.arg, err, tc.ok)
		}
	}
	if got, want := w.String(), "en-nwl2023=/srv/lists/nwl2023.txt,es-drae=drae.txt.gz"; got != want {
		t.Errorf("the word lists: %s, want %s", got, want)
	}
}
