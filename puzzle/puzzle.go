// Package puzzle makes the puzzles of the server's page and of the
// command line: positions of the computer's own games in which to find
// the highest-scoring play.
//
// Puzzle n of a word list is the same wherever it is made: its game is
// played from a seed made of the list's name and n by the inhuman player
// on both seats, and the position is the first from a turn the seed
// picks (3 to 12) where the bag still holds a full rack and the best of
// at least MinMoves placements scores at least MinBest (another game
// when that one has none). Puzzle numbers count days: number 1 is
// 1 January 2026 (UTC), so today's puzzle is the day's number.
package puzzle

import (
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/variant"
)

// Bounds of a puzzle's position, and how many of its best placements a
// Puzzle keeps.
const (
	MinBest  = 30
	MinMoves = 20
	Shown    = 5
	// Max is the highest puzzle number.
	Max = 1_000_000
	// games bounds the games played in search of a position.
	games = 100
)

// epoch is the day of puzzle 1.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Today is the number of the puzzle of the day of t (UTC).
func Today(t time.Time) int { return int(t.UTC().Sub(epoch)/(24*time.Hour)) + 1 }

// Puzzle is a puzzle made: the position (a game before the move of the
// player on turn, who solves it), every placement's score there, highest
// first, and the best Shown placements.
type Puzzle struct {
	Lexicon string
	Number  int
	Game    *game.Game
	Scores  []int
	Best    []move.Move
}

// Make plays the games of puzzle n of word list lex (named lexName)
// until one has a position fit for it. gen lists the moves and drives
// the players; it is used by the calling goroutine only.
func Make(v *variant.Variant, lex *lexicon.Lexicon, lexName string, n int, gen movegen.Generator) (*Puzzle, error) {
	if n < 1 || n > Max {
		return nil, fmt.Errorf("puzzle: numbers go from 1 to %d, not %d", Max, n)
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "atril puzzle %s %d", lexName, n)
	p, err := makeFrom(v, lex, h.Sum64(), gen)
	if err != nil {
		return nil, fmt.Errorf("puzzle %s %d: %w", lexName, n, err)
	}
	p.Lexicon, p.Number = lexName, n
	return p, nil
}

// Rush makes puzzle k (from 0) of the rush of word list lex (named
// lexName) dealt from seed: a series of its own, apart from the
// numbered puzzles, the same wherever it is made. Its Number is k+1.
func Rush(v *variant.Variant, lex *lexicon.Lexicon, lexName string, seed uint64, k int, gen movegen.Generator) (*Puzzle, error) {
	if k < 0 || k >= Max {
		return nil, fmt.Errorf("puzzle: a rush's puzzles go from 0 to %d, not %d", Max-1, k)
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "atril rush %s %d %d", lexName, seed, k)
	p, err := makeFrom(v, lex, h.Sum64(), gen)
	if err != nil {
		return nil, fmt.Errorf("rush puzzle %s %d/%d: %w", lexName, seed, k, err)
	}
	p.Lexicon, p.Number = lexName, k+1
	return p, nil
}

// RushRanks are the ranks, among a position's distinct placement
// scores, of the score a rush's puzzles ask for, by puzzle from the
// first: the first ones ask for one of the better plays, and from
// len(RushRanks) on every puzzle asks for the top score.
var RushRanks = []int{8, 8, 5, 5, 3, 3, 2, 2}

// RushTarget is the score a play must reach to solve the puzzle as
// puzzle k (from 0) of a rush: the RushRanks[k]-th highest distinct
// score of the position (the lowest one when it has fewer), the top
// score from len(RushRanks) on.
func (p *Puzzle) RushTarget(k int) int {
	rank := 1
	if k >= 0 && k < len(RushRanks) {
		rank = RushRanks[k]
	}
	target, seen := p.Scores[0], 1
	for _, sc := range p.Scores[1:] {
		if seen == rank {
			break
		}
		if sc != target {
			target, seen = sc, seen+1
		}
	}
	return target
}

// makeFrom plays the games of the puzzle dealt from seed until one has
// a position fit for it.
func makeFrom(v *variant.Variant, lex *lexicon.Lexicon, seed uint64, gen movegen.Generator) (*Puzzle, error) {
	from := 3 + int(seed%10)
	for attempt := range uint64(games) {
		gs := seed + attempt*0x9e3779b97f4a7c15
		g, err := game.New(v, lex, []string{"1", "2"}, gs)
		if err != nil {
			return nil, err
		}
		var bots [2]player.Player
		for i := range bots {
			if bots[i], err = player.New("inhuman", player.Options{Variant: v, Lexicon: lex, Generator: gen, Seed: gs + uint64(i)}); err != nil {
				return nil, err
			}
		}
		for !g.Over() && g.BagLen() >= v.RackSize {
			i := g.Current()
			if g.MovesPlayed() >= from && g.Seats[i].Rack.Len() == v.RackSize {
				if p := position(g, gen); p != nil {
					return p, nil
				}
			}
			if err := g.Play(bots[i].Choose(player.ViewOf(g, i))); err != nil {
				return nil, fmt.Errorf("game %d: %w", attempt, err)
			}
		}
	}
	return nil, fmt.Errorf("no position found in %d games", games)
}

// position returns the puzzle of g's position for the player on turn,
// or nil when the position is not fit for one.
func position(g *game.Game, gen movegen.Generator) *Puzzle {
	var scores []int
	var best []move.Move
	gen.Generate(g.Board, &g.Seats[g.Current()].Rack, func(m *move.Move) {
		if m.Kind != move.Place {
			return
		}
		scores = append(scores, m.Score)
		if len(best) < Shown || m.Score > best[len(best)-1].Score {
			c := *m
			c.Tiles = slices.Clone(m.Tiles)
			best = append(best, c)
			slices.SortStableFunc(best, func(a, b move.Move) int { return b.Score - a.Score })
			best = best[:min(len(best), Shown)]
		}
	})
	if len(scores) < MinMoves || best[0].Score < MinBest {
		return nil
	}
	slices.SortFunc(scores, func(a, b int) int { return b - a })
	return &Puzzle{Game: g, Scores: scores, Best: best}
}

// Rank is the rank by score of a placement scoring score: one more than
// the placements that score more (ties share a rank).
func (p *Puzzle) Rank(score int) int {
	k := slices.IndexFunc(p.Scores, func(sc int) bool { return sc <= score })
	if k < 0 {
		k = len(p.Scores)
	}
	return k + 1
}
