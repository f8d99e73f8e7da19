package endgame

import (
	"math/bits"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/movegen"
)

// Words is an endgame's word list cut down to the words its tiles can
// still form, with a GADDAG generator over them (see NewWords). A search
// over it lists the same moves as over the whole list, faster: the
// GADDAG of a few thousand words fits in the processor's caches where
// the whole list's does not, and the cross-sets leave out letters that
// no tile left can supply, so the walk stops sooner. An established
// engine cuts its word graphs the same way for its endgame solver. A
// Words is read-only and may be shared by searches running at once.
type Words struct {
	lex *lexicon.Lexicon
	gen *movegen.Gaddag
}

// Len is the number of words kept.
func (w *Words) Len() int { return w.lex.Len() }

// NewWords cuts the word list of gen down to the words that can lie on
// a line of b at some time from now on when only the tiles of pool are
// still to be played: a word on squares that are empty now is spelt with
// pool tiles (a blank standing for any letter), and a word through tiles
// of b matches them, with pool tiles on its empty squares and the
// squares just before and after it empty. Every word formed by any
// sequence of placements of pool tiles on b (main words and cross words
// alike) is such a word, since tiles never leave the board; so on any
// position reached that way, a generator over the cut-down list lists
// exactly the moves, with the same scores, that one over the whole list
// does. For an endgame, pool is the two racks; for a pre-endgame, our
// rack and the unseen tiles.
//
// The cut needs the GADDAG: it reports false when gen is not a
// *movegen.Gaddag. It takes a few milliseconds for two racks of seven
// tiles (1,800 to 8,500 words of the 270,000 of the English list), and
// about 0.1 s with a blank (up to 45,000 words). With two blanks it
// would keep 70,000 to 100,000 words and take a third of a second, more
// than it saves: NewWords then reports false too.
func NewWords(gen movegen.Generator, b *board.Board, pool alphabet.Rack) (*Words, bool) {
	g, ok := gen.(*movegen.Gaddag)
	if !ok || pool[alphabet.Blank] >= 2 {
		return nil, false
	}
	f := &former{a: g.Automaton(), pool: pool, max: b.Size, seen: map[string]struct{}{}}
	f.free(f.a.Root)
	for d := board.Across; d <= board.Down; d++ {
		for r := 0; r < b.Size; r++ {
			f.line = b.Line(d, r)
			for e := range f.line {
				// each run of tiles, from its last tile
				if f.line[e] != board.Empty && (e+1 == len(f.line) || f.line[e+1] == board.Empty) {
					f.end = e
					f.back(f.a.Root, e)
				}
			}
		}
	}
	lex := lexicon.FromTiles(b.Variant.Alphabet, f.out)
	return &Words{lex: lex, gen: movegen.NewOwnGaddag(lex)}, true
}

// former collects the words NewWords keeps, walking the whole list's
// GADDAG with the pool's tiles.
type former struct {
	a    *automaton.Automaton
	pool alphabet.Rack
	max  int // the longest word that fits on the board
	seen map[string]struct{}
	out  [][]alphabet.Tile

	line []alphabet.Tile // the line being walked
	end  int             // the last square of the run of tiles walked from
	rev  []alphabet.Tile // the letters from the pivot leftwards
	fwd  []alphabet.Tile // the letters right of the run
}

// keep records the word rev reversed, then fwd, once.
func (f *former) keep() {
	w := make([]alphabet.Tile, 0, len(f.rev)+len(f.fwd))
	for i := len(f.rev) - 1; i >= 0; i-- {
		w = append(w, f.rev[i])
	}
	w = append(w, f.fwd...)
	k := string(w) // Tile's underlying type is byte
	if _, dup := f.seen[k]; dup {
		return
	}
	f.seen[k] = struct{}{}
	f.out = append(f.out, w)
}

// take takes a tile for letter l from the pool: the letter's own tile,
// or else a blank (a word that a real tile can spell needs no blank for
// that letter: the blank would only leave the pool poorer). It returns
// the tile taken, and false when there is none.
func (f *former) take(l alphabet.Tile) (alphabet.Tile, bool) {
	switch {
	case f.pool[l] > 0:
		f.pool[l]--
		return l, true
	case f.pool[alphabet.Blank] > 0:
		f.pool[alphabet.Blank]--
		return alphabet.Blank, true
	}
	return 0, false
}

// spell calls do for each letter l on an edge out of state n (the
// separator aside) that a pool tile can supply, with the target ch, the
// tile taken from the pool for the call.
func (f *former) spell(n uint32, do func(l alphabet.Tile, ch uint32)) {
	for m := f.a.Nodes[n].Mask &^ (1 << automaton.Sep); m != 0; m &= m - 1 {
		l := alphabet.Tile(bits.TrailingZeros64(m))
		src, ok := f.take(l)
		if !ok {
			continue
		}
		ch, _ := f.a.Child(n, l)
		do(l, ch)
		f.pool[src]++
	}
}

// free keeps every word spelt with pool tiles alone (for squares that are
// all empty now), reading words backwards from state n: a GADDAG accepts
// REV(w) for every word w.
func (f *former) free(n uint32) {
	if len(f.rev) == f.max {
		return
	}
	f.spell(n, func(l alphabet.Tile, ch uint32) {
		f.rev = append(f.rev, l)
		if f.a.IsFinal(ch) {
			f.keep()
		}
		f.free(ch)
		f.rev = f.rev[:len(f.rev)-1]
	})
}

// back extends leftwards from square c of the line, in state n, the
// squares right of c up to the run's last tile having been read: a tile
// on the board is read as it is, an empty square takes a pool tile. Where
// the square is empty or off the board the word may start after it:
// then it is kept if it ends with the run, and goes on right of the run
// past the separator.
func (f *former) back(n uint32, c int) {
	if c >= 0 && f.line[c] != board.Empty {
		l := f.line[c].Letter()
		if ch, ok := f.a.Child(n, l); ok {
			f.rev = append(f.rev, l)
			f.back(ch, c-1)
			f.rev = f.rev[:len(f.rev)-1]
		}
		return
	}
	right := f.end + 1
	if f.a.IsFinal(n) && (right == len(f.line) || f.line[right] == board.Empty) {
		f.fwd = f.fwd[:0]
		f.keep()
	}
	if right < len(f.line) {
		if ch, ok := f.a.Child(n, automaton.Sep); ok {
			f.fwd = f.fwd[:0]
			f.ahead(ch, right)
		}
	}
	if c < 0 {
		return
	}
	f.spell(n, func(l alphabet.Tile, ch uint32) {
		f.rev = append(f.rev, l)
		f.back(ch, c-1)
		f.rev = f.rev[:len(f.rev)-1]
	})
}

// ahead extends rightwards from square c, in state n past the separator:
// a tile on the board is read as it is, an empty square takes a pool
// tile, and the word is kept where it can end (the next square empty or
// off the board).
func (f *former) ahead(n uint32, c int) {
	if c == len(f.line) || f.line[c] == board.Empty {
		if len(f.fwd) > 0 && f.a.IsFinal(n) {
			f.keep()
		}
		if c == len(f.line) {
			return
		}
	}
	if f.line[c] != board.Empty {
		l := f.line[c].Letter()
		if ch, ok := f.a.Child(n, l); ok {
			f.fwd = append(f.fwd, l)
			f.ahead(ch, c+1)
			f.fwd = f.fwd[:len(f.fwd)-1]
		}
		return
	}
	f.spell(n, func(l alphabet.Tile, ch uint32) {
		f.fwd = append(f.fwd, l)
		f.ahead(ch, c+1)
		f.fwd = f.fwd[:len(f.fwd)-1]
	})
}
