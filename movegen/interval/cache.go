package interval

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"time"

	"atril/internal/atomicfile"
	"atril/internal/bloom"
	"atril/internal/cachedir"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/multiset"
)

// The anagram tables are kept in the cache directory of the automata
// (automaton.CacheDir: $ATRIL_CACHE, or atril in the user's cache
// directory; ATRIL_CACHE=off keeps nothing), so a second start reads
// them instead of building them. The file format, integers
// little-endian, every table starting on a multiple of 8 bytes so that
// a loaded file is used where it lies (see UnmarshalAnagram):
//
//	magic      8 bytes  "ATRILAN\n"
//	version    uint32   anagramVersion
//	key        32 bytes automaton.Key of the word list and alphabet
//	letters    uint32   alphabet size L
//	maxBlanks  uint32
//	maxLen     uint32   longest word
//	nexc       uint32   feasible exceedances
//	exc        nexc × uint64 (multiset.Table.Packed: the PER ids), then
//	           4 bytes of padding
//	per length n = 2 .. maxLen:
//	  words    uint32, 4 bytes of padding, then words × n letter bytes,
//	           padded to a multiple of 8 bytes
//	  per j = 0 .. maxBlanks: slots uint32, keys uint32, slots × (key,
//	           value uint64), then the filter of the keys: fw uint32, 4
//	           bytes of padding, fw × uint64 (bloom.Filter.Words)
//	runs       (MaxBoard + 1) × uint32: the run filter's words for the
//	           words of each length 0 .. MaxBoard (runFilter), each at
//	           least 1
//	rwords     uint32 (their sum), 4 bytes of padding, then the words:
//	           rwords × uint64
//	checksum   uint32   CRC-32C of every byte before it
//
// A file whose magic, version, key, sizes or checksum is wrong is not
// used: the tables are built again and the file rewritten.

const (
	anagramMagic   = "ATRILAN\n"
	anagramVersion = 5
	anagramExt     = ".atan"
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// errAnagramFile is wrapped by every error about a damaged or foreign
// file.
var errAnagramFile = errors.New("not a valid anagram-table file")

// MarshalBinary encodes the tables in the file format.
func (at *AnagramTables) MarshalBinary() ([]byte, error) {
	le := binary.LittleEndian
	pad8 := func(out []byte) []byte {
		for len(out)%8 != 0 {
			out = append(out, 0)
		}
		return out
	}
	size := 8 + 4 + 32 + 16 + 8*len(at.PER.Packed()) + 4 + 4*(MaxBoard+1) + 8 + at.runs.bl.Bytes() + 4
	for i := 2; i < len(at.lens); i++ {
		tl := &at.lens[i]
		size += 8 + (len(tl.letters)+7)&^7
		for j := 0; j <= at.MaxBlanks; j++ {
			size += 8 + 16*len(tl.keys[j].slots) + 8 + tl.filters[j].Bytes()
		}
	}
	out := make([]byte, 0, size)
	out = append(out, anagramMagic...)
	out = le.AppendUint32(out, anagramVersion)
	key := automaton.Key(at.Lex)
	out = append(out, key[:]...)
	out = le.AppendUint32(out, uint32(at.PER.Letters))
	out = le.AppendUint32(out, uint32(at.MaxBlanks))
	out = le.AppendUint32(out, uint32(len(at.lens)-1))
	exc := at.PER.Packed()
	out = le.AppendUint32(out, uint32(len(exc)))
	for _, e := range exc {
		out = le.AppendUint64(out, e)
	}
	out = pad8(out)
	for i := 2; i < len(at.lens); i++ {
		tl := &at.lens[i]
		if len(tl.slotsOr(0)) >= 1<<31 || len(tl.letters) >= 1<<31 {
			return nil, fmt.Errorf("anagram tables: too large to store")
		}
		out = le.AppendUint32(out, uint32(len(tl.letters)/tl.n))
		out = pad8(out)
		for _, t := range tl.letters {
			out = append(out, byte(t))
		}
		out = pad8(out)
		for j := 0; j <= at.MaxBlanks; j++ {
			t := tl.keys[j]
			out = le.AppendUint32(out, uint32(len(t.slots)))
			out = le.AppendUint32(out, uint32(t.n))
			for _, s := range t.slots {
				out = le.AppendUint64(out, s.key)
				out = le.AppendUint64(out, s.val)
			}
			fw := tl.filters[j].Words
			out = le.AppendUint32(out, uint32(len(fw)))
			out = pad8(out)
			for _, w := range fw {
				out = le.AppendUint64(out, w)
			}
		}
	}
	for n := range at.runs.byLen {
		out = le.AppendUint32(out, uint32(len(at.runs.byLen[n].Words)))
	}
	out = le.AppendUint32(out, uint32(len(at.runs.bl.Words)))
	out = pad8(out)
	out = at.runs.bl.AppendWords(out)
	return le.AppendUint32(out, crc32.Checksum(out, crcTable)), nil
}

// slotsOr returns the slots of keys[j] (nil if absent).
func (tl *anaLen) slotsOr(j int) []kv {
	if tl.keys[j] == nil {
		return nil
	}
	return tl.keys[j].slots
}

// reader reads the file format, remembering the first error.
type reader struct {
	data []byte
	off  int
	err  error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || r.off+n > len(r.data) {
		r.err = fmt.Errorf("%w: truncated at byte %d", errAnagramFile, r.off)
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

// pad8 skips the padding to the next multiple of 8 bytes.
func (r *reader) pad8() { r.take((8 - r.off%8) % 8) }

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// UnmarshalAnagram decodes tables of lex from the file format. It fails
// when the file is damaged or was made for another word list. The
// tables read data where it lies, without copying it, when the host is
// little-endian and data starts on a multiple of 8 bytes (as a mapped
// file or any heap slice does): data must then stay as it is for as
// long as the tables are used.
func UnmarshalAnagram(data []byte, lex *lexicon.Lexicon) (*AnagramTables, error) {
	return unmarshalAnagram(data, lex, automaton.Key(lex))
}

// unmarshalAnagram is UnmarshalAnagram with lex's key (automaton.Key, a
// hash of the whole list) already worked out.
func unmarshalAnagram(data []byte, lex *lexicon.Lexicon, want [32]byte) (*AnagramTables, error) {
	le := binary.LittleEndian
	if len(data) < 8+4+32+16+4 || string(data[:8]) != anagramMagic {
		return nil, fmt.Errorf("%w: bad magic", errAnagramFile)
	}
	if got, sum := crc32.Checksum(data[:len(data)-4], crcTable), le.Uint32(data[len(data)-4:]); got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, file says %08x", errAnagramFile, got, sum)
	}
	r := &reader{data: data[:len(data)-4], off: 8}
	if v := r.u32(); v != anagramVersion {
		return nil, fmt.Errorf("%w: format version %d, this program reads %d", errAnagramFile, v, anagramVersion)
	}
	if string(r.take(32)) != string(want[:]) {
		return nil, fmt.Errorf("%w: made for another word list", errAnagramFile)
	}
	L, maxBlanks, maxLen, nexc := int(r.u32()), int(r.u32()), int(r.u32()), int(r.u32())
	if L != lex.Alphabet.Size() || maxBlanks > 2 || maxLen != lex.MaxLen() || maxLen > MaxBoard {
		return nil, fmt.Errorf("%w: %d letters, %d blanks, words up to %d", errAnagramFile, L, maxBlanks, maxLen)
	}
	excB := r.take(8 * nexc)
	r.pad8()
	if r.err != nil {
		return nil, r.err
	}
	exc := make([]uint64, nexc)
	for i := range exc {
		exc[i] = le.Uint64(excB[8*i:])
	}
	per, err := multiset.FromExceedances(L, exc)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errAnagramFile, err)
	}
	at := &AnagramTables{Lex: lex, PER: per, MaxBlanks: maxBlanks, lens: make([]anaLen, maxLen+1)}
	for n := range at.lens {
		at.lens[n].n = n
	}
	for n := 2; n <= maxLen; n++ {
		tl := &at.lens[n]
		words := int(r.u32())
		r.pad8()
		lb := r.take(words * n)
		r.pad8()
		if r.err != nil {
			return nil, r.err
		}
		for _, b := range lb {
			if b == 0 || int(b) > L {
				return nil, fmt.Errorf("%w: letter %d in words of length %d", errAnagramFile, b, n)
			}
		}
		tl.letters = tilesOf(lb)
		for j := 0; j <= maxBlanks; j++ {
			size, nk := int(r.u32()), int(r.u32())
			sb := r.take(16 * size)
			fw := int(r.u32())
			r.pad8()
			fb := r.take(8 * fw)
			if r.err != nil {
				return nil, r.err
			}
			if size == 0 || nk > size {
				return nil, fmt.Errorf("%w: table of %d slots with %d keys", errAnagramFile, size, nk)
			}
			if nk == size {
				return nil, fmt.Errorf("%w: %d keys fill all %d slots", errAnagramFile, nk, size)
			}
			// The slots are not read one by one here (about 6 million in
			// English, a fifth of a start's time): the checksum vouches
			// for them, and the lookups stay safe on a file that passed
			// it but was not written by this program (kvTable.get reads
			// each slot at most once; a group of words past the end or a
			// blank's letter outside the alphabet is skipped).
			tl.keys[j] = &kvTable{slots: kvsOf(sb), n: nk}
			f, err := bloom.From(uint64sOf(fb))
			if err != nil {
				return nil, fmt.Errorf("%w: words of length %d, %d blanks: %v", errAnagramFile, n, j, err)
			}
			tl.filters[j] = f
		}
	}
	var counts [MaxBoard + 1]uint32
	sum := uint64(0)
	for n := range counts {
		counts[n] = r.u32()
		if counts[n] == 0 && r.err == nil {
			return nil, fmt.Errorf("%w: no run filter for words of length %d", errAnagramFile, n)
		}
		sum += uint64(counts[n])
	}
	nb := int(r.u32())
	r.pad8()
	if r.err == nil && uint64(nb) != sum {
		return nil, fmt.Errorf("%w: a run filter of %d words, its lengths say %d", errAnagramFile, nb, sum)
	}
	bb := r.take(8 * nb)
	if r.err != nil {
		return nil, r.err
	}
	at.runs = newRunFilter(bloom.Filter{Words: uint64sOf(bb)}, &counts)
	if r.off != len(r.data) {
		return nil, fmt.Errorf("%w: %d bytes after the tables", errAnagramFile, len(r.data)-r.off)
	}
	return at, nil
}

// CacheResult says where tables came from.
type CacheResult struct {
	// Path is the cache file ("" when the cache is off or unusable).
	Path string
	// Loaded is true when the tables were read from Path; Shared when an
	// earlier call in this process had them.
	Loaded, Shared bool
	// Took is the time spent loading or building.
	Took time.Duration
	// CacheErr is a problem with the cache (a damaged file that was
	// rebuilt, a directory that cannot be written); the tables are good
	// regardless.
	CacheErr error
}

var (
	anaMu   sync.Mutex
	anaMemo = map[[32]byte]*AnagramTables{}
)

// CachedAnagram returns the anagram tables of lex (up to two blanks):
// ones already made in this process, or else those of
// ReadOrBuildAnagram. It returns nil tables, with the reason in
// CacheErr, when they cannot be built for lex.
func CachedAnagram(lex *lexicon.Lexicon) (*AnagramTables, CacheResult) {
	t0 := time.Now()
	key := automaton.Key(lex)
	anaMu.Lock()
	defer anaMu.Unlock()
	if at := anaMemo[key]; at != nil {
		return at, CacheResult{Shared: true, Took: time.Since(t0)}
	}
	at, res := readOrBuildAnagram(lex, key)
	if at != nil {
		anaMemo[key] = at
	}
	res.Took = time.Since(t0)
	return at, res
}

// ReadOrBuildAnagram reads the anagram tables of lex from the cache file
// if it holds valid tables for exactly this word list and alphabet, or
// else builds them and writes them to the cache.
func ReadOrBuildAnagram(lex *lexicon.Lexicon) (*AnagramTables, CacheResult) {
	return readOrBuildAnagram(lex, automaton.Key(lex))
}

// readOrBuildAnagram is ReadOrBuildAnagram with lex's key worked out.
func readOrBuildAnagram(lex *lexicon.Lexicon, key [32]byte) (*AnagramTables, CacheResult) {
	t0 := time.Now()
	var res CacheResult
	dir, err := automaton.CacheDir()
	if err != nil {
		res.CacheErr = err
	}
	var at *AnagramTables
	if dir != "" {
		res.Path = filepath.Join(dir, anagramFileName(lex.Name, key))
		data, err := mapFile(res.Path)
		switch {
		case err == nil:
			at, err = unmarshalAnagram(data, lex, key)
			if err != nil {
				unmapFile(data)
				res.CacheErr = fmt.Errorf("anagram tables %s: %w; rebuilt", res.Path, err)
			} else {
				res.Loaded = true // the tables keep the mapping for good
			}
		case errors.Is(err, os.ErrNotExist):
		default:
			res.CacheErr = fmt.Errorf("anagram tables: %w; rebuilt", err)
		}
	}
	if at == nil {
		at, err = BuildAnagram(lex, nil, AnagramOptions{})
		if err != nil {
			res.CacheErr = err
			return nil, res
		}
		if res.Path != "" {
			if err := writeFileAtomic(res.Path, at); err != nil && res.CacheErr == nil {
				res.CacheErr = err
			}
		}
	}
	res.Took = time.Since(t0)
	return at, res
}

// anagramFileName is the cache file name of the tables of a word list
// named name with the given key.
func anagramFileName(name string, key [32]byte) string {
	return cachedir.FileName("anagram", name, key, anagramExt)
}

// writeFileAtomic writes the tables to path through a temporary file in
// the same directory and a rename.
func writeFileAtomic(path string, at *AnagramTables) error {
	data, err := at.MarshalBinary()
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("anagram tables: %s: %w", path, err)
	}
	return nil
}
