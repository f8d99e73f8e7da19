package leave

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"atril/alphabet"
	"atril/variant"
)

// Evaluator values a rack leave; *Table and *Exhaustive implement it.
type Evaluator interface {
	Eval(kept *alphabet.Rack) float64
}

// Exhaustive holds one value for every leave of a tile set (see Index),
// as fixed-point numbers in 1/Scale of a point: 16 bits a leave, about
// 1.8 MB for English and 15.6 MB for Czech in memory.
type Exhaustive struct {
	// Name identifies the table, e.g. "en-learnt".
	Name string
	// Variant is the name of the variant the table was made for.
	Variant string
	idx     *Index
	vals    []int16
}

// Scale is the number of fixed-point steps per point (1/32 point).
const Scale = 32

// NewExhaustive makes a table of the given values (by rank; values[0], the
// empty leave, is forced to 0), rounded to the fixed-point step and
// clamped to ±1023 points.
func NewExhaustive(name, variantName string, ix *Index, values []float64) (*Exhaustive, error) {
	if len(values) != ix.Len() {
		return nil, fmt.Errorf("leave table %s: %d values for %d leaves", name, len(values), ix.Len())
	}
	t := &Exhaustive{Name: name, Variant: variantName, idx: ix, vals: make([]int16, len(values))}
	for i, v := range values[1:] {
		q := math.Round(v * Scale)
		q = math.Max(-math.MaxInt16, math.Min(math.MaxInt16, q))
		t.vals[i+1] = int16(q)
	}
	return t, nil
}

// FromEvaluator fills an exhaustive table with another table's values
// (e.g. a per-letter table, to start learning from it).
func FromEvaluator(name, variantName string, ix *Index, e Evaluator) *Exhaustive {
	vals := make([]float64, ix.Len())
	if e != nil {
		ix.Each(func(rank int, r *alphabet.Rack) { vals[rank] = e.Eval(r) })
	}
	t, _ := NewExhaustive(name, variantName, ix, vals) // lengths agree
	return t
}

// Index is the table's leave numbering.
func (t *Exhaustive) Index() *Index { return t.idx }

// Value is the value of the leave of a rank.
func (t *Exhaustive) Value(rank int) float64 { return float64(t.vals[rank]) / Scale }

// Eval implements Evaluator: the value of keeping r. A rack the table
// does not cover (more than rack size − 1 tiles, or more copies of a tile
// than the set holds) is worth 0. It does not allocate.
func (t *Exhaustive) Eval(r *alphabet.Rack) float64 {
	i, ok := t.idx.Rank(r)
	if !ok {
		return 0
	}
	return float64(t.vals[i]) / Scale
}

// FixedLeave marks an Exhaustive table as never changing
// (movegen.FixedLeave), so that a search may keep its values for the
// next search of the same rack.
func (t *Exhaustive) FixedLeave() {}

// EvalSubRacks sets out[i] to Eval of sub-rack i of r, where i is the
// mixed-radix number whose digits are the counts kept of r's distinct
// tiles in code order, the first digit the least significant; out must
// hold ∏(count+1) entries, one per sub-rack. It walks the sub-racks once,
// summing rank terms on the way (where one Eval each would rank every
// sub-rack from scratch), does not allocate, and always reports true
// (see movegen.SubRackLeave).
func (t *Exhaustive) EvalSubRacks(r *alphabet.Rack, out []float64) bool {
	w := subWalk{t: t, out: out}
	for i, c := range r {
		if c > 0 {
			w.dist[w.nd], w.cnt[w.nd] = uint8(i), c
			w.nd++
		}
	}
	w.walk(0, 1, 0, t.idx.max, 0, true)
	return true
}

// subWalk is the state of EvalSubRacks' walk.
type subWalk struct {
	t    *Exhaustive
	out  []float64
	dist [alphabet.MaxLetters + 1]uint8 // distinct tiles of the rack
	cnt  [alphabet.MaxLetters + 1]uint8 // their counts
	nd   int
}

// walk chooses the count kept of the k-th distinct tile: at is the index
// so far and radix the place value of digit k, s the tiles the leave may
// still hold and rank the sum of rank terms; ok is false once the leave
// is one the table does not cover (worth 0, as Eval says).
func (w *subWalk) walk(k, radix, at, s int, rank uint32, ok bool) {
	if k == w.nd {
		v := 0.0
		if ok {
			v = float64(w.t.vals[rank]) / Scale
		}
		w.out[at] = v
		return
	}
	ix := w.t.idx
	W := ix.max + 1
	tt, c := int(w.dist[k]), int(w.cnt[k])
	for x := 0; x <= c; x++ {
		okx := ok && (x == 0 || tt < ix.types && x <= s && x <= int(ix.caps[tt]))
		if okx && x > 0 {
			w.walk(k+1, radix*(c+1), at+x*radix, s-x, rank+ix.g[(tt*W+s)*W+x], true)
		} else {
			w.walk(k+1, radix*(c+1), at+x*radix, s, rank, okx)
		}
	}
}

// File format (little-endian), optionally gzip-compressed as a whole:
//
//	magic "ATRLEAVE", version uint16, scale uint16, max leave uint8,
//	name and variant (uint16 length + UTF-8 each), tile types uint8, for
//	each type its letter (uint8 length + UTF-8) and count uint8, leaves
//	uint32, the values, CRC-32C of everything before it.
//
// Version 1 holds the values as int16 in 1/scale point by rank (scale 32:
// exact). Version 2, the stored form, rounds them to 1/scale point
// (StoreScale) and holds the differences between consecutive ranks as
// int16, all low bytes first and then all high bytes: neighbouring
// leaves have close values, so the high bytes are nearly constant and
// the whole compresses to about half the size of version 1.
const (
	fileMagic = "ATRLEAVE"
	// StoreScale is the resolution of the stored form (1/4 point: far
	// below the noise of learnt values).
	StoreScale = 4
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// WriteTo writes the table exactly (format version 1, not compressed).
func (t *Exhaustive) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(t.encode(1, Scale))
	return int64(n), err
}

// WriteGzip writes the stored form: format version 2 at StoreScale,
// gzip-compressed (the form `leaves learn` writes and the repository
// embeds). Values move by at most half a step of 1/StoreScale point.
func (t *Exhaustive) WriteGzip(w io.Writer) error {
	z, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := z.Write(t.encode(2, StoreScale)); err != nil {
		return err
	}
	return z.Close()
}

func (t *Exhaustive) encode(version, scale int) []byte {
	var b bytes.Buffer
	b.WriteString(fileMagic)
	le := binary.LittleEndian
	b.Write(le.AppendUint16(nil, uint16(version)))
	b.Write(le.AppendUint16(nil, uint16(scale)))
	b.WriteByte(byte(t.idx.max))
	for _, s := range []string{t.Name, t.Variant} {
		b.Write(le.AppendUint16(nil, uint16(len(s))))
		b.WriteString(s)
	}
	b.WriteByte(byte(t.idx.types))
	for i, l := range t.idx.letters {
		b.WriteByte(byte(len(l)))
		b.WriteString(l)
		b.WriteByte(byte(t.idx.counts[i]))
	}
	n := len(t.vals)
	b.Write(le.AppendUint32(nil, uint32(n)))
	buf := make([]byte, 2*n)
	if version == 1 {
		for i, v := range t.vals {
			le.PutUint16(buf[2*i:], uint16(v))
		}
	} else {
		div := float64(Scale / scale)
		prev := int16(0)
		for i, v := range t.vals {
			q := int16(math.Round(float64(v) / div))
			d := uint16(q - prev)
			prev = q
			buf[i], buf[n+i] = byte(d), byte(d>>8)
		}
	}
	b.Write(buf)
	b.Write(le.AppendUint32(nil, crc32.Checksum(b.Bytes(), crcTable)))
	return b.Bytes()
}

// ErrNotExhaustive says a file is not an exhaustive leave table.
var ErrNotExhaustive = errors.New("not an exhaustive leave table (no ATRLEAVE header)")

// IsExhaustive reports whether data starts like an exhaustive table file
// (gzip-compressed or not).
func IsExhaustive(data []byte) bool {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		return true
	}
	return bytes.HasPrefix(data, []byte(fileMagic))
}

// ReadExhaustive reads a table written by WriteTo or WriteGzip and checks
// it against the variant's tile set: a damaged file (checksum), a file of
// another format or version, or a table made for another tile set or rack
// size is refused with an error that says which.
func ReadExhaustive(data []byte, v *variant.Variant) (*Exhaustive, error) {
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		z, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("leave table: %w", err)
		}
		raw, err := io.ReadAll(bufio.NewReader(z))
		if err != nil {
			return nil, fmt.Errorf("leave table: decompressing: %w", err)
		}
		data = raw
	}
	if !bytes.HasPrefix(data, []byte(fileMagic)) {
		return nil, fmt.Errorf("leave table: %w", ErrNotExhaustive)
	}
	if len(data) < len(fileMagic)+9 {
		return nil, fmt.Errorf("leave table: file truncated")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return nil, fmt.Errorf("leave table: checksum mismatch: the file is damaged")
	}
	rd := &reader{b: body[len(fileMagic):]}
	ver := rd.u16()
	if ver != 1 && ver != 2 {
		return nil, fmt.Errorf("leave table: format version %d, this program reads 1 and 2", ver)
	}
	sc := int(rd.u16())
	if (ver == 1 && sc != Scale) || sc == 0 || Scale%sc != 0 {
		return nil, fmt.Errorf("leave table: fixed-point scale %d, this program reads %d (and its divisors in version 2)", sc, Scale)
	}
	max := int(rd.u8())
	name, vname := rd.str16(), rd.str16()
	types := int(rd.u8())
	letters := make([]string, types)
	counts := make([]int, types)
	for i := range letters {
		letters[i] = string(rd.bytes(int(rd.u8())))
		counts[i] = int(rd.u8())
	}
	n := int(rd.u32())
	raw := rd.bytes(2 * n)
	if rd.err != nil || len(rd.b) != 0 {
		return nil, fmt.Errorf("leave table %s: malformed header or length", name)
	}
	want := append([]string{"?"}, v.Alphabet.Letters()...)
	if max != v.RackSize-1 || !sameSet(letters, counts, want, v.Counts) {
		return nil, fmt.Errorf("leave table %s was made for %s (%d tile types, leaves of up to %d tiles), not for the tile set of %s (%d tile types, rack of %d)",
			name, vname, types, max, v.Name, len(want), v.RackSize)
	}
	ix, err := NewIndex(v)
	if err != nil {
		return nil, err
	}
	if ix.Len() != n {
		return nil, fmt.Errorf("leave table %s: %d values, the tile set has %d leaves", name, n, ix.Len())
	}
	t := &Exhaustive{Name: name, Variant: vname, idx: ix, vals: make([]int16, n)}
	if ver == 1 {
		for i := range t.vals {
			t.vals[i] = int16(binary.LittleEndian.Uint16(raw[2*i:]))
		}
		return t, nil
	}
	mul := int32(Scale / sc)
	var q int16
	for i := range t.vals {
		q += int16(uint16(raw[i]) | uint16(raw[n+i])<<8)
		x := int32(q) * mul
		if x > math.MaxInt16 || x < -math.MaxInt16 {
			return nil, fmt.Errorf("leave table %s: value out of range at rank %d", name, i)
		}
		t.vals[i] = int16(x)
	}
	return t, nil
}

func sameSet(l1 []string, c1 []int, l2 []string, c2 []int) bool {
	if len(l1) != len(l2) || len(c1) != len(c2) {
		return false
	}
	for i := range l1 {
		if l1[i] != l2[i] || c1[i] != c2[i] {
			return false
		}
	}
	return true
}

// reader reads the header fields, remembering the first overrun.
type reader struct {
	b   []byte
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8() uint8 {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *reader) u16() uint16 {
	b := r.bytes(2)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint16(b)
}

func (r *reader) u32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *reader) str16() string { return string(r.bytes(int(r.u16()))) }
