package interval

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/internal/bloom"
	"atril/lexicon"
	"atril/movegen"
	"atril/multiset"
)

// The Anagram Method (Anagram 2018 section 3, Algorithm 1): for every
// interval with v empty squares and every sub-rack of v tiles, look up
// the words whose letters are exactly the sub-rack ⊎ the interval's
// letters, and keep those that fit the interval's tiles and cross-sets.
//
// Tables, one set per word length n (an interval of length n looks only
// at its own, so its lookups stay in tables sized to that length):
//
//   - the words of length n, grouped by multiset, letter after letter
//     (n bytes each, no pointer to follow: a candidate's letters are
//     where its group starts plus n times its rank);
//   - Indices (no blank): the PER of a group's multiset → where the
//     group starts and how many words it holds;
//   - one blank: the PER of a multiset M of n−1 letters → the mask of
//     the letters x for which M ⊎ {x} is the multiset of a word;
//   - two blanks: the PER of a multiset M of n−2 letters → the mask of
//     the letters x for which M ⊎ {x} is a one-blank key.
//
// So no word is listed again under each way of turning its letters into
// blanks (Anagram 2018 lists it under every such key, 34 times the
// words in English). A sub-rack with j blanks is looked up in the j-blank
// table; each letter of the mask that some empty square of the interval
// accepts is added (one Table.Add) and the next table looked up, which
// always holds the key. Every such path ends on a group of words; they
// are placed with exactly the sub-rack's real tiles and the blanks as
// the added letters, so no move is produced twice.
//
// Key. The multiset is keyed by its PER (package multiset): one 64-bit
// word, exact (PER is injective on feasible multisets, so no
// verification is needed), built incrementally while the sub-racks are
// enumerated (adding a letter is a bit flip or one successor-table read).
// A multiset whose exceedance is infeasible has no PER and prunes the
// enumeration at once. Only the successor table is needed
// (multiset.BuildAdd), a few hundred kilobytes.

// AnagramOptions configure the anagram tables.
type AnagramOptions struct {
	// MaxBlanks is the most blanks a rack may use (default 2).
	MaxBlanks int
}

// AnagramTables are the precomputed tables of the Anagram Method.
type AnagramTables struct {
	Lex       *lexicon.Lexicon
	PER       *multiset.Table
	MaxBlanks int
	lens      []anaLen // by word length
	// runs knows where board letters go in words, for the best-by-equity
	// search (runFilter).
	runs      *runFilter
	BuildTime time.Duration
}

// anaLen holds the tables of one word length n.
type anaLen struct {
	n       int
	letters []alphabet.Tile // the words, grouped by multiset, n letters each
	// keys[j]: j = 0: PER → start<<32 | count (in words); j = 1, 2: PER
	// → letter mask (letter x in bit x).
	keys [3]*kvTable
	// filters[j] answer first whether a sub-rack's key is in keys[j].
	filters [3]bloom.Filter
}

// BuildAnagram precomputes the anagram tables of lex. perTab may be nil
// (the add-only PER table is then built).
func BuildAnagram(lex *lexicon.Lexicon, perTab *multiset.Table, opt AnagramOptions) (*AnagramTables, error) {
	t0 := time.Now()
	if opt.MaxBlanks == 0 {
		opt.MaxBlanks = 2
	}
	if opt.MaxBlanks > 2 || opt.MaxBlanks < 0 {
		return nil, fmt.Errorf("anagram tables: %d blanks: 0, 1 or 2 supported", opt.MaxBlanks)
	}
	L := lex.Alphabet.Size()
	if perTab == nil {
		var err error
		if perTab, err = multiset.BuildAdd(L, lex); err != nil {
			return nil, fmt.Errorf("anagram tables: %w", err)
		}
	}
	if !perTab.Fits64() {
		return nil, fmt.Errorf("anagram tables: %d letters with %d feasible exceedances need the 96-bit wide PER; the tables are keyed by the 64-bit one", L, perTab.Exceedances())
	}
	if lex.MaxLen() > MaxBoard {
		return nil, fmt.Errorf("anagram tables: words of %d letters, at most %d", lex.MaxLen(), MaxBoard)
	}
	at := &AnagramTables{Lex: lex, PER: perTab, MaxBlanks: opt.MaxBlanks, lens: make([]anaLen, lex.MaxLen()+1)}
	// Words by length, with their PERs.
	byLen := make([][]uint32, lex.MaxLen()+1)
	pers := make([]uint64, lex.Len())
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		if len(w) < 2 {
			continue
		}
		byLen[len(w)] = append(byLen[len(w)], uint32(i))
		pers[i] = uint64(perTab.Of(w))
	}
	// The lengths are independent: build them on the available cores,
	// longest first (they take longest).
	for n := range at.lens {
		at.lens[n].n = n
	}
	next := make(chan int, len(at.lens))
	for n := len(at.lens) - 1; n >= 2; n-- {
		next <- n
	}
	close(next)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		at.runs = buildRunFilter(lex)
	}()
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range next {
				at.buildLen(&at.lens[n], byLen[n], pers)
			}
		}()
	}
	wg.Wait()
	at.BuildTime = time.Since(t0)
	return at, nil
}

// buildLen fills the tables of one length from its words (lexicon
// indices) and the words' PERs.
func (at *AnagramTables) buildLen(tl *anaLen, ids []uint32, pers []uint64) {
	n := tl.n
	lex := at.Lex
	// Group the words by multiset: sort by PER, then by index (the
	// lexicon's order within a group).
	sortByKey(ids, pers)
	tl.letters = make([]alphabet.Tile, 0, n*len(ids))
	tl.keys[0] = newKV(int(float64(len(ids))/kvLoad) + 1)
	for j := 1; j <= at.MaxBlanks; j++ {
		// About the keys English has per word of the length.
		tl.keys[j] = newKV(int(float64(len(ids)*(j*n/2+1))/kvLoad) + 16)
	}
	var cnt alphabet.Rack
	var distinct [MaxBoard]alphabet.Tile
	for g := 0; g < len(ids); {
		key := pers[ids[g]]
		e := g
		for e < len(ids) && pers[ids[e]] == key {
			tl.letters = append(tl.letters, lex.Word(int(ids[e]))...)
			e++
		}
		tl.keys[0].put(key, uint64(g)<<32|uint64(e-g))
		if at.MaxBlanks > 0 {
			cnt = alphabet.Rack{}
			nd := 0
			for _, x := range lex.Word(int(ids[g])) {
				if cnt[x] == 0 {
					distinct[nd] = x
					nd++
				}
				cnt[x]++
			}
			// The PER of the counts, adding the distinct letters only.
			perOf := func() uint64 {
				var p multiset.PER
				for _, d := range distinct[:nd] {
					for k := uint8(0); k < cnt[d]; k++ {
						p = at.PER.Add(p, d)
					}
				}
				return uint64(p)
			}
			for a := 0; a < nd; a++ {
				x := distinct[a]
				cnt[x]--
				tl.keys[1].or(perOf(), 1<<x)
				if at.MaxBlanks >= 2 {
					for b := a; b < nd; b++ {
						y := distinct[b]
						if cnt[y] == 0 {
							continue
						}
						cnt[y]--
						tl.keys[2].or(perOf(), 1<<x|1<<y)
						cnt[y]++
					}
				}
				cnt[x]++
			}
		}
		g = e
	}
	for j := 0; j <= at.MaxBlanks; j++ {
		tl.keys[j].compact()
	}
	tl.makeFilters(at.MaxBlanks)
}

// makeFilters builds the filters of the keys.
func (tl *anaLen) makeFilters(maxBlanks int) {
	for j := 0; j <= maxBlanks; j++ {
		f := bloom.New(tl.keys[j].n, 12)
		for _, s := range tl.keys[j].slots {
			if s.key != emptyKey {
				f.Add(s.key)
			}
		}
		tl.filters[j] = f
	}
}

// sortByKey sorts ids by (key of the id, id): a radix sort on the key
// (stable, so ids stay in order within a key).
func sortByKey(ids []uint32, keys []uint64) {
	buf := make([]uint32, len(ids))
	src, dst := ids, buf
	for shift := 0; shift < 64; shift += 16 {
		var count [1<<16 + 1]int
		for _, id := range src {
			count[(keys[id]>>shift)&0xffff+1]++
		}
		if count[1] == len(src) {
			continue // every key has this digit 0
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, id := range src {
			d := (keys[id] >> shift) & 0xffff
			dst[count[d]] = id
			count[d]++
		}
		src, dst = dst, src
	}
	if len(ids) > 0 && &src[0] != &ids[0] {
		copy(ids, src)
	}
}

// Keys is the number of keys with j blanks (for j = 0, the distinct
// multisets of words; for j = 1, 2, the multisets a word's letters less
// j of them make).
func (at *AnagramTables) Keys(j int) int {
	n := 0
	for i := range at.lens {
		if t := at.lens[i].keys[j]; t != nil {
			n += t.n
		}
	}
	return n
}

// Entries is the number of entries with j blanks: words (j = 0), or
// (key, letter) pairs of the masks (j = 1, 2).
func (at *AnagramTables) Entries(j int) int {
	n := 0
	for i := range at.lens {
		tl := &at.lens[i]
		if j == 0 {
			n += len(tl.letters) / max(tl.n, 1)
			continue
		}
		if t := tl.keys[j]; t != nil {
			for _, s := range t.slots {
				if s.key != emptyKey {
					n += bits.OnesCount64(s.val)
				}
			}
		}
	}
	return n
}

// Bytes is the memory held by the anagram tables (not the PER table,
// which may be shared; the add-only one they need is PER.Bytes(), under
// a megabyte).
func (at *AnagramTables) Bytes() int {
	n := 0
	if at.runs != nil {
		n += at.runs.bl.Bytes()
	}
	for i := range at.lens {
		tl := &at.lens[i]
		n += len(tl.letters)
		for j := range tl.keys {
			if tl.keys[j] != nil {
				n += tl.keys[j].bytes() + tl.filters[j].Bytes()
			}
		}
	}
	return n
}

// Anagram is the Anagram Method generator (--algo anagram).
type Anagram struct {
	Tables *AnagramTables
	// NoShare turns off the per-call memo of lookups by (interval
	// letters, empty squares); it changes nothing but the speed.
	NoShare bool
	st      ivState
	stats   Stats
	fill    func()
	pend    []pendingLookup
	tl      *anaLen // tables of the current interval's length
	xmask   uint64  // letters a blank may stand for in the current interval
	lastX   uint    // the letter the first of two blanks stands for
	best    bestSearch
	filter  filterCache
	one     [1]movegen.Scored
}

// pendingLookup is a sub-rack whose lookup waits for its batch: the key,
// the blanks that complete it and its real letters (packed as in
// emptyCand), and, once looked up, the value found.
type pendingLookup struct {
	key   multiset.PER
	r     uint32
	j     uint8
	found bool
	val   uint64
}

// NewAnagram builds the anagram tables of lex in memory and returns the
// generator (CachedAnagram keeps them on disk).
func NewAnagram(lex *lexicon.Lexicon) (*Anagram, error) {
	at, err := BuildAnagram(lex, nil, AnagramOptions{})
	if err != nil {
		return nil, err
	}
	return NewAnagramFrom(at), nil
}

// NewAnagramFrom returns a generator over prebuilt tables. A generator
// must not be used by two goroutines at once; make one per goroutine
// (they can share the tables).
func NewAnagramFrom(at *AnagramTables) *Anagram {
	g := &Anagram{Tables: at}
	g.fill = g.fillBatch
	return g
}

// fillBatch fills a memo entry in three passes: list the sub-racks, look
// them all up, then record their candidates. The lookups of one batch do
// not depend on each other, so the processor overlaps their cache misses
// in the tables instead of waiting for each in turn, as a lookup made
// inside the enumeration would.
func (g *Anagram) fillBatch() {
	st := &g.st
	g.pend = g.pend[:0]
	st.dfs(0, st.base0, 0, g.leafPend)
	tl := g.tl
	for i := range g.pend {
		p := &g.pend[i]
		if tl.filters[p.j].Has(uint64(p.key)) {
			p.val, p.found = tl.keys[p.j].get(uint64(p.key))
		}
	}
	for i := range g.pend {
		p := &g.pend[i]
		if p.found {
			g.expand(p.key, p.val, int(p.j), int(p.j), p.r)
		}
	}
}

// expand follows the value v found under key with k blanks still to
// fill (j in all): a group of words when k = 0, else a mask of letters
// to add. In the memo (st.collect) it records the candidates; otherwise
// it places them.
func (g *Anagram) expand(key multiset.PER, v uint64, k, j int, r uint32) {
	st := &g.st
	if k == 0 {
		start, cnt := uint32(v>>32), uint32(v)
		if uint64(start)+uint64(cnt) > uint64(len(g.tl.letters)/g.tl.n) {
			// Past the words of this length: a file that passed its
			// checksum but not written by this program (loading does
			// not read every slot; see unmarshalAnagram).
			return
		}
		if st.collect {
			for wi := start; wi < start+cnt; wi++ {
				st.memoFlat = append(st.memoFlat, emptyCand{wi: wi, r: r, j: uint8(j)})
			}
			return
		}
		n := g.tl.n
		for wi := start; wi < start+cnt; wi++ {
			w := g.tl.letters[int(wi)*n : int(wi)*n+n]
			st.stats.Candidates++
			if !st.p.fits(w) {
				continue
			}
			if j == 0 {
				st.p.emitPlain(w)
			} else {
				st.exactBlanks(w, j)
			}
		}
		return
	}
	m := v & g.xmask
	if k < j {
		// The second blank takes letters from the first one's on, so
		// each pair of letters is tried once.
		m &= ^uint64(0) << g.lastX
	}
	for ; m != 0; m &= m - 1 {
		x := bits.TrailingZeros64(m)
		k2 := st.tab.Add(key, alphabet.Tile(x))
		st.stats.Lookups++
		v2, ok := g.tl.keys[k-1].get(uint64(k2))
		if !ok {
			continue // cannot happen: the mask lists keys of the next table
		}
		saved := g.lastX
		g.lastX = uint(x)
		g.expand(k2, v2, k-1, j, r)
		g.lastX = saved
	}
}

// leafPend records the current sub-rack for fillBatch.
func (g *Anagram) leafPend(key multiset.PER, j int) {
	st := &g.st
	if j > g.Tables.MaxBlanks {
		return
	}
	st.stats.Lookups++
	g.pend = append(g.pend, pendingLookup{key: key, r: st.subRack(), j: uint8(j)})
}

// Name implements Generator.
func (g *Anagram) Name() string { return "anagram" }

// Fork implements Generator: a generator over the same tables.
func (g *Anagram) Fork() movegen.Generator {
	f := NewAnagramFrom(g.Tables)
	f.NoShare = g.NoShare
	return f
}

// Stats returns the counters of the last Generate call.
func (g *Anagram) Stats() Stats { return g.stats }

// Generate implements Generator.
func (g *Anagram) Generate(b *board.Board, rack *alphabet.Rack, sink movegen.Sink) {
	g.stats = Stats{}
	st := &g.st
	st.setup(b, rack, nil, false, g.Tables.PER, sink, &g.stats)
	if st.nBlank > g.Tables.MaxBlanks {
		panic(fmt.Sprintf("anagram: rack holds %d blanks, tables built for %d", st.nBlank, g.Tables.MaxBlanks))
	}
	for d := board.Across; d <= board.Down; d++ {
		for line := 0; line < b.Size; line++ {
			st.li.load(b, d, line, st.letters)
			st.li.intervals(st.rackLen, &st.iv, g.interval)
		}
	}
}

func (g *Anagram) interval(iv *Interval) {
	st := &g.st
	st.stats.Intervals++
	if iv.Len >= len(g.Tables.lens) || !st.p.begin(&st.li, iv) {
		return
	}
	st.stats.Instances++
	base := st.base(iv)
	if base == multiset.Invalid {
		return
	}
	st.v = iv.Empty
	g.tl = &g.Tables.lens[iv.Len]
	g.lastX = 0
	if !g.NoShare {
		// The memo entry serves every interval with these letters and
		// empty squares, whatever their cross-sets: a blank may be any
		// letter, and fits checks the squares.
		g.xmask = st.b.AllLetters()
		st.base0 = base
		if st.shared(iv, base, g.tl.letters, iv.Len, g.fill) {
			return
		}
	}
	g.xmask = st.blankMask(iv)
	st.dfs(0, base, 0, g.leaf)
}

// leaf looks up the current sub-rack (real letters in st.cur, j blanks)
// and places its candidates.
func (g *Anagram) leaf(key multiset.PER, j int) {
	st := &g.st
	if j > g.Tables.MaxBlanks {
		return
	}
	st.stats.Lookups++
	if !g.tl.filters[j].Has(uint64(key)) {
		return
	}
	v, ok := g.tl.keys[j].get(uint64(key))
	if !ok {
		return
	}
	g.expand(key, v, j, j, 0)
}

// lastBit marks the last word id of a run in a candidate list.
const lastBit = 1 << 31

// run returns the run of word ids starting at list[start].
func run(list []uint32, start uint32) []uint32 {
	e := start
	for list[e]&lastBit == 0 {
		e++
	}
	return list[start : e+1]
}
