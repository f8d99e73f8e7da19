package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestFindPlayers checks the search for players by the first letters of
// their names (folded as sign-ins fold them), its bounds and refusals,
// who is left out (suspended accounts, and those blocked either way),
// and when players were last seen, there and on their pages.
func TestFindPlayers(t *testing.T) {
	e := newEnv(t, newStore(t))
	cs := map[string]*http.Client{}
	for _, n := range []string{"Ann", "Anna", "Ánika", "Andy", "Anton", "Bob"} {
		cs[n] = browser(t)
		e.signUp(cs[n], n, "correct horse")
	}
	if err := e.st.Suspend(context.Background(), AccountKey("Anton"), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if code := e.doWith(cs["Andy"], "POST", "/api/me/blocks", "", map[string]string{"name": "Bob"}, nil); code != 200 {
		t.Fatalf("block: %d", code)
	}
	// Ann opens the lobby: she is seen now.
	if code := e.doWith(cs["Ann"], "GET", "/api/lobby", "", nil, nil); code != 200 {
		t.Fatalf("lobby: %d", code)
	}
	find := func(c *http.Client, query string) (int, string, FoundPlayers) {
		t.Helper()
		var out struct {
			FoundPlayers
			Error string `json:"error"`
		}
		code := e.doWith(c, "GET", "/api/players?"+query, "", nil, &out)
		names := []string{}
		for _, p := range out.Players {
			mark := ""
			if p.Seen != nil {
				mark = " seen"
			}
			if p.Online {
				mark += " online"
			}
			names = append(names, p.Name+mark)
		}
		if code != 200 {
			return code, out.Error, out.FoundPlayers
		}
		return code, strings.Join(names, ","), out.FoundPlayers
	}
	for _, tc := range []struct {
		who   string
		query string
		code  int
		want  string
	}{
		{"", "prefix=AN", 200, "Andy,Ánika,Ann seen online,Anna"},
		{"", "prefix=%C3%A1n", 200, "Andy,Ánika,Ann seen online,Anna"},
		{"", "prefix=+ann+", 200, "Ann seen online,Anna"},
		{"", "prefix=anni", 200, ""},
		{"", "prefix=an&n=2", 200, "Andy,Ánika"},
		{"Bob", "prefix=an", 200, "Ánika,Ann seen online,Anna"},
		{"Andy", "prefix=b", 200, ""},
		{"Ann", "prefix=b", 200, "Bob"},
		{"", "prefix=", 400, "prefix: give the first letters of a player's name"},
		{"", "prefix=%20", 400, "prefix: give the first letters of a player's name"},
		{"", "prefix=" + strings.Repeat("a", 41), 400, "prefix: at most 40 letters"},
		{"", "prefix=an&n=0", 400, ""},
		{"", "prefix=an&n=21", 400, ""},
	} {
		c := http.DefaultClient
		if tc.who != "" {
			c = cs[tc.who]
		}
		code, got, _ := find(c, tc.query)
		if code != tc.code || tc.want != "" && got != tc.want || tc.code == 200 && tc.want == "" && got != "" {
			t.Errorf("%s asks %s: %d %q, want %d %q", tc.who, tc.query, code, got, tc.code, tc.want)
		}
	}
	_, _, found := find(http.DefaultClient, "prefix=ann")
	if p := found.Players[0]; p.Seen == nil || time.Since(*p.Seen) > time.Minute {
		t.Errorf("Ann seen at %v", p.Seen)
	}

	// A player's page says when they were last seen, unless the one
	// asking blocks them or is blocked by them.
	if code := e.doWith(cs["Andy"], "GET", "/api/lobby", "", nil, nil); code != 200 {
		t.Fatalf("lobby: %d", code)
	}
	for _, tc := range []struct {
		who, of string
		seen    bool
	}{{"", "Ann", true}, {"", "Anna", false}, {"", "Andy", true}, {"Bob", "Andy", false}, {"Andy", "Bob", false}, {"Andy", "Andy", true}, {"Ann", "Andy", true}} {
		c := http.DefaultClient
		if tc.who != "" {
			c = cs[tc.who]
		}
		var p Profile
		if code := e.doWith(c, "GET", "/api/players/"+tc.of, "", nil, &p); code != 200 {
			t.Fatalf("%s's page: %d", tc.of, code)
		}
		if (p.Seen != nil) != tc.seen || p.Online != tc.seen {
			t.Errorf("%s asks for %s's page: seen %v online %v, want %v", tc.who, tc.of, p.Seen, p.Online, tc.seen)
		}
	}
	// A player's page lists the games the player offers in the lobby and
	// those being played there, unless the one asking is blocked either
	// way.
	offer := func(c *http.Client) string {
		t.Helper()
		var cr CreateResponse
		if code := e.doWith(c, "POST", "/api/games", "", map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}}, &cr); code != 201 {
			t.Fatalf("create: %d", code)
		}
		var j JoinResponse
		e.doWith(c, "POST", "/api/games/"+cr.ID+"/join", "", map[string]any{"seat": 0}, &j)
		if code := e.do("POST", "/api/games/"+cr.ID+"/list", j.Token, nil, nil); code != 200 {
			t.Fatalf("list: %d", code)
		}
		return cr.ID
	}
	andys, anns := offer(cs["Andy"]), offer(cs["Ann"])
	if code := e.doWith(cs["Anna"], "POST", "/api/games/"+anns+"/join", "", nil, nil); code != 200 {
		t.Fatalf("Anna joins Ann's game: %d", code)
	}
	games := func(c *http.Client, of string) string {
		t.Helper()
		var p Profile
		if code := e.doWith(c, "GET", "/api/players/"+of, "", nil, &p); code != 200 {
			t.Fatalf("%s's page: %d", of, code)
		}
		out := ""
		for _, g := range p.Offers {
			out += "offers " + g.ID + ";"
		}
		for _, g := range p.Playing {
			out += "plays " + g.ID + ";"
		}
		return out
	}
	for _, tc := range []struct {
		who, of, want string
	}{
		{"", "Andy", "offers " + andys + ";"},
		{"Bob", "Andy", ""},
		{"", "Ann", "plays " + anns + ";"},
		{"Anna", "Anna", "plays " + anns + ";"},
		{"", "Bob", ""},
	} {
		c := http.DefaultClient
		if tc.who != "" {
			c = cs[tc.who]
		}
		if got := games(c, tc.of); got != tc.want {
			t.Errorf("%s asks for %s's games: %q, want %q", tc.who, tc.of, got, tc.want)
		}
	}

	// A suspended player's page does not say it.
	if err := e.st.SetSeen(context.Background(), AccountKey("Anton"), time.Now()); err != nil {
		t.Fatal(err)
	}
	var p Profile
	if code := e.do("GET", "/api/players/Anton", "", nil, &p); code != 200 || p.Seen != nil {
		t.Errorf("Anton's page: %d, seen %v", code, p.Seen)
	}
}
