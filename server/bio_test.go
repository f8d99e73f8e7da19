package server

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBio checks a player's bio: written, cleaned, shown on the page,
// refused signed out or with a country that is none, taken away, and
// hidden while the account is suspended.
func TestBio(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana := browser(t)
	e.signUp(ana, "Ana", "correct horse")
	if !slices.IsSorted(countryCodes) || len(countryCodes) != 250 || slices.Contains(countryCodes, "SU") || !slices.Contains(countryCodes, "CZ") {
		t.Errorf("%d country codes, sorted %v", len(countryCodes), slices.IsSorted(countryCodes))
	}
	var got BioRequest
	if code := e.doWith(ana, "PUT", "/api/me/bio", "", BioRequest{About: "  Club player\nin Brno.\u200b  ", Country: " cz"}, &got); code != 200 ||
		got.About != "Club player in Brno." || got.Country != "CZ" {
		t.Fatalf("Ana writes her bio: %d %+v", code, got)
	}
	var p Profile
	if code := e.do("GET", "/api/players/ana", "", nil, &p); code != 200 || p.About != "Club player in Brno." || p.Country != "CZ" {
		t.Errorf("Ana's page: %d about %q, country %q", code, p.About, p.Country)
	}
	for _, tc := range []struct {
		body BioRequest
		code int
		want string
	}{
		{BioRequest{Country: "SU"}, 400, `country "SU": want an ISO 3166 code of two letters`},
		{BioRequest{Country: "Czechia"}, 400, `country "Czechia"`},
		{BioRequest{About: strings.Repeat("a", maxAbout+1)}, 400, "about longer than 500 characters"},
	} {
		var eb errorBody
		if code := e.doWith(ana, "PUT", "/api/me/bio", "", tc.body, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("bio %+v: %d %q, want %d %q", tc.body, code, eb.Error, tc.code, tc.want)
		}
	}
	if code := e.do("PUT", "/api/me/bio", "", BioRequest{About: "x"}, nil); code != 401 {
		t.Errorf("a bio signed out: %d, want 401", code)
	}
	// The refusals changed nothing.
	p = Profile{}
	if e.do("GET", "/api/players/ana", "", nil, &p); p.About != "Club player in Brno." {
		t.Errorf("Ana's bio after refusals: %q", p.About)
	}
	// Suspended, the bio is not shown; lifted, it is again.
	if err := e.st.Suspend(t.Context(), AccountKey("Ana"), "spam", time.Now()); err != nil {
		t.Fatal(err)
	}
	p = Profile{}
	if e.do("GET", "/api/players/ana", "", nil, &p); p.About != "" || p.Country != "" {
		t.Errorf("a suspended account's page shows its bio: %+v", p)
	}
	if err := e.st.Unsuspend(t.Context(), AccountKey("Ana")); err != nil {
		t.Fatal(err)
	}
	if code := e.doWith(ana, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("Ana signs in again: %d", code)
	}
	// Everything empty takes it away.
	if code := e.doWith(ana, "PUT", "/api/me/bio", "", BioRequest{}, &got); code != 200 || got != (BioRequest{}) {
		t.Errorf("the bio taken away: %d %+v", code, got)
	}
	p = Profile{}
	if e.do("GET", "/api/players/ana", "", nil, &p); p.About != "" || p.Country != "" {
		t.Errorf("Ana's page without a bio: %+v", p)
	}
}
