package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"atril/store"
)

// gcgOf downloads a finished game's GCG file.
func (e *testEnv) gcgOf(id string) string {
	e.t.Helper()
	resp, err := http.Get(e.url + "/api/games/" + id + "/gcg")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		e.t.Fatalf("gcg of %s: %d %s", id, resp.StatusCode, data)
	}
	return string(data)
}

// importGCG imports a GCG file and returns the new game's id.
func (e *testEnv) importGCG(text, lexicon string) string {
	e.t.Helper()
	var cr CreateResponse
	if code := e.do("POST", "/api/games/import", "", ImportRequest{GCG: text, Lexicon: lexicon}, &cr); code != 201 {
		e.t.Fatalf("import: %d", code)
	}
	return cr.ID
}

// TestImport plays games here, imports their GCG files, and checks that
// the imported games review, analyse and summarise exactly as the
// originals, although their bags are not the originals' (each move's
// rack is dealt as the file records it): a game of the void rule, and
// one of the double rule with a phony left standing whose file lost its
// #challenge pragma, which is read as the double rule.
func TestImport(t *testing.T) {
	// Each game in a server of its own: every analysis counts against
	// the client's allowance of a server.
	ev := newEnv(t, nil)
	void := ev.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	toks := []string{ev.join(void).Token, ev.join(void).Token}
	playOut(t, ev, void, toks, 200)
	// Notes on the game go into its file, and from it into the import.
	for _, n := range []struct {
		tok   string
		entry int
		text  string
	}{{toks[0], 0, "a slow start"}, {toks[1], 3, "missed a bingo"}} {
		if code := ev.do("POST", "/api/games/"+void+"/notes", n.tok, map[string]any{"entry": n.entry, "text": n.text}, nil); code != 200 {
			t.Fatalf("note: %d", code)
		}
	}
	vs := ev.state(void, "").Seats
	voidNotes := fmt.Sprint([]GameNote{{0, -1, vs[0].Name + ": a slow start"}, {3, -1, vs[1].Name + ": missed a bingo"}})

	ed := newEnv(t, nil)
	dbl := ed.createRule("double", SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	dt := []string{ed.join(dbl).Token, ed.join(dbl).Token}
	if code := ed.do("POST", "/api/games/"+dbl+"/move", dt[0], phonyOpening(t, ed.state(dbl, dt[0])), nil); code != 200 {
		t.Fatalf("phony: %d", code)
	}
	playOut(t, ed, dbl, dt, 200)

	for _, tc := range []struct {
		name, orig string
		e          *testEnv
		edit       func(string) string
		rule       string
		notes      string
	}{
		{"void", void, ev, nil, "", voidNotes},
		{"double without its pragma", dbl, ed, func(s string) string {
			return regexp.MustCompile(`(?m)^#challenge .*\n`).ReplaceAllString(s, "")
		}, "double", "[]"},
	} {
		e := tc.e
		t.Run(tc.name, func(t *testing.T) {
			text := e.gcgOf(tc.orig)
			if tc.edit != nil {
				if text = tc.edit(text); strings.Contains(text, "#challenge") {
					t.Fatal("the pragma is still there")
				}
			}
			id := e.importGCG(text, "")
			a, b := e.state(tc.orig, ""), e.state(id, "")
			if !b.Over || !b.Imported || a.Imported || b.Challenge != tc.rule || b.Moves != a.Moves || b.Lexicon != a.Lexicon {
				t.Fatalf("imported state: over %v, imported %v, rule %q, %d moves (want %d), %s", b.Over, b.Imported, b.Challenge, b.Moves, a.Moves, b.Lexicon)
			}
			for i := range a.Seats {
				if a.Seats[i].Name != b.Seats[i].Name || a.Seats[i].Score != b.Seats[i].Score || !b.Seats[i].Taken {
					t.Errorf("seat %d: %+v, imported %+v", i, a.Seats[i], b.Seats[i])
				}
			}
			if mustJSON(a.Board) != mustJSON(b.Board) || mustJSON(a.Winners) != mustJSON(b.Winners) {
				t.Error("the imported game ends on another board or with other winners")
			}
			if got := fmt.Sprint(b.Notes); got != tc.notes {
				t.Errorf("the imported game's notes: %s, want %s", got, tc.notes)
			}
			var ra, rb Review
			e.do("GET", "/api/games/"+tc.orig+"/review", "", nil, &ra)
			if code := e.do("GET", "/api/games/"+id+"/review", "", nil, &rb); code != 200 {
				t.Fatalf("review: %d", code)
			}
			if mustJSON(ra.Turns) != mustJSON(rb.Turns) || len(rb.Turns) < a.Moves {
				t.Errorf("reviews differ:\n%s\n%s", mustJSON(ra.Turns), mustJSON(rb.Turns))
			}
			if tc.rule != "" && !strings.Contains(mustJSON(rb.Turns), "phonies") {
				t.Error("the phony is not marked")
			}
			// Every position: the analysis and the CGP line.
			for k := 0; k < a.Moves; k++ {
				var aa, ab Analysis
				e.do("GET", "/api/games/"+tc.orig+"/analysis?move="+itoa(k)+"&n=5", "", nil, &aa)
				if code := e.do("GET", "/api/games/"+id+"/analysis?move="+itoa(k)+"&n=5", "", nil, &ab); code != 200 {
					t.Fatalf("analysis of move %d: %d", k, code)
				}
				if mustJSON(aa) != mustJSON(ab) {
					t.Fatalf("move %d: analyses differ:\n%s\n%s", k, mustJSON(aa), mustJSON(ab))
				}
				var pa, pb GamePosition
				e.do("GET", "/api/games/"+tc.orig+"/position?turn="+itoa(k), "", nil, &pa)
				if code := e.do("GET", "/api/games/"+id+"/position?turn="+itoa(k), "", nil, &pb); code != 200 || pa.CGP != pb.CGP {
					t.Fatalf("move %d: position %d %q, want %q", k, code, pb.CGP, pa.CGP)
				}
			}
			var sa, sb Summary
			e.do("GET", "/api/games/"+tc.orig+"/summary", "", nil, &sa)
			if code := e.do("GET", "/api/games/"+id+"/summary", "", nil, &sb); code != 200 || mustJSON(sa) != mustJSON(sb) {
				t.Errorf("summary %d:\n%s\nwant\n%s", code, mustJSON(sb), mustJSON(sa))
			}
			// What the first placement told the next player: the same as
			// in the game the file came from, the next player's rack taken
			// from the file's next move of theirs.
			for k := 0; k < a.Moves; k++ {
				var ia, ib Inference
				codeA := e.do("GET", "/api/games/"+tc.orig+"/infer?move="+itoa(k), "", nil, &ia)
				if codeA == 400 {
					continue // not a placement
				}
				if code := e.do("GET", "/api/games/"+id+"/infer?move="+itoa(k), "", nil, &ib); code != codeA || code != 200 {
					t.Fatalf("inference of move %d: %d, imported %d", k, codeA, code)
				}
				if ia.Kept != ib.Kept || ia.Truth != ib.Truth || ia.Observer != ib.Observer || len(ia.Letters) != len(ib.Letters) ||
					ia.Exact && ib.Exact && math.Abs(ia.Consistent-ib.Consistent) > 1e-3 {
					t.Errorf("move %d: inference %+v, imported %+v", k, ia, ib)
				}
				break
			}
			// The file comes back as it was given; nobody holds a seat.
			if got := e.gcgOf(id); got != text {
				t.Errorf("GCG of the imported game:\n%s\nwant\n%s", got, text)
			}
			if code := e.do("POST", "/api/games/"+id+"/join", "", map[string]any{"name": "Cy"}, nil); code != 409 {
				t.Errorf("join an imported game: %d, want 409", code)
			}
			if code := e.do("POST", "/api/games/"+id+"/rematch", "", nil, nil); code/100 != 4 {
				t.Errorf("rematch of an imported game: %d, want a refusal", code)
			}
		})
	}
}

// TestImportRefused: what an import refuses, and why.
func TestImportRefused(t *testing.T) {
	e := newEnv(t, nil)
	id := e.create(SeatRequest{Kind: "human", Name: "Ana"}, SeatRequest{Kind: "human", Name: "Bo"})
	toks := []string{e.join(id).Token, e.join(id).Token}
	playOut(t, e, id, toks, 200)
	good := e.gcgOf(id)
	lines := regexp.MustCompile(`(?m)^>\S+: \S+ \S+ \S+ \+(\d+) `).FindAllStringSubmatchIndex(good, 2)
	if len(lines) < 2 {
		t.Fatalf("no second placement in\n%s", good)
	}
	line := lines[1]
	badScore := good[:line[2]] + "999" + good[line[3]:]
	noLex := regexp.MustCompile(`(?m)^#lexicon .*\n`).ReplaceAllString(good, "")
	for _, tc := range []struct {
		name    string
		req     ImportRequest
		code    int
		mention string
	}{
		{"empty", ImportRequest{}, 400, "gcg"},
		{"not GCG", ImportRequest{GCG: "hello\n"}, 422, "line 1"},
		{"one player", ImportRequest{GCG: "#player1 A A\n#lexicon en-sowpods\n"}, 422, "2 to 4"},
		{"wrong score", ImportRequest{GCG: badScore}, 422, "recorded score"},
		{"no word list", ImportRequest{GCG: noLex}, 422, "#lexicon"},
		{"unknown word list", ImportRequest{GCG: good, Lexicon: "NWL99"}, 422, "no word list"},
		{"too big", ImportRequest{GCG: good + strings.Repeat("#note padding\n", 2000)}, 413, "over"},
	} {
		var er struct{ Error string }
		if code := e.do("POST", "/api/games/import", "", tc.req, &er); code != tc.code || !strings.Contains(er.Error, tc.mention) {
			t.Errorf("%s: %d %q, want %d mentioning %q", tc.name, code, er.Error, tc.code, tc.mention)
		}
	}
	// The word list of the file's pragma may be replaced by the request.
	if cut := e.importGCG(noLex, e.state(id, "").Lexicon); !e.state(cut, "").Imported {
		t.Error("not imported with the request's word list")
	}
}

// TestImportsPerHour: a client imports at most ImportsPerHour games an
// hour, since each is kept for good.
func TestImportsPerHour(t *testing.T) {
	ev := newEnv(t, nil)
	id := ev.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"})
	a := ev.join(id)
	ev.join(id)
	if code := ev.do("POST", "/api/games/"+id+"/resign", a.Token, nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	gcg := ev.gcgOf(id)
	cfg := testConfig(newStore(t))
	cfg.ImportsPerHour = 2
	e := newEnvConfig(t, cfg)
	for range 2 {
		e.importGCG(gcg, "")
	}
	var why struct{ Error string }
	if code := e.do("POST", "/api/games/import", "", ImportRequest{GCG: gcg}, &why); code != 429 || !strings.Contains(why.Error, "imported games this hour") {
		t.Errorf("a third import in an hour: %d %q", code, why.Error)
	}
}

// failingWrites is a store whose writes of a game's log or its end fail
// (fail names them: "append", "finish"), as a store failing part-way
// through an import made of several writes would.
type failingWrites struct {
	store.Store
	fail string
}

func (f *failingWrites) Append(ctx context.Context, id string, e store.Event) error {
	if f.fail == "append" {
		return errors.New("append refused for the test")
	}
	return f.Store.Append(ctx, id, e)
}

func (f *failingWrites) Finish(ctx context.Context, id string) error {
	if f.fail == "finish" {
		return errors.New("finish refused for the test")
	}
	return f.Store.Finish(ctx, id)
}

// TestImportIsOneWrite: an import is stored whole or not at all. It was
// three writes (the header, the file, the mark of the end): a failure of
// the second or third left a game half made, unfinished, which a
// restart would try to rebuild.
func TestImportIsOneWrite(t *testing.T) {
	ctx := context.Background()
	const record = "#player1 Ana Ana\n#player2 Bo Bo\n#lexicon en-sowpods\n>Ana: ABCDEFG -  +0 0\n"
	// With no write failing, the record imports.
	for _, fail := range []string{"", "append", "finish"} {
		name := "none failing"
		if fail != "" {
			name = fail + " failing"
		}
		t.Run(name, func(t *testing.T) {
			st := &failingWrites{Store: newStore(t), fail: fail}
			e := newEnv(t, st)
			var cr CreateResponse
			code := e.do("POST", "/api/games/import", "", ImportRequest{GCG: record}, &cr)
			ids, err := st.Unfinished(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != 0 {
				t.Errorf("import answered %d; unfinished games left in the store: %v", code, ids)
			}
			if code != 201 {
				if fail == "" || code < 500 {
					t.Fatalf("import failing %q: %d, want 201 (or a failure of the store's)", fail, code)
				}
				return
			}
			g, evs, err := st.Load(ctx, cr.ID)
			if err != nil || !g.Finished || len(evs) != 1 || evs[0].Kind != "import" || !strings.Contains(evs[0].Data, "Ana") {
				t.Errorf("the imported game: %+v %+v, %v; want it finished with its file", g, evs, err)
			}
		})
	}
}
