package movegen

import (
	"atril/lexicon/automaton"
)

// openingWords lists the moves of an empty board along the current line
// (the line of the start square): every word the rack can form is
// walked once through the automaton, then laid at every offset that
// covers the start square. The walk reads words forwards: in a DAWG from
// the root; in a GADDAG (gaddag set) along the path of each word split
// after its first letter, x◇yz…, which after the separator is a plain
// forward trie. depth tiles of s.pre lead to nd.
//
// On an empty board the anchor-by-anchor walks of Appel–Jacobson and
// Gordon both meet each word once per square of it that can lie on the
// start square, and re-derive the same prefixes each time; here the
// prefix tree is walked once and only the scoring is repeated.
func (s *lineGen) openingWords(nd automaton.Arc, depth int, gaddag bool) {
	if depth >= 2 && nd.IsFinal() {
		s.openingPlace(depth)
	}
	if s.tiles == 0 || depth == s.n {
		return
	}
	mask := nd.Mask()
	s.prefix(nd, mask, mask&s.allowed(), depth, stepOpening, 0, gaddag)
}

// openingPlace records the k-letter word in s.pre at every start square
// of the line from which it covers the start square.
func (s *lineGen) openingPlace(k int) {
	lo := max(0, s.startC-k+1)
	hi := min(s.startC, s.n-k)
	s.placed = k
	for start := lo; start <= hi; start++ {
		var sum int32
		mul := int32(1)
		for i := 0; i < k; i++ {
			t := s.pre[i]
			c := start + i
			s.buf[c] = t
			if !t.IsBlanked() {
				sum += s.score[t] * s.lmul[c]
			}
			mul *= s.wmul[c]
		}
		s.sum = Tally{Main: sum, WordMul: mul}
		s.record(start, start+k-1)
	}
	s.sum, s.placed = Tally{WordMul: 1}, 0
}
