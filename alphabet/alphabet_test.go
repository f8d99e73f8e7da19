package alphabet

import (
	"fmt"
	"strings"
	"testing"
)

func spanish(t *testing.T) *Alphabet {
	a, err := New(strings.Fields("A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z"))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestParseGreedyDigraphs(t *testing.T) {
	a := spanish(t)
	tests := []struct {
		in   string
		mode Mode
		want string // tiles rendered with brackets
		n    int
	}{
		{"CHORRO", Plain, "[CH]O[RR]O", 4},
		{"LLAMA", Plain, "[LL]AMA", 4},
		{"chorro", Plain, "[CH]O[RR]O", 4},
		{"[C]HORRO", Plain, "[C]HO[RR]O", 5},
		{"CARRO", Plain, "CA[RR]O", 4},
		{"AÑO", Plain, "AÑO", 3},
		{"ch", WithBlanks, "[ch]", 1},
		{"[ch]A?", WithBlanks, "[ch]A?", 3},
		{"LLL", Plain, "[LL]L", 2},
		{"[L]LL", Plain, "L[LL]", 2},
		{"[L][L]", Plain, "[L]L", 2},
	}
	for _, tc := range tests {
		ts, err := a.Parse(tc.in, tc.mode)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if len(ts) != tc.n || a.Spell(ts) != tc.want {
			t.Errorf("Parse(%q) = %d tiles %q, want %d %q", tc.in, len(ts), a.Spell(ts), tc.n, tc.want)
		}
		// Bracketed text reads back to the same tiles.
		back, err := a.Parse(a.Spell(ts), WithBlanks)
		if err != nil || string(tilesBytes(back)) != string(tilesBytes(ts)) {
			t.Errorf("round trip of %q: %v %v", tc.in, back, err)
		}
	}
}

// TestBracketed checks the form file formats use: only multi-character
// letters in brackets, and every other character one tile.
func TestBracketed(t *testing.T) {
	a := spanish(t)
	tests := []struct {
		in      string // read by ParseBracketed
		n       int
		written string // Bracketed of what was read
		spelled string // Spell of what was read (for the greedy Parse)
	}{
		{"[CH]O[RR]O", 4, "[CH]O[RR]O", "[CH]O[RR]O"},
		{"CHORRO", 6, "CHORRO", "[C]HO[R]RO"},
		{"LL", 2, "LL", "[L]L"},
		{"[L]L", 2, "LL", "[L]L"},
		{"[L][L]", 2, "LL", "[L]L"},
		{"[LL]L", 2, "[LL]L", "[LL]L"},
		{"CHLL", 4, "CHLL", "[C]H[L]L"},
		{"[C]H", 2, "CH", "[C]H"},
		{"Ch", 2, "Ch", "Ch"},
		{"ch", 2, "ch", "[c]h"},
		{"[ch]l?", 3, "[ch]l?", "[ch]l?"},
		{"ÑU", 2, "ÑU", "ÑU"},
		{"", 0, "", ""},
	}
	for _, tc := range tests {
		ts, err := a.ParseBracketed(tc.in, WithBlanks)
		if err != nil {
			t.Errorf("ParseBracketed(%q): %v", tc.in, err)
			continue
		}
		if len(ts) != tc.n || a.Bracketed(ts) != tc.written || a.Spell(ts) != tc.spelled {
			t.Errorf("ParseBracketed(%q) = %d tiles, Bracketed %q, Spell %q; want %d, %q, %q",
				tc.in, len(ts), a.Bracketed(ts), a.Spell(ts), tc.n, tc.written, tc.spelled)
		}
		back, err := a.Parse(a.Spell(ts), WithBlanks)
		if err != nil || string(tilesBytes(back)) != string(tilesBytes(ts)) {
			t.Errorf("Spell of %q does not read back with Parse: %v %v", tc.in, back, err)
		}
	}
}

func TestParseBracketedErrors(t *testing.T) {
	a := spanish(t)
	catalan, err := New(strings.Fields("A B C Ç L L·L N NY"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		a      *Alphabet
		in     string
		mode   Mode
		letter string
		pos    int
		reason string // substring of the error
	}{
		{a, "KA", WithBlanks, "K", 0, `unknown letter "K"`},
		{a, "A?", Plain, "?", 1, "blank is not allowed"},
		{a, "A[CHO]", WithBlanks, "CHO", 1, `unknown letter "CHO"`},
		{a, "[CH", WithBlanks, "[", 0, "unclosed"},
		{a, "A\xffB", WithBlanks, "\xff", 1, "invalid UTF-8"},
		{catalan, "AL·LA", WithBlanks, "·", 2, "[L·L]"},
	}
	for _, tc := range tests {
		_, err := tc.a.ParseBracketed(tc.in, tc.mode)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("ParseBracketed(%q): error %v, want *Error", tc.in, err)
			continue
		}
		if e.Letter != tc.letter || e.Pos != tc.pos || !strings.Contains(e.Error(), tc.reason) {
			t.Errorf("ParseBracketed(%q): letter %q at %d (%v), want %q at %d mentioning %q", tc.in, e.Letter, e.Pos, e, tc.letter, tc.pos, tc.reason)
		}
	}
}

func tilesBytes(ts []Tile) []byte {
	b := make([]byte, len(ts))
	for i, t := range ts {
		b[i] = byte(t)
	}
	return b
}

func TestParseErrors(t *testing.T) {
	a := spanish(t)
	tests := []struct {
		in     string
		mode   Mode
		letter string
		pos    int
	}{
		{"KIWI", Plain, "K", 0},
		{"CASW", Plain, "W", 3},
		{"A?", Plain, "?", 1},
		{"[XY]", Plain, "XY", 0},
		{"AB[C", Plain, "[", 2},
		{"AÉ", Plain, "É", 1},
		{"A\xffB", Plain, "\xff", 1},
	}
	for _, tc := range tests {
		_, err := a.Parse(tc.in, tc.mode)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("Parse(%q): error %v, want *Error", tc.in, err)
			continue
		}
		if e.Letter != tc.letter || e.Pos != tc.pos {
			t.Errorf("Parse(%q): letter %q at %d, want %q at %d (%v)", tc.in, e.Letter, e.Pos, tc.letter, tc.pos, e)
		}
		if !strings.Contains(e.Error(), tc.in) && tc.in != "A\xffB" {
			t.Errorf("error %q does not quote the input", e.Error())
		}
	}
}

func TestCzechDiacritics(t *testing.T) {
	a, err := New(strings.Fields("A Á B C Č D Ď E É Ě F G H I Í J K L M N Ň O Ó P R Ř S Š T Ť U Ú Ů V X Y Ý Z Ž"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := a.Parse("chůze", WithBlanks)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 5 || a.Word(ts) != "chůze" || !ts[2].IsBlanked() {
		t.Errorf("chůze: %v %q", ts, a.Word(ts))
	}
	ts, _ = a.Parse("ŽLUŤOUČKÝ", Plain)
	if len(ts) != 9 || a.Word(ts) != "ŽLUŤOUČKÝ" {
		t.Errorf("ŽLUŤOUČKÝ: %d tiles %q", len(ts), a.Word(ts))
	}
	if _, err := a.Parse("QUIZ", Plain); err == nil || !strings.Contains(err.Error(), `"Q"`) {
		t.Errorf("Q in Czech: %v", err)
	}
}

func TestNewRejects(t *testing.T) {
	for _, letters := range [][]string{nil, {"A", "A"}, {"a"}, {"?"}, {"A", ""}, {"[X]"}} {
		if _, err := New(letters); err == nil {
			t.Errorf("New(%q) accepted", letters)
		}
	}
}

func TestRack(t *testing.T) {
	a := spanish(t)
	r, err := a.ParseRack("??CHAE")
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 5 || a.RackString(&r) != "CHAE??" && a.RackString(&r) != "ACHE??" {
		t.Errorf("rack %q len %d", a.RackString(&r), r.Len())
	}
	if _, err := a.ParseRack("Ab"); err == nil {
		t.Error("lowercase in rack accepted")
	}
	ts, _ := a.Parse("e", WithBlanks)
	if !r.Remove(ts[0]) || r[Blank] != 1 {
		t.Error("removing a designated blank should take a blank")
	}
	o, _ := a.ParseRack("AA?")
	r.AddRack(&o)
	if r.Len() != 7 || r[Blank] != 2 || a.RackString(&r) != "AAACHE??" {
		t.Errorf("AddRack: rack %q len %d", a.RackString(&r), r.Len())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"CHORRO", "[ch]a?", "[", "ÑÑ", "\xff", "ll[LL]rr"} {
		f.Add(s)
	}
	a, err := New(strings.Fields("A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ts, err := a.Parse(s, WithBlanks)
		if err != nil {
			return
		}
		back, err := a.Parse(a.Spell(ts), WithBlanks)
		if err != nil || string(tilesBytes(back)) != string(tilesBytes(ts)) {
			t.Fatalf("%q → %q → %v %v", s, a.Spell(ts), back, err)
		}
		back, err = a.ParseBracketed(a.Bracketed(ts), WithBlanks)
		if err != nil || string(tilesBytes(back)) != string(tilesBytes(ts)) {
			t.Fatalf("%q → Bracketed %q → %v %v", s, a.Bracketed(ts), back, err)
		}
		// Whatever ParseBracketed accepts, Bracketed writes back so that
		// it reads the same.
		if ts, err := a.ParseBracketed(s, WithBlanks); err == nil {
			back, err := a.ParseBracketed(a.Bracketed(ts), WithBlanks)
			if err != nil || string(tilesBytes(back)) != string(tilesBytes(ts)) {
				t.Fatalf("bracketed %q → %q → %v %v", s, a.Bracketed(ts), back, err)
			}
		}
	})
}

func TestCollated(t *testing.T) {
	tests := []struct {
		letters string // in code order
		want    string // Collated, space separated
	}{
		{"A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z", "A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z"},
		{"Z Y X V U T S RR R Q P O Ñ N M LL L J I H G F E D CH C B A", "A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z"},
		{"Ž Á A Č C Ů Ú U CH", "A Á C Č CH U Ú Ů Ž"},
		{"L·L L NY N Ç C", "C Ç L L·L N NY"},
	}
	for _, tc := range tests {
		a, err := New(strings.Fields(tc.letters))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range a.Collated() {
			got = append(got, a.String(l))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Collated(%s) = %s, want %s", tc.letters, strings.Join(got, " "), tc.want)
		}
	}
}

// TestParseASCIIFastPath checks that reading plain ASCII letters from the
// table gives what the general path (longest match, map lookup; in
// ParseBracketed, one letter at a time) gives,
// tiles and errors alike, in alphabets with and without digraphs.
func TestParseASCIIFastPath(t *testing.T) {
	alphabets := map[string][]string{
		"spanish": strings.Fields("A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z"),
		"english": strings.Fields("A B C D E F G H I J K L M N O P Q R S T U V W X Y Z"),
		"czech":   strings.Fields("A Á B C Č D Ď E É Ě F G H CH I Í J K L M N Ň O Ó P R Ř S Š T Ť U Ú Ů V X Y Ý Z Ž"),
	}
	pieces := []string{"A", "a", "C", "c", "H", "h", "CH", "ch", "Ch", "L", "LL", "ll", "R", "rr", "Ñ", "ñ", "Č", "ě", "Q", "?", "[", "]", "[ch]", "[LL]", "1", " ", "\xff", "\x80", "é"}
	rng := uint64(7)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	for name, letters := range alphabets {
		fast, err := New(letters)
		if err != nil {
			t.Fatal(err)
		}
		slow := *fast
		slow.ascii = [len(slow.ascii)]uint8{}
		if name == "english" && fast.ascii['Q'] == 0 {
			t.Fatalf("%s: the fast path does not cover Q", name)
		}
		if name == "spanish" && (fast.ascii['C'] != 0 || fast.ascii['l'] != 0) {
			t.Fatalf("%s: C or l, which start digraphs, are on the fast path", name)
		}
		plain := 0
		for i := 0; i < 5000; i++ {
			var sb strings.Builder
			for k := next(8); k >= 0; k-- {
				sb.WriteString(pieces[next(len(pieces))])
			}
			s := sb.String()
			for _, mode := range []Mode{Plain, WithBlanks} {
				a, errA := fast.AppendParse(nil, s, mode)
				b, errB := slow.AppendParse(nil, s, mode)
				if string(tilesBytes(a)) != string(tilesBytes(b)) || fmt.Sprint(errA) != fmt.Sprint(errB) {
					t.Fatalf("%s, %q, mode %d: fast %v %v, general %v %v", name, s, mode, a, errA, b, errB)
				}
				a, errA = fast.ParseBracketed(s, mode)
				b, errB = slow.ParseBracketed(s, mode)
				if string(tilesBytes(a)) != string(tilesBytes(b)) || fmt.Sprint(errA) != fmt.Sprint(errB) {
					t.Fatalf("%s, ParseBracketed %q, mode %d: fast %v %v, general %v %v", name, s, mode, a, errA, b, errB)
				}
			}
			if c, ok := fast.AppendPlainASCII(nil, []byte(s)); ok {
				b, err := slow.AppendParse(nil, s, Plain)
				if err != nil || string(tilesBytes(c)) != string(tilesBytes(b)) {
					t.Fatalf("%s, %q: AppendPlainASCII %v, AppendParse %v %v", name, s, c, b, err)
				}
				plain++
			}
		}
		if plain == 0 {
			t.Errorf("%s: no string took AppendPlainASCII", name)
		}
	}
}
