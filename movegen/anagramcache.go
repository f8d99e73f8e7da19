package movegen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"log"
	"os"
	"path/filepath"

	"atril/internal/atomicfile"
	"atril/internal/bloom"
	"atril/lexicon/automaton"
)

// The anagram filter is cached on disk beside the automata (in
// automaton.CacheDir), so a process loads it in milliseconds instead of
// listing the word list again (about a quarter of a second for English).
//
// File layout, little-endian: the magic "ATRILAF4", the key of the word
// list and alphabet (automaton.Key, 32 bytes), shortLen, then for 0, 1
// and 2 blanks the number of filters (by word length for 0 and 1 blank,
// one for 2) and each filter's number of words (uint32 each), then the
// words of every filter in that order (uint64 each: bloom.Filter.Words),
// and a CRC-32C of everything before it. Any mismatch means the file is
// rebuilt (files of earlier versions included: one filter for every
// number of blanks, or one per number of blanks, or Bloom filters of
// 512-bit blocks).
const anagramMagic = "ATRILAF4"

var anagramCRC = crc32.MakeTable(crc32.Castagnoli)

// anagramHead is the size of the file's fixed header.
const anagramHead = len(anagramMagic) + 32 + 4

// marshal returns the file form of the filter of the word list with key.
func (f *AnagramFilter) marshal(key [32]byte) []byte {
	le := binary.LittleEndian
	out := make([]byte, 0, anagramHead)
	out = append(out, anagramMagic...)
	out = append(out, key[:]...)
	out = le.AppendUint32(out, uint32(f.shortLen))
	for b := range f.bl {
		out = le.AppendUint32(out, uint32(len(f.bl[b])))
		for n := range f.bl[b] {
			out = le.AppendUint32(out, uint32(len(f.bl[b][n].Words)))
		}
	}
	for b := range f.bl {
		for n := range f.bl[b] {
			out = f.bl[b][n].AppendWords(out)
		}
	}
	return le.AppendUint32(out, crc32.Checksum(out, anagramCRC))
}

// unmarshalAnagramFilter reads a filter written by marshal, checking
// that it is whole and made for the word list with key and for shortLen.
func unmarshalAnagramFilter(data []byte, key [32]byte, shortLen int) (*AnagramFilter, error) {
	le := binary.LittleEndian
	if len(data) < anagramHead+4 || string(data[:len(anagramMagic)]) != anagramMagic {
		return nil, errors.New("not an anagram filter file of this version")
	}
	if got, sum := crc32.Checksum(data[:len(data)-4], anagramCRC), le.Uint32(data[len(data)-4:]); got != sum {
		return nil, fmt.Errorf("checksum %08x, file says %08x", got, sum)
	}
	p := len(anagramMagic)
	if [32]byte(data[p:p+32]) != key {
		return nil, errors.New("made for another word list")
	}
	p += 32
	if sl := int(le.Uint32(data[p:])); sl != shortLen {
		return nil, fmt.Errorf("made for words of up to %d letters with two blanks, not %d", sl, shortLen)
	}
	p += 4
	u32 := func(what string) (int, error) {
		if p+4 > len(data)-4 {
			return 0, fmt.Errorf("%s: the file ends at byte %d", what, p)
		}
		v := int(le.Uint32(data[p:]))
		p += 4
		return v, nil
	}
	var counts [3][]int
	total := 0
	for b := range counts {
		nf, err := u32(fmt.Sprintf("filters of %d blanks", b))
		if err != nil {
			return nil, err
		}
		if nf == 0 || nf > 64 || b == 2 && nf != 1 {
			return nil, fmt.Errorf("%d filters for %d blanks", nf, b)
		}
		for n := 0; n < nf; n++ {
			nw, err := u32(fmt.Sprintf("words of the filter %d of %d blanks", n, b))
			if err != nil {
				return nil, err
			}
			if nw == 0 || nw > len(data)/8 {
				return nil, fmt.Errorf("%d words for the filter %d of %d blanks in %d bytes", nw, n, b, len(data))
			}
			counts[b] = append(counts[b], nw)
			total += nw
		}
	}
	if len(data) != p+8*total+4 {
		return nil, fmt.Errorf("%d bytes for %d words after a header of %d", len(data), total, p)
	}
	f := newAnagramFilter(shortLen)
	for b := range counts {
		f.bl[b] = make([]bloom.Filter, len(counts[b]))
		for n, nw := range counts[b] {
			f.bl[b][n].Words = bloom.CopyWords(data[p : p+8*nw])
			p += 8 * nw
		}
	}
	return f, nil
}

// minCachedWords is the smallest word list whose filter goes to the
// disk cache: smaller ones build in milliseconds, and tests make many.
var minCachedWords = 20000

// anagramFileName is the cache file of the filter of a word list.
func anagramFileName(key [32]byte, shortLen int) string {
	return fmt.Sprintf("anagram-filter-%x-%d.ataf", key[:8], shortLen)
}

// loadOrBuildAnagramFilter reads the filter of a word list (of words
// words, identified by key: automaton.Key) from the cache, or builds it
// and writes it there. A cache problem is logged and the filter built:
// it never changes what the filter answers.
func loadOrBuildAnagramFilter(key [32]byte, words, shortLen int, build func() *AnagramFilter) *AnagramFilter {
	dir, err := automaton.CacheDir()
	if err != nil {
		log.Printf("anagram filter: %v", err)
	}
	if dir == "" || key == [32]byte{} || words < minCachedWords {
		return build()
	}
	path := filepath.Join(dir, anagramFileName(key, shortLen))
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		f, err := unmarshalAnagramFilter(data, key, shortLen)
		if err == nil {
			return f
		}
		log.Printf("anagram filter %s: %v; rebuilt", path, err)
	case !errors.Is(err, os.ErrNotExist):
		log.Printf("anagram filter: %v; rebuilt", err)
	}
	f := build()
	if err := atomicfile.Write(path, f.marshal(key)); err != nil {
		log.Printf("anagram filter: %v", err)
	}
	return f
}
