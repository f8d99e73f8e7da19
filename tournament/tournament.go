// Package tournament pairs the rounds of a tournament between players and
// ranks them, as word-game clubs run them: by games won, then by spread
// (points scored less points conceded over all games), with a bye worth a
// win by ByeSpread points, Swiss pairing (each player against the
// nearest-ranked player not met yet) or a round robin (every player
// against every other, by the circle method), and each game's first move
// given to the player who has moved first less often than second.
//
// Players are numbered 0 to n-1; the caller keeps their names. The
// package holds no state: every function works from the results of the
// rounds played so far.
package tournament

import (
	"cmp"
	"slices"
)

// Bye is the opponent of a player who sits a round out.
const Bye = -1

// ByeSpread is the spread a bye counts for, with a win: a win by 50
// points, the usual count of club and national tournaments. A forfeit
// counts the same, as a win for the player present and a loss by as
// many for the player absent.
const ByeSpread = 50

// Pairing is one game of a round: First moves first. Second is Bye when
// First sits the round out.
type Pairing struct {
	First, Second int
}

// Result is the outcome of a pairing: each player's share of the win (1
// for a win, ½ for a draw, 0 for a loss) and spread (their score less
// their opponent's), First's then Second's. Both players may lose, as
// when neither comes to the game. A bye's Second entries are unused.
type Result struct {
	Pairing
	Wins   [2]float64
	Spread [2]int
	// Unplayed is set for a game that was not played (a forfeit):
	// neither player moved first or second in it.
	Unplayed bool
}

// Played is the result of a game played to its end with these final
// scores: the higher score wins, equal scores draw.
func Played(p Pairing, first, second int) Result {
	r := Result{Pairing: p, Spread: [2]int{first - second, second - first}}
	switch {
	case first > second:
		r.Wins = [2]float64{1, 0}
	case first < second:
		r.Wins = [2]float64{0, 1}
	default:
		r.Wins = [2]float64{0.5, 0.5}
	}
	return r
}

// Forfeit is the result of a game that was not played: each player
// absent (firstAbsent, secondAbsent) loses by ByeSpread; a player present
// against an absent one wins by as much; two absent players both lose.
// A bye is Forfeit(p, false, true).
func Forfeit(p Pairing, firstAbsent, secondAbsent bool) Result {
	r := Result{Pairing: p, Unplayed: true}
	for i, absent := range [2]bool{firstAbsent, secondAbsent} {
		other := [2]bool{secondAbsent, firstAbsent}[i]
		switch {
		case absent:
			r.Spread[i] = -ByeSpread
		case other:
			r.Wins[i], r.Spread[i] = 1, ByeSpread
		}
	}
	return r
}

// Standing is a player's record over the rounds played.
type Standing struct {
	Player int
	Wins   float64 // shares of wins (a draw counts ½)
	Losses float64
	Spread int
	Games  int // byes included
	Firsts int // games in which the player moved first
	Byes   int
	// Unplayed counts the games forfeited by either side (byes apart),
	// in which nobody moved first.
	Unplayed int
	// LastFirst is set when the player moved first in its last game.
	LastFirst bool
}

// Standings ranks n players by the results of the rounds played: most
// wins first, then the larger spread, then the lower player number (the
// caller numbers its players in the order that should break the last
// ties, for example a seeded shuffle).
func Standings(n int, rounds [][]Result) []Standing {
	st := make([]Standing, n)
	for i := range st {
		st[i].Player = i
	}
	for _, round := range rounds {
		for _, r := range round {
			for side, p := range [2]int{r.First, r.Second} {
				if p == Bye || p < 0 || p >= n {
					continue
				}
				s := &st[p]
				s.Games++
				s.Wins += r.Wins[side]
				s.Losses += 1 - r.Wins[side]
				s.Spread += r.Spread[side]
				switch {
				case r.Second == Bye:
					s.Byes++
					s.LastFirst = false
				case r.Unplayed:
					// Who would have moved first did not: the last
					// game played still says who moved first last.
					s.Unplayed++
				case side == 0:
					s.Firsts++
					s.LastFirst = true
				default:
					s.LastFirst = false
				}
			}
		}
	}
	slices.SortStableFunc(st, func(a, b Standing) int {
		if c := cmp.Compare(b.Wins, a.Wins); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Spread, a.Spread); c != 0 {
			return c
		}
		return cmp.Compare(a.Player, b.Player)
	})
	return st
}

// meetings counts the games between each pair of players.
func meetings(n int, rounds [][]Result) [][]int {
	m := make([][]int, n)
	for i := range m {
		m[i] = make([]int, n)
	}
	for _, round := range rounds {
		for _, r := range round {
			a, b := r.First, r.Second
			if a >= 0 && a < n && b >= 0 && b < n {
				m[a][b]++
				m[b][a]++
			}
		}
	}
	return m
}

// balance is how many more games s moved first in than second.
func (s Standing) balance() int {
	return 2*s.Firsts - (s.Games - s.Byes - s.Unplayed)
}

// order returns the pairing of a and b with the player who should move
// first: the one who has moved first less often than second by more,
// then the one who moved second in its last game, then the lower-ranked
// one (b, when a ranks above b).
func order(a, b Standing) Pairing {
	switch {
	case a.balance() < b.balance():
		return Pairing{a.Player, b.Player}
	case b.balance() < a.balance():
		return Pairing{b.Player, a.Player}
	case a.LastFirst && !b.LastFirst:
		return Pairing{b.Player, a.Player}
	case b.LastFirst && !a.LastFirst:
		return Pairing{a.Player, b.Player}
	}
	return Pairing{b.Player, a.Player}
}

// maxSteps bounds the search for a Swiss pairing within one allowance of
// repeats before the allowance is raised.
const maxSteps = 200_000

// Swiss pairs the next round of n players after the rounds played. The
// players are taken in order of standing, and each is paired with the
// highest-ranked player below it that still lets the others be paired
// within an allowance of repeats (each earlier meeting of a pair counts
// one), searching back when a choice would leave players who cannot be:
// first with no repeat, then with the fewest repeats that make a
// pairing (allowances 1 to 8, then doubling; each search gives up after
// maxSteps tries and the allowance grows). With an odd number of
// players, the lowest-ranked player among those with the fewest byes
// sits the round out. The pairings come in order of standing, the bye
// last.
func Swiss(n int, rounds [][]Result) []Pairing {
	return SwissAmong(n, rounds, nil)
}

// SwissAmong is Swiss for the players of n who are still in the
// tournament: withdrawn[p] set means player p has withdrawn and is not
// paired (nil: nobody has). Their results still count in the standings
// of the others, and they stay in the meetings a repeat is counted from.
func SwissAmong(n int, rounds [][]Result, withdrawn []bool) []Pairing {
	st := Standings(n, rounds)
	if withdrawn != nil {
		st = slices.DeleteFunc(st, func(s Standing) bool { return s.Player < len(withdrawn) && withdrawn[s.Player] })
	}
	if len(st) < 2 {
		if len(st) == 1 {
			return []Pairing{{st[0].Player, Bye}}
		}
		return nil
	}
	met := meetings(n, rounds)
	var bye *Standing
	if len(st)%2 == 1 {
		fewest := st[0].Byes
		for _, s := range st {
			fewest = min(fewest, s.Byes)
		}
		for i := len(st) - 1; i >= 0; i-- {
			if st[i].Byes == fewest {
				b := st[i]
				bye = &b
				st = slices.Delete(slices.Clone(st), i, i+1)
				break
			}
		}
	}
	for allow := 0; ; allow = nextAllowance(allow) {
		partner := make([]int, len(st))
		for i := range partner {
			partner[i] = -1
		}
		steps := 0
		if pairFrom(st, met, partner, allow, &steps) {
			var out []Pairing
			for i, j := range partner {
				if i < j {
					out = append(out, order(st[i], st[j]))
				}
			}
			if bye != nil {
				out = append(out, Pairing{bye.Player, Bye})
			}
			return out
		}
	}
}

// nextAllowance is the allowance of repeats tried after allow: one more
// up to 8, then twice as many.
func nextAllowance(allow int) int {
	if allow < 8 {
		return allow + 1
	}
	return 2 * allow
}

// pairFrom pairs the unpaired players of st (by rank; partner[i] is i's
// partner's rank, -1 while unpaired), the first unpaired one with each
// candidate in turn, the earlier meetings of the pairs chosen adding up
// to allow at most. It gives up after maxSteps candidates tried.
func pairFrom(st []Standing, met [][]int, partner []int, allow int, steps *int) bool {
	i := slices.Index(partner, -1)
	if i < 0 {
		return true
	}
	for j := i + 1; j < len(st); j++ {
		cost := met[st[i].Player][st[j].Player]
		if partner[j] >= 0 || cost > allow {
			continue
		}
		if *steps++; *steps > maxSteps {
			return false
		}
		partner[i], partner[j] = j, i
		if pairFrom(st, met, partner, allow-cost, steps) {
			return true
		}
		partner[i], partner[j] = -1, -1
	}
	return false
}

// RoundRobinRounds is the number of rounds in which n players each meet
// every other once (one more with an odd number, where each sits one
// round out).
func RoundRobinRounds(n int) int {
	if n < 2 {
		return 0
	}
	return n - 1 + n%2
}

// RoundRobin pairs round k (from 0) of a round robin of n players, in
// which over RoundRobinRounds(n) rounds every pair meets once and each
// player moves first in half of its games (or one game more or less).
// With an odd number of players, round k pairs k−j with k+j (mod n) for
// each j from 1 to (n−1)/2, k+j moving first, and player k has the bye;
// with an even number, the last player meets player k of that schedule
// of the others, moving first in odd rounds. Later rounds repeat the
// cycle with who moves first swapped, so two cycles are a double round
// robin.
func RoundRobin(n, k int) []Pairing {
	if n < 2 {
		return Swiss(n, nil)
	}
	rounds := RoundRobinRounds(n)
	swap := (k/rounds)%2 == 1
	k %= rounds
	odd := n - 1 + n%2 // the players of the odd schedule
	var out []Pairing
	add := func(first, second int) {
		if swap && second != Bye {
			first, second = second, first
		}
		out = append(out, Pairing{first, second})
	}
	for j := 1; j <= (odd-1)/2; j++ {
		add((k+j)%odd, (k-j+odd)%odd)
	}
	switch {
	case n%2 == 1:
		add(k, Bye)
	case k%2 == 1:
		add(n-1, k)
	default:
		add(k, n-1)
	}
	return out
}
