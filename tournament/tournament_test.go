package tournament

import (
	"math/rand/v2"
	"testing"
)

func TestPlayedAndForfeit(t *testing.T) {
	p := Pairing{3, 5}
	for _, c := range []struct {
		name   string
		r      Result
		wins   [2]float64
		spread [2]int
	}{
		{"first wins", Played(p, 420, 380), [2]float64{1, 0}, [2]int{40, -40}},
		{"second wins", Played(p, 300, 401), [2]float64{0, 1}, [2]int{-101, 101}},
		{"draw", Played(p, 350, 350), [2]float64{0.5, 0.5}, [2]int{0, 0}},
		{"second absent", Forfeit(p, false, true), [2]float64{1, 0}, [2]int{ByeSpread, -ByeSpread}},
		{"first absent", Forfeit(p, true, false), [2]float64{0, 1}, [2]int{-ByeSpread, ByeSpread}},
		{"both absent", Forfeit(p, true, true), [2]float64{0, 0}, [2]int{-ByeSpread, -ByeSpread}},
	} {
		if c.r.Wins != c.wins || c.r.Spread != c.spread || c.r.Pairing != p {
			t.Errorf("%s: got %+v, want wins %v spread %v", c.name, c.r, c.wins, c.spread)
		}
	}
}

func TestStandings(t *testing.T) {
	rounds := [][]Result{
		{Played(Pairing{0, 1}, 400, 350), Played(Pairing{2, 3}, 300, 300), Forfeit(Pairing{4, Bye}, false, true)},
		{Played(Pairing{1, 4}, 500, 320), Played(Pairing{3, 0}, 410, 400), Forfeit(Pairing{2, Bye}, false, true)},
	}
	st := Standings(5, rounds)
	want := []struct {
		player       int
		wins, losses float64
		spread       int
		firsts, byes int
	}{
		{1, 1, 1, 130, 1, 0},    // lost by 50, won by 180
		{2, 1.5, 0.5, 50, 1, 1}, // draw, bye
		{3, 1.5, 0.5, 10, 1, 0}, // draw, won by 10
		{0, 1, 1, 40, 1, 0},     // won by 50, lost by 10
		{4, 1, 1, -130, 0, 1},   // bye, lost by 180
	}
	// Ranked: 2 (1.5, +50), 3 (1.5, +10), 1 (1, +130), 0 (1, +40), 4 (1, −130).
	order := []int{2, 3, 1, 0, 4}
	for i, s := range st {
		if s.Player != order[i] {
			t.Fatalf("rank %d: player %d, want %d (standings %+v)", i, s.Player, order[i], st)
		}
	}
	for _, w := range want {
		for _, s := range st {
			if s.Player != w.player {
				continue
			}
			if s.Wins != w.wins || s.Losses != w.losses || s.Spread != w.spread || s.Firsts != w.firsts || s.Byes != w.byes || s.Games != 2 {
				t.Errorf("player %d: %+v, want %+v", w.player, s, w)
			}
		}
	}
}

// play plays a round with random scores.
func play(rng *rand.Rand, ps []Pairing) []Result {
	var out []Result
	for _, p := range ps {
		if p.Second == Bye {
			out = append(out, Forfeit(p, false, true))
			continue
		}
		out = append(out, Played(p, 300+rng.IntN(200), 300+rng.IntN(200)))
	}
	return out
}

// checkRound fails unless every player of n has exactly one game (or the
// bye) in ps, but those withdrawn (gone[p]; nil: none), who have none,
// and there is a bye only when an odd number of players are in.
func checkRound(t *testing.T, n int, ps []Pairing, gone []bool) {
	t.Helper()
	seen := make([]int, n)
	byes := 0
	for _, p := range ps {
		if p.First < 0 || p.First >= n || p.Second < Bye || p.Second >= n || p.First == p.Second {
			t.Fatalf("bad pairing %+v of %d players", p, n)
		}
		seen[p.First]++
		if p.Second == Bye {
			byes++
		} else {
			seen[p.Second]++
		}
	}
	in := 0
	for i, c := range seen {
		want := 1
		if gone != nil && gone[i] {
			want = 0
		}
		in += want
		if c != want {
			t.Fatalf("player %d (withdrawn: %v) plays %d games in %+v", i, want == 0, c, ps)
		}
	}
	if byes != in%2 {
		t.Fatalf("%d byes for %d players: %+v", byes, in, ps)
	}
}

// fewestRepeats is the fewest earlier meetings a pairing of the players
// free can have, by trying every pairing.
func fewestRepeats(free []int, met [][]int) int {
	if len(free) == 0 {
		return 0
	}
	best := -1
	a := free[0]
	for k := 1; k < len(free); k++ {
		rest := append(append([]int{}, free[1:k]...), free[k+1:]...)
		if c := met[a][free[k]] + fewestRepeats(rest, met); best < 0 || c < best {
			best = c
		}
	}
	return best
}

func TestSwiss(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 14; n++ {
		for trial := 0; trial < 20; trial++ {
			var rounds [][]Result
			for r := 0; r < n+2; r++ {
				ps := Swiss(n, rounds)
				checkRound(t, n, ps, nil)
				// No more repeats than the fewest a pairing can have (the
				// bye player as Swiss chose it).
				met := meetings(n, rounds)
				var free []int
				repeats := 0
				for _, p := range ps {
					if p.Second == Bye {
						continue
					}
					free = append(free, p.First, p.Second)
					repeats += met[p.First][p.Second]
				}
				if n <= 10 {
					if least := fewestRepeats(free, met); repeats != least {
						t.Fatalf("n=%d round %d: %d repeats where %d would do: %+v", n, r, repeats, least, ps)
					}
				}
				rounds = append(rounds, play(rng, ps))
			}
			// Byes go round: nobody has a second before everyone has one.
			if n%2 == 1 {
				st := Standings(n, rounds)
				lo, hi := st[0].Byes, st[0].Byes
				for _, s := range st {
					lo, hi = min(lo, s.Byes), max(hi, s.Byes)
				}
				if hi-lo > 1 {
					t.Fatalf("n=%d: byes from %d to %d", n, lo, hi)
				}
			}
		}
	}
}

// TestSwissAmong withdraws players at random between rounds: a withdrawn
// player is never paired again, every other player has exactly one game
// or the bye, and there is a bye only when an odd number remain.
func TestSwissAmong(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 2; n <= 12; n++ {
		for trial := 0; trial < 20; trial++ {
			gone := make([]bool, n)
			var rounds [][]Result
			for r := 0; r < 8; r++ {
				ps := SwissAmong(n, rounds, gone)
				checkRound(t, n, ps, gone)
				rounds = append(rounds, play(rng, ps))
				if k := rng.IntN(n); rng.IntN(3) == 0 {
					gone[k] = true
				}
			}
		}
	}
	// Five players, the one with the bye in round 1 withdraws: the four
	// left are paired with no bye, and nobody else sits out.
	r1 := [][]Result{play(rand.New(rand.NewPCG(1, 1)), Swiss(5, nil))}
	var byePlayer int
	for _, p := range r1[0] {
		if p.Second == Bye {
			byePlayer = p.First
		}
	}
	gone := make([]bool, 5)
	gone[byePlayer] = true
	for _, p := range SwissAmong(5, r1, gone) {
		if p.Second == Bye || p.First == byePlayer || p.Second == byePlayer {
			t.Errorf("round 2 after player %d withdrew: %+v", byePlayer, p)
		}
	}
}

func TestSwissPairsNeighbours(t *testing.T) {
	// After one round, the winners meet each other, highest first, and
	// the bye goes to the lowest-ranked player.
	rounds := [][]Result{{
		Played(Pairing{0, 1}, 500, 300), // 0 +200
		Played(Pairing{2, 3}, 400, 350), // 2 +50
		Played(Pairing{4, 5}, 380, 400), // 5 +20
		Played(Pairing{6, 7}, 300, 410), // 7 +110
		Forfeit(Pairing{8, Bye}, false, true),
	}}
	// Standings: 0 (+200), 7 (+110), 2 (+50), 8 (+50, bye), 5 (+20), 4
	// (−20), 3 (−50), 6 (−110), 1 (−200); 5 and 4 have met, so 5 meets 3
	// and 4 meets 6.
	got := Swiss(9, rounds)
	want := map[[2]int]bool{{0, 7}: true, {2, 8}: true, {3, 5}: true, {4, 6}: true}
	for _, p := range got {
		if p.Second == Bye {
			if p.First != 1 {
				t.Errorf("bye to %d, want 1 (the lowest ranked): %+v", p.First, got)
			}
			continue
		}
		if !want[[2]int{min(p.First, p.Second), max(p.First, p.Second)}] {
			t.Errorf("pairing %+v not among %v (all: %+v)", p, want, got)
		}
	}
	// Who moves first: the one who moved second in round 1.
	for _, p := range got {
		if p.First == 0 || p.First == 2 {
			t.Errorf("%d moved first in round 1 and again in round 2: %+v", p.First, got)
		}
	}
}

func TestRoundRobin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 2; n <= 13; n++ {
		var rounds [][]Result
		met := map[[2]int]int{}
		for k := 0; k < RoundRobinRounds(n); k++ {
			ps := RoundRobin(n, k)
			checkRound(t, n, ps, nil)
			for _, p := range ps {
				if p.Second != Bye {
					met[[2]int{min(p.First, p.Second), max(p.First, p.Second)}]++
				}
			}
			rounds = append(rounds, play(rng, ps))
		}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if met[[2]int{a, b}] != 1 {
					t.Fatalf("n=%d: %d and %d meet %d times", n, a, b, met[[2]int{a, b}])
				}
			}
		}
		for _, s := range Standings(n, rounds) {
			if s.Byes != n%2 {
				t.Fatalf("n=%d: player %d has %d byes", n, s.Player, s.Byes)
			}
			// Firsts and seconds as even as they can be.
			if seconds := s.Games - s.Byes - s.Firsts; s.Firsts-seconds > 1 || seconds-s.Firsts > 1 {
				t.Errorf("n=%d: player %d moved first %d times and second %d", n, s.Player, s.Firsts, seconds)
			}
		}
	}
}

// TestForfeitMovesNobodyFirst: a forfeited game counts in the standings
// but not as moving first or second, so who moves first next is decided
// by the games played: here player 1, whose only game was a forfeit,
// moves second against player 3, who has moved second once, where
// counting the forfeit as moving second would have tied them and put
// the lower-ranked player 1 first.
func TestForfeitMovesNobodyFirst(t *testing.T) {
	rounds := [][]Result{
		{Forfeit(Pairing{0, 1}, false, true), Played(Pairing{2, 3}, 400, 300)},
	}
	st := Standings(4, rounds)
	by := map[int]Standing{}
	for _, s := range st {
		by[s.Player] = s
	}
	if s := by[0]; s.Firsts != 0 || s.Unplayed != 1 || s.Games != 1 || s.LastFirst {
		t.Errorf("player 0 (present at a forfeit, listed first): %+v", s)
	}
	if s := by[2]; s.Firsts != 1 || s.Unplayed != 0 || !s.LastFirst {
		t.Errorf("player 2 (moved first): %+v", s)
	}
	if got, want := order(by[1], by[3]), (Pairing{3, 1}); got != want {
		t.Errorf("order(1, 3) = %v, want %v", got, want)
	}
	// A forfeit leaves who moved first last as the game before it said.
	rounds = append(rounds, []Result{Forfeit(Pairing{3, 2}, true, false)})
	if s := Standings(4, rounds); func() bool {
		for _, x := range s {
			if x.Player == 2 {
				return !x.LastFirst || x.Unplayed != 1 || x.Firsts != 1
			}
		}
		return true
	}() {
		t.Errorf("player 2 after a forfeit: %+v", s)
	}
}
