// Package player holds the computer opponents. A player sees only what a
// person in its seat could see (View) and chooses a move.
package player

import (
	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
)

// View is the game as one player sees it: no other rack, no bag order.
type View struct {
	Board *board.Board
	Rack  alphabet.Rack
	// Scores of all players, by seat; Me is this player's seat.
	Scores []int
	Me     int
	// Unseen is every tile not on the board and not on this rack: the
	// bag and the other racks together.
	Unseen alphabet.Rack
	// BagLen is the number of tiles in the bag.
	BagLen int
	// ScorelessTurns is the current run of consecutive scoreless turns.
	ScorelessTurns int
	// LastWasPass tells whether the previous turn was a pass (under the
	// two-passes rule a pass now would end the game).
	LastWasPass bool
	// Last is the placement another player made on the turn just before
	// this one, as everyone saw it (nil: none), for rack inference.
	Last *LastMove
}

// LastMove is a placement as every player saw it: the move, its
// player's seat, and how many tiles its rack and the bag held before it.
type LastMove struct {
	Move            move.Move
	Seat            int
	RackLen, BagLen int
}

// Player chooses a move for a view of the game.
type Player interface {
	// Name is the player's level or kind, e.g. "professional".
	Name() string
	// Choose returns a placement, an exchange or a pass. The move's score
	// is set for placements.
	Choose(v *View) move.Move
}

// ViewOf builds seat's view of a game: its own rack, the board, the
// scores, the unseen tiles (bag and other racks as one count), the bag's
// size and the run of scoreless turns. Nothing hidden goes in. The board
// is a copy, so a player may place and remove tiles on it freely.
func ViewOf(g *game.Game, seat int) *View {
	return ViewInto(nil, g, seat)
}

// ViewInto is ViewOf that fills v, reusing its board's, scores' and
// last move's storage (v nil: a new View). A caller that asks for a view
// every turn and keeps none past the player's Choose saves a board's
// allocation a turn.
func ViewInto(v *View, g *game.Game, seat int) *View {
	if v == nil {
		v = &View{}
	}
	last := v.Last
	*v = View{
		Board:          g.Board.CopyTo(v.Board),
		Rack:           g.Seats[seat].Rack,
		Scores:         v.Scores[:0],
		Me:             seat,
		Unseen:         g.Unseen(seat),
		BagLen:         g.BagLen(),
		ScorelessTurns: g.ScorelessTurns(),
	}
	for _, p := range g.Seats {
		v.Scores = append(v.Scores, p.Score)
	}
	v.LastWasPass = g.LastWasPass()
	if n := len(g.History); n > 0 {
		if h := &g.History[n-1]; h.Kind == game.Played && h.Move.Kind == move.Place && h.Player != seat {
			if last == nil {
				last = &LastMove{}
			}
			*last = LastMove{Move: h.Move, Seat: h.Player, RackLen: h.Rack.Len(), BagLen: g.BagLen() + len(h.Drawn)}
			v.Last = last
		}
	}
	return v
}
