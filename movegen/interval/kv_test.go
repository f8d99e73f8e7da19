package interval

import (
	"testing"

	"atril/board"
	"atril/lexicon"
	"atril/movegen"
	"atril/variant"
)

// TestKVFull checks that a lookup in a table with no empty slot, which
// only a file not written by this program can hold, ends.
func TestKVFull(t *testing.T) {
	kt := newKV(8)
	for k := range uint64(6) {
		kt.put(k+1, 10*k)
	}
	for i := range kt.slots {
		if kt.slots[i].key == emptyKey {
			kt.slots[i].key = 1000 + uint64(i)
		}
	}
	if v, ok := kt.get(5); !ok || v != 40 {
		t.Errorf("get(5) = %d, %v", v, ok)
	}
	if _, ok := kt.get(99); ok {
		t.Error("a key never put was found")
	}
}

// TestForeignTablesSafe gives the generator tables whose slots a file
// could hold under a valid checksum without this program having written
// them: groups of words past the end, blanks standing for letters
// outside the alphabet, tables with no empty slot. Loading does not read
// every slot, so the searches must stay safe on them: no panic, no loop.
func TestForeignTablesSafe(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "QUIZ", "RETAINS", "ZAX", "JIVE", "AA", "STAINER", "NASTIER", "RAT", "TAR", "ART", "AT", "TA")
	if err != nil {
		t.Fatal(err)
	}
	at, err := BuildAnagram(lex, nil, AnagramOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for n := range at.lens {
		tl := &at.lens[n]
		for j, kt := range tl.keys {
			if kt == nil {
				continue
			}
			for i := range kt.slots {
				s := &kt.slots[i]
				switch {
				case s.key == emptyKey:
					s.key = emptyKey - 1 - uint64(i) // no empty slot left
				case j == 0:
					s.val = uint64(len(tl.letters))<<32 | 5 // past the end
				default:
					s.val |= 0xffff << 40 // letters past the alphabet
				}
			}
		}
	}
	data, err := at.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := UnmarshalAnagram(data, lex)
	if err != nil {
		t.Fatalf("the loader reads every slot again: %v", err)
	}
	b := board.New(v, lex)
	g := NewAnagramFrom(loaded)
	for _, rs := range []string{"AERSTIN", "AERST??", "QUIZ?AX"} {
		rack, err := v.Alphabet.ParseRack(rs)
		if err != nil {
			t.Fatal(err)
		}
		movegen.All(g, b, &rack)
		g.TopN(b, &rack, nil, 3, nil)
	}
}
