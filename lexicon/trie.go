package lexicon

import "atril/alphabet"

// Trie is the letter tree of Guberman et al. (4.5) and Pícek 2008 (3.1.3):
// one node per distinct prefix of the word list, stored as flat arrays. Node 0 is the root.
// The edges of a node are contiguous and sorted by letter.
type Trie struct {
	first    []uint32 // first[n]: index of n's first edge; first[n+1]-first[n] edges
	terminal []bool   // terminal[n]: the prefix of n is a word
	letter   []alphabet.Tile
	target   []uint32
}

// NewTrie builds the trie of the lexicon's words.
func NewTrie(lex *Lexicon) *Trie {
	// Build with per-node child lists, breadth by breadth, from the sorted
	// words: the children of a prefix are the distinct next letters of the
	// contiguous block of words sharing it.
	t := &Trie{}
	type span struct{ lo, hi, depth int }
	queue := []span{{0, lex.Len(), 0}}
	for qi := 0; qi < len(queue); qi++ {
		s := queue[qi]
		t.first = append(t.first, uint32(len(t.letter)))
		lo := s.lo
		term := false
		if lo < s.hi && len(lex.Word(lo)) == s.depth {
			term = true
			lo++
		}
		t.terminal = append(t.terminal, term)
		for lo < s.hi {
			l := lex.Word(lo)[s.depth]
			hi := lo + 1
			for hi < s.hi && lex.Word(hi)[s.depth] == l {
				hi++
			}
			t.letter = append(t.letter, l)
			t.target = append(t.target, uint32(len(queue)))
			queue = append(queue, span{lo, hi, s.depth + 1})
			lo = hi
		}
	}
	t.first = append(t.first, uint32(len(t.letter)))
	return t
}

// Nodes is the number of nodes.
func (t *Trie) Nodes() int { return len(t.terminal) }

// Terminal reports whether the path to node n spells a word.
func (t *Trie) Terminal(n uint32) bool { return t.terminal[n] }

// Child follows the edge labelled l from node n; ok is false if there is none.
func (t *Trie) Child(n uint32, l alphabet.Tile) (uint32, bool) {
	for e := t.first[n]; e < t.first[n+1]; e++ {
		if t.letter[e] == l {
			return t.target[e], true
		}
		if t.letter[e] > l {
			break
		}
	}
	return 0, false
}

// Edges calls f for each edge of n in letter order.
func (t *Trie) Edges(n uint32, f func(l alphabet.Tile, child uint32)) {
	for e := t.first[n]; e < t.first[n+1]; e++ {
		f(t.letter[e], t.target[e])
	}
}

// Contains reports whether w is a word, walking the trie.
func (t *Trie) Contains(w []alphabet.Tile) bool {
	n := uint32(0)
	for _, l := range w {
		var ok bool
		if n, ok = t.Child(n, l.Letter()); !ok {
			return false
		}
	}
	return t.terminal[n]
}
