// Package player holds the computer opponents. A player sees only what a
// person in its seat could see (View) and chooses a move.
package player

import (
	"atril/alphabet"
	"atril/board"
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
}

// Player chooses a move for a view of the game.
type Player interface {
	// Name is the player's level or kind, e.g. "professional".
	Name() string
	// Choose returns a placement, an exchange or a pass. The move's score
	// is set for placements.
	Choose(v *View) move.Move
}
