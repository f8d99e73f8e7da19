package server

// Notification is one message in a seat's queue (seed 003: IdCliente,
// Empezar, TurnoDe, Ubicar, SumaPuntos, Reponer, Mal, and the exchange,
// pass and end-of-game messages). Type says which; the other fields are
// set as the type needs.
//
//	seat      you hold Seat (sent when a seat is taken)
//	started   the game began on a Size×Size board
//	turn      Seat is on turn
//	placed    Seat placed Tiles, written Move
//	points    Seat gained Points, now has Total
//	tiles     your new tiles (only to the seat that drew them)
//	rejected  your last request was refused for Reason (only to the sender)
//	exchange  Seat exchanged Count tiles
//	pass      Seat passed
//	over      the game ended: final Adjustments, Scores by seat, Winners
type Notification struct {
	Seq         int          `json:"seq"`
	Type        string       `json:"type"`
	Seat        *int         `json:"seat,omitempty"`
	Size        int          `json:"size,omitempty"`
	Move        string       `json:"move,omitempty"`
	Tiles       []Tile       `json:"tiles,omitempty"`
	Points      *int         `json:"points,omitempty"`
	Total       *int         `json:"total,omitempty"`
	Count       int          `json:"count,omitempty"`
	Reason      string       `json:"reason,omitempty"`
	Scores      []int        `json:"scores,omitempty"`
	Adjustments []Adjustment `json:"adjustments,omitempty"`
	Winners     []int        `json:"winners,omitempty"`
}

// Adjustment is a final change of score: a seat loses the value of the
// tiles left on its rack, and the seat that went out gains them.
type Adjustment struct {
	Seat   int    `json:"seat"`
	Points int    `json:"points"`
	Total  int    `json:"total"`
	Rack   string `json:"rack"`
}

// Tile is a tile in the API: on the board (Row, Col set) or on a rack.
// Letter is the letter as the variant writes it ("CH", "Ñ"), or "?" for an
// undesignated blank; Blank marks a blank (designated or not).
type Tile struct {
	Row    *int   `json:"row,omitempty"`
	Col    *int   `json:"col,omitempty"`
	Letter string `json:"letter"`
	Blank  bool   `json:"blank,omitempty"`
	Score  int    `json:"score"`
	// Move is, for a tile on the board in a state, the 0-based number of
	// the move that put it there.
	Move *int `json:"move,omitempty"`
}

func intp(i int) *int { return &i }

// maxQueue bounds a seat's queue: a client that never reads loses its
// oldest notifications (it can always rebuild from the game's state).
const maxQueue = 4096

// queue is a seat's notification queue.
type queue struct {
	next  int
	items []Notification
	// wake is closed (and replaced) whenever a notification is added.
	wake chan struct{}
}

func newQueue() *queue { return &queue{wake: make(chan struct{})} }

// push adds n, numbering it. The caller holds the game's lock.
func (q *queue) push(n Notification) {
	n.Seq = q.next
	q.next++
	if len(q.items) >= maxQueue {
		q.items = append(q.items[:0], q.items[1:]...)
	}
	q.items = append(q.items, n)
	close(q.wake)
	q.wake = make(chan struct{})
}

// drain takes every queued notification (seed 003 Consultar). The caller
// holds the game's lock.
func (q *queue) drain() []Notification {
	out := q.items
	q.items = nil
	if out == nil {
		out = []Notification{}
	}
	return out
}
