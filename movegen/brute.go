package movegen

import (
	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
)

// Brute is the reference generator. For every line in both directions and
// every segment of it that could hold a move (bounded by empty squares or
// the edge, holding 1..rack-size empty squares, touching the halo or the
// start square), it tries every word of the segment's length from the
// word list: the word must match the letters already there, be spelled
// from the rack (every way of using blanks), and make a word of every
// cross word, checked directly against the word list. Scores are computed
// from scratch. It trusts nothing the board precomputes (cross-sets,
// cross scores, anchors).
type Brute struct {
	lex   *lexicon.Lexicon
	byLen [][]int
}

// NewBrute returns the reference generator for a lexicon.
func NewBrute(lex *lexicon.Lexicon) *Brute {
	g := &Brute{lex: lex, byLen: make([][]int, lex.MaxLen()+1)}
	for i := 0; i < lex.Len(); i++ {
		l := len(lex.Word(i))
		g.byLen[l] = append(g.byLen[l], i)
	}
	return g
}

// Name implements Generator.
func (g *Brute) Name() string { return "brute" }

// Fork implements Generator; the oracle keeps no scratch state, so it
// returns itself.
func (g *Brute) Fork() Generator { return g }

// Generate implements Generator.
func (g *Brute) Generate(b *board.Board, rack *alphabet.Rack, sink Sink) {
	n := b.Size
	rackLen := rack.Len()
	for _, d := range []board.Dir{board.Across, board.Down} {
		for line := 0; line < n; line++ {
			for s := 0; s < n; s++ {
				if s > 0 && g.at(b, d, line, s-1) != board.Empty {
					continue
				}
				empties := 0
				touches := false
				for e := s; e < n; e++ {
					row, col := sq(d, line, e)
					if b.At(row, col) == board.Empty {
						empties++
						if touchesTile(b, row, col) || (b.IsEmpty() && row == b.Variant.StartRow && col == b.Variant.StartCol) {
							touches = true
						}
					}
					if empties > rackLen || empties > b.Variant.RackSize {
						break
					}
					if e+1 < n && g.at(b, d, line, e+1) != board.Empty {
						continue
					}
					L := e - s + 1
					if L < 2 || empties == 0 || !touches || L >= len(g.byLen) {
						continue
					}
					g.segment(b, rack, d, line, s, L, empties, sink)
				}
			}
		}
	}
}

func (g *Brute) at(b *board.Board, d board.Dir, line, pos int) alphabet.Tile {
	row, col := sq(d, line, pos)
	return b.At(row, col)
}

// sq converts (line, position) in direction d to (row, col).
func sq(d board.Dir, line, pos int) (int, int) {
	if d == board.Across {
		return line, pos
	}
	return pos, line
}

func touchesTile(b *board.Board, row, col int) bool {
	for _, o := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		r, c := row+o[0], col+o[1]
		if b.In(r, c) && b.At(r, c) != board.Empty {
			return true
		}
	}
	return false
}

// segment tries every word of length L on the segment starting at s.
func (g *Brute) segment(b *board.Board, rack *alphabet.Rack, d board.Dir, line, s, L, empties int, sink Sink) {
	// A one-tile play along d whose tile also forms a perpendicular word
	// of two or more tiles is listed across only.
	single := empties == 1 && d == board.Down
	fixed := make([]alphabet.Tile, L)
	for i := range fixed {
		fixed[i] = g.at(b, d, line, s+i)
	}
	if single {
		for i, t := range fixed {
			if t == board.Empty {
				row, col := sq(d, line, s+i)
				if len(crossTiles(b, board.Down, row, col, 1)) >= 2 {
					return
				}
			}
		}
	}
	row0, col0 := sq(d, line, s)
	tiles := make([]alphabet.Tile, L)
	for _, wi := range g.byLen[L] {
		w := g.lex.Word(wi)
		ok := true
		for i, t := range fixed {
			if t != board.Empty && t.Letter() != w[i] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		// Can the rack spell the new letters at all?
		need := alphabet.Rack{}
		short := 0
		for i, t := range fixed {
			if t == board.Empty {
				need[w[i]]++
				if need[w[i]] > rack[w[i]] {
					short++
				}
			}
		}
		if short > int(rack[alphabet.Blank]) {
			continue
		}
		// Cross words.
		for i, t := range fixed {
			if t != board.Empty {
				continue
			}
			row, col := sq(d, line, s+i)
			cw := crossTiles(b, d, row, col, w[i])
			if len(cw) >= 2 && !g.lex.Contains(cw) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		// Every way to assign real tiles and blanks.
		r := *rack
		var assign func(i int)
		assign = func(i int) {
			if i == L {
				m := &move.Move{Kind: move.Place, Row: row0, Col: col0, Dir: d, Tiles: tiles}
				m.Score = g.score(b, m)
				sink(m)
				return
			}
			if fixed[i] != board.Empty {
				tiles[i] = move.PlayThrough
				assign(i + 1)
				return
			}
			l := w[i]
			if r[l] > 0 {
				r[l]--
				tiles[i] = l
				assign(i + 1)
				r[l]++
			}
			if r[alphabet.Blank] > 0 {
				r[alphabet.Blank]--
				tiles[i] = l | alphabet.BlankBit
				assign(i + 1)
				r[alphabet.Blank]++
			}
		}
		assign(0)
	}
}

// crossTiles returns the word perpendicular to d through (row, col) if
// tile t were placed there.
func crossTiles(b *board.Board, d board.Dir, row, col int, t alphabet.Tile) []alphabet.Tile {
	dr, dc := 1, 0
	if d == board.Down {
		dr, dc = 0, 1
	}
	r0, c0 := row, col
	for b.In(r0-dr, c0-dc) && b.At(r0-dr, c0-dc) != board.Empty {
		r0, c0 = r0-dr, c0-dc
	}
	var w []alphabet.Tile
	for r, c := r0, c0; b.In(r, c); r, c = r+dr, c+dc {
		if r == row && c == col {
			w = append(w, t)
		} else if b.At(r, c) == board.Empty {
			break
		} else {
			w = append(w, b.At(r, c))
		}
	}
	return w
}

// score computes a placement's score from the board alone.
func (g *Brute) score(b *board.Board, m *move.Move) int {
	v := b.Variant
	main, wm, total, placed := 0, 1, 0, 0
	for i, t := range m.Tiles {
		row, col := m.Square(i)
		if t == move.PlayThrough {
			main += v.Score(b.At(row, col))
			continue
		}
		placed++
		p := v.Premium(row, col)
		main += v.Score(t) * int(p.LetterMul)
		wm *= int(p.WordMul)
		cw := crossTiles(b, m.Dir, row, col, t)
		if len(cw) >= 2 {
			cs := 0
			for _, ct := range cw {
				cs += v.Score(ct)
			}
			cs += v.Score(t) * (int(p.LetterMul) - 1)
			total += cs * int(p.WordMul)
		}
	}
	total += main * wm
	if placed == v.RackSize {
		total += v.BingoBonus
	}
	return total
}
