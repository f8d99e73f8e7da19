package movegen_test

import (
	"os"
	"runtime"
	"testing"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/multiset"
)

// ivPositions plays greedy games with gen and returns the positions
// (board clones and racks) met, at most n.
func ivPositions(t testing.TB, lexName, vname string, lex *lexicon.Lexicon, gen movegen.Generator, games, n int) ([]*board.Board, []alphabet.Rack, []int) {
	v, _ := ivLexicon(t, vname, lexName)
	var bs []*board.Board
	var rs []alphabet.Rack
	var turns []int
	for gi := 0; gi < games && len(bs) < n; gi++ {
		g, err := game.New(v, lex, []string{"a", "b"}, uint64(gi+1))
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; !g.Over() && len(bs) < n; turn++ {
			r := g.Players[g.Current()].Rack
			bs = append(bs, g.Board.Clone())
			rs = append(rs, r)
			turns = append(turns, turn)
			m, ok := movegen.Best(gen, g.Board, &r)
			if !ok {
				m = move.Move{Kind: move.Pass}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return bs, rs, turns
}

// TestIntervalNoAllocs checks that generating moves allocates nothing
// once the generator has warmed up.
func TestIntervalNoAllocs(t *testing.T) {
	_, full := ivLexicon(t, "english", "en-sowpods")
	lex := ivSample(full, 20)
	an, err := movegen.NewAnagram(lex)
	if err != nil {
		t.Fatal(err)
	}
	iw, err := movegen.NewIWM(lex, movegen.IWMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bs, rs, _ := ivPositions(t, "en-sowpods", "english", lex, iw, 1, 12)
	count := 0
	sink := func(m *move.Move) { count++ }
	for _, g := range []movegen.Generator{an, iw} {
		for i := range bs {
			for _, nb := range []uint8{0, 1, 2} {
				r := rs[i]
				r[alphabet.Blank] = nb
				g.Generate(bs[i], &r, sink)
				if a := testing.AllocsPerRun(3, func() { g.Generate(bs[i], &r, sink) }); a != 0 {
					t.Errorf("%s: %.1f allocations per call at position %d with %d blanks", g.Name(), a, i, nb)
				}
			}
		}
	}
	if count == 0 {
		t.Error("no moves generated")
	}
}

// TestIntervalTablesFull builds the tables of the full word lists and
// reports sizes and build times (ATRIL_LONG=1).
func TestIntervalTablesFull(t *testing.T) {
	if os.Getenv("ATRIL_LONG") == "" {
		t.Skip("set ATRIL_LONG=1 to build the full tables")
	}
	for _, l := range ivLanguages {
		_, lex := ivLexicon(t, l.variant, l.lexicon)
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		heap0 := ms.HeapAlloc
		t0 := time.Now()
		per, err := multiset.Build(lex.Alphabet.Size(), lex)
		if err != nil {
			t.Fatal(err)
		}
		tPER := time.Since(t0)
		at, err := movegen.BuildAnagram(lex, per, movegen.AnagramOptions{})
		if err != nil {
			t.Fatal(err)
		}
		iw, err := movegen.BuildIWM(lex, per, movegen.IWMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		t.Logf("%s (%d words): PER %v %.1f MB; anagram %v %.1f MB (keys %d/%d/%d, entries %d/%d/%d); iwm %v %.1f MB (occurrences %d, placed inner words %d, high %d+%d blank, low %d in %d keys); heap growth %.1f MB",
			l.variant, lex.Len(), tPER, float64(per.Bytes())/1e6,
			at.BuildTime, float64(at.Bytes())/1e6, at.Keys(0), at.Keys(1), at.Keys(2), at.Entries(0), at.Entries(1), at.Entries(2),
			iw.BuildTime, float64(iw.Bytes())/1e6, iw.Occurrences, iw.PlacedInnerWords(), iw.ThesisHigh, iw.BlankHigh, iw.LowEntries(), iw.LowIndex(),
			float64(ms.HeapAlloc-heap0)/1e6)
	}
}
