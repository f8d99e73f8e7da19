package alphabet

// Rack is a multiset of tiles held as a count per tile code (index 0 is
// the blank). It is a value type: copying it copies the tiles.
type Rack [MaxLetters + 1]uint8

// RackOf builds a rack from tiles. Designated blanks count as blanks.
func RackOf(ts []Tile) Rack {
	var r Rack
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add puts one tile on the rack (a designated blank is added as a blank).
func (r *Rack) Add(t Tile) {
	if t.IsBlanked() {
		t = Blank
	}
	r[t]++
}

// Remove takes one tile off the rack (a designated blank takes a blank)
// and reports whether it was there.
func (r *Rack) Remove(t Tile) bool {
	if t.IsBlanked() {
		t = Blank
	}
	if r[t] == 0 {
		return false
	}
	r[t]--
	return true
}

// AddRack puts every tile of o on the rack as well.
func (r *Rack) AddRack(o *Rack) {
	for t, c := range o {
		r[t] += c
	}
}

// Len is the number of tiles on the rack.
func (r *Rack) Len() int {
	n := 0
	for _, c := range r {
		n += int(c)
	}
	return n
}

// Tiles lists the tiles in code order (blanks first).
func (r *Rack) Tiles() []Tile {
	var out []Tile
	for t, c := range r {
		for i := 0; i < int(c); i++ {
			out = append(out, Tile(t))
		}
	}
	return out
}

// Contains reports whether every tile of other is on r.
func (r *Rack) Contains(other *Rack) bool {
	for i := range r {
		if other[i] > r[i] {
			return false
		}
	}
	return true
}

// InWritingOrder lists the tiles the way players write a rack: letters in
// code order, then the blanks ("AEINRS?").
func (r *Rack) InWritingOrder() []Tile {
	ts := r.Tiles() // blanks first
	nb := int(r[Blank])
	return append(ts[nb:], ts[:nb]...)
}

// RackString renders a rack as plain text with blanks last ("AEINRS?"),
// for people to read; multi-character letters are not marked, so use
// Spell or Bracketed on InWritingOrder for text that is read back.
func (a *Alphabet) RackString(r *Rack) string { return a.Word(r.InWritingOrder()) }

// ParseRack reads a rack written as letters and "?" for blanks.
func (a *Alphabet) ParseRack(s string) (Rack, error) {
	ts, err := a.Parse(s, WithBlanks)
	if err != nil {
		return Rack{}, err
	}
	for i, t := range ts {
		if t.IsBlanked() {
			return Rack{}, &Error{Text: s, Pos: i, Letter: a.String(t), Reason: "a rack holds blanks as ?, not lowercase letters"}
		}
	}
	return RackOf(ts), nil
}

// SubIndex is the index of sub-rack kept among r's sub-racks in the
// order the one-pass leave valuations use: the mixed-radix number whose
// digits are kept's counts of r's distinct tiles in code order (the
// blank first), the first digit the least significant.
func (r *Rack) SubIndex(kept *Rack) int {
	i, radix := 0, 1
	for l, c := range r {
		if c > 0 {
			i += int(kept[l]) * radix
			radix *= int(c) + 1
		}
	}
	return i
}

// SubRacks calls f with every sub-multiset of r, the empty one and r
// itself included: each multiset once, in no particular order. f must not
// keep the rack it is given; SubRacks reuses it.
func (r *Rack) SubRacks(f func(*Rack)) {
	var idx [MaxLetters + 1]int
	n := 0
	for i, c := range r {
		if c > 0 {
			idx[n] = i
			n++
		}
	}
	var cur Rack
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(&cur)
			return
		}
		t := idx[k]
		for c := 0; c <= int(r[t]); c++ {
			cur[t] = uint8(c)
			rec(k + 1)
		}
		cur[t] = 0
	}
	rec(0)
}

// Value is the sum of the scores of the rack's tiles, with scores[t] the
// score of tile code t (as a variant's Scores); codes past the end of
// scores count 0. It is what a rack is worth at the end of a game.
func (r *Rack) Value(scores []int) int {
	n := 0
	for t, c := range r {
		if c > 0 && t < len(scores) {
			n += int(c) * scores[t]
		}
	}
	return n
}
