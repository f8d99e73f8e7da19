package selfplay

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"atril/game"
	"atril/lexicon"
	"atril/match"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/player/leave"
	"atril/variant"
)

// tiny is a 7×7 game with racks of 3: A, B and T make words, Z makes
// none, so a Z kept on the rack can never be played.
const tiny = `{"name":"tiny","board_size":7,"rack_size":3,"bingo_bonus":0,
	"tiles":[{"tile":"A","count":8,"score":1},{"tile":"B","count":4,"score":3},{"tile":"T","count":6,"score":1},{"tile":"Z","count":3,"score":2}]}`

func tinySetup(t *testing.T) Config {
	t.Helper()
	v, err := variant.Parse([]byte(tiny), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	lex, err := lexicon.FromWords(v.Alphabet, "AT", "TA", "AB", "BA", "BAT", "TAB", "ABA", "BAA", "TAT", "TATA", "ABBA", "BABA")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := movegen.New("gaddag", lex)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := leave.NewIndex(v)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Variant: v, Lexicon: lex, Generator: gen, Name: "tiny learnt",
		Games: 300, Iterations: 3, Threads: 2, Seed: 5, Chunk: 100,
		From: leave.FromEvaluator("zero", v.Name, ix, nil)}
}

func value(t *testing.T, tb *leave.Exhaustive, rack string) float64 {
	t.Helper()
	v, _ := variant.Parse([]byte(tiny), "tiny")
	r, err := v.Alphabet.ParseRack(rack)
	if err != nil {
		t.Fatal(err)
	}
	return tb.Eval(&r)
}

// TestLearnTinyVariant learns from a table of zeros. A Z can never be
// played, so keeping one leaves two useful tiles instead of three, and
// keeping two leaves one: ZZ must come out as the worst leave of all,
// and Z clearly below A and B, the letters of most words. (T is not
// checked: with racks of three on a small board, a kept T often finds
// no room, and the learnt value of T is close to that of Z.)
//
// All three targets must find it: the next turn after keeping a leave, and
// every turn played from a rack holding it.
func TestLearnTinyVariant(t *testing.T) {
	for _, target := range []string{TargetKept, TargetRack, TargetDraw} {
		cfg := tinySetup(t)
		cfg.Target = target
		if target == TargetDraw {
			// It credits fewer leaves per turn: play more games.
			cfg.Games = 600
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		z := value(t, res.Table, "Z")
		for _, l := range []string{"A", "B"} {
			if x := value(t, res.Table, l); x < z+2 {
				t.Errorf("target %s: %s = %.2f, not clearly above Z = %.2f", target, l, x, z)
			}
		}
		_, worst := res.Table.Extremes(1, nil)
		if worst[0].Leave != "ZZ" {
			t.Errorf("target %s: worst leave %s %.2f, want ZZ", target, worst[0].Leave, worst[0].Value)
		}
		if res.Games != cfg.Games*cfg.Iterations || res.Samples == 0 {
			t.Errorf("target %s: games %d, samples %d", target, res.Games, res.Samples)
		}
	}
	cfg := tinySetup(t)
	cfg.Target = "board"
	if _, err := Run(cfg); err == nil {
		t.Error("unknown target accepted")
	}
}

// TestResumeGivesSameTable stops a run after some chunks (in the middle
// of an iteration and at an iteration's end), resumes it from the
// checkpoint with another number of threads, and compares the result
// with an uninterrupted run.
func TestResumeGivesSameTable(t *testing.T) {
	for _, target := range []string{TargetKept, TargetRack, TargetDraw} {
		t.Run(target, func(t *testing.T) { testResume(t, target) })
	}
}

func testResume(t *testing.T, target string) {
	cfg := tinySetup(t)
	cfg.Target = target
	cfg.Iterations = 2
	whole, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, stop := range []int{2, 3} {
		c := cfg
		c.Checkpoint = filepath.Join(t.TempDir(), "ckpt")
		c.StopAfter = stop
		if _, err := Run(c); !errors.Is(err, ErrStopped) {
			t.Fatalf("stop after %d: %v", stop, err)
		}
		c.StopAfter = 0
		c.Threads = 1
		res, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Resumed {
			t.Errorf("stop after %d: not resumed", stop)
		}
		var a, b bytes.Buffer
		whole.Table.WriteTo(&a)
		res.Table.WriteTo(&b)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("stop after %d: resumed table differs from the uninterrupted one", stop)
		}
		c.Seed++
		if _, err := Run(c); err == nil {
			t.Errorf("checkpoint accepted with another seed")
		}
	}
}

// TestRackObservationsHeld plays tiny games and checks the whole-rack
// observations with held tiles against the game records: each is the
// observation without them, and holds the empty leave on a player's
// first turn and otherwise the leave the player's previous turn kept;
// turns after a pass, which drew nothing, are left out.
func TestRackObservationsHeld(t *testing.T) {
	cfg := tinySetup(t)
	ix, err := leave.NewIndex(cfg.Variant)
	if err != nil {
		t.Fatal(err)
	}
	checked, skipped := 0, 0
	o := player.Options{LeaveTable: cfg.From}
	mc := match.Config{Variant: cfg.Variant, Lexicon: cfg.Lexicon, Generator: cfg.Generator,
		Players: [2]string{"inhuman", "inhuman"}, Options: [2]player.Options{o, o}, Games: 40, Seed: 9, Threads: 1,
		Observe: func(_ int, g *game.Game) {
			plain := RackObservations(g, ix, false)
			held := RackObservations(g, ix, true)
			var want []uint32 // the held leave of each plain observation, or a miss
			last := map[int]int{}
			for i := range g.History {
				tr := &g.History[i]
				prev, moved := last[tr.Player]
				last[tr.Player] = i
				if tr.Kind != game.Played || tr.Rack.Len() != cfg.Variant.RackSize || len(tr.Drawn) == 0 || tr.Move.Kind == move.Pass {
					continue
				}
				switch {
				case !moved:
					want = append(want, 0)
				default:
					k, ok := g.History[prev].Kept()
					r, ranked := ix.Rank(&k)
					if !ok || !ranked {
						want = append(want, leave.NoNext)
						continue
					}
					want = append(want, uint32(r))
				}
			}
			if len(want) != len(plain) {
				t.Fatalf("%d turns from a full rack, %d observations", len(want), len(plain))
			}
			j := 0
			for i, p := range plain {
				if want[i] == leave.NoNext {
					skipped++
					continue
				}
				if j >= len(held) {
					t.Fatalf("observation %d missing with held tiles", i)
				}
				h := held[j]
				j++
				if h.Held != want[i] {
					t.Errorf("observation %d: held %d, the previous turn kept %d", i, h.Held, want[i])
				}
				h.Held = 0
				if h != p {
					t.Errorf("observation %d: %+v with held tiles, %+v without", i, h, p)
				}
				checked++
			}
			if j != len(held) {
				t.Errorf("%d observations with held tiles, %d expected", len(held), j)
			}
		}}
	if _, err := match.Run(mc); err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Errorf("only %d observations checked (%d skipped)", checked, skipped)
	}
}
