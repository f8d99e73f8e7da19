package puzzle

import (
	"fmt"
	"hash/fnv"
	"slices"

	"atril/endgame"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/variant"
)

// Endgame puzzles: positions of the computer's games with the bag empty,
// where the tiles the player on turn has not seen are exactly the
// opponent's rack, and the move to find is the one that ends the game
// best (the most spread gained to the end, both sides playing their
// best), which is not the highest-scoring play.
//
// Endgame puzzle n of a word list is the same wherever it is made: its
// game is played from a seed made of the list's name and n by the
// inhuman player on both seats until the bag is empty; the position is
// the first from there, turn by turn, that the search solves exactly
// within EndgameNodes nodes and where the best move gains at least
// MinGain points more than the highest-scoring play (another game when
// that one has none).

// Bounds of an endgame puzzle's position.
const (
	// EndgameNodes bounds each search made for an endgame puzzle: the
	// position's and that of the highest-scoring play's value must end
	// within it, exact, for the position to be taken. An answer's value
	// needs one search of the same size at most.
	EndgameNodes = 200_000
	// MinGain is how much more spread the best move must gain than the
	// highest-scoring play.
	MinGain = 3
	// minTiles is the fewest tiles the player on turn may hold.
	minTiles = 3
)

// Endgame is an endgame puzzle made: the position (the player on turn
// solves it), what the best move gains to the end and the line of play
// that gains it, and the highest-scoring placement with what it gains.
type Endgame struct {
	Lexicon string
	Number  int
	Game    *game.Game
	// Value is the spread the player on turn gains from here to the end
	// with best play on both sides; Line is a line of play that gains
	// it, the best move first.
	Value int
	Line  []move.Move
	// Top is the highest-scoring placement, and TopValue the spread it
	// gains to the end.
	Top      move.Move
	TopValue int
}

// Options are the search bounds of an endgame puzzle's searches, for
// MoveValue's callers to value an answer by.
func (e *Endgame) Options() endgame.Options { return endgame.Options{NodeLimit: EndgameNodes} }

// MoveValue is the spread move m of the player on turn gains to the end
// (its exactness, when false, says the search stopped at its bound
// first). m must be legal in the position.
func (e *Endgame) MoveValue(gen movegen.Generator, m move.Move) (int, bool) {
	g := e.Game
	me := g.Current()
	return endgame.MoveValue(gen, g.Board, g.Seats[me].Rack, g.Seats[1-me].Rack, g.LastWasPass(), m, e.Options())
}

// MakeEndgame plays the games of endgame puzzle n of word list lex
// (named lexName) until one has a position fit for it. gen lists the
// moves, drives the players and the searches; it is used by the calling
// goroutine only (a GADDAG cuts the word list to the tiles left, which
// makes the searches much faster).
func MakeEndgame(v *variant.Variant, lex *lexicon.Lexicon, lexName string, n int, gen movegen.Generator) (*Endgame, error) {
	if n < 1 || n > Max {
		return nil, fmt.Errorf("endgame puzzle: numbers go from 1 to %d, not %d", Max, n)
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "atril endgame %s %d", lexName, n)
	seed := h.Sum64()
	for attempt := range uint64(games) {
		gs := seed + attempt*0x9e3779b97f4a7c15
		e, err := endgameOf(v, lex, gs, gen)
		if err != nil {
			return nil, fmt.Errorf("endgame puzzle %s %d, game %d: %w", lexName, n, attempt, err)
		}
		if e != nil {
			e.Lexicon, e.Number = lexName, n
			return e, nil
		}
	}
	return nil, fmt.Errorf("endgame puzzle %s %d: no position found in %d games", lexName, n, games)
}

// endgameOf plays the game of seed and returns its first endgame fit
// for a puzzle, or nil for none.
func endgameOf(v *variant.Variant, lex *lexicon.Lexicon, seed uint64, gen movegen.Generator) (*Endgame, error) {
	g, err := game.New(v, lex, []string{"1", "2"}, seed)
	if err != nil {
		return nil, err
	}
	var bots [2]player.Player
	for i := range bots {
		if bots[i], err = player.New("inhuman", player.Options{Variant: v, Lexicon: lex, Generator: gen, Seed: seed + uint64(i)}); err != nil {
			return nil, err
		}
	}
	for !g.Over() {
		i := g.Current()
		m := bots[i].Choose(player.ViewOf(g, i))
		if g.BagLen() == 0 && g.Seats[i].Rack.Len() >= minTiles {
			e, best := endgamePosition(g, gen)
			if e != nil {
				return e, nil
			}
			if best != nil {
				// Solved, but the top score is right: the game goes
				// on with the best move.
				m = *best
			}
		}
		if err := g.Play(m); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// endgamePosition returns the puzzle of g's position (the bag empty),
// or nil when the position is not fit for one; then, when the search
// solved the position, its best move too.
func endgamePosition(g *game.Game, gen movegen.Generator) (*Endgame, *move.Move) {
	if len(g.Seats) != 2 {
		return nil, nil
	}
	i := g.Current()
	me, opp := g.Seats[i].Rack, g.Seats[1-i].Rack
	e := &Endgame{Game: g}
	res := endgame.Solve(gen, g.Board, me, opp, g.LastWasPass(), e.Options())
	if !res.Exact {
		return nil, nil
	}
	found := false
	gen.Generate(g.Board, &me, func(m *move.Move) {
		if m.Kind == move.Place && (!found || m.Score > e.Top.Score) {
			e.Top, found = *m, true
			e.Top.Tiles = slices.Clone(m.Tiles)
		}
	})
	if !found || e.Top.Key() == res.Move.Key() {
		return nil, &res.Move
	}
	topValue, exact := e.MoveValue(gen, e.Top)
	if !exact || topValue > res.Value-MinGain {
		return nil, &res.Move
	}
	e.Value, e.Line, e.TopValue = res.Value, res.PV, topValue
	return e, nil
}
