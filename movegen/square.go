package movegen

import (
	"math/bits"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon/automaton"
	"atril/move"
)

// The per-square step the DAWG, GADDAG and opening searches share: which
// letters a rack tile may stand for, laying a rack letter and then a
// blank for each letter the automaton, the cross-set and the rack allow,
// the rack bookkeeping, and the running score (letter sum, cross words,
// word multiplier). The searches differ only in where they go next.

// step says where a search goes after a tile is put on a square.
type step uint8

const (
	stepGaddag  step = iota // Gordon's GoOn on the same square
	stepDawg                // Appel and Jacobson's ExtendRight on the next square
	stepLeft                // Appel and Jacobson's LeftPart, one tile longer
	stepOpening             // the opening's word list, one tile longer
)

// allowed is the set of letters a rack tile may stand for: the rack's
// letters, or every letter while a blank is left.
func (s *lineGen) allowed() uint64 {
	if s.rack[0] > 0 {
		return s.all
	}
	return s.rackMask
}

// take removes a tile of letter l (a blank when blank is set) from the
// rack; give puts it back.
func (s *lineGen) take(l uint, blank bool) {
	if blank {
		s.rack[0]--
		return
	}
	s.rack[l]--
	if s.rack[l] == 0 {
		s.rackMask &^= 1 << l
	}
}

func (s *lineGen) give(l uint, blank bool) {
	if blank {
		s.rack[0]++
		return
	}
	s.rack[l]++
	s.rackMask |= 1 << l
}

// through plays the board's tile on square c (whose letter l the state
// nd with symbol set mask has an edge for): it counts in the main word
// at face value, with no premium.
func (s *lineGen) through(c int, nd automaton.Arc, mask uint64, k step, start int) {
	t := s.line[c]
	l := uint(t.Letter())
	sc := s.score[l]
	if t.IsBlanked() {
		sc = 0
	}
	s.buf[c] = move.PlayThrough
	s.sum.Main += sc
	s.next(k, c, s.child(nd, mask, l), start)
	s.sum.Main -= sc
}

// place tries on empty square c each letter of cand (letters the state
// nd, with symbol set mask, has edges for and the square admits) with a
// rack tile of that letter and then with a blank, keeping the score: the
// tile's letter value times the square's letter multiplier in the main
// word, the cross word's tiles and the new tile times the square's word
// multiplier when the square has a cross word, and the square's word
// multiplier on the main word.
func (s *lineGen) place(c int, nd automaton.Arc, mask, cand uint64, k step, start int) {
	lm, wm := s.lmul[c], s.wmul[c]
	cs := s.cscore[c]
	saved := s.sum
	s.placed++
	s.tiles--
	for ; cand != 0; cand &= cand - 1 {
		l := uint(bits.TrailingZeros64(cand))
		next := s.child(nd, mask, l)
		for _, blank := range [2]bool{false, true} {
			if blank && (s.rack[0] == 0 || s.blankAs>>l&1 == 0) || !blank && s.rack[l] == 0 {
				continue
			}
			s.take(l, blank)
			ls := s.score[l] * lm
			s.buf[c] = alphabet.Tile(l)
			if blank {
				ls = 0
				s.buf[c] |= alphabet.BlankBit
			}
			s.sum = saved
			s.sum.Lay(ls, wm, cs)
			s.next(k, c, next, start)
			s.give(l, blank)
		}
	}
	s.sum = saved
	s.placed--
	s.tiles++
}

// prefix tries each letter of cand as the next tile of a word being
// built off the board (the DAWG's left part, the opening's words): a
// rack tile of that letter, then a blank, stored in pre[depth]. With sep
// set (the GADDAG's first letter) the walk takes the separator after it.
func (s *lineGen) prefix(nd automaton.Arc, mask, cand uint64, depth int, k step, limit int, sep bool) {
	s.tiles--
	for ; cand != 0; cand &= cand - 1 {
		l := uint(bits.TrailingZeros64(cand))
		next := s.child(nd, mask, l)
		if sep {
			m := next.Mask()
			if m&1 == 0 {
				continue
			}
			next = s.child(next, m, automaton.Sep)
		}
		for _, blank := range [2]bool{false, true} {
			if blank && s.rack[0] == 0 || !blank && s.rack[l] == 0 {
				continue
			}
			s.take(l, blank)
			s.pre[depth] = alphabet.Tile(l)
			if blank {
				s.pre[depth] |= alphabet.BlankBit
			}
			if k == stepLeft {
				s.leftPart(next, limit-1, depth+1)
			} else {
				s.openingWords(next, depth+1, false)
			}
			s.give(l, blank)
		}
	}
	s.tiles++
}

// next goes on after a tile was put on square c and the automaton moved
// to nd.
func (s *lineGen) next(k step, c int, nd automaton.Arc, start int) {
	if k == stepGaddag {
		s.gaddagGoOn(c, nd)
	} else {
		s.extendRight(c+1, nd, start)
	}
}

// Tally is a placement's score as it is built, square by square: the
// main word's letter sum, the product of the word multipliers of the
// squares played, and the total of the cross words. It is the generators'
// one home of the score formula; move.Score and the brute-force oracle
// compute scores on their own, as the references the generators are
// checked against.
type Tally struct {
	Main, WordMul, Cross int32
}

// Lay adds a new tile on a square: ls is the tile's face value times the
// square's letter multiplier (0 for a blank), wm the square's word
// multiplier, and cs the sum of the other tiles of the cross word through
// the square (board.NoCross when there is none). A board tile the word
// runs through adds its face value to Main.
func (t *Tally) Lay(ls, wm int32, cs int16) {
	t.Main += ls
	t.WordMul *= wm
	if cs != board.NoCross {
		t.Cross += (int32(cs) + ls) * wm
	}
}

// Total is the score of the placement, without a bingo bonus.
func (t *Tally) Total() int32 { return t.Cross + t.Main*t.WordMul }
