package interval

import (
	"fmt"
	"math/bits"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/internal/bloom"
	"atril/internal/hashtab"
	"atril/lexicon"
	"atril/movegen"
	"atril/multiset"
)

// The Intern Words Method (Sánchez Bello 2025 chapter 5).
//
// Every interval is a Hand-Interval instance. An instance is pruned when
// an empty square of the interval has an empty cross-set, or when its
// main placed inner word (the longest run of tiles, with its start and
// the interval's length) is not a placed inner word of the lexicon. The
// candidates of an instance are the words that contain the main placed
// inner word and whose letters are a sub-multiset of the combined
// multiset (rack ⊎ the interval's letters). Two ways to list them:
//
//   - high level: the precomputed list of the words containing the main
//     placed inner word, filtered by a subset test against the combined
//     multiset (cost ∝ the inner word's frequency). The test is a
//     count-vector test on the word's letters, which are one cache line
//     away; the constant-time PER test (IWMOptions.PERSubset) needs two
//     lookups in tables of tens of megabytes and measured slower;
//   - low level: one Multiset-Interval lookup per sub-rack of v tiles (v
//     empty squares), keyed by (PER of sub-rack ⊎ interval letters,
//     placed inner word) (cost ∝ C(7, v)).
//
// The decision threshold T (default 10) picks the high level when the
// frequency is ≤ T. So the high-level table holds the lists of the rare
// placed inner words only, and the low-level table the Multiset-Interval
// instances of the common ones, plus the empty inner word of every
// length (intervals holding no tile, as on the empty board), which is
// always solved at the low level.
//
// Blanks. Heuri-style tables list every word again under each way of
// turning one or two of its letters into blanks, about 40 times the
// entries. Here the tables hold no blank at all. A sub-rack with j blanks
// is completed at query time by walking the PER successor graph (the
// "graph whose nodes are multisets and edges letters" of the thesis's
// Recommendations): each blank is given every letter x1 ≤ x2 … allowed
// by the union of the interval's cross-sets, each step one Table.Add,
// and the completed key is looked up. Candidates found are placed with
// exactly the sub-rack's real tiles, the rest as blanks, so no move is
// produced twice. Because a blank multiplies the low-level lookups by up
// to L (or L²/2 for two blanks), instances with blanks pick the cheaper
// of the two solutions per instance by a cost estimate (lookups versus
// list length), and the high-level lists are therefore kept for the
// common placed inner words too (IWMOptions.NoBlankLists drops them:
// blank racks then always use the low level). Those lists cost 4 bytes
// per inner-word occurrence, against tens of entries per word for
// blank-expanded tables; atril lexicon stats prints both.

// IWMOptions configure the IWM tables.
type IWMOptions struct {
	// Threshold is the decision threshold (default 10).
	Threshold int
	// NoBlankLists drops the high-level lists of the common placed inner
	// words (kept by default to serve racks with blanks).
	NoBlankLists bool
	// Workers > 1 makes Generate solve the lines of the board on that
	// many goroutines.
	Workers int
	// Adaptive lets an instance whose main placed inner word is common
	// still use its high-level list (kept for blank racks) when that
	// list is shorter than AdaptiveFactor × the sub-racks the low level
	// would look up: the "threshold that is not fixed" of the thesis's
	// Recommendations. Off, the fixed threshold decides alone (for
	// racks without blanks), as in the thesis.
	Adaptive       bool
	AdaptiveFactor int
	// PERSubset filters high-level candidates with the constant-time PER
	// subset test instead of a count-vector test on the word's letters.
	PERSubset bool
	// Share solves the low-level instances of racks without blanks from
	// a per-call memo keyed by (interval letters, empty squares), looked
	// up through the empty inner word's keys (all words of the length
	// with those letters; fits then checks the tiles' positions). It
	// trades the placed inner word's selectivity for far fewer lookups.
	Share bool
}

// piwBits: a placed inner word code is id<<10 | pos<<5 | length.
func piwCode(id uint32, pos, n int) uint64 { return uint64(id)<<10 | uint64(pos)<<5 | uint64(n) }

// IWMTables are the precomputed tables of the Intern Words Method.
type IWMTables struct {
	Lex       *lexicon.Lexicon
	PER       *multiset.Table
	Threshold int
	// Query-time choices (see IWMOptions).
	Adaptive       bool
	AdaptiveFactor int
	PERSubset      bool
	Share          bool
	// innerID[word index]: the word's id as an inner word (letters are
	// 1..L, words occurring inside others L+1.., other words after).
	innerID    []uint32
	innerWords int // words that occur as inner words
	piw        *hashtab.U64Map
	freq       []uint32 // by placed inner word index
	emptyPIW   [MaxBoard + 1]uint32
	hiStart    []uint32 // by placed inner word index (len+1)
	hiWords    []uint32
	lo         *hashtab.PairMap // Multiset-Interval key → start of its run
	loWords    []uint32         // word ids; the last of a run has lastBit
	wordPER    []multiset.PER
	words      wordStore
	// Filters asked before the low-level table: word multisets (small,
	// stays in cache) and Multiset-Interval keys.
	anaFilter, loFilter bloom.Filter
	// Occurrences of placed inner words (Sánchez Bello 2025 Table 5.5).
	Occurrences int
	// ThesisHigh is the number of high-level entries the thesis keeps
	// (lists of rare inner words only); BlankHigh the extra entries kept
	// for blank racks.
	ThesisHigh, BlankHigh int
	BuildTime             time.Duration
}

// BuildIWM precomputes the IWM tables of lex; perTab may be nil.
func BuildIWM(lex *lexicon.Lexicon, perTab *multiset.Table, opt IWMOptions) (*IWMTables, error) {
	t0 := time.Now()
	if opt.Threshold <= 0 {
		opt.Threshold = 10
	}
	L := lex.Alphabet.Size()
	if perTab == nil {
		var err error
		if perTab, err = multiset.Build(L, lex); err != nil {
			return nil, fmt.Errorf("iwm tables: %w", err)
		}
	}
	if !perTab.Fits64() {
		return nil, fmt.Errorf("iwm tables: %d letters with %d feasible exceedances need the 96-bit wide PER; the tables are keyed by the 64-bit one", L, perTab.Exceedances())
	}
	if lex.MaxLen() > MaxBoard-1 {
		return nil, fmt.Errorf("iwm tables: words of %d letters, at most %d", lex.MaxLen(), MaxBoard-1)
	}
	if opt.AdaptiveFactor <= 0 {
		opt.AdaptiveFactor = 4
	}
	T := &IWMTables{Lex: lex, PER: perTab, Threshold: opt.Threshold, Adaptive: opt.Adaptive,
		AdaptiveFactor: opt.AdaptiveFactor, PERSubset: opt.PERSubset, Share: opt.Share}
	nw := lex.Len()
	T.words = newWordStore(lex)
	T.wordPER = make([]multiset.PER, nw)
	for i := 0; i < nw; i++ {
		T.wordPER[i] = perTab.Of(lex.Word(i))
	}
	// Pass 1: the inner words of every word: a proper substring that is
	// a letter or a word. occ holds (substring ref, start) per
	// occurrence, occStart the occurrences of each word.
	occStart := make([]uint32, nw+1)
	var occ []uint64 // ref<<5 | pos; ref = letter, or L+1+word index
	isInner := make([]bool, nw)
	for i := 0; i < nw; i++ {
		w := lex.Word(i)
		n := len(w)
		for p := 0; p < n; p++ {
			for k := 1; p+k <= n; k++ {
				if k == n {
					continue
				}
				if k == 1 {
					occ = append(occ, uint64(w[p])<<5|uint64(p))
					continue
				}
				if j := lex.Index(w[p : p+k]); j >= 0 {
					isInner[j] = true
					occ = append(occ, uint64(L+1+j)<<5|uint64(p))
				}
			}
		}
		occStart[i+1] = uint32(len(occ))
	}
	T.Occurrences = len(occ)
	T.innerID = make([]uint32, nw)
	next := uint32(L + 1)
	for i := 0; i < nw; i++ {
		if isInner[i] {
			T.innerID[i] = next
			next++
		}
	}
	T.innerWords = int(next) - L - 1
	for i := 0; i < nw; i++ {
		if !isInner[i] {
			T.innerID[i] = next
			next++
		}
	}
	idOf := func(ref uint64) uint32 {
		if ref <= uint64(L) {
			return uint32(ref)
		}
		return T.innerID[ref-uint64(L)-1]
	}
	// Pass 2: placed inner words and their frequencies; then the empty
	// inner word of every length.
	T.piw = hashtab.NewU64Map(len(occ) / 4)
	for i := 0; i < nw; i++ {
		n := len(lex.Word(i))
		for _, o := range occ[occStart[i]:occStart[i+1]] {
			code := piwCode(idOf(o>>5), int(o&31), n)
			ix, ok := T.piw.Get(code)
			if !ok {
				ix = uint32(len(T.freq))
				T.piw.Put(code, ix)
				T.freq = append(T.freq, 0)
			}
			T.freq[ix]++
		}
	}
	// From here on occ holds the placed inner word index of each
	// occurrence.
	for i := 0; i < nw; i++ {
		n := len(lex.Word(i))
		for k := occStart[i]; k < occStart[i+1]; k++ {
			o := occ[k]
			ix, _ := T.piw.Get(piwCode(idOf(o>>5), int(o&31), n))
			occ[k] = uint64(ix)
		}
	}
	T.piw.Compact()
	for n := range T.emptyPIW {
		T.emptyPIW[n] = multiset.NoID
	}
	for i := 0; i < nw; i++ {
		n := len(lex.Word(i))
		if n < 2 {
			continue
		}
		if T.emptyPIW[n] == multiset.NoID {
			T.emptyPIW[n] = uint32(len(T.freq))
			T.freq = append(T.freq, 0)
		}
		T.freq[T.emptyPIW[n]]++
	}
	nPIW := len(T.freq)
	isEmptyPIW := make([]bool, nPIW)
	for _, ix := range T.emptyPIW {
		if ix != multiset.NoID {
			isEmptyPIW[ix] = true
		}
	}
	thr := uint32(opt.Threshold)
	high := func(ix uint32) bool {
		return !isEmptyPIW[ix] && (T.freq[ix] <= thr || !opt.NoBlankLists)
	}
	// Pass 3: high-level lists.
	T.hiStart = make([]uint32, nPIW+1)
	for ix := 0; ix < nPIW; ix++ {
		c := uint32(0)
		if high(uint32(ix)) {
			c = T.freq[ix]
			if T.freq[ix] <= thr {
				T.ThesisHigh += int(c)
			} else {
				T.BlankHigh += int(c)
			}
		}
		T.hiStart[ix+1] = T.hiStart[ix] + c
	}
	T.hiWords = make([]uint32, T.hiStart[nPIW])
	cursor := append([]uint32(nil), T.hiStart[:nPIW]...)
	// Pass 4 (with 3): low-level keys of the common placed inner words
	// and of the empty inner word.
	T.lo = hashtab.NewPairMap(len(occ) / 2)
	var loCount []uint32
	forLow := func(f func(key multiset.PER, ix uint32, wi int)) {
		for i := 0; i < nw; i++ {
			n := len(lex.Word(i))
			for _, o := range occ[occStart[i]:occStart[i+1]] {
				ix := uint32(o)
				if T.freq[ix] > thr {
					f(T.wordPER[i], ix, i)
				}
			}
			if n >= 2 {
				f(T.wordPER[i], T.emptyPIW[n], i)
			}
		}
	}
	for i := 0; i < nw; i++ {
		for _, o := range occ[occStart[i]:occStart[i+1]] {
			ix := uint32(o)
			if high(ix) {
				T.hiWords[cursor[ix]] = uint32(i)
				cursor[ix]++
			}
		}
	}
	var order []uint32
	forLow(func(key multiset.PER, ix uint32, wi int) {
		g, ok := T.lo.Get(uint64(key), ix)
		if !ok {
			g = uint32(len(loCount))
			T.lo.Put(uint64(key), ix, g)
			loCount = append(loCount, 0)
		}
		loCount[g]++
		order = append(order, g)
	})
	loStart := make([]uint32, len(loCount)+1)
	for g, c := range loCount {
		loStart[g+1] = loStart[g] + c
	}
	T.loWords = make([]uint32, loStart[len(loCount)])
	o := 0
	forLow(func(key multiset.PER, ix uint32, wi int) {
		g := order[o]
		o++
		loCount[g]--
		x := uint32(wi)
		if loCount[g] == 0 {
			x |= lastBit // the last one filled is the run's last
		}
		T.loWords[loStart[g]+(loStart[g+1]-loStart[g]-1-loCount[g])] = x
	})
	order = nil
	lo := hashtab.NewPairMap(T.lo.Len())
	T.lo.Range(func(k uint64, k2, g uint32) { lo.Put(k, k2, loStart[g]) })
	lo.Compact()
	T.lo = lo
	T.anaFilter = bloom.New(nw, 16)
	for _, p := range T.wordPER {
		T.anaFilter.Add(uint64(p))
	}
	T.loFilter = bloom.New(lo.Len(), 10)
	lo.Range(func(k uint64, k2, _ uint32) { T.loFilter.Add(hashtab.PairKey(k, k2)) })
	T.BuildTime = time.Since(t0)
	return T, nil
}

// PlacedInnerWords is the number of distinct placed inner words (the
// empty inner words of each length not counted).
func (T *IWMTables) PlacedInnerWords() int { return T.piw.Len() }

// InnerWords is the number of distinct inner words that are words (not
// letters).
func (T *IWMTables) InnerWords() int { return T.innerWords }

// Freq returns the frequencies of the placed inner words (shares them;
// do not modify). The last entries are the empty inner words.
func (T *IWMTables) Freq() []uint32 { return T.freq[:T.piw.Len()] }

// HighEntries and LowEntries are the candidate-list lengths; HighIndex and
// LowIndex the index-table entries (placed inner words with a high-level
// list; Multiset-Interval keys).
func (T *IWMTables) HighEntries() int { return len(T.hiWords) }

// LowEntries is the length of the low-level candidate list.
func (T *IWMTables) LowEntries() int { return len(T.loWords) }

// LowIndex is the number of Multiset-Interval keys in the low-level table.
func (T *IWMTables) LowIndex() int { return T.lo.Len() }

// HighIndex is the number of placed inner words with a thesis high-level
// list (frequency ≤ threshold).
func (T *IWMTables) HighIndex() int {
	n := 0
	for ix, f := range T.freq[:T.piw.Len()] {
		if f <= uint32(T.Threshold) && T.hiStart[ix+1] > T.hiStart[ix] {
			n++
		}
	}
	return n
}

// Bytes is the memory held by the IWM tables (not the PER tables).
func (T *IWMTables) Bytes() int {
	return 4*len(T.innerID) + T.piw.Bytes() + 4*len(T.freq) + 4*len(T.hiStart) + 4*len(T.hiWords) +
		T.lo.Bytes() + 4*len(T.loWords) + 8*len(T.wordPER) + T.anaFilter.Bytes() + T.loFilter.Bytes() + len(T.words.data)
}

// IWM is the Intern Words Method generator (--algo iwm).
type IWM struct {
	Tables  *IWMTables
	Workers int
	st      iwmState
	stats   Stats
	par     *iwmParallel
	best    bestSearch
	filter  filterCache
	one     [1]movegen.Scored
}

type iwmState struct {
	ivState
	T         *IWMTables
	counts    [alphabet.MaxLetters + 1]int8 // combined real letters, count path
	piw       uint32
	xmask     uint64 // letters a blank may stand for in this interval
	jTotal    int
	subCount  [MaxBoard + 1]int // distinct real sub-racks by size
	rackPER   multiset.PER
	lowLeaf   func(multiset.PER, int)
	fillEmpty func()
	ivFunc    func(*Interval)
}

// NewIWM builds the IWM tables of lex with the given options.
func NewIWM(lex *lexicon.Lexicon, opt IWMOptions) (*IWM, error) {
	T, err := BuildIWM(lex, nil, opt)
	if err != nil {
		return nil, err
	}
	return NewIWMFrom(T, opt.Workers), nil
}

// NewIWMFrom returns a generator over prebuilt tables using workers
// goroutines (≤ 1: sequential). A generator must not be used by two
// goroutines at once; generators may share tables.
func NewIWMFrom(T *IWMTables, workers int) *IWM {
	g := &IWM{Tables: T, Workers: workers}
	g.st.init(T)
	return g
}

func (s *iwmState) init(T *IWMTables) {
	s.T = T
	s.lowLeaf = s.leafLow
	s.ivFunc = s.interval
	s.fillEmpty = func() { s.dfs(0, s.base0, 0, s.lowLeaf) }
}

// Name implements Generator.
func (g *IWM) Name() string { return "iwm" }

// Fork implements Generator: a generator over the same tables with the
// same number of workers.
func (g *IWM) Fork() movegen.Generator { return NewIWMFrom(g.Tables, g.Workers) }

// Stats returns the counters of the last Generate call.
func (g *IWM) Stats() Stats { return g.stats }

// Generate implements Generator.
func (g *IWM) Generate(b *board.Board, rack *alphabet.Rack, sink movegen.Sink) {
	g.stats = Stats{}
	if g.Workers > 1 {
		g.generateParallel(b, rack, sink)
		return
	}
	g.st.prepare(b, rack, sink, &g.stats)
	for d := board.Across; d <= board.Down; d++ {
		for line := 0; line < b.Size; line++ {
			g.st.line(b, d, line)
		}
	}
}

// prepare sets up the per-call state.
func (s *iwmState) prepare(b *board.Board, rack *alphabet.Rack, sink movegen.Sink, stats *Stats) {
	s.setup(b, rack, nil, false, s.T.PER, sink, stats)
	var p multiset.PER
	for i := 0; i < s.nrl; i++ {
		for k := 0; k < int(s.rc[i]); k++ {
			p = s.tab.Add(p, s.rl[i])
		}
	}
	s.rackPER = p
	// Distinct sub-multisets of the real letters by size.
	for i := range s.subCount {
		s.subCount[i] = 0
	}
	s.subCount[0] = 1
	for i := 0; i < s.nrl; i++ {
		for size := len(s.subCount) - 1; size >= 0; size-- {
			c := 0
			for k := 0; k <= int(s.rc[i]) && k <= size; k++ {
				c += s.subCount[size-k]
			}
			s.subCount[size] = c
		}
	}
}

func (s *iwmState) line(b *board.Board, d board.Dir, line int) {
	s.li.load(b, d, line, s.letters)
	s.li.intervals(s.rackLen, &s.iv, s.ivFunc)
}

// piwOf returns the index of iv's main placed inner word, or NoID.
func (s *iwmState) piwOf(iv *Interval) uint32 {
	T := s.T
	if iv.Main < 0 {
		return T.emptyPIW[iv.Len]
	}
	w := iv.Inner[iv.Main]
	at := iv.Start + w.Start
	var id uint32
	if s.li.runKnown&(1<<at) != 0 {
		id = s.li.runID[at]
	} else {
		if w.Len == 1 {
			id = uint32(s.li.tiles[at].Letter())
		} else {
			var buf [MaxBoard]alphabet.Tile
			ws := buf[:w.Len]
			for i := range ws {
				ws[i] = s.li.tiles[at+i].Letter()
			}
			if j := T.Lex.Index(ws); j >= 0 {
				id = T.innerID[j]
			}
		}
		s.li.runKnown |= 1 << at
		s.li.runID[at] = id
	}
	if id == 0 {
		return multiset.NoID
	}
	ix, ok := T.piw.Get(piwCode(id, w.Start, iv.Len))
	if !ok {
		return multiset.NoID
	}
	return ix
}

func (s *iwmState) interval(iv *Interval) {
	s.stats.Intervals++
	if !s.p.begin(&s.li, iv) {
		return
	}
	piw := s.piwOf(iv)
	if piw == multiset.NoID {
		return
	}
	base := s.base(iv)
	if base == multiset.Invalid {
		return
	}
	s.stats.Instances++
	s.piw = piw
	s.v = iv.Empty
	T := s.T
	hiLen := T.hiStart[piw+1] - T.hiStart[piw]
	freq := T.freq[piw]
	// Rare placed inner words have no low-level entries: high level. The
	// common ones go to the low level, unless the rack holds blanks and
	// the high-level list (kept for blanks) is estimated cheaper.
	useHigh := freq <= uint32(T.Threshold) && hiLen > 0
	if !useHigh && s.nBlank == 0 && hiLen > 0 && T.Adaptive {
		useHigh = int(hiLen) <= T.AdaptiveFactor*s.subCount[s.v]
	}
	if !useHigh && s.nBlank > 0 && hiLen > 0 {
		// Estimated lookups of the low level with blanks completed.
		s.xmask = s.blankMask(iv)
		nx := bits.OnesCount64(s.xmask)
		low := 0
		for j := 0; j <= s.nBlank && j <= s.v; j++ {
			c := s.subCount[s.v-j]
			switch j {
			case 1:
				c *= nx
			case 2:
				c *= nx * (nx + 1) / 2
			default:
				for k := 0; k < j; k++ {
					c *= nx
				}
			}
			low += c
		}
		useHigh = int(hiLen) <= 2*low
	}
	if useHigh {
		s.high(base, T.hiWords[T.hiStart[piw]:T.hiStart[piw+1]])
		return
	}
	if e := T.emptyPIW[iv.Len]; e != multiset.NoID && (iv.Main < 0 || T.Share && s.nBlank == 0) {
		// Solved from the per-call memo through the empty inner word's
		// keys (the words of this length with these letters): always for
		// intervals holding no tile, and with Share for racks without
		// blanks. Blanks may stand for any letter (the entry is shared).
		s.xmask = ^uint64(0)
		s.base0 = base
		saved := s.piw
		s.piw = e
		ok := s.shared(iv, base, T.words.data, T.words.stride, s.fillEmpty)
		s.piw = saved
		if ok {
			return
		}
	}
	s.xmask = s.blankMask(iv)
	s.dfs(0, base, 0, s.lowLeaf)
}

// high is the high-level solution: filter the words containing the main
// placed inner word by a subset test against the combined multiset.
func (s *iwmState) high(base multiset.PER, list []uint32) {
	T := s.T
	iv := s.p.iv
	if s.nBlank == 0 && T.PERSubset {
		comb := s.tab.Sum(base, s.rackPER)
		if comb != multiset.Invalid {
			for _, wi := range list {
				s.stats.Candidates++
				if !s.tab.Subset(T.wordPER[wi], comb) {
					continue
				}
				if w := T.words.word(wi, iv.Len); s.p.fits(w) {
					s.p.emitPlain(w)
				}
			}
			return
		}
	}
	// Count-vector test: letters of the word beyond the interval's tiles
	// and the rack's real tiles must be at most the blanks.
	for l := range s.counts {
		s.counts[l] = s.rack[l]
	}
	for i := 0; i < iv.Len; i++ {
		if t := s.li.tiles[iv.Start+i]; t != board.Empty {
			s.counts[t.Letter()]++
		}
	}
	for _, wi := range list {
		s.stats.Candidates++
		w := T.words.word(wi, iv.Len)
		short, k := 0, 0
		for k < len(w) {
			x := w[k]
			k++
			s.counts[x]--
			if s.counts[x] < 0 {
				short++
				if short > s.nBlank {
					break
				}
			}
		}
		for _, x := range w[:k] {
			s.counts[x]++
		}
		if short > s.nBlank || !s.p.fits(w) {
			continue
		}
		if s.nBlank == 0 {
			s.p.emitPlain(w)
		} else {
			s.freeBlanks(w)
		}
	}
}

// leafLow is the low-level solution for one sub-rack: j blanks are
// completed with letters x1 ≤ … ≤ xj, then the Multiset-Interval key is
// looked up.
func (s *iwmState) leafLow(key multiset.PER, j int) {
	if j == 0 {
		s.lookupLow(key, 0)
		return
	}
	s.jTotal = j
	s.blankLetters(key, j, 1)
}

func (s *iwmState) blankLetters(key multiset.PER, j int, from int) {
	L := s.tab.Letters
	for x := from; x <= L; x++ {
		if s.xmask&(1<<x) == 0 {
			continue
		}
		k2 := s.tab.Add(key, alphabet.Tile(x))
		if k2 == multiset.Invalid {
			continue
		}
		if j == 1 {
			s.lookupLow(k2, s.jTotal)
		} else {
			s.blankLetters(k2, j-1, x)
		}
	}
}

func (s *iwmState) lookupLow(key multiset.PER, j int) {
	T := s.T
	s.stats.Lookups++
	if !T.anaFilter.Has(uint64(key)) || !T.loFilter.Has(hashtab.PairKey(uint64(key), s.piw)) {
		return
	}
	start, ok := T.lo.Get(uint64(key), s.piw)
	if !ok {
		return
	}
	n := s.p.iv.Len
	if s.collect {
		for _, wi := range run(T.loWords, start) {
			s.collectCand(wi&^lastBit, j)
		}
		return
	}
	for _, wi := range run(T.loWords, start) {
		s.stats.Candidates++
		w := T.words.word(wi&^lastBit, n)
		if !s.p.fits(w) {
			continue
		}
		if j == 0 {
			s.p.emitPlain(w)
		} else {
			s.exactBlanks(w, j)
		}
	}
}
