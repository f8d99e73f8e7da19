package player

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"atril/alphabet"
	"atril/game"
	"atril/move"
	"atril/player/leave"
)

// inferCase is a placement inhuman chose, as another player sees it:
// the view before it with the played tiles as the rack, the pool the
// rest of the rack comes from, and the leave it really kept.
type inferCase struct {
	v    View
	m    move.Move
	pool alphabet.Rack
	kept alphabet.Rack
}

// inferCases plays inhuman self-play games and collects its placements
// with tiles in the bag, seen from the other seat.
func inferCases(t *testing.T, games int) []inferCase {
	t.Helper()
	v, lex := small(t)
	table, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []inferCase
	for seed := uint64(1); seed <= uint64(games); seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		p := newPlayer(t, "inhuman", quick(v, lex, seed))
		for !g.Over() {
			seat := g.Current()
			view := ViewOf(g, seat)
			m := p.Choose(view)
			if m.Kind == move.Place && g.BagLen() > 0 {
				c := inferCase{v: *ViewOf(g, seat), m: m, kept: m.Kept(g.Seats[seat].Rack)}
				var played alphabet.Rack
				for _, tl := range m.Tiles {
					if tl != move.PlayThrough {
						played.Add(tl)
					}
				}
				c.v.Rack = played
				// What the other seat cannot see: its unseen tiles, less
				// the tiles played.
				c.pool = g.Unseen(1 - seat)
				for _, tl := range played.Tiles() {
					c.pool.Remove(tl)
				}
				c.v.Unseen = c.pool
				out = append(out, c)
				if len(out)%5 == 0 {
					// InferFrom takes the same view from the game.
					a, err := Infer(smallGen, &c.v, m, c.pool, c.kept.Len(), table, InferOptions{MaxExact: 50, Samples: 50, Seed: 3})
					held := g.Seats[1-seat].Rack
					b, err2 := InferFrom(smallGen, g, m, 1-seat, nil, table, InferOptions{MaxExact: 50, Samples: 50, Seed: 3})
					c, err3 := InferFrom(smallGen, g, m, 1-seat, &held, table, InferOptions{MaxExact: 50, Samples: 50, Seed: 3})
					if err3 != nil || !reflect.DeepEqual(b, c) {
						t.Errorf("InferFrom with the rack held given differs: %v", err3)
					}
					if err != nil || err2 != nil || !reflect.DeepEqual(a, b) {
						t.Errorf("InferFrom differs: %v %v\n%+v\n%+v", err, err2, a, b)
					}
				}
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestInferKeepsTheTruth checks on inhuman's own placements that the
// leave it kept is always among those the inference finds consistent
// (with Tau 0 at that: inhuman plays the best by its own values), that
// the chances are chances, and that the priors are the draw's odds.
func TestInferKeepsTheTruth(t *testing.T) {
	v, _ := small(t)
	table, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	cases := inferCases(t, 3)
	if len(cases) < 20 {
		t.Fatalf("%d placements", len(cases))
	}
	exact := 0
	for i, c := range cases {
		k := c.kept.Len()
		inf, err := Infer(smallGen, &c.v, c.m, c.pool, k, table, InferOptions{Tau: -1, MaxExact: 400, Samples: 200, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		if inf.Exact {
			exact++
			// Exact: the true leave was weighed, and it must be consistent.
			if inf.Consistent <= 0 {
				t.Errorf("case %d (%s, kept %v): nothing consistent", i, c.m.String(c.v.Board), c.kept)
			}
		}
		for _, lo := range inf.Letters {
			if lo.Held < 0 || lo.Held > 1+1e-9 || lo.Prior < 0 || lo.Prior > 1+1e-9 {
				t.Errorf("case %d: odds out of range: %+v", i, lo)
			}
			if inf.Tried > 0 {
				// By the draw alone, exactly, whether the leaves were
				// enumerated or sampled: 1 − C(N−n, k)/C(N, k).
				n, total := int(c.pool[lo.Tile]), c.pool.Len()
				want := 1 - binomial(total-n, k)/binomial(total, k)
				if math.Abs(lo.Prior-want) > 1e-9 {
					t.Errorf("case %d: prior of %v %.6f, want %.6f", i, lo.Tile, lo.Prior, want)
				}
				if math.Abs(lo.PriorN-float64(k*n)/float64(total)) > 1e-9 {
					t.Errorf("case %d: expected count of %v %.6f, want %.6f", i, lo.Tile, lo.PriorN, float64(k*n)/float64(total))
				}
			}
		}
		sum := 0.0
		for _, l := range inf.Leaves {
			sum += l.Share
			if l.Leave.Len() != k {
				t.Errorf("case %d: a leave of %d tiles, want %d", i, l.Leave.Len(), k)
			}
		}
		if sum > 1+1e-9 {
			t.Errorf("case %d: leaves' shares sum to %f", i, sum)
		}
		// The weigher itself on the true leave, whatever was sampled.
		w := &inferWeigher{gen: smallGen, v: c.v, m: c.m, played: c.v.Rack, t: table, tau: 0, res: &Inference{}, leaves: map[alphabet.Rack]float64{}}
		w.heldW, w.meanW = make([]float64, len(c.pool)), make([]float64, len(c.pool))
		w.sl = newStaticLeave(&w.v, table)
		kept := c.kept
		w.weigh(&kept, 1)
		if w.consistent != 1 {
			t.Errorf("case %d: %s with %v kept is not consistent with itself", i, c.m.String(c.v.Board), c.kept)
		}
	}
	if exact == 0 || exact == len(cases) {
		t.Errorf("%d of %d inferences exact: want both kinds", exact, len(cases))
	}
}

// TestInferSamplingAgrees checks that sampling estimates the exact
// answer: on placements whose leaves are few enough to weigh one by one,
// 4,000 draws give every letter's chance within 0.06 of the
// enumeration's.
func TestInferSamplingAgrees(t *testing.T) {
	v, _ := small(t)
	table, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range inferCases(t, 3) {
		k := c.kept.Len()
		if k == 0 || checked == 3 {
			continue
		}
		exact, err := Infer(smallGen, &c.v, c.m, c.pool, k, table, InferOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !exact.Exact || exact.Consistent < 0.2 {
			continue // too many leaves, or too few consistent draws to estimate well
		}
		sampled, err := Infer(smallGen, &c.v, c.m, c.pool, k, table, InferOptions{MaxExact: 1, Samples: 4000, Seed: 7})
		if err != nil || sampled.Exact || sampled.Tried != 4000 {
			t.Fatalf("sampled: %v exact %v tried %d", err, sampled.Exact, sampled.Tried)
		}
		if math.Abs(exact.Consistent-sampled.Consistent) > 0.05 {
			t.Errorf("%s: consistent %.3f exact, %.3f sampled", c.m.String(c.v.Board), exact.Consistent, sampled.Consistent)
		}
		for j, lo := range exact.Letters {
			if s := sampled.Letters[j]; s.Tile != lo.Tile || math.Abs(s.Held-lo.Held) > 0.06 {
				t.Errorf("%s: %v held %.3f exact, %v %.3f sampled", c.m.String(c.v.Board), lo.Tile, lo.Held, s.Tile, s.Held)
			}
		}
		checked++
	}
	if checked < 2 {
		t.Errorf("only %d placements checked", checked)
	}
}

// TestInferRefuses checks the requests Infer turns down, and that a
// deadline in the past stops it at once.
func TestInferRefuses(t *testing.T) {
	v, _ := small(t)
	table, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	c := inferCases(t, 1)[0]
	empty := c.v
	empty.BagLen = 0
	for _, tc := range []struct {
		what string
		v    *View
		m    move.Move
		kept int
		t    leave.Evaluator
	}{
		{"an exchange", &c.v, move.Move{Kind: move.Exchange}, 3, table},
		{"the bag empty", &empty, c.m, 3, table},
		{"more kept than unseen", &c.v, c.m, c.pool.Len() + 1, table},
		{"no table", &c.v, c.m, 3, nil},
	} {
		if _, err := Infer(smallGen, tc.v, tc.m, c.pool, tc.kept, tc.t, InferOptions{}); err == nil {
			t.Errorf("%s: no error", tc.what)
		}
	}
	inf, err := Infer(smallGen, &c.v, c.m, c.pool, 5, table, InferOptions{MaxExact: 1, Deadline: time.Now().Add(-time.Second)})
	if err != nil || inf.Tried > 64 {
		t.Errorf("past deadline: %v, %d tried", err, inf.Tried)
	}
}

// TestDrawInferred checks the racks an inferring simulation draws: each
// draw orders every unseen tile once, a leave of the distribution first,
// each leave as often as its share.
func TestDrawInferred(t *testing.T) {
	unseen := []alphabet.Tile{1, 1, 2, 3, 4, 5, 5, 0}
	dist := []LeaveOdds{{Leave: alphabet.RackOf([]alphabet.Tile{1, 5}), Share: 0.25}, {Leave: alphabet.RackOf([]alphabet.Tile{0, 3}), Share: 0.75}}
	rng := rand.New(rand.NewPCG(1, 2))
	counts := map[alphabet.Rack]int{}
	const n = 8000
	for range n {
		sh := drawInferred(unseen, dist, rng)
		if got, want := alphabet.RackOf(sh), alphabet.RackOf(unseen); got != want {
			t.Fatalf("draw %v is not the unseen tiles %v", sh, unseen)
		}
		counts[alphabet.RackOf(sh[:2])]++
	}
	for _, d := range dist {
		if got := float64(counts[d.Leave]) / n; math.Abs(got-d.Share) > 0.02 {
			t.Errorf("leave %v drawn %.3f of the time, want %.2f", d.Leave, got, d.Share)
		}
	}
	if len(counts) != 2 {
		t.Errorf("leaves drawn: %v", counts)
	}
}

// TestSimulationInfers checks the inferring simulation on inhuman's
// games: the view carries the opponent's last placement, the inference
// from it weighs leaves of the tiles kept drawn from the unseen ones
// (shares summing to 1, the leave really kept among them), and the
// player's choice is legal and the same on a second run.
func TestSimulationInfers(t *testing.T) {
	v, lex := small(t)
	table, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(v, lex, []string{"a", "b"}, 11)
	if err != nil {
		t.Fatal(err)
	}
	p := newPlayer(t, "inhuman", quick(v, lex, 1))
	checked, exact := 0, 0
	for turn := 0; !g.Over() && checked < 3; turn++ {
		seat := g.Current()
		view := ViewOf(g, seat)
		if last := view.Last; last != nil && last.BagLen > 0 && turn > 2 {
			prev := g.History[len(g.History)-1]
			if last.Seat != 1-seat || last.RackLen != prev.Rack.Len() || last.Move.Score != prev.Move.Score {
				t.Fatalf("turn %d: last move %+v, history %+v", turn, last, prev)
			}
			kept, _ := prev.Kept()
			inf := inferLast(smallGen, view, table, 3000, 5, time.Time{})
			if inf == nil {
				t.Fatalf("turn %d: nothing inferred", turn)
			}
			dist := inf.All
			sum, found := 0.0, false
			for _, d := range dist {
				sum += d.Share
				found = found || d.Leave == kept
				if d.Leave.Len() != kept.Len() || !view.Unseen.Contains(&d.Leave) {
					t.Errorf("turn %d: leave %v of %d tiles, unseen %v", turn, d.Leave, kept.Len(), view.Unseen)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("turn %d: shares sum to %f", turn, sum)
			}
			if inf.Exact {
				exact++
			}
			if inf.Exact && !found {
				// Every leave was weighed: the one kept (inhuman's own
				// choice) must be there.
				t.Errorf("turn %d: the leave kept %v is not among the %d inferred", turn, kept, len(dist))
			}
			o := quick(v, lex, 3)
			o.Infer, o.InferLeaves = true, 300
			var moves [2]move.Move
			for k := range moves {
				moves[k] = newPlayer(t, "simulation", o).Choose(ViewOf(g, seat))
			}
			if err := g.Check(&moves[0]); err != nil || moves[0].String(g.Board) != moves[1].String(g.Board) {
				t.Errorf("turn %d: the inferring simulation played %s then %s (%v)", turn, moves[0].String(g.Board), moves[1].String(g.Board), err)
			}
			checked++
		}
		if err := g.Play(p.Choose(view)); err != nil {
			t.Fatal(err)
		}
	}
	if checked < 3 || exact == 0 {
		t.Errorf("%d positions checked, %d inferred exactly", checked, exact)
	}
}
