package selfplay

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"atril/lexicon"
	"atril/movegen"
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
// Both targets must find it: the next turn after keeping a leave, and
// every turn played from a rack holding it.
func TestLearnTinyVariant(t *testing.T) {
	for _, target := range []string{TargetKept, TargetRack} {
		cfg := tinySetup(t)
		cfg.Target = target
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
		if res.Games != 900 || res.Samples == 0 {
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
	for _, target := range []string{TargetKept, TargetRack} {
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
