package automaton

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"atril/lexicon"
)

// The file format, all integers little-endian:
//
//	magic     8 bytes  "ATRILFA\n"
//	version   uint32   FormatVersion
//	kind      uint32   1 DAWG, 2 GADDAG
//	key       32 bytes Key of the word list and alphabet
//	words     uint32   words in the list
//	root      uint32
//	nodes     uint32   number of states N
//	edges     uint32   number of transitions E
//	states    N × (mask uint64, first uint32)
//	targets   E × uint32
//	checksum  uint32   CRC-32C of every byte before it
//
// A file whose magic, version, sizes, checksum or structure is wrong is
// rejected with an error; the cache then rebuilds it.
const (
	magic = "ATRILFA\n"
	// FormatVersion changes whenever the layout or the meaning of the
	// file changes.
	FormatVersion = 2
	headerSize    = 8 + 4 + 4 + 32 + 4*4
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrFormat is wrapped by every error about a damaged or foreign file.
var ErrFormat = errors.New("not a valid automaton file")

// Key identifies a word list over an alphabet (and the format version):
// the SHA-256 of the format's name and the list's own sum
// (lexicon.Lexicon.Sum, worked out once per list).
func Key(lex *lexicon.Lexicon) [32]byte {
	sum := lex.Sum()
	h := sha256.New()
	fmt.Fprintf(h, "atril automaton v%d\n", FormatVersion)
	h.Write(sum[:])
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// Size is the length in bytes of the automaton's file.
func (a *Automaton) Size() int { return headerSize + 12*len(a.Nodes) + 4*len(a.Targets) + 4 }

// MarshalBinary encodes the automaton in the file format.
func (a *Automaton) MarshalBinary() ([]byte, error) {
	if len(a.Nodes) >= 1<<31 || len(a.Targets) >= 1<<31 {
		return nil, fmt.Errorf("automaton: too large to store (%d states, %d edges)", len(a.Nodes), len(a.Targets))
	}
	out := make([]byte, 0, a.Size())
	le := binary.LittleEndian
	out = append(out, magic...)
	out = le.AppendUint32(out, FormatVersion)
	out = le.AppendUint32(out, uint32(a.Kind))
	out = append(out, a.Key[:]...)
	out = le.AppendUint32(out, uint32(a.Words))
	out = le.AppendUint32(out, a.Root)
	out = le.AppendUint32(out, uint32(len(a.Nodes)))
	out = le.AppendUint32(out, uint32(len(a.Targets)))
	for _, nd := range a.Nodes {
		out = le.AppendUint64(out, nd.Mask)
		out = le.AppendUint32(out, nd.First)
	}
	for _, t := range a.Targets {
		out = le.AppendUint32(out, t)
	}
	out = le.AppendUint32(out, crc32.Checksum(out, crcTable))
	return out, nil
}

// Header is what a file says about itself, read without the arrays.
type Header struct {
	Version uint32
	Kind    Kind
	Key     [32]byte
	Words   int
	Root    uint32
	Nodes   int
	Edges   int
}

// ReadHeader decodes the fixed-size header at the start of a file.
func ReadHeader(data []byte) (Header, error) {
	var h Header
	if len(data) < headerSize {
		return h, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrFormat, len(data), headerSize)
	}
	if string(data[:8]) != magic {
		return h, fmt.Errorf("%w: bad magic %q", ErrFormat, data[:8])
	}
	le := binary.LittleEndian
	h.Version = le.Uint32(data[8:])
	if h.Version != FormatVersion {
		return h, fmt.Errorf("%w: format version %d, this program reads %d", ErrFormat, h.Version, FormatVersion)
	}
	h.Kind = Kind(le.Uint32(data[12:]))
	if h.Kind != DAWG && h.Kind != GADDAG {
		return h, fmt.Errorf("%w: unknown kind %d", ErrFormat, uint32(h.Kind))
	}
	copy(h.Key[:], data[16:48])
	h.Words = int(le.Uint32(data[48:]))
	h.Root = le.Uint32(data[52:])
	h.Nodes = int(le.Uint32(data[56:]))
	h.Edges = int(le.Uint32(data[60:]))
	return h, nil
}

// UnmarshalBinary decodes a file, checking its header, length, checksum
// and structure.
func (a *Automaton) UnmarshalBinary(data []byte) error {
	h, err := ReadHeader(data)
	if err != nil {
		return err
	}
	want := uint64(headerSize) + 12*uint64(h.Nodes) + 4*uint64(h.Edges) + 4
	if uint64(len(data)) != want {
		return fmt.Errorf("%w: %d bytes, the header announces %d (%d states, %d edges)", ErrFormat, len(data), want, h.Nodes, h.Edges)
	}
	le := binary.LittleEndian
	body := data[:len(data)-4]
	if got, sum := crc32.Checksum(body, crcTable), le.Uint32(data[len(data)-4:]); got != sum {
		return fmt.Errorf("%w: checksum %08x, stored %08x", ErrFormat, got, sum)
	}
	nodes := make([]Node, h.Nodes)
	p := data[headerSize:]
	for i := range nodes {
		nodes[i] = Node{Mask: le.Uint64(p), First: le.Uint32(p[8:])}
		p = p[12:]
	}
	targets := make([]uint32, h.Edges)
	for i := range targets {
		targets[i] = le.Uint32(p)
		p = p[4:]
	}
	b := Automaton{Kind: h.Kind, Nodes: nodes, Targets: targets, Root: h.Root, Words: h.Words, Key: h.Key}
	if err := b.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrFormat, err)
	}
	*a = b
	return nil
}

// WriteTo writes the automaton in the file format.
func (a *Automaton) WriteTo(w io.Writer) (int64, error) {
	data, err := a.MarshalBinary()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(data)
	return int64(n), err
}
