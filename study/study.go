// Package study orders a word list's alphagrams by probability, for
// anagram drills: an alphagram is the letters of a word in a fixed
// order, standing for every word made of exactly those letters, and its
// probability is the chance that a draw of as many tiles from a full bag
// can spell it, blanks standing in for missing letters. Word-study
// programs quiz players on the alphagrams of one length in this order,
// the likeliest racks first, because those are the racks met most often
// over the board.
package study

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"atril/alphabet"
	"atril/lexicon"
)

// Index is a word list's alphagrams of every length, each length's in
// probability order. It is read-only once built and safe for concurrent
// use.
type Index struct {
	lex    *lexicon.Lexicon
	counts []int     // the bag, by tile code
	ids    []int32   // word ids, grouped by alphagram, groups in rank order within each length
	groups [][]group // by length: the alphagrams of that length, most probable first
	draws  []float64 // by length: the draws of that many tiles from a full bag
}

// group is one alphagram: words ids[start:end].
type group struct {
	start, end int32
	ways       float64
}

// Alphagram is one alphagram of an Index.
type Alphagram struct {
	// Rank is its place among the alphagrams of its length, from 1 for
	// the most probable; equally probable ones are in the tile-code order
	// of their letters.
	Rank int
	// Tiles are its letters in tile-code order.
	Tiles []alphabet.Tile
	// Words are the list's words made of these letters, in the list's
	// order.
	Words [][]alphabet.Tile
	// Ways is the number of draws of len(Tiles) tiles from a full bag
	// that can spell it (tiles told apart, blanks standing in);
	// Probability is Ways over the number of all such draws.
	Ways, Probability float64
}

// Build groups the words of lex by alphagram and orders each length's
// alphagrams by probability for a bag of counts (by tile code, the
// blanks' count first, as variant.Variant.Counts). It fails if counts
// does not cover the alphabet.
func Build(lex *lexicon.Lexicon, counts []int) (*Index, error) {
	if len(counts) < lex.Alphabet.Size()+1 {
		return nil, fmt.Errorf("study: the bag gives counts of %d tiles, the alphabet has %d letters and the blank", len(counts), lex.Alphabet.Size())
	}
	n := lex.Len()
	// Every word's letters sorted, in one arena laid out as the words.
	offs := make([]int32, n+1)
	for i := range n {
		offs[i+1] = offs[i] + int32(len(lex.Word(i)))
	}
	keys := make([]byte, offs[n])
	for i := range n {
		k := keys[offs[i]:offs[i+1]]
		for j, t := range lex.Word(i) {
			k[j] = byte(t)
		}
		slices.Sort(k)
	}
	key := func(i int32) []byte { return keys[offs[i]:offs[i+1]] }
	// Sorted by length, then letters: the first 16 letters packed in two
	// words compare at once, the rest (rare) byte by byte.
	type entry struct {
		hi, lo uint64
		n, id  int32
	}
	es := make([]entry, n)
	for i := range es {
		k := key(int32(i))
		var p [16]byte
		copy(p[:], k)
		es[i] = entry{binary.BigEndian.Uint64(p[:8]), binary.BigEndian.Uint64(p[8:]), int32(len(k)), int32(i)}
	}
	slices.SortFunc(es, func(a, b entry) int {
		if c := cmp.Compare(a.n, b.n); c != 0 {
			return c
		}
		if c := cmp.Compare(a.hi, b.hi); c != 0 {
			return c
		}
		if c := cmp.Compare(a.lo, b.lo); c != 0 {
			return c
		}
		if a.n > 16 {
			if c := bytes.Compare(key(a.id)[16:], key(b.id)[16:]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.id, b.id)
	})
	ids := make([]int32, n)
	for i, e := range es {
		ids[i] = e.id
	}
	ix := &Index{lex: lex, counts: slices.Clone(counts), groups: make([][]group, lex.MaxLen()+1), draws: make([]float64, lex.MaxLen()+1)}
	total := 0
	for _, c := range counts {
		total += c
	}
	for l := range ix.draws {
		ix.draws[l] = binom(total, l)
	}
	tiles := make([]alphabet.Tile, 0, lex.MaxLen())
	for s := 0; s < n; {
		e := s + 1
		for e < n && bytes.Equal(key(ids[e]), key(ids[s])) {
			e++
		}
		k := key(ids[s])
		tiles = tiles[:0]
		for _, b := range k {
			tiles = append(tiles, alphabet.Tile(b))
		}
		ix.groups[len(k)] = append(ix.groups[len(k)], group{int32(s), int32(e), ways(counts, tiles)})
		s = e
	}
	// Each length's groups are in tile-code order, which breaks ties.
	for _, gs := range ix.groups {
		slices.SortFunc(gs, func(a, b group) int {
			if c := cmp.Compare(b.ways, a.ways); c != 0 {
				return c
			}
			return cmp.Compare(a.start, b.start)
		})
	}
	// The word ids laid out in rank order, so a range of ranks is one
	// stretch of ids.
	laid := make([]int32, 0, n)
	for _, gs := range ix.groups {
		for i, g := range gs {
			start := int32(len(laid))
			laid = append(laid, ids[g.start:g.end]...)
			gs[i].start, gs[i].end = start, int32(len(laid))
		}
	}
	ix.ids = laid
	return ix, nil
}

// Count is the number of alphagrams of length n.
func (ix *Index) Count(n int) int {
	if n < 0 || n >= len(ix.groups) {
		return 0
	}
	return len(ix.groups[n])
}

// Rank returns the alphagram of length n at rank r (1 ≤ r ≤ Count(n)).
func (ix *Index) Rank(n, r int) Alphagram {
	g := ix.groups[n][r-1]
	a := Alphagram{Rank: r, Ways: g.ways, Probability: g.ways / ix.draws[n]}
	for _, id := range ix.ids[g.start:g.end] {
		a.Words = append(a.Words, ix.lex.Word(int(id)))
	}
	a.Tiles = ix.letters(g, nil)
	return a
}

// letters appends the letters of group g, in tile-code order, to dst.
func (ix *Index) letters(g group, dst []alphabet.Tile) []alphabet.Tile {
	start := len(dst)
	dst = append(dst, ix.lex.Word(int(ix.ids[g.start]))...)
	slices.Sort(dst[start:])
	return dst
}

// Find returns the alphagram of tiles (in any order; a blank standing
// for a letter counts as the letter), or false when no word of the list
// is made of exactly those letters.
func (ix *Index) Find(tiles []alphabet.Tile) (Alphagram, bool) {
	n := len(tiles)
	if n == 0 || n >= len(ix.groups) {
		return Alphagram{}, false
	}
	want := make([]alphabet.Tile, n)
	for i, t := range tiles {
		want[i] = t.Letter()
	}
	slices.Sort(want)
	w := ways(ix.counts, want)
	gs := ix.groups[n]
	// The groups are in decreasing ways: find the first with w or less,
	// then look through those with exactly w.
	i, _ := slices.BinarySearchFunc(gs, w, func(g group, w float64) int { return cmp.Compare(w, g.ways) })
	letters := make([]alphabet.Tile, 0, n)
	for ; i < len(gs) && gs[i].ways == w; i++ {
		if letters = ix.letters(gs[i], letters[:0]); slices.Equal(letters, want) {
			return ix.Rank(n, i+1), true
		}
	}
	return Alphagram{}, false
}

// Ways counts the draws of len(tiles) tiles from a bag of counts (by
// tile code, the blanks' count first) that can spell tiles, in any
// order, telling the bag's tiles apart: for every way of taking b of the
// letters from blanks, the product of the binomial coefficients of the
// letters drawn and of the blanks. It is exact while the result is
// below 2^53 (every draw of up to 9 tiles from a bag of 100).
func Ways(counts []int, tiles []alphabet.Tile) float64 {
	sorted := make([]alphabet.Tile, len(tiles))
	for i, t := range tiles {
		sorted[i] = t.Letter()
	}
	slices.Sort(sorted)
	return ways(counts, sorted)
}

// ways is Ways of letters in tile-code order.
func ways(counts []int, letters []alphabet.Tile) float64 {
	blanks := min(counts[0], len(letters))
	// byBlanks[b]: the draws of the letters so far with b of them blanks.
	var small [2][8]float64
	byBlanks, next := small[0][:blanks+1:blanks+1], small[1][:blanks+1:blanks+1]
	if blanks >= len(small[0]) {
		byBlanks, next = make([]float64, blanks+1), make([]float64, blanks+1)
	}
	byBlanks[0] = 1
	for i := 0; i < len(letters); {
		l, c := letters[i], 0
		for ; i < len(letters) && letters[i] == l; i++ {
			c++
		}
		clear(next)
		for b, w := range byBlanks {
			if w == 0 {
				continue
			}
			for d := 0; d <= c && b+d <= blanks; d++ {
				next[b+d] += w * binom(counts[l], c-d)
			}
		}
		byBlanks, next = next, byBlanks
	}
	total := 0.0
	for b, w := range byBlanks {
		total += w * binom(counts[0], b)
	}
	return total
}

// binom is n choose k, 0 when k < 0 or k > n.
func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
