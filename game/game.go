// Package game plays a game as the game module of Guberman et al.
// (section 2; see doc/REFERENCES.md) describes it: K players (2 to 4), a
// seeded bag, racks, turns with placements, exchanges and passes, the end
// of the game and the final adjustment, and a history of every turn.
package game

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/variant"
)

// Seat is a place at the game: the name of whoever sits there (a person
// or a computer level, see package player), the rack and the score.
type Seat struct {
	Name  string
	Rack  alphabet.Rack
	Score int
}

// TurnKind says what a history entry records.
type TurnKind uint8

const (
	// Played is a move (placement, exchange or pass).
	Played TurnKind = iota
	// OutBonus is the points a player who went out gains from another
	// player's rack.
	OutBonus
	// RackPenalty is the value of the tiles left on a player's rack,
	// lost at the end.
	RackPenalty
	// TimePenalty is the points a player loses at the end for the time
	// they took past their clock's allowance (Rack: the rack they were
	// left with).
	TimePenalty
)

// Turn is one entry of the history.
type Turn struct {
	Kind   TurnKind
	Player int
	// Rack is the player's rack before the move (for OutBonus: the rack
	// of the player whose tiles are counted).
	Rack alphabet.Rack
	Move move.Move
	// Notation is the move as written for the board it was played on.
	Notation string
	// Points gained (negative for a penalty) and the player's total after.
	Points int
	Total  int
	// Drawn lists the tiles drawn after the move.
	Drawn []alphabet.Tile
}

// Kept returns the tiles a placement or exchange left on the rack, and
// whether the draw after it made up every tile used (false when the bag
// ran short, and for anything but a placement or exchange).
func (t *Turn) Kept() (alphabet.Rack, bool) {
	if t.Kind != Played || (t.Move.Kind != move.Place && t.Move.Kind != move.Exchange) {
		return alphabet.Rack{}, false
	}
	if t.Move.Kind == move.Place {
		return t.Move.Kept(t.Rack), len(t.Drawn) == t.Move.NewTiles()
	}
	left := t.Rack
	for _, x := range t.Move.Exchanged {
		left.Remove(x)
	}
	return left, len(t.Drawn) == len(t.Move.Exchanged)
}

// Game is the state of a game.
type Game struct {
	Variant *variant.Variant
	Lex     *lexicon.Lexicon
	Board   *board.Board
	// Seats holds the seats in turn order.
	Seats   []Seat
	History []Turn
	Seed    uint64

	bag     []alphabet.Tile
	rng     *rand.Rand
	current int
	// scoreless counts consecutive scoreless turns; passes consecutive passes.
	scoreless, passes int
	over              bool
	// moves counts Played turns (the turn number stamped on tiles).
	moves int
	// resigned is the player who resigned (-1: nobody); timedOut the
	// player who lost on time (-1: nobody); aborted is set when the game
	// was called off before its first move.
	resigned, timedOut int
	aborted            bool
}

// ErrGameOver is returned for a move after the end of the game.
var ErrGameOver = errors.New("the game is over")

// New starts a game for the named players with a bag shuffled by seed.
// Each player draws a full rack in seat order.
func New(v *variant.Variant, lex *lexicon.Lexicon, names []string, seed uint64) (*Game, error) {
	if len(names) < 2 || len(names) > 4 {
		return nil, fmt.Errorf("game: %d players; 2 to 4 can play", len(names))
	}
	g := &Game{Variant: v, Lex: lex, Board: board.New(v, lex), Seed: seed, resigned: -1, timedOut: -1,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	// The bag is filled in an order that depends on the letters alone, not
	// on their tile codes, so a variant file that lists its tiles in
	// another order deals the same letters from the same seed.
	for _, t := range append([]alphabet.Tile{alphabet.Blank}, v.Alphabet.Collated()...) {
		for i := 0; i < v.Counts[t]; i++ {
			g.bag = append(g.bag, t)
		}
	}
	if len(g.bag) < len(names)*v.RackSize {
		return nil, fmt.Errorf("game: %d tiles are too few for %d racks of %d", len(g.bag), len(names), v.RackSize)
	}
	g.rng.Shuffle(len(g.bag), func(i, j int) { g.bag[i], g.bag[j] = g.bag[j], g.bag[i] })
	for _, n := range names {
		g.Seats = append(g.Seats, Seat{Name: n})
	}
	for i := range g.Seats {
		g.draw(i)
	}
	return g, nil
}

// draw fills player i's rack from the bag and returns the tiles drawn.
func (g *Game) draw(i int) []alphabet.Tile {
	var drawn []alphabet.Tile
	p := &g.Seats[i]
	for p.Rack.Len() < g.Variant.RackSize && len(g.bag) > 0 {
		t := g.bag[len(g.bag)-1]
		g.bag = g.bag[:len(g.bag)-1]
		p.Rack.Add(t)
		drawn = append(drawn, t)
	}
	return drawn
}

// Current is the index of the player on turn.
func (g *Game) Current() int { return g.current }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.over }

// BagLen is the number of tiles in the bag.
func (g *Game) BagLen() int { return len(g.bag) }

// MovesPlayed is the number of moves (placements, exchanges, passes) made.
func (g *Game) MovesPlayed() int { return g.moves }

// ScorelessTurns is the number of consecutive scoreless turns so far.
func (g *Game) ScorelessTurns() int { return g.scoreless }

// Unseen returns the tiles player i cannot see: the bag and the other
// racks together, as a rack-shaped count.
func (g *Game) Unseen(i int) alphabet.Rack {
	var u alphabet.Rack
	for _, t := range g.bag {
		u.Add(t)
	}
	for j := range g.Seats {
		if j == i {
			continue
		}
		u.AddRack(&g.Seats[j].Rack)
	}
	return u
}

// Check validates a move for the player on turn without playing it, and
// sets its score.
func (g *Game) Check(m *move.Move) error {
	if g.over {
		return ErrGameOver
	}
	return move.Validate(g.Board, &g.Seats[g.current].Rack, m, len(g.bag))
}

// Play validates and plays a move for the player on turn.
func (g *Game) Play(m move.Move) error {
	if err := g.Check(&m); err != nil {
		return err
	}
	m.Tiles = append([]alphabet.Tile(nil), m.Tiles...)
	m.Exchanged = append([]alphabet.Tile(nil), m.Exchanged...)
	i := g.current
	p := &g.Seats[i]
	t := Turn{Kind: Played, Player: i, Rack: p.Rack, Move: m, Notation: m.String(g.Board), Points: m.Score}
	switch m.Kind {
	case move.Place:
		squares, tiles := m.Placed()
		for _, tl := range tiles {
			p.Rack.Remove(tl)
		}
		g.Board.Place(squares, tiles, g.moves)
		g.Board.Commit() // a game's moves are not taken back
		p.Score += m.Score
		t.Drawn = g.draw(i)
	case move.Exchange:
		for _, tl := range m.Exchanged {
			p.Rack.Remove(tl)
		}
		t.Drawn = g.draw(i)
		g.bag = append(g.bag, m.Exchanged...)
		g.rng.Shuffle(len(g.bag), func(a, b int) { g.bag[a], g.bag[b] = g.bag[b], g.bag[a] })
	}
	t.Total = p.Score
	g.History = append(g.History, t)
	g.moves++
	if m.Kind == move.Pass {
		g.passes++
	} else {
		g.passes = 0
	}
	if m.Score == 0 {
		g.scoreless++
	} else {
		g.scoreless = 0
	}
	switch {
	case m.Kind == move.Place && p.Rack.Len() == 0 && len(g.bag) == 0:
		g.finish(i)
	case g.Variant.ScorelessTurns > 0 && g.scoreless >= g.Variant.ScorelessTurns:
		g.finish(-1)
	case g.Variant.PassingRounds > 0 && g.passes >= g.Variant.PassingRounds*len(g.Seats):
		g.finish(-1)
	default:
		g.current = (g.current + 1) % len(g.Seats)
	}
	return nil
}

// RackValue is the sum of the scores of the tiles on a rack.
func (g *Game) RackValue(r *alphabet.Rack) int {
	return r.Value(g.Variant.Scores)
}

// finish ends the game: every player loses the value of their rack, and
// the player who went out (out ≥ 0) gains the value of every other rack.
func (g *Game) finish(out int) {
	g.over = true
	for j := range g.Seats {
		if j == out {
			continue
		}
		val := g.RackValue(&g.Seats[j].Rack)
		if out >= 0 {
			g.Seats[out].Score += val
			g.History = append(g.History, Turn{Kind: OutBonus, Player: out, Rack: g.Seats[j].Rack,
				Points: val, Total: g.Seats[out].Score})
		}
		g.Seats[j].Score -= val
		g.History = append(g.History, Turn{Kind: RackPenalty, Player: j, Rack: g.Seats[j].Rack,
			Points: -val, Total: g.Seats[j].Score})
	}
}

// Winners returns the indexes of the players with the highest score. A
// player who resigned or lost on time does not win, whatever the score,
// and a game called off before its first move has no winner.
func (g *Game) Winners() []int {
	if g.aborted {
		return nil
	}
	best, any := 0, false
	for i, p := range g.Seats {
		if !g.lost(i) && (!any || p.Score > best) {
			best, any = p.Score, true
		}
	}
	var w []int
	for i, p := range g.Seats {
		if !g.lost(i) && p.Score == best {
			w = append(w, i)
		}
	}
	return w
}

// Resign ends the game by player i's resignation: the scores stay as
// they are, no rack is counted, and the highest score among the other
// players wins (in a game of two, the opponent). Any player may resign
// at any time before the end, on turn or not.
func (g *Game) Resign(i int) error { return g.forfeit(i, &g.resigned, "resigns") }

// forfeit ends the game by player i's loss (a resignation, a loss on
// time), recorded in *who.
func (g *Game) forfeit(i int, who *int, what string) error {
	if g.over {
		return ErrGameOver
	}
	if i < 0 || i >= len(g.Seats) {
		return fmt.Errorf("game: player %d %s, but the game has players 0 to %d", i, what, len(g.Seats)-1)
	}
	g.over, *who = true, i
	return nil
}

// Resigned is the player who resigned, or -1.
func (g *Game) Resigned() int { return g.resigned }

// lost reports whether player i lost by resigning or on time.
func (g *Game) lost(i int) bool { return i == g.resigned || i == g.timedOut }

// TimeOut ends the game because player i ran out of time (their clock's
// allowance and the most overtime the game allows): as with a
// resignation, the scores stay as they are, no rack is counted and the
// highest score among the other players wins. Time penalties
// (PenalizeTime) may follow.
func (g *Game) TimeOut(i int) error { return g.forfeit(i, &g.timedOut, "runs out of time") }

// TimedOut is the player who lost on time, or -1.
func (g *Game) TimedOut() int { return g.timedOut }

// PenalizeTime takes points off player i's score, once the game is over,
// for the time they took past their clock's allowance (the tournament
// rule: 10 points for each minute or part of a minute over). The
// history records it as a TimePenalty after the end-of-game adjustments.
func (g *Game) PenalizeTime(i, points int) error {
	switch {
	case !g.over:
		return errors.New("game: a time penalty comes after the end of the game")
	case g.aborted:
		return errors.New("game: a game called off has no time penalty")
	case i < 0 || i >= len(g.Seats):
		return fmt.Errorf("game: time penalty for player %d, but the game has players 0 to %d", i, len(g.Seats)-1)
	case points <= 0:
		return fmt.Errorf("game: time penalty of %d points: a penalty takes points off", points)
	}
	p := &g.Seats[i]
	p.Score -= points
	g.History = append(g.History, Turn{Kind: TimePenalty, Player: i, Rack: p.Rack, Points: -points, Total: p.Score})
	return nil
}

// Abort calls the game off before its first move: it ends with no
// winner. Once a move has been made, a player can only resign.
func (g *Game) Abort() error {
	if g.over {
		return ErrGameOver
	}
	if g.moves > 0 {
		return fmt.Errorf("game: %d moves made; a game can be called off only before the first", g.moves)
	}
	g.over, g.aborted = true, true
	return nil
}

// Aborted reports whether the game was called off before its first move.
func (g *Game) Aborted() bool { return g.aborted }

// SetRack replaces the rack of player i with the given tiles, returning
// the old tiles to the bag and taking the new ones from it. It is used to
// replay recorded games whose racks are known.
func (g *Game) SetRack(i int, r alphabet.Rack) error {
	var pool alphabet.Rack
	for _, t := range g.bag {
		pool.Add(t)
	}
	pool.AddRack(&g.Seats[i].Rack)
	if !pool.Contains(&r) {
		return fmt.Errorf("rack %s: not enough of these tiles left in the bag", g.Variant.Alphabet.RackString(&r))
	}
	// Rebuild the bag as pool minus r, keeping the existing bag order
	// where possible: return the old rack, then remove r's tiles.
	g.bag = append(g.bag, g.Seats[i].Rack.Tiles()...)
	need := r
	kept := g.bag[:0]
	for _, t := range g.bag {
		if need[t] > 0 {
			need[t]--
			continue
		}
		kept = append(kept, t)
	}
	g.bag = kept
	g.Seats[i].Rack = r
	return nil
}

// SetCurrent makes player i the one on turn (for loading positions).
func (g *Game) SetCurrent(i int) { g.current = i }

// Bag returns a copy of the bag's tiles, in draw order from the end. It
// is hidden information: only tests, storage and replay may use it.
func (g *Game) Bag() []alphabet.Tile { return append([]alphabet.Tile(nil), g.bag...) }
