package automaton

import (
	"bytes"
	"math/bits"
	"slices"

	"atril/lexicon"
)

// builder makes a minimal acyclic automaton from strings given in
// increasing order. The path of the last string is kept open (its states
// may still gain edges); when the next string leaves that path at depth
// d, the open states below d are frozen deepest first: each is looked up
// in the register of frozen states and replaced by its twin there, or
// registered as new.
type builder struct {
	nodes   []Node
	targets []uint32
	table   []uint32 // open addressing: state id + 1, 0 empty
	prev    []byte
	open    []openState
	started bool
}

// openState is a state on the path of the last string: its frozen
// children so far, in symbol order, and whether it accepts.
type openState struct {
	syms  []byte
	kids  []uint32
	final bool
}

func newBuilder(sizeHint int) *builder {
	b := &builder{}
	size := 1 << 10
	for size < 2*sizeHint {
		size <<= 1
	}
	b.table = make([]uint32, size)
	b.open = make([]openState, 1, 32)
	return b
}

// add appends one string, which must sort after every string added so
// far (an equal string is ignored).
func (b *builder) add(s []byte) {
	common := 0
	for common < len(s) && common < len(b.prev) && s[common] == b.prev[common] {
		common++
	}
	if b.started && common == len(s) && common == len(b.prev) {
		return
	}
	b.started = true
	b.freeze(common)
	for d := common; d < len(s); d++ {
		st := &b.open[d]
		st.syms = append(st.syms, s[d]) // the open child; its id comes at freeze time
		st.kids = append(st.kids, 0)
		if d+2 <= cap(b.open) {
			b.open = b.open[:d+2] // reuse the state's slices
		} else {
			b.open = append(b.open, openState{})
		}
		o := &b.open[d+1]
		o.syms, o.kids, o.final = o.syms[:0], o.kids[:0], false
	}
	b.open[len(s)].final = true
	b.prev = append(b.prev[:0], s...)
}

// freeze closes the open states deeper than depth, deepest first, and
// links each to its parent.
func (b *builder) freeze(depth int) {
	for d := len(b.open) - 1; d > depth; d-- {
		id := b.register(&b.open[d])
		p := &b.open[d-1]
		p.kids[len(p.kids)-1] = id
	}
	b.open = b.open[:depth+1]
}

// finish freezes everything and returns the automaton.
func (b *builder) finish(kind Kind) *Automaton {
	b.freeze(0)
	root := b.register(&b.open[0])
	return relayout(&Automaton{Kind: kind, Nodes: b.nodes, Targets: b.targets, Root: root})
}

// relayout renumbers the states breadth first from the root and lays
// their edge lists out in that order, so the states near the root, which
// every search visits, share a few cache lines (the register hands them
// out in the order they were frozen, deepest first).
func relayout(a *Automaton) *Automaton {
	n := len(a.Nodes)
	newID := make([]uint32, n)
	for i := range newID {
		newID[i] = ^uint32(0)
	}
	order := make([]uint32, 0, n)
	order = append(order, a.Root)
	newID[a.Root] = 0
	for q := 0; q < len(order); q++ {
		nd := a.Nodes[order[q]]
		first := nd.First &^ Final
		for _, c := range a.Targets[first : first+uint32(bits.OnesCount64(nd.Mask))] {
			if newID[c] == ^uint32(0) {
				newID[c] = uint32(len(order))
				order = append(order, c)
			}
		}
	}
	nodes := make([]Node, 0, len(order))
	targets := make([]uint32, 0, len(a.Targets))
	for _, old := range order {
		nd := a.Nodes[old]
		first := nd.First &^ Final
		nodes = append(nodes, Node{Mask: nd.Mask, First: uint32(len(targets)) | nd.First&Final})
		for _, c := range a.Targets[first : first+uint32(bits.OnesCount64(nd.Mask))] {
			targets = append(targets, newID[c])
		}
	}
	return &Automaton{Kind: a.Kind, Nodes: nodes, Targets: targets, Root: 0}
}

func hashState(st *openState) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	if st.final {
		h = ^h
	}
	for i, s := range st.syms {
		h = (h ^ uint64(s)) * 0x100000001b3
		h = (h ^ uint64(st.kids[i])) * 0xff51afd7ed558ccd
		h ^= h >> 31
	}
	return h ^ h>>29
}

func (b *builder) equal(id uint32, st *openState, mask uint64) bool {
	nd := b.nodes[id]
	if nd.Mask != mask || (nd.First&Final != 0) != st.final {
		return false
	}
	first := nd.First &^ Final
	return slices.Equal(b.targets[first:first+uint32(len(st.kids))], st.kids)
}

// register returns the id of the frozen state equal to st, adding it if
// it is new.
func (b *builder) register(st *openState) uint32 {
	var mask uint64
	for _, s := range st.syms {
		mask |= 1 << s
	}
	if 2*len(b.nodes) >= len(b.table) {
		b.grow()
	}
	m := uint64(len(b.table) - 1)
	h := hashState(st) & m
	for {
		v := b.table[h]
		if v == 0 {
			break
		}
		if b.equal(v-1, st, mask) {
			return v - 1
		}
		h = (h + 1) & m
	}
	id := uint32(len(b.nodes))
	first := uint32(len(b.targets))
	if st.final {
		first |= Final
	}
	b.nodes = append(b.nodes, Node{Mask: mask, First: first})
	b.targets = append(b.targets, st.kids...)
	b.table[h] = id + 1
	return id
}

func (b *builder) grow() {
	old := b.table
	b.table = make([]uint32, 2*len(old))
	m := uint64(len(b.table) - 1)
	var st openState
	for _, v := range old {
		if v == 0 {
			continue
		}
		nd := b.nodes[v-1]
		first := nd.First &^ Final
		st.final = nd.First&Final != 0
		st.syms = st.syms[:0]
		for mk := nd.Mask; mk != 0; mk &= mk - 1 {
			st.syms = append(st.syms, byte(bits.TrailingZeros64(mk)))
		}
		st.kids = b.targets[first : first+uint32(len(st.syms))]
		h := hashState(&st) & m
		for b.table[h] != 0 {
			h = (h + 1) & m
		}
		b.table[h] = v
	}
}

// BuildDAWG builds the minimal DAWG of the lexicon's words.
func BuildDAWG(lex *lexicon.Lexicon) *Automaton {
	b := newBuilder(lex.Len())
	var s []byte
	for i := 0; i < lex.Len(); i++ {
		s = s[:0]
		for _, t := range lex.Word(i) {
			s = append(s, byte(t))
		}
		b.add(s)
	}
	a := b.finish(DAWG)
	a.Words = lex.Len()
	a.Key = Key(lex)
	return a
}

// BuildGADDAG builds the minimal GADDAG of the lexicon's words: for a
// word of n letters the strings REV(w[:i])◇w[i:] for i = 1..n-1 and
// REV(w).
func BuildGADDAG(lex *lexicon.Lexicon) *Automaton {
	// All strings in one byte slice, then sorted; symbols are letter
	// codes and 0 for ◇, so byte order is symbol order.
	total, count := 0, 0
	for i := 0; i < lex.Len(); i++ {
		n := len(lex.Word(i))
		total += n*(n+1) - 1
		count += n
	}
	data := make([]byte, 0, total)
	refs := make([]ref, 0, count)
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		n := len(w)
		for k := 1; k <= n; k++ {
			off := len(data)
			for j := k - 1; j >= 0; j-- {
				data = append(data, byte(w[j]))
			}
			if k < n {
				data = append(data, Sep)
				for j := k; j < n; j++ {
					data = append(data, byte(w[j]))
				}
			}
			refs = append(refs, ref{uint32(off), uint8(len(data) - off)})
		}
	}
	radixSort(data, refs, make([]ref, len(refs)), 0)
	b := newBuilder(len(refs) / 4)
	for _, r := range refs {
		b.add(data[r.off : r.off+uint32(r.n)])
	}
	a := b.finish(GADDAG)
	a.Words = lex.Len()
	a.Key = Key(lex)
	return a
}

// ref is a string of the GADDAG input: n bytes at off.
type ref struct {
	off uint32
	n   uint8
}

// radixSort sorts refs (strings in data that agree on their first depth
// bytes) by their bytes, most significant first: a counting pass on byte
// depth (a string that ends there goes first), then each bucket in turn.
// tmp is scratch space as long as refs. Small buckets are sorted by
// comparison.
func radixSort(data []byte, refs, tmp []ref, depth int) {
	for {
		if len(refs) < 48 {
			slices.SortFunc(refs, func(x, y ref) int {
				return bytes.Compare(data[x.off+uint32(depth):x.off+uint32(x.n)], data[y.off+uint32(depth):y.off+uint32(y.n)])
			})
			return
		}
		var count [257]int
		for _, r := range refs {
			k := 0
			if int(r.n) > depth {
				k = int(data[r.off+uint32(depth)]) + 1
			}
			count[k]++
		}
		var start [258]int
		for k := 0; k < 257; k++ {
			start[k+1] = start[k] + count[k]
		}
		pos := start
		for _, r := range refs {
			k := 0
			if int(r.n) > depth {
				k = int(data[r.off+uint32(depth)]) + 1
			}
			tmp[pos[k]] = r
			pos[k]++
		}
		copy(refs, tmp[:len(refs)])
		// Strings that ended are equal and first; recurse on the others,
		// looping on the largest bucket to bound the recursion depth.
		big, bigLen := -1, 0
		for k := 1; k < 257; k++ {
			if n := count[k]; n > 1 && n > bigLen {
				big, bigLen = k, n
			}
		}
		for k := 1; k < 257; k++ {
			if count[k] > 1 && k != big {
				radixSort(data, refs[start[k]:start[k+1]], tmp, depth+1)
			}
		}
		if big < 0 {
			return
		}
		refs = refs[start[big]:start[big+1]]
		depth++
	}
}
