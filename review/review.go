// Package review values the moves of a finished game by static equity:
// before each move, every placement, exchange and pass its player could
// have made, ranked by score plus the value of the tiles kept (a leave
// table's; with the bag empty, minus the tiles kept, or plus twice the
// opponents' tiles for going out), with the played move's value and
// rank; and for each player, how many of their moves were the best and
// how much equity the others gave up. The game server's analysis and
// summary and `atril analyze --gcg` are made by it.
package review

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/movegen"
	"atril/player/leave"
)

// Move is a move of a finished game: the move, the index of its entry in
// the game's history, and whether a challenge took it back.
type Move struct {
	Move      move.Move
	At        int
	Withdrawn bool
}

// Record is a finished game's history with its moves, to be stepped
// through again in a game started as the recorded one was.
type Record struct {
	History []game.Turn
	Moves   []Move
	// Recorded deals each mover the rack the history records
	// (game.DealRecorded) before their move: for a game read from a file,
	// whose bag order is not its seed's.
	Recorded bool
}

// NewRecord lists the moves of a finished game's history.
func NewRecord(hist []game.Turn, recorded bool) *Record {
	r := &Record{History: hist, Recorded: recorded}
	for k, h := range hist {
		switch h.Kind {
		case game.Played:
			r.Moves = append(r.Moves, Move{Move: h.Move, At: k})
		case game.Withdrawn:
			if len(r.Moves) > 0 {
				r.Moves[len(r.Moves)-1].Withdrawn = true
			}
		}
	}
	return r
}

// HeldAt returns the rack seat held when move k was made: the rack its
// own next move records (a player's rack changes only by its own moves),
// and false when it made no move from then on.
func (r *Record) HeldAt(seat, k int) (alphabet.Rack, bool) {
	if k < 0 || k >= len(r.Moves) {
		return alphabet.Rack{}, false
	}
	for _, h := range r.History[r.Moves[k].At:] {
		if h.Kind == game.Played && h.Player == seat {
			return h.Rack, true
		}
	}
	return alphabet.Rack{}, false
}

// Follow applies history entry t to g, a game started as the recorded
// one was and stepped to that entry.
func (r *Record) Follow(g *game.Game, t *game.Turn) error {
	if err := r.Deal(g, t); err != nil {
		return err
	}
	return g.Follow(t)
}

// Deal prepares g for history entry t: a recorded game's draws are not
// g's, so each move's rack is dealt as the entry says; other games deal
// their own.
func (r *Record) Deal(g *game.Game, t *game.Turn) error {
	if r.Recorded {
		return g.DealRecorded(t)
	}
	return nil
}

// Advance steps g, stepped so far to history entry at, to the position
// before move k (0-based, at most one past the moves already followed:
// at is at most Moves[k].At), with the mover's rack dealt, and returns
// the entry it stopped at, from which the next Advance goes on.
func (r *Record) Advance(g *game.Game, at, k int) (int, error) {
	if k < 0 || k >= len(r.Moves) {
		return at, fmt.Errorf("review: move %d: the game has moves 0 to %d", k, len(r.Moves)-1)
	}
	m := &r.Moves[k]
	if at > m.At {
		return at, fmt.Errorf("review: move %d is behind the position reached (entry %d)", k, at)
	}
	for ; at < m.At; at++ {
		if err := r.Follow(g, &r.History[at]); err != nil {
			return at, fmt.Errorf("review: replay entry %d: %w", at, err)
		}
	}
	if err := r.Deal(g, &r.History[at]); err != nil {
		return at, fmt.Errorf("review: deal move %d: %w", k, err)
	}
	return at, nil
}

// Candidate is a move with its static equity.
type Candidate struct {
	Move move.Move
	// Text is the move as written: a placement's notation, "-" and the
	// tiles of an exchange, "-" for a pass.
	Text string
	// Kept is what the move leaves on the rack.
	Kept   alphabet.Rack
	Equity float64
	// Withdrawn marks a played placement that a challenge took back: it
	// scored nothing and kept the rack, and is valued as the pass it
	// amounted to.
	Withdrawn bool
	// Word is the main word's tiles, the board's included (blanks as
	// designated): set for the bingos of a ranking only.
	Word []alphabet.Tile
}

// Ranking is what a position offered its player, and what they played.
type Ranking struct {
	Seat int
	Rack alphabet.Rack
	Bag  int
	// Best holds the n best moves by equity (ties by score).
	Best   []Candidate
	Played Candidate
	// Rank is the played move's place among all moves (1: the best), or
	// 0 when the generator does not list it (a phony, or a withdrawn
	// placement).
	Rank int
	// Moves is the number of moves valued (placements, exchanges and the
	// pass).
	Moves int
	// Bingos holds the best placements that play the whole rack, by
	// equity (ties by score), at most MaxBingos.
	Bingos []Candidate
}

// MaxBingos bounds the bingos a ranking lists.
const MaxBingos = 5

// Bingo reports whether c is a placement that plays a whole rack of
// rackSize tiles.
func (c *Candidate) Bingo(rackSize int) bool {
	return c.Move.Kind == move.Place && c.Move.NewTiles() == rackSize
}

// Lost is the equity the played move gave up against the best, rounded
// to a hundredth of a point (0 when it was the best).
func (r *Ranking) Lost() float64 {
	return math.Round(max(0, r.Best[0].Equity-r.Played.Equity)*100) / 100
}

// Ranker values positions with a move generator and a leave table.
// A Ranker is used by one goroutine at a time (its generator's rule).
type Ranker struct {
	Gen movegen.Generator
	// Leave values the tiles kept while the bag holds tiles; nil values
	// them at zero.
	Leave leave.Evaluator
	all   []Candidate
}

// Rank values every move of the player on turn in g and returns the best
// n (at least one: the pass is always there) and the played move's
// value and rank. g is left as it was.
func (rk *Ranker) Rank(g *game.Game, played Move, n int) (*Ranking, error) {
	v := g.Variant
	seat := g.Current()
	rack := g.Seats[seat].Rack
	bag := g.BagLen()
	pm := played.Move
	if err := g.Check(&pm); err != nil {
		return nil, fmt.Errorf("review: the played move does not validate: %w", err)
	}
	var oppTiles alphabet.Rack
	if bag == 0 {
		oppTiles = g.Unseen(seat)
	}
	rackValue := func(r *alphabet.Rack) float64 { return float64(r.Value(v.Scores)) }
	equity := func(m *move.Move, kept *alphabet.Rack) float64 {
		e := float64(m.Score)
		switch {
		case bag == 0 && m.Kind == move.Place && kept.Len() == 0:
			e += 2 * rackValue(&oppTiles)
		case bag == 0:
			e -= rackValue(kept)
		case rk.Leave != nil:
			e += rk.Leave.Eval(kept)
		}
		return e
	}
	text := func(m *move.Move) string { return Text(g.Board, m) }
	all := rk.all[:0]
	add := func(m move.Move) {
		kept := m.Kept(rack)
		all = append(all, Candidate{Move: m, Kept: kept, Equity: equity(&m, &kept)})
	}
	rk.Gen.Generate(g.Board, &rack, func(m *move.Move) { add(movegen.Clone(m)) })
	if bag >= v.ExchangeMinBag {
		rack.SubRacks(func(keep *alphabet.Rack) {
			var out []alphabet.Tile
			for t, c := range rack {
				for j := int(keep[t]); j < int(c); j++ {
					out = append(out, alphabet.Tile(t))
				}
			}
			if len(out) > 0 && len(out) <= bag {
				add(move.Move{Kind: move.Exchange, Exchanged: out})
			}
		})
	}
	add(move.Move{Kind: move.Pass})
	rk.all = all
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Equity != all[j].Equity {
			return all[i].Equity > all[j].Equity
		}
		return all[i].Move.Score > all[j].Move.Score
	})
	r := &Ranking{Seat: seat, Rack: rack, Bag: bag, Moves: len(all)}
	pk := pm.Key()
	for i := range all {
		c := &all[i]
		c.Equity = math.Round(c.Equity*100) / 100
		if i < max(n, 1) {
			c.Text = text(&c.Move)
			r.Best = append(r.Best, *c)
		}
		if len(r.Bingos) < MaxBingos && c.Bingo(v.RackSize) {
			b := *c
			b.Text = text(&c.Move)
			b.Word = c.Move.WordTiles(g.Board)
			r.Bingos = append(r.Bingos, b)
		}
		if r.Rank == 0 && !played.Withdrawn && c.Move.Key() == pk {
			r.Rank = i + 1
			c.Text = text(&c.Move)
			r.Played = *c
		}
	}
	if r.Rank == 0 {
		// A move the generator does not list: a placement with a word
		// missing from the list, standing or taken back.
		kept := rack
		if pm.Kind == move.Place && !played.Withdrawn {
			_, ts := pm.Placed()
			for _, t := range ts {
				kept.Remove(t)
			}
		}
		c := Candidate{Move: pm, Kept: kept, Text: text(&pm), Withdrawn: played.Withdrawn}
		if played.Withdrawn {
			pass := move.Move{Kind: move.Pass}
			c.Equity = equity(&pass, &kept)
			c.Move.Score = 0
		} else {
			c.Equity = equity(&pm, &kept)
		}
		c.Equity = math.Round(c.Equity*100) / 100
		r.Played = c
	}
	return r, nil
}

// Text writes a move as a review shows it, on board b before the move: a
// placement's notation, "-" and the tiles of an exchange, "-" for a pass.
func Text(b *board.Board, m *move.Move) string {
	switch m.Kind {
	case move.Place:
		return m.String(b)
	case move.Exchange:
		return "-" + b.Variant.Alphabet.Bracketed(m.Exchanged)
	}
	return "-"
}

// Summary is how each player of a game played, by static equity.
type Summary struct {
	Seats []SeatSummary
}

// SeatSummary is how one player played.
type SeatSummary struct {
	// Moves is the player's moves; Best, those of the highest equity.
	Moves, Best int
	// Lost is the equity given up against the best move, over all moves.
	Lost float64
	// Worst is the move that gave up the most (nil when none did).
	Worst *Miss
	// Mistakes are the moves that gave up at least MistakeLoss, in the
	// order of the game: the MaxMistakes costliest when there are more.
	Mistakes []Miss
	// MissedBingos are the moves that played no bingo where one could
	// be played, in the order of the game.
	MissedBingos []BingoMiss
}

// MistakeLoss is the equity a move gives up against the best for it to
// count among a player's mistakes: about a tile's worth, more than the
// noise of static equity between good moves.
const MistakeLoss = 5.0

// MaxMistakes bounds the mistakes a summary lists for a player.
const MaxMistakes = 12

// BingoMiss is a move that played no bingo, and the best bingos that
// could have been played in its place (Ranking.Bingos).
type BingoMiss struct {
	// Move is the move's 0-based number in the game.
	Move   int
	Rack   alphabet.Rack
	Played Candidate
	Bingos []Candidate
}

// Miss is a move and the best one in its place.
type Miss struct {
	// Move is the move's 0-based number in the game.
	Move         int
	Played, Best Candidate
	Lost         float64
}

// Add counts move k of seat, played where best was the best move and
// lost what it gave up against it.
func (s *Summary) Add(k, seat int, played, best *Candidate, lost float64) {
	ss := &s.Seats[seat]
	ss.Moves++
	if lost == 0 {
		ss.Best++
	}
	ss.Lost = math.Round((ss.Lost+lost)*100) / 100
	if lost > 0 && (ss.Worst == nil || lost > ss.Worst.Lost) {
		ss.Worst = &Miss{Move: k, Played: *played, Best: *best, Lost: lost}
	}
	if lost >= MistakeLoss {
		ss.Mistakes = append(ss.Mistakes, Miss{Move: k, Played: *played, Best: *best, Lost: lost})
		if len(ss.Mistakes) > MaxMistakes {
			// The least costly goes (the earliest of equals).
			least := 0
			for i, m := range ss.Mistakes {
				if m.Lost < ss.Mistakes[least].Lost {
					least = i
				}
			}
			ss.Mistakes = slices.Delete(ss.Mistakes, least, least+1)
		}
	}
}

// AddBingos records move k's missed bingo, if r, its ranking, lists a
// bingo and the move played none (rackSize is the variant's rack).
func (s *Summary) AddBingos(k, rackSize int, r *Ranking) {
	if len(r.Bingos) == 0 || r.Played.Bingo(rackSize) && !r.Played.Withdrawn {
		return
	}
	ss := &s.Seats[r.Seat]
	ss.MissedBingos = append(ss.MissedBingos, BingoMiss{Move: k, Rack: r.Rack, Played: r.Played, Bingos: r.Bingos})
}

// Summarize ranks every move of a finished game, stepping g (a game
// started as the recorded one was) through its record; each, when not
// nil, is called with every move's ranking (top n) and g at the position
// before it.
func (rk *Ranker) Summarize(rec *Record, g *game.Game, n int, each func(k int, g *game.Game, r *Ranking) error) (*Summary, error) {
	sum := &Summary{Seats: make([]SeatSummary, len(g.Seats))}
	at := 0
	for k, m := range rec.Moves {
		var err error
		if at, err = rec.Advance(g, at, k); err != nil {
			return nil, err
		}
		r, err := rk.Rank(g, m, n)
		if err != nil {
			return nil, fmt.Errorf("review: move %d: %w", k, err)
		}
		if each != nil {
			if err := each(k, g, r); err != nil {
				return nil, err
			}
		}
		sum.Add(k, r.Seat, &r.Played, &r.Best[0], r.Lost())
		sum.AddBingos(k, g.Variant.RackSize, r)
	}
	return sum, nil
}
