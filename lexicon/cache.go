package lexicon

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"atril/alphabet"
	"atril/internal/atomicfile"
	"atril/internal/cachedir"
)

// A list read from text costs a start about 45 ms for English (the gzip
// stream, one line at a time, then the hash set). Open keeps what it read
// in the cache directory (internal/cachedir) as a file of the words, their
// boundaries and the hash set, named by the list's bytes, the alphabet and
// the options, and a later start reads that instead (a few milliseconds).
// A damaged or foreign file is never trusted: it is read again from the
// text and written anew.

const (
	cacheMagic   = "atrillex"
	cacheVersion = 1
	cacheExt     = ".atlx"
	// cacheHeader is the fixed part: magic, version, key, six counts and
	// the list's Sum.
	cacheHeader = 8 + 4 + 32 + 6*4 + 32
)

// errCacheFile is wrapped by every error about a damaged or foreign
// cache file.
var errCacheFile = errors.New("not a valid word-list cache file")

var cacheCRC = crc32.MakeTable(crc32.Castagnoli)

// cacheKey names what a cache file was read from: the list's bytes as
// stored (compressed or not), the alphabet and the options.
func cacheKey(raw []byte, a *alphabet.Alphabet, opt Options) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "atril word list v%d\nmax %d strict %v\n", cacheVersion, opt.MaxLen, opt.Strict)
	writeLetters(h, a)
	h.Write([]byte{'\n'})
	h.Write(raw)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// writeLetters writes the alphabet's letters to h, each ended by a 0
// byte: the alphabet's part of a list's Sum and of its cache key.
func writeLetters(h io.Writer, a *alphabet.Alphabet) {
	for _, l := range a.Letters() {
		h.Write([]byte(l))
		h.Write([]byte{0})
	}
}

// cacheFileName is the file of a list named name with key k.
func cacheFileName(name string, k [32]byte) string {
	return cachedir.FileName("words", name, k, cacheExt)
}

// readCached reads the list in raw (the bytes of a word list, plain or
// gzip) through the cache: the cache file when it holds this list, else
// the text, whose result is then written to the cache. Lists with
// rejected lines are not cached, so their rejections are always reported
// as read. A cache that cannot be used is passed over silently: the list
// is read from the text as without it.
func readCached(name string, raw []byte, a *alphabet.Alphabet, opt Options) (*Lexicon, error) {
	dir, err := cachedir.Dir()
	if err != nil || dir == "" {
		return Read(bytes.NewReader(raw), a, opt)
	}
	k := cacheKey(raw, a, opt)
	path := filepath.Join(dir, cacheFileName(name, k))
	if data, err := os.ReadFile(path); err == nil {
		if lex, err := unmarshalCache(data, a, k); err == nil {
			return lex, nil
		}
	}
	lex, err := Read(bytes.NewReader(raw), a, opt)
	if err != nil || len(lex.Rejected) > 0 {
		return lex, err
	}
	// A cache that cannot be written costs the next start the text again,
	// nothing more.
	_ = atomicfile.Write(path, lex.marshalCache(k))
	return lex, nil
}

// marshalCache encodes the list for the cache (little-endian): the
// header, the word boundaries (Len()+1 of 32 bits), the words' tile
// codes end to end (padded to 4 bytes), the hash set's slots (32 bits
// each), and a CRC-32C of all that.
func (lex *Lexicon) marshalCache(k [32]byte) []byte {
	le := binary.LittleEndian
	n := len(lex.data)
	out := make([]byte, 0, cacheHeader+4*len(lex.offs)+n+3+4*len(lex.set.slots)+4)
	out = append(out, cacheMagic...)
	out = le.AppendUint32(out, cacheVersion)
	out = append(out, k[:]...)
	for _, x := range []int{lex.Len(), n, lex.maxLen, lex.TooLong, lex.Duplicates, len(lex.set.slots)} {
		out = le.AppendUint32(out, uint32(x))
	}
	sum := lex.Sum()
	out = append(out, sum[:]...)
	for _, o := range lex.offs {
		out = le.AppendUint32(out, o)
	}
	out = append(out, lex.data...)
	for len(out)%4 != 0 {
		out = append(out, 0)
	}
	for _, s := range lex.set.slots {
		out = le.AppendUint32(out, s)
	}
	return le.AppendUint32(out, crc32.Checksum(out, cacheCRC))
}

// unmarshalCache reads a cache file written by marshalCache for key k
// over alphabet a. It checks the checksum, and then everything the
// lexicon's methods rely on (boundaries in order and within the words,
// words in strictly increasing order, tile codes of the alphabet, slots
// naming words, an empty slot), so even a file that passes the checksum
// without having been written by this program gives a usable lexicon or
// an error, never a panic.
func unmarshalCache(data []byte, a *alphabet.Alphabet, k [32]byte) (*Lexicon, error) {
	le := binary.LittleEndian
	if len(data) < cacheHeader+4 || string(data[:8]) != cacheMagic {
		return nil, fmt.Errorf("%w: bad magic", errCacheFile)
	}
	body := data[:len(data)-4]
	if got, want := crc32.Checksum(body, cacheCRC), le.Uint32(data[len(data)-4:]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, file says %08x", errCacheFile, got, want)
	}
	if v := le.Uint32(body[8:]); v != cacheVersion {
		return nil, fmt.Errorf("%w: format version %d, this program reads %d", errCacheFile, v, cacheVersion)
	}
	if !bytes.Equal(body[12:44], k[:]) {
		return nil, fmt.Errorf("%w: made from another list, alphabet or options", errCacheFile)
	}
	var c [6]int
	for i := range c {
		c[i] = int(le.Uint32(body[44+4*i:]))
	}
	words, n, maxLen, slots := c[0], c[1], c[2], c[5]
	pad := (4 - n%4) % 4
	if slots < 1 || slots&(slots-1) != 0 || slots <= words ||
		len(body) != cacheHeader+4*(words+1)+n+pad+4*slots {
		return nil, fmt.Errorf("%w: %d words of %d bytes in %d slots do not fill %d bytes", errCacheFile, words, n, slots, len(body))
	}
	lex := &Lexicon{Alphabet: a, TooLong: c[3], Duplicates: c[4], maxLen: maxLen}
	copy(lex.sum[:], body[68:100])
	lex.sumOnce.Do(func() {})
	p := body[cacheHeader:]
	lex.offs = make([]uint32, words+1)
	for i := range lex.offs {
		lex.offs[i] = le.Uint32(p[4*i:])
	}
	p = p[4*(words+1):]
	lex.data = append([]byte(nil), p[:n]...)
	p = p[n+pad:]
	lex.set = hashSet{slots: make([]uint32, slots), mask: uint64(slots - 1)}
	empty := false
	for i := range lex.set.slots {
		s := le.Uint32(p[4*i:])
		if int(s) > words {
			return nil, fmt.Errorf("%w: slot %d names word %d of %d", errCacheFile, i, s, words)
		}
		empty = empty || s == 0
		lex.set.slots[i] = s
	}
	if !empty {
		return nil, fmt.Errorf("%w: no empty slot", errCacheFile)
	}
	if lex.offs[0] != 0 || int(lex.offs[words]) != n {
		return nil, fmt.Errorf("%w: boundaries do not span the words", errCacheFile)
	}
	longest := 0
	for i := range words {
		lo, hi := lex.offs[i], lex.offs[i+1]
		if hi <= lo || hi > uint32(n) {
			return nil, fmt.Errorf("%w: word %d has boundaries %d and %d", errCacheFile, i, lo, hi)
		}
		longest = max(longest, int(hi-lo))
		if i > 0 && bytes.Compare(lex.data[lex.offs[i-1]:lo], lex.data[lo:hi]) >= 0 {
			return nil, fmt.Errorf("%w: word %d out of order", errCacheFile, i)
		}
	}
	if longest != maxLen {
		return nil, fmt.Errorf("%w: longest word %d, header says %d", errCacheFile, longest, maxLen)
	}
	size := byte(a.Size())
	for i, t := range lex.data {
		if t == 0 || t > size {
			return nil, fmt.Errorf("%w: tile code %d at byte %d", errCacheFile, t, i)
		}
	}
	return lex, nil
}
