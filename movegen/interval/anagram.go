package interval

import (
	"fmt"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/internal/hashtab"
	"atril/lexicon"
	"atril/movegen"
	"atril/multiset"
)

// The Anagram Method (Anagram 2018 section 3, Algorithm 1): for every
// interval with v empty squares and every sub-rack of v tiles, look up
// the words whose letters are exactly the sub-rack ⊎ the interval's
// letters, and keep those that fit the interval's tiles and cross-sets.
//
// Tables. Indices_n / Anagramas_n become, for j = 0, 1, 2 blanks, a hash
// table from a key to a run of word ids: for every word w and every
// sub-multiset X of j of its letters (the letters a blank could stand
// for), the key of w − X lists w. The length n is implied by the key
// (|w − X| + j), so one table per j serves every length.
//
// Key. The multiset w − X is keyed by its PER (package multiset) rather
// than by Heuri's sorted string: the key is one 64-bit word, exact
// (PER is injective on feasible multisets, so no verification is
// needed), and it is built incrementally while the sub-racks are
// enumerated — adding a letter is a bit flip or one successor-table
// read — so each of the C(7,v) lookups costs O(1) instead of sorting and
// hashing a string. A multiset whose exceedance is infeasible has no PER
// and prunes the enumeration at once (no superset can be a word).
//
// Excess rule. Seed 001 keeps a key with j blanks only if j + e(w−X) ≤ 2,
// where e counts letters beyond the bag's supply. That is only sound for
// positions reachable in a game; AnagramOptions.ExcessRule turns it on
// (it saves little: see atril lexicon stats), and it is off by default so
// that any position with at most MaxBlanks blanks on the rack is handled.

// AnagramOptions configure the anagram tables.
type AnagramOptions struct {
	// MaxBlanks is the most blanks a rack may use (default 2).
	MaxBlanks int
	// ExcessRule drops keys that need more blanks than exist (Anagram 2018
	// e(u)); BagCounts gives the tiles of each letter in the bag.
	ExcessRule bool
	BagCounts  []int
}

// AnagramTables are the precomputed tables of the Anagram Method.
type AnagramTables struct {
	Lex       *lexicon.Lexicon
	PER       *multiset.Table
	MaxBlanks int
	keys      []*hashtab.U64Map // per j: key → start of its run in words
	words     [][]uint32        // word ids; the last of a run has lastBit
	filters   []*hashtab.Filter // per j: asked before keys[j]
	ws        wordStore
	BuildTime time.Duration
}

// BuildAnagram precomputes the anagram tables of lex. perTab may be nil
// (it is then built).
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
		if perTab, err = multiset.Build(L, lex); err != nil {
			return nil, fmt.Errorf("anagram tables: %w", err)
		}
	}
	if !perTab.Fits64() {
		return nil, fmt.Errorf("anagram tables: %d letters with %d feasible exceedances need the 96-bit wide PER; the tables are keyed by the 64-bit one", L, perTab.Exceedances())
	}
	at := &AnagramTables{Lex: lex, PER: perTab, MaxBlanks: opt.MaxBlanks, ws: newWordStore(lex)}
	nj := opt.MaxBlanks + 1
	at.keys = make([]*hashtab.U64Map, nj)
	at.words = make([][]uint32, nj)
	var counts [][]uint32 = make([][]uint32, nj)
	for j := range at.keys {
		at.keys[j] = hashtab.NewU64Map(lex.Len() * (1 + 4*j))
	}
	// visit calls f(j, key) for every key word w is listed under.
	var cnt alphabet.Rack
	var distinct [64]alphabet.Tile
	excess := func(c *alphabet.Rack) int {
		e := 0
		for l := 1; l <= L && l < len(opt.BagCounts); l++ {
			if d := int(c[l]) - opt.BagCounts[l]; d > 0 {
				e += d
			}
		}
		return e
	}
	visit := func(w []alphabet.Tile, f func(j int, key multiset.PER)) {
		cnt = alphabet.Rack{}
		nd := 0
		for _, x := range w {
			if cnt[x] == 0 {
				distinct[nd] = x
				nd++
			}
			cnt[x]++
		}
		try := func(j int) {
			if opt.ExcessRule && j+excess(&cnt) > opt.MaxBlanks {
				return
			}
			f(j, perTab.FromCounts(&cnt))
		}
		try(0)
		if opt.MaxBlanks >= 1 {
			for a := 0; a < nd; a++ {
				x := distinct[a]
				cnt[x]--
				try(1)
				if opt.MaxBlanks >= 2 {
					for b := a; b < nd; b++ {
						y := distinct[b]
						if cnt[y] == 0 {
							continue
						}
						cnt[y]--
						try(2)
						cnt[y]++
					}
				}
				cnt[x]++
			}
		}
	}
	// Pass 1: group ids (recorded in visiting order for pass 2).
	var order []uint32
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		if len(w) < 2 {
			continue
		}
		visit(w, func(j int, key multiset.PER) {
			g, ok := at.keys[j].Get(uint64(key))
			if !ok {
				g = uint32(len(counts[j]))
				at.keys[j].Put(uint64(key), g)
				counts[j] = append(counts[j], 0)
			}
			counts[j][g]++
			order = append(order, g)
		})
	}
	// Group starts; the map's value becomes the start itself and the last
	// word of a group carries lastBit.
	starts := make([][]uint32, nj)
	for j := range counts {
		st := make([]uint32, len(counts[j])+1)
		for g, c := range counts[j] {
			st[g+1] = st[g] + c
		}
		starts[j] = st
		at.words[j] = make([]uint32, st[len(counts[j])])
	}
	o := 0
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		if len(w) < 2 {
			continue
		}
		visit(w, func(j int, key multiset.PER) {
			g := order[o]
			o++
			c := counts[j][g] - 1
			counts[j][g] = c
			x := uint32(i)
			if starts[j][g]+c == starts[j][g+1]-1 {
				x |= lastBit
			}
			at.words[j][starts[j][g]+c] = x
		})
	}
	for j := range at.keys {
		m := hashtab.NewU64Map(at.keys[j].Len())
		at.keys[j].Range(func(k uint64, g uint32) { m.Put(k, starts[j][g]) })
		m.Compact()
		at.keys[j] = m
		bpk := 8
		if j == 0 {
			bpk = 16
		}
		f := hashtab.NewFilter(m.Len(), bpk)
		m.Range(func(k uint64, _ uint32) { f.Add(k) })
		at.filters = append(at.filters, f)
	}
	at.BuildTime = time.Since(t0)
	return at, nil
}

// Keys is the number of keys (Indices entries) with j blanks.
func (at *AnagramTables) Keys(j int) int { return at.keys[j].Len() }

// Entries is the number of anagram entries (Anagramas rows) with j blanks.
func (at *AnagramTables) Entries(j int) int { return len(at.words[j]) }

// Bytes is the memory held by the anagram tables (not the PER tables).
func (at *AnagramTables) Bytes() int {
	n := len(at.ws.data)
	for j := range at.keys {
		n += at.keys[j].Bytes() + 4*len(at.words[j]) + at.filters[j].Bytes()
	}
	return n
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

// lookup returns the words listed under key with j blanks (ids may carry
// lastBit).
func (at *AnagramTables) lookup(j int, key multiset.PER) []uint32 {
	if !at.filters[j].Has(uint64(key)) {
		return nil
	}
	s, ok := at.keys[j].Get(uint64(key))
	if !ok {
		return nil
	}
	return run(at.words[j], s)
}

// Anagram is the Anagram Method generator (--algo anagram).
type Anagram struct {
	T *AnagramTables
	// NoShare turns off the per-call memo of lookups by (interval
	// letters, empty squares); it changes nothing but the speed.
	NoShare bool
	st      ivState
	stats   Stats
	fill    func()
	pend    []pendingLookup
}

// pendingLookup is a sub-rack whose lookup waits for its batch: the key,
// the blanks that complete it and its real letters (packed as in
// emptyCand), and, once looked up, where its run starts.
type pendingLookup struct {
	key   multiset.PER
	r     uint32
	j     uint8
	found bool
	start uint32
}

// NewAnagram builds the anagram tables of lex and returns the generator.
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
	g := &Anagram{T: at}
	g.fill = g.fillBatch
	return g
}

// fillBatch fills a memo entry in three passes: list the sub-racks, look
// them all up, then record their candidates. The lookups of one batch do
// not depend on each other, so the processor overlaps their cache misses
// in the large tables instead of waiting for each in turn, as a lookup
// made inside the enumeration would.
func (g *Anagram) fillBatch() {
	st := &g.st
	g.pend = g.pend[:0]
	st.dfs(0, st.base0, 0, g.leafPend)
	at := g.T
	for i := range g.pend {
		p := &g.pend[i]
		if at.filters[p.j].Has(uint64(p.key)) {
			p.start, p.found = at.keys[p.j].Get(uint64(p.key))
		}
	}
	for i := range g.pend {
		p := &g.pend[i]
		if !p.found {
			continue
		}
		for _, wi := range run(at.words[p.j], p.start) {
			st.memoFlat = append(st.memoFlat, emptyCand{wi: wi &^ lastBit, r: p.r, j: p.j})
		}
	}
}

// leafPend records the current sub-rack for fillBatch.
func (g *Anagram) leafPend(key multiset.PER, j int) {
	st := &g.st
	if j > g.T.MaxBlanks {
		return
	}
	st.stats.Lookups++
	g.pend = append(g.pend, pendingLookup{key: key, r: st.subRack(), j: uint8(j)})
}

// Name implements Generator.
func (g *Anagram) Name() string { return "anagram" }

// Fork implements Generator: a generator over the same tables.
func (g *Anagram) Fork() movegen.Generator {
	f := NewAnagramFrom(g.T)
	f.NoShare = g.NoShare
	return f
}

// Stats returns the counters of the last Generate call.
func (g *Anagram) Stats() Stats { return g.stats }

// Generate implements Generator.
func (g *Anagram) Generate(b *board.Board, rack *alphabet.Rack, sink movegen.Sink) {
	g.stats = Stats{}
	st := &g.st
	st.setup(b, rack, g.T.PER, sink, &g.stats)
	if st.nBlank > g.T.MaxBlanks {
		panic(fmt.Sprintf("anagram: rack holds %d blanks, tables built for %d", st.nBlank, g.T.MaxBlanks))
	}
	for d := board.Across; d <= board.Down; d++ {
		for line := 0; line < b.N; line++ {
			st.li.load(b, d, line)
			st.li.intervals(st.rackLen, &st.iv, g.interval)
		}
	}
}

func (g *Anagram) interval(iv *Interval) {
	st := &g.st
	st.stats.Intervals++
	if !st.p.begin(&st.li, iv) {
		return
	}
	st.stats.Instances++
	base := st.base(iv)
	if base == multiset.Invalid {
		return
	}
	st.v = iv.Empty
	if g.NoShare {
		st.dfs(0, base, 0, g.leaf)
		return
	}
	st.base0 = base
	if !st.shared(iv, base, &g.T.ws, g.fill) {
		st.dfs(0, base, 0, g.leaf)
	}
}

// leaf looks up the current sub-rack (real letters in st.cur, j blanks).
func (g *Anagram) leaf(key multiset.PER, j int) {
	st := &g.st
	if j > g.T.MaxBlanks {
		return
	}
	st.stats.Lookups++
	ws := g.T.lookup(j, key)
	n := st.p.iv.Len
	if st.collect {
		for _, wi := range ws {
			st.collectCand(wi&^lastBit, j)
		}
		return
	}
	for _, wi := range ws {
		w := g.T.ws.word(wi&^lastBit, n)
		st.stats.Candidates++
		if !st.p.fits(w) {
			continue
		}
		if j == 0 {
			st.p.emitPlain(w)
			continue
		}
		st.exactBlanks(w, j)
	}
}
