package server

import (
	"encoding/json"
	"fmt"
)

// Notification is one message of a game's notification log (Guberman et
// al., section 3: IdCliente, Empezar, TurnoDe, Ubicar, SumaPuntos,
// Reponer, Mal, and the exchange, pass and end-of-game messages). Type says which; the other
// fields are set as the type needs.
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
//	lost      notifications up to Seq were dropped before this reader
//	          took them: read the game's state again
//
// Seq numbers the game's notifications in increasing order (with gaps: a
// seat sees only its share, and the numbers are derived from the game's
// log so that every server process gives a notification the same one).
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
	Game        string       `json:"game,omitempty"`
	Text        string       `json:"text,omitempty"`
	Scores      []int        `json:"scores,omitempty"`
	Adjustments []Adjustment `json:"adjustments,omitempty"`
	Winners     []int        `json:"winners,omitempty"`
	// Valid and Words are a challenge's outcome: whether the play stood,
	// and the words missing from the list that took it back.
	Valid bool     `json:"valid,omitempty"`
	Words []string `json:"words,omitempty"`
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

// Numbering. Position 1 of a game is its creation; position e+2 is event
// e of its log. The notifications a position causes are numbered
// position·seqStride + k (k < seqRejected), in the order they are made,
// so a server rebuilding the game from its log, or another process
// following it, numbers them alike. A refused request changes nothing and
// is not logged; its "rejected" notification takes one of the numbers
// position·seqStride + seqRejected + r of the latest position (after
// seqStride−seqRejected of them the next ones are not kept: the HTTP
// answer still says why).
const (
	seqStride   = 64
	seqRejected = 48
)

// DefaultLogBytes bounds the notifications a game keeps for its readers.
const DefaultLogBytes = 32 << 10

// logEntry is one notification as its JSON, for one seat or for all.
type logEntry struct {
	seq  int
	to   int // the seat it is for, or -1 for every seat
	data []byte
}

// notifLog is a game's notifications, oldest first, bounded in bytes:
// when it grows past its limit the oldest are dropped, and a reader that
// had not taken them gets a "lost" notification instead. Every seat sees
// the entries addressed to it or to all, so every connection of a seat
// gets every notification. The caller holds the game's lock.
type notifLog struct {
	entries []logEntry
	head    int // entries[:head] are dropped
	bytes   int
	limit   int
	latest  int // the highest number given, 0 before the first
	pos     int // the current position
	k, r    int // next numbers within the position
	// lostTo[s] is the highest number dropped that seat s could see.
	lostTo []int
	// drained[s] is how far seat s's queue (reads without a cursor)
	// has been taken.
	drained []int
	// wake is closed (and replaced) whenever an entry is added.
	wake chan struct{}
	// scratch is where an entry is encoded before it is copied.
	scratch []byte
}

func newNotifLog(seats, limit int) *notifLog {
	if limit <= 0 {
		limit = DefaultLogBytes
	}
	return &notifLog{limit: limit, pos: 1, lostTo: make([]int, seats), drained: make([]int, seats),
		wake: make(chan struct{})}
}

// at sets the position whose notifications come next.
func (g *notifLog) at(pos int) {
	if pos != g.pos {
		g.pos, g.k, g.r = pos, 0, 0
	}
}

// push adds a notification of the current position for seat to (-1: all).
func (g *notifLog) push(to int, n Notification) {
	if g.k >= seqRejected {
		// More notifications than any event makes: a bug, not input.
		panic(fmt.Sprintf("server: position %d made over %d notifications", g.pos, seqRejected))
	}
	n.Seq = g.pos*seqStride + g.k
	g.k++
	g.add(to, n)
}

// reject adds a "rejected" notification for seat to, if the position has
// room for one more.
func (g *notifLog) reject(to int, reason string) {
	if g.r >= seqStride-seqRejected {
		return
	}
	n := Notification{Seq: g.pos*seqStride + seqRejected + g.r, Type: "rejected", Seat: intp(to), Reason: reason}
	g.r++
	g.add(to, n)
}

func (g *notifLog) add(to int, n Notification) {
	g.scratch = n.appendJSON(g.scratch[:0])
	data := append([]byte(nil), g.scratch...)
	g.entries = append(g.entries, logEntry{seq: n.Seq, to: to, data: data})
	g.bytes += len(data)
	g.latest = max(g.latest, n.Seq)
	for g.bytes > g.limit && g.head < len(g.entries)-1 {
		e := &g.entries[g.head]
		g.bytes -= len(e.data)
		for s := range g.lostTo {
			if e.to < 0 || e.to == s {
				g.lostTo[s] = max(g.lostTo[s], e.seq)
			}
		}
		*e = logEntry{}
		g.head++
	}
	if g.head > 64 && g.head > len(g.entries)/2 {
		n := copy(g.entries, g.entries[g.head:])
		clear(g.entries[n:])
		g.entries, g.head = g.entries[:n], 0
	}
	close(g.wake)
	g.wake = make(chan struct{})
}

// wakeAll wakes every reader waiting on the log.
func (g *notifLog) wakeAll() {
	close(g.wake)
	g.wake = make(chan struct{})
}

// since returns the JSON of seat s's notifications numbered above after,
// preceded by a "lost" notification if some of them were dropped, and
// the number of the last one (after if none).
func (g *notifLog) since(s, after int) ([][]byte, int) {
	var out [][]byte
	last := after
	if g.lostTo[s] > after {
		data, _ := json.Marshal(Notification{Seq: g.lostTo[s], Type: "lost"})
		out = append(out, data)
		last = g.lostTo[s]
	}
	// Entries are in increasing order: find the first above after.
	lo, hi := g.head, len(g.entries)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if g.entries[m].seq <= after {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for _, e := range g.entries[lo:] {
		if e.to < 0 || e.to == s {
			out = append(out, e.data)
			last = e.seq
		}
	}
	return out, last
}

// drain takes seat s's queue: what it has not yet taken through a read
// without a cursor (Consultar in Guberman et al., section 3).
func (g *notifLog) drain(s int) [][]byte {
	out, last := g.since(s, g.drained[s])
	g.drained[s] = last
	return out
}

// jsonArray joins encoded JSON values into one array.
func jsonArray(items [][]byte) []byte {
	n := 2
	for _, it := range items {
		n += len(it) + 1
	}
	buf := make([]byte, 0, n)
	buf = append(buf, '[')
	for i, it := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, it...)
	}
	return append(buf, ']')
}
