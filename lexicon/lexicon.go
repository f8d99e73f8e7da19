// Package lexicon reads word lists and holds the word set that decides
// whether a string of tiles is a word. Words are stored as tile codes
// (see package alphabet), sorted by code, in one flat byte slice.
//
// Three lists are embedded so the program works with no files around it:
// en-sowpods, es-fise and cs-hunspell-2to9.
package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"atril/alphabet"
)

//go:embed lists/en-sowpods.txt.gz lists/es-fise.txt.gz lists/cs-hunspell-2to9.txt.gz
var embedded embed.FS

// Embedded lists the names of the embedded word lists.
func Embedded() []string {
	ents, _ := embedded.ReadDir("lists")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".txt.gz"))
	}
	return out
}

// Rejection is a line of a word list that could not be read as a word.
type Rejection struct {
	Line int
	Text string
	Err  error
}

func (r Rejection) String() string { return fmt.Sprintf("line %d: %q: %v", r.Line, r.Text, r.Err) }

// Lexicon is a list of words over an alphabet with a fast membership test.
type Lexicon struct {
	Name     string
	Alphabet *alphabet.Alphabet
	// TooLong counts words dropped because they do not fit on the board.
	TooLong int
	// Duplicates counts words listed more than once (kept once).
	Duplicates int
	// Rejected lists lines the alphabet could not spell (skipped).
	Rejected []Rejection

	data []byte   // all words, concatenated
	offs []uint32 // word i is data[offs[i]:offs[i+1]]
	set  hashSet
	// maxLen is the longest word in tiles.
	maxLen int
	// cross answers cross-set queries faster than Contains, once an
	// automaton of the list is at hand (see AttachCrossSets).
	cross atomic.Pointer[crossHolder]
	// sum is the list's SHA-256, made once (see Sum).
	sumOnce sync.Once
	sum     [32]byte
}

// CrossSetter tells which letters l make prefix·l·suffix a word (bit l of
// the result). An automaton of the word list answers it with one walk.
type CrossSetter interface {
	CrossSet(prefix, suffix []alphabet.Tile) uint64
}

type crossHolder struct{ c CrossSetter }

// AttachCrossSets makes c answer the lexicon's CrossSet queries. c must
// accept exactly the lexicon's words (an automaton built from it).
// Safe to call while other goroutines query the lexicon.
func (lex *Lexicon) AttachCrossSets(c CrossSetter) { lex.cross.Store(&crossHolder{c}) }

// OfferCrossSets is AttachCrossSets unless the lexicon already has a
// CrossSetter, which it keeps; it reports whether c was attached.
func (lex *Lexicon) OfferCrossSets(c CrossSetter) bool {
	return lex.cross.CompareAndSwap(nil, &crossHolder{c})
}

// CrossSet returns the letters l (bit l) for which prefix·l·suffix is a
// word, through the attached automaton when there is one and by one
// lookup per letter otherwise. Designated blanks count as their letters.
func (lex *Lexicon) CrossSet(prefix, suffix []alphabet.Tile) uint64 {
	if h := lex.cross.Load(); h != nil {
		return h.c.CrossSet(prefix, suffix)
	}
	n := len(prefix) + 1 + len(suffix)
	if n > 32 {
		return 0
	}
	var buf [32]alphabet.Tile
	w := buf[:n]
	for i, t := range prefix {
		w[i] = t.Letter()
	}
	for i, t := range suffix {
		w[len(prefix)+1+i] = t.Letter()
	}
	var set uint64
	for l := 1; l <= lex.Alphabet.Size(); l++ {
		w[len(prefix)] = alphabet.Tile(l)
		if lex.set.contains(lex, w) {
			set |= 1 << l
		}
	}
	return set
}

// Options control reading a word list.
type Options struct {
	// MaxLen drops words longer than this many tiles (0: no limit).
	MaxLen int
	// Strict makes any unreadable line an error instead of a rejection.
	Strict bool
}

// Open reads the word list named name: an embedded list ("en-sowpods") or
// a file path (plain text or gzip). What it read is kept in the cache
// directory, so a later Open of the same list reads that instead (see
// readCached); $ATRIL_CACHE=off turns that off.
func Open(name string, a *alphabet.Alphabet, opt Options) (*Lexicon, error) {
	raw, err := embedded.ReadFile("lists/" + name + ".txt.gz")
	if err != nil {
		raw, err = os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("lexicon %q: not embedded (have %s) and not a readable file: %w",
				name, strings.Join(Embedded(), ", "), err)
		}
		name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(name), ".gz"), ".txt")
	}
	lex, err := readCached(name, raw, a, opt)
	if err != nil {
		return nil, fmt.Errorf("lexicon %q: %w", name, err)
	}
	lex.Name = name
	return lex, nil
}

// Read reads a word list, one word a line, plain or gzip-compressed.
// Blank lines and lines starting with '#' are skipped; a line may carry
// further fields after the word (separated by white space), which are ignored.
func Read(r io.Reader, a *alphabet.Alphabet, opt Options) (*Lexicon, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("reading gzip header: %w", err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	lex := &Lexicon{Alphabet: a}
	// The words go end to end into data, word i ending at offs[i+1]:
	// no slice per word, so nothing for the collector to scan.
	var data []byte
	offs := []uint32{0}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
	line := 0
	var buf []alphabet.Tile
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 || raw[0] == '#' {
			continue
		}
		// The word ends at the first space or tab. (A loop: the words
		// are short, and bytes.IndexAny makes its set of bytes anew on
		// every call, a fifth of reading a list.)
		for i, c := range raw {
			if c == ' ' || c == '\t' {
				raw = raw[:i]
				break
			}
		}
		var err error
		var ok bool
		buf, ok = a.AppendPlainASCII(buf[:0], raw)
		text := ""
		if !ok {
			text = string(raw)
			buf, err = a.AppendParse(buf[:0], text, alphabet.Plain)
		}
		if err != nil {
			if opt.Strict {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
			if len(lex.Rejected) < 1000 {
				lex.Rejected = append(lex.Rejected, Rejection{Line: line, Text: text, Err: err})
			}
			continue
		}
		if opt.MaxLen > 0 && len(buf) > opt.MaxLen {
			lex.TooLong++
			continue
		}
		if len(data)+len(buf) > cap(data) {
			// Doubling (append grows large slices by a quarter): fewer
			// copies, and the unused tail is never touched.
			data = slices.Grow(data, max(len(data), len(buf), 1<<20))
			offs = slices.Grow(offs, max(len(offs), 1<<17))
		}
		data = append(data, tb(buf)...)
		if uint64(len(data)) > math.MaxUint32 {
			return nil, fmt.Errorf("line %d: more than 4 GiB of words", line)
		}
		offs = append(offs, uint32(len(data)))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	lex.build(data, offs)
	return lex, nil
}

// FromWords builds a lexicon from words given as text (for tests and small
// custom lists). Words are read as in a word list.
func FromWords(a *alphabet.Alphabet, words ...string) (*Lexicon, error) {
	return Read(strings.NewReader(strings.Join(words, "\n")), a, Options{Strict: true})
}

// FromTiles builds a lexicon from words given as tiles.
func FromTiles(a *alphabet.Alphabet, words [][]alphabet.Tile) *Lexicon {
	lex := &Lexicon{Alphabet: a}
	var data []byte
	offs := make([]uint32, 1, len(words)+1)
	for _, w := range words {
		data = append(data, tb(w)...)
		offs = append(offs, uint32(len(data)))
	}
	lex.build(data, offs)
	return lex
}

// build makes the lexicon of the words laid end to end in data (word i
// is data[offs[i]:offs[i+1]]): sorted in tile-code order, without
// duplicates. A list already in that order (as word lists usually are)
// is kept as it lies.
func (lex *Lexicon) build(data []byte, offs []uint32) {
	n := len(offs) - 1
	word := func(i uint32) []byte { return data[offs[i]:offs[i+1]] }
	sorted := true
	for i := 1; i < n && sorted; i++ {
		sorted = bytes.Compare(word(uint32(i-1)), word(uint32(i))) < 0
	}
	if !sorted {
		idx := make([]uint32, n)
		for i := range idx {
			idx[i] = uint32(i)
		}
		slices.SortFunc(idx, func(x, y uint32) int { return bytes.Compare(word(x), word(y)) })
		sd := make([]byte, 0, len(data))
		so := make([]uint32, 1, n+1)
		for k, i := range idx {
			if k > 0 && bytes.Equal(word(i), word(idx[k-1])) {
				lex.Duplicates++
				continue
			}
			sd = append(sd, word(i)...)
			so = append(so, uint32(len(sd)))
		}
		data, offs = sd, so
	}
	lex.data, lex.offs = data, offs
	for i := 0; i+1 < len(offs); i++ {
		lex.maxLen = max(lex.maxLen, int(offs[i+1]-offs[i]))
	}
	lex.set = newHashSet(lex)
}

func tb(w []alphabet.Tile) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafeBytes(w)
}

// Len is the number of distinct words.
func (lex *Lexicon) Len() int { return len(lex.offs) - 1 }

// MaxLen is the length in tiles of the longest word.
func (lex *Lexicon) MaxLen() int { return lex.maxLen }

// Word returns word i (0 ≤ i < Len()) in tile-code order. The slice must
// not be modified.
func (lex *Lexicon) Word(i int) []alphabet.Tile {
	return unsafeTiles(lex.data[lex.offs[i]:lex.offs[i+1]])
}

// Contains reports whether w is a word. Designated blanks in w count as
// their letters.
func (lex *Lexicon) Contains(w []alphabet.Tile) bool {
	for _, t := range w {
		if t.IsBlanked() {
			var buf [32]alphabet.Tile
			c := buf[:0]
			for _, t := range w {
				c = append(c, t.Letter())
			}
			return lex.set.contains(lex, c)
		}
	}
	return lex.set.contains(lex, w)
}

// Index returns the position of w in the sorted list, or -1.
func (lex *Lexicon) Index(w []alphabet.Tile) int {
	return lex.set.index(lex, w)
}

// ContainsText reports whether the text is a word, with an error if the
// alphabet cannot read it.
func (lex *Lexicon) ContainsText(s string) (bool, error) {
	w, err := lex.Alphabet.Parse(s, alphabet.Plain)
	if err != nil {
		return false, err
	}
	return lex.Contains(w), nil
}

// Bytes is the memory held by the word data and the hash set, in bytes.
func (lex *Lexicon) Bytes() int {
	return len(lex.data) + 4*len(lex.offs) + 4*len(lex.set.slots)
}

// hashSet is an open-addressing table of word indexes (plus one; 0 is empty).
type hashSet struct {
	slots []uint32
	mask  uint64
}

func hashTiles(w []alphabet.Tile) uint64 {
	h := uint64(14695981039346656037)
	for _, t := range w {
		h ^= uint64(t)
		h *= 1099511628211
	}
	h ^= h >> 29
	return h
}

func newHashSet(lex *Lexicon) hashSet {
	n := lex.Len()
	size := 16
	for size < 2*n {
		size <<= 1
	}
	s := hashSet{slots: make([]uint32, size), mask: uint64(size - 1)}
	for i := 0; i < n; i++ {
		h := hashTiles(lex.Word(i)) & s.mask
		for s.slots[h] != 0 {
			h = (h + 1) & s.mask
		}
		s.slots[h] = uint32(i + 1)
	}
	return s
}

func (s *hashSet) index(lex *Lexicon, w []alphabet.Tile) int {
	if len(s.slots) == 0 {
		return -1
	}
	h := hashTiles(w) & s.mask
	for {
		v := s.slots[h]
		if v == 0 {
			return -1
		}
		if bytes.Equal(tb(lex.Word(int(v-1))), tb(w)) {
			return int(v - 1)
		}
		h = (h + 1) & s.mask
	}
}

func (s *hashSet) contains(lex *Lexicon, w []alphabet.Tile) bool { return s.index(lex, w) >= 0 }

// Sum identifies the list: the SHA-256 of its alphabet's letters and its
// words' tile codes, in order. It is worked out on the first call and
// kept, so the caches of tables made from the list (automata, anagram
// tables and filters) can all name their files by it at no further cost.
func (lex *Lexicon) Sum() [32]byte {
	lex.sumOnce.Do(func() {
		h := sha256.New()
		writeLetters(h, lex.Alphabet)
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(lex.offs)-1))
		h.Write(n[:])
		// The word boundaries, then the words end to end.
		b := make([]byte, 0, 1<<16)
		for _, o := range lex.offs {
			if len(b)+4 > cap(b) {
				h.Write(b)
				b = b[:0]
			}
			b = binary.LittleEndian.AppendUint32(b, o)
		}
		h.Write(b)
		h.Write(lex.data)
		h.Sum(lex.sum[:0])
	})
	return lex.sum
}
