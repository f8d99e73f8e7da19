package interval_test

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
	"atril/movegen/interval"
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
			r := g.Seats[g.Current()].Rack
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
	an, err := interval.NewAnagram(lex)
	if err != nil {
		t.Fatal(err)
	}
	iw, err := interval.NewIWM(lex, interval.IWMOptions{})
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

// TestIntervalTablesFull builds the tables of the full word lists,
// checks that every table holds entries and that the English ones stay
// within their memory targets (anagram ≤ 160 MiB, IWM ≤ 200 MiB), and
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
		at, err := interval.BuildAnagram(lex, per, interval.AnagramOptions{})
		if err != nil {
			t.Fatal(err)
		}
		iw, err := interval.BuildIWM(lex, per, interval.IWMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		for j := 0; j < 3; j++ {
			if at.Keys(j) == 0 || at.Entries(j) == 0 {
				t.Errorf("%s: anagram table with %d blanks is empty", l.variant, j)
			}
		}
		if iw.Occurrences == 0 || iw.LowEntries() == 0 {
			t.Errorf("%s: IWM tables empty", l.variant)
		}
		if l.variant == "english" {
			if mib := float64(at.Bytes()) / (1 << 20); mib > 160 {
				t.Errorf("english anagram tables take %.1f MiB, target 160", mib)
			}
			if mib := float64(iw.Bytes()) / (1 << 20); mib > 200 {
				t.Errorf("english IWM tables take %.1f MiB, target 200", mib)
			}
		}
		t.Logf("%s (%d words): PER %v %.1f MB; anagram %v %.1f MB (keys %d/%d/%d, entries %d/%d/%d); iwm %v %.1f MB (occurrences %d, placed inner words %d, high %d+%d blank, low %d in %d keys); heap growth %.1f MB",
			l.variant, lex.Len(), tPER, float64(per.Bytes())/1e6,
			at.BuildTime, float64(at.Bytes())/1e6, at.Keys(0), at.Keys(1), at.Keys(2), at.Entries(0), at.Entries(1), at.Entries(2),
			iw.BuildTime, float64(iw.Bytes())/1e6, iw.Occurrences, iw.PlacedInnerWords(), iw.ThesisHigh, iw.BlankHigh, iw.LowEntries(), iw.LowIndex(),
			float64(ms.HeapAlloc-heap0)/1e6)
	}
}

// BenchmarkIntervalSpeed times full move generation on the positions of
// greedy games with the full word lists (run it with -benchtime 1x;
// ATRIL_SPEED_GAMES games per language, default 4; ATRIL_SPEED_LANG one
// variant): gaddag, anagram, iwm sequential and with 2 workers,
// iwm-fast, and brute on every 10th position; it prints the mean times
// and the ratios, all from one run.
func BenchmarkIntervalSpeed(t *testing.B) {
	games := ivEnv("ATRIL_SPEED_GAMES", 4)
	for _, l := range ivLanguages {
		if only := os.Getenv("ATRIL_SPEED_LANG"); only != "" && only != l.variant {
			continue
		}
		_, lex := ivLexicon(t, l.variant, l.lexicon)
		per, err := multiset.Build(lex.Alphabet.Size(), lex)
		if err != nil {
			t.Fatal(err)
		}
		at, err := interval.BuildAnagram(lex, per, interval.AnagramOptions{})
		if err != nil {
			t.Fatal(err)
		}
		it, err := interval.BuildIWM(lex, per, interval.IWMOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gad := movegen.NewGaddag(lex)
		fast := *it
		fast.Adaptive, fast.Share = true, true
		gens := []movegen.Generator{gad, interval.NewAnagramFrom(at), interval.NewIWMFrom(it, 1), interval.NewIWMFrom(it, 2), interval.NewIWMFrom(&fast, 1)}
		names := []string{"gaddag", "anagram", "iwm", "iwm-2workers", "iwm-fast"}
		bs, rs, _ := ivPositions(t, l.lexicon, l.variant, lex, gad, games, 1<<30)
		count := 0
		sink := func(*move.Move) { count++ }
		total := make([]time.Duration, len(gens))
		var byBlank [3][5]time.Duration
		var nByBlank [3]int
		moves := make([]int, len(gens))
		var bruteT, gadSub time.Duration
		brute := movegen.NewBrute(lex)
		for i := range bs {
			for k, g := range gens {
				count = 0
				g.Generate(bs[i], &rs[i], sink) // warm
				const reps = 3
				t0 := time.Now()
				for r := 0; r < reps; r++ {
					g.Generate(bs[i], &rs[i], sink)
				}
				d := time.Since(t0) / reps
				total[k] += d
				if nb := rs[i][alphabet.Blank]; nb <= 2 {
					byBlank[nb][k] += d
					if k == 0 {
						nByBlank[nb]++
					}
				}
				moves[k] += count / (reps + 1)
				if k == 0 && i%10 == 0 {
					gadSub += d
				}
			}
			if i%10 == 0 {
				t0 := time.Now()
				brute.Generate(bs[i], &rs[i], sink)
				bruteT += time.Since(t0)
			}
		}
		for k := range gens {
			if moves[k] != moves[0] {
				t.Errorf("%s: %s found %d moves, gaddag %d", l.variant, names[k], moves[k], moves[0])
			}
		}
		n := time.Duration(len(bs))
		t.Logf("%s: %d positions of %d greedy games, %d moves; mean per position: gaddag %v, anagram %v, iwm %v, iwm 2 workers %v, iwm-fast %v; brute %v (every 10th position)",
			l.variant, len(bs), games, moves[0], total[0]/n, total[1]/n, total[2]/n, total[3]/n, total[4]/n, bruteT/((n+9)/10))
		for nb := range byBlank {
			if nByBlank[nb] > 0 {
				x := byBlank[nb]
				t.Logf("%s, %d positions with %d blanks: gaddag/anagram %.2f, gaddag/iwm %.2f, gaddag/iwm-fast %.2f, anagram/iwm %.2f, anagram/iwm-fast %.2f (gaddag %v per position)",
					l.variant, nByBlank[nb], nb, float64(x[0])/float64(x[1]), float64(x[0])/float64(x[2]), float64(x[0])/float64(x[4]),
					float64(x[1])/float64(x[2]), float64(x[1])/float64(x[4]), x[0]/time.Duration(nByBlank[nb]))
			}
		}
		t.Logf("%s ratios: gaddag/anagram %.2f, gaddag/iwm %.2f, gaddag/iwm-fast %.2f, anagram/iwm %.2f, anagram/iwm-fast %.2f, iwm/iwm-2workers %.2f, brute/gaddag %.1f, brute/anagram %.1f, brute/iwm %.1f",
			l.variant, float64(total[0])/float64(total[1]), float64(total[0])/float64(total[2]), float64(total[0])/float64(total[4]),
			float64(total[1])/float64(total[2]), float64(total[1])/float64(total[4]),
			float64(total[2])/float64(total[3]), float64(bruteT)/float64(gadSub),
			float64(bruteT)/float64(gadSub)*float64(total[0])/float64(total[1]), float64(bruteT)/float64(gadSub)*float64(total[0])/float64(total[2]))
	}
}
