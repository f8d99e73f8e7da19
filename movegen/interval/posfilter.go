package interval

import (
	"atril/alphabet"
	"atril/board"
	"atril/internal/bloom"
	"atril/lexicon"
	"atril/movegen"
)

// runFilter answers, for a slot of a best-by-equity search, "is there a
// word of this length with these board letters in a row at this place,
// whose other letters are these?": a Bloom filter (bloom.Filter, 12
// bits a key) over one key for every
// word and every run of its letters short of the whole word, in one
// filter per word length (a slot asks the filter of its length: those of
// short words stay in the cache, where one filter of every length missed
// it at every question). The key of a word of length n, run from position a to b, is
//
//	salt[n] + Σ_{a≤i≤b} place[i][w_i] + Σ_{other i} movegen.AnagramWeight(w_i)
//
// so a slot adds the hash of a sub-rack's letters (LeaveBounds.SubRack)
// to the part its board letters fix. The interval search's bounds know
// which letters a slot's word needs but not where they go; counted over
// whole English games, half the slots it solved held candidate words
// none of which had the board letters where the board has them. Words
// with a blank are not filed: sub-racks with a blank are not asked.
// It never says no to a word that exists and says yes about 1% of the
// time to one that does not, which only loosens a bound.
type runFilter struct {
	bl    bloom.Filter // every length's words, as stored
	byLen [MaxBoard + 1]bloom.Filter
	place [MaxBoard][alphabet.MaxLetters + 1]uint64
	salt  [MaxBoard + 1]uint64
}

// has reports whether a word of length n may have the key.
func (f *runFilter) has(n int, key uint64) bool { return f.byLen[n].Has(key) }

// splitMix is SplitMix64's finaliser.
func splitMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// newRunFilter returns a filter whose keys are in bl, counts[n] words
// for the words of length n after those of the shorter ones. The counts
// must be at least 1 and add up to bl's words.
func newRunFilter(bl bloom.Filter, counts *[MaxBoard + 1]uint32) *runFilter {
	f := &runFilter{bl: bl}
	off := 0
	for n, c := range counts {
		f.byLen[n] = bloom.Filter{Words: bl.Words[off : off+int(c) : off+int(c)]}
		off += int(c)
	}
	for i := range f.place {
		for l := range f.place[i] {
			f.place[i][l] = splitMix(uint64(i*64+l)*0x9e3779b97f4a7c15 + 0x5851f42d4c957f2d)
		}
	}
	for n := range f.salt {
		f.salt[n] = splitMix(uint64(n)*0x632be59bd9b4e019 + 0x14057b7ef767814f)
	}
	return f
}

// buildRunFilter files every run of every word of lex (up to MaxBoard
// letters) in two passes: count the keys, then add them.
func buildRunFilter(lex *lexicon.Lexicon) *runFilter {
	var keys [MaxBoard + 1]int
	for i := 0; i < lex.Len(); i++ {
		if n := len(lex.Word(i)); n >= 2 && n <= MaxBoard {
			keys[n] += n*(n+1)/2 - 1
		}
	}
	var counts [MaxBoard + 1]uint32
	total := 0
	for n, k := range keys {
		counts[n] = uint32(len(bloom.New(k, 12).Words))
		total += int(counts[n])
	}
	f := newRunFilter(bloom.Filter{Words: make([]uint64, total)}, &counts)
	for i := 0; i < lex.Len(); i++ {
		w := lex.Word(i)
		n := len(w)
		if n < 2 || n > MaxBoard {
			continue
		}
		h := uint64(0)
		for _, t := range w {
			h += movegen.AnagramWeight(t)
		}
		for a := 0; a < n; a++ {
			run, others := uint64(0), h
			for b := a; b < n; b++ {
				run += f.place[b][w[b]]
				others -= movegen.AnagramWeight(w[b])
				if b-a+1 < n {
					f.byLen[n].Add(f.salt[n] + run + others)
				}
			}
		}
	}
	return f
}

// slotKey is the part of the keys of a slot's words that its board
// letters fix: the interval of length n on line tiles (from its start),
// of board-letter hash hb (movegen.AnagramFilter.Weight), and its
// longest run of board letters. A word fits only if the filter holds
// slotKey plus the hash of the letters the rack plays.
func (f *runFilter) slotKey(tiles []alphabet.Tile, n int, hb uint64) uint64 {
	best, at := 0, 0
	for a := 0; a < n; {
		if tiles[a] == board.Empty {
			a++
			continue
		}
		b := a
		for b < n && tiles[b] != board.Empty {
			b++
		}
		if b-a > best {
			best, at = b-a, a
		}
		a = b
	}
	key := f.salt[n] + hb
	for i := at; i < at+best; i++ {
		l := tiles[i].Letter()
		key += f.place[i][l] - movegen.AnagramWeight(l)
	}
	return key
}
