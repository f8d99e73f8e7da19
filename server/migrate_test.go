package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/internal/testvariant"
	"atril/lexicon"
	"atril/movegen"
	"atril/store"
	"atril/variant"
)

// oldGame is a game of testdata/events-v0.json: its header, its log in
// format 0 and the state it had reached (see summary).
type oldGame struct {
	Header store.Game    `json:"header"`
	Events []store.Event `json:"events"`
	Expect string        `json:"expect"`
}

func oldGames(t *testing.T) []oldGame {
	t.Helper()
	data, err := os.ReadFile("testdata/events-v0.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Games []oldGame }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var out []oldGame
	for _, g := range f.Games {
		if testing.Short() && g.Header.Variant != "english" {
			continue // loading the Spanish and Czech lists takes seconds
		}
		out = append(out, g)
	}
	if len(out) < 2 {
		t.Fatalf("%d games in the fixture", len(out))
	}
	return out
}

var (
	fiveMu   sync.Mutex
	fiveLexs = map[string]*lexicon.Lexicon{}
)

// fiveLetters is the embedded list name cut to words of at most five
// letters, read with v's alphabet: the lists the fixture's games were
// played on.
func fiveLetters(v *variant.Variant, name string) (*lexicon.Lexicon, error) {
	fiveMu.Lock()
	defer fiveMu.Unlock()
	key := name + " " + strings.Join(v.Alphabet.Letters(), " ")
	if l, ok := fiveLexs[key]; ok {
		return l, nil
	}
	full, err := lexicon.Open(name, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		return nil, err
	}
	var ws [][]alphabet.Tile
	for i := 0; i < full.Len(); i++ {
		if w := full.Word(i); len(w) <= 5 {
			ws = append(ws, append([]alphabet.Tile(nil), w...))
		}
	}
	l := lexicon.FromTiles(v.Alphabet, ws)
	l.Name = name
	fiveLexs[key] = l
	return l, nil
}

// summary writes down a game's state by letters only, never by tile
// codes: the board, each seat's score and rack, the bag in draw order,
// whose turn it is, the number of turns and whether the game is over.
func summary(g *game.Game) string {
	a := g.Variant.Alphabet
	var sb strings.Builder
	for r := 0; r < g.Variant.Size; r++ {
		for c := 0; c < g.Variant.Size; c++ {
			if t := g.Board.At(r, c); t == board.Empty {
				sb.WriteString(".")
			} else {
				sb.WriteString("[" + a.String(t) + "]")
			}
		}
		sb.WriteString("\n")
	}
	for i, p := range g.Seats {
		var ls []string
		for _, t := range p.Rack.Tiles() {
			ls = append(ls, a.String(t))
		}
		sort.Strings(ls)
		fmt.Fprintf(&sb, "seat %d score %d rack %s\n", i, p.Score, strings.Join(ls, " "))
	}
	var bag []string
	for _, t := range g.Bag() {
		bag = append(bag, a.String(t))
	}
	fmt.Fprintf(&sb, "bag %s\nturn %d turns %d\n", strings.Join(bag, " "), g.Current(), len(g.History))
	if g.Over() {
		sb.WriteString("over\n")
	}
	return sb.String()
}

// storeWith opens a new SQLite store holding the games, each header's
// variant replaced by variants[name] when given (a file name).
func storeWith(t *testing.T, games []oldGame, variants map[string]string) store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "atril.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, g := range games {
		hdr := g.Header
		if f, ok := variants[hdr.Variant]; ok {
			hdr.Variant = f
		}
		if err := st.CreateGame(ctx, &hdr); err != nil {
			t.Fatal(err)
		}
		for _, e := range g.Events {
			if err := st.Append(ctx, hdr.ID, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	return st
}

// checkGames starts a server on st and checks that every game reaches
// the state the fixture recorded.
func checkGames(t *testing.T, st store.Store, games []oldGame) {
	t.Helper()
	cfg := testConfig(st)
	cfg.LoadLexicon = fiveLetters
	cfg.NewGenerator = func(lex *lexicon.Lexicon) movegen.Generator { return movegen.NewGaddag(lex) }
	cfg.ThinkTime = time.Hour // the computer seats must not move during the test
	var logged []string
	cfg.Logf = func(f string, args ...any) { logged = append(logged, fmt.Sprintf(f, args...)) }
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, s := range logged {
		if strings.Contains(s, "not rebuilt") {
			t.Error(s)
		}
	}
	for _, g := range games {
		l, err := srv.game(context.Background(), g.Header.ID)
		if err != nil {
			t.Errorf("game %s: %v", g.Header.ID, err)
			continue
		}
		l.mu.Lock()
		got := summary(l.g)
		l.mu.Unlock()
		if got != g.Expect {
			t.Errorf("game %s replays to\n%s\nwant\n%s", g.Header.ID, got, g.Expect)
		}
	}
	if v, err := st.DataVersion(context.Background()); err != nil || v != logFormat {
		t.Errorf("data version %d (%v), want %d", v, err, logFormat)
	}
}

// TestMigrateFormat0 checks that logs stored before letters were text are
// migrated and replay to the same games, also when the variant files list
// their tiles in another order before or after the migration.
func TestMigrateFormat0(t *testing.T) {
	games := oldGames(t)
	reordered := map[string]string{}
	dir := t.TempDir()
	for _, g := range games {
		name := g.Header.Variant
		if _, ok := reordered[name]; ok {
			continue
		}
		data, _ := testvariant.Reordered(t, name)
		reordered[name] = filepath.Join(dir, name+".json")
		if err := os.WriteFile(reordered[name], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()

	// Migrated with the variants as listed.
	st := storeWith(t, games, nil)
	checkGames(t, st, games)
	var migrated []oldGame
	for _, g := range games {
		_, evs, err := st.Load(ctx, g.Header.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Kind == "move" && strings.Contains(e.Data, `"tiles":[`) && !strings.Contains(e.Data, `"tiles":["`) {
				t.Errorf("game %s event %d still holds tile codes: %s", g.Header.ID, e.Seq, e.Data)
			}
		}
		g.Events = evs
		migrated = append(migrated, g)
	}
	// A second start finds nothing to migrate and the same games.
	checkGames(t, st, games)

	// The migrated logs replayed with every variant's tiles reordered.
	st = storeWith(t, migrated, reordered)
	if _, err := st.Migrate(ctx, logFormat, func(g *store.Game, e store.Event) (string, error) { return e.Data, nil }); err != nil {
		t.Fatal(err)
	}
	checkGames(t, st, games)

	// The old logs migrated after the tiles were reordered.
	checkGames(t, storeWith(t, games, reordered), games)
}

// TestLettersAsTextErrors checks that a format-0 move that cannot be read
// stops the migration with the reason.
func TestLettersAsTextErrors(t *testing.T) {
	hdr := &store.Game{ID: "g", Variant: "english"}
	tests := []struct {
		data string
		want string
	}{
		{`{"seat":0,"kind":"place","tiles":[27]}`, "tile code 27"},
		{`{"seat":0,"kind":"place","tiles":[300]}`, "tile code 300"},
		{`{"seat":0,"kind":"exchange","exchanged":[-1]}`, "tile code -1"},
		{`{"seat":0,"kind":"place","tiles":"AB"}`, "read move"},
	}
	for _, tc := range tests {
		_, err := lettersAsText(hdr, store.Event{Kind: "move", Data: tc.data})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.data, err, tc.want)
		}
	}
	got, err := lettersAsText(hdr, store.Event{Kind: "move", Data: `{"seat":1,"kind":"place","row":7,"col":3,"down":true,"tiles":[3,128,65,20],"score":9,"notation":"D8 C.aT"}`})
	want := `{"seat":1,"kind":"place","row":7,"col":3,"down":true,"tiles":["C",".","a","T"],"score":9,"notation":"D8 C.aT"}`
	if err != nil || got != want {
		t.Errorf("got %s (%v), want %s", got, err, want)
	}
	if _, err := lettersAsText(&store.Game{ID: "g", Variant: "klingon"}, store.Event{Kind: "move", Data: `{"kind":"pass"}`}); err == nil {
		t.Error("unknown variant: no error")
	}
}
