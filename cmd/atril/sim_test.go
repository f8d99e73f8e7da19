package main

import "testing"

func TestAutoAlgo(t *testing.T) {
	for _, tc := range []struct {
		p1, p2, want string
	}{
		{"professional", "professional", "anagram"},
		{"professional", "amateur", "gaddag"},
		{"amateur", "experienced", "gaddag"},
		{"inhuman", "professional", "anagram"},
		{"professional", "godlike", "anagram"},
		{"simulation", "inhuman", "anagram"},
	} {
		if got := autoAlgo(tc.p1, tc.p2); got != tc.want {
			t.Errorf("autoAlgo(%s, %s) = %s, want %s", tc.p1, tc.p2, got, tc.want)
		}
	}
}
