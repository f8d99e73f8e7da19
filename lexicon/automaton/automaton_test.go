package automaton

import (
	"bytes"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"atril/alphabet"
	"atril/lexicon"
	"atril/variant"
)

type language struct{ variant, lexicon string }

var languages = []language{
	{"english", "en-sowpods"},
	{"spanish", "es-fise"},
	{"czech", "cs-hunspell-2to9"},
}

var (
	lexMu sync.Mutex
	lexs  = map[string]*lexicon.Lexicon{}
)

func loadLexicon(t testing.TB, l language) *lexicon.Lexicon {
	t.Helper()
	lexMu.Lock()
	defer lexMu.Unlock()
	if lex := lexs[l.lexicon]; lex != nil {
		return lex
	}
	v, err := variant.Load(l.variant)
	if err != nil {
		t.Fatal(err)
	}
	lex, err := lexicon.Open(l.lexicon, v.Alphabet, lexicon.Options{MaxLen: v.Size})
	if err != nil {
		t.Fatal(err)
	}
	lexs[l.lexicon] = lex
	return lex
}

// sample keeps every step-th word.
func sample(lex *lexicon.Lexicon, step int) *lexicon.Lexicon {
	var words [][]alphabet.Tile
	for i := 0; i < lex.Len(); i += step {
		words = append(words, lex.Word(i))
	}
	out := lexicon.FromTiles(lex.Alphabet, words)
	out.Name = fmt.Sprintf("%s-sample%d", lex.Name, step)
	return out
}

func long() bool { return os.Getenv("ATRIL_LONG") != "" }

// gaddagStrings returns the GADDAG strings of a word, one per split.
func gaddagStrings(w []alphabet.Tile) [][]alphabet.Tile {
	var out [][]alphabet.Tile
	n := len(w)
	for k := 1; k <= n; k++ {
		var s []alphabet.Tile
		for j := k - 1; j >= 0; j-- {
			s = append(s, w[j])
		}
		if k < n {
			s = append(s, Sep)
			s = append(s, w[k:]...)
		}
		out = append(out, s)
	}
	return out
}

// accepted lists every string the automaton accepts, in symbol order.
func accepted(a *Automaton) [][]alphabet.Tile {
	var out [][]alphabet.Tile
	var path []alphabet.Tile
	var walk func(n uint32)
	walk = func(n uint32) {
		if a.IsFinal(n) {
			out = append(out, slices.Clone(path))
		}
		for m := a.Nodes[n].Mask; m != 0; m &= m - 1 {
			s := alphabet.Tile(bits.TrailingZeros64(m))
			c, _ := a.Child(n, s)
			path = append(path, s)
			walk(c)
			path = path[:len(path)-1]
		}
	}
	walk(a.Root)
	return out
}

// checkMinimal fails unless every state is reachable from the root and
// no two states have the same finality and the same out-edges (which, in
// an acyclic automaton built bottom-up, means no two states accept the
// same language: the automaton is minimal).
func checkMinimal(t *testing.T, a *Automaton) {
	t.Helper()
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, len(a.Nodes))
	stack := []uint32{a.Root}
	seen[a.Root] = true
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := a.Nodes[n]
		first := nd.First &^ Final
		for _, c := range a.Targets[first : first+uint32(bits.OnesCount64(nd.Mask))] {
			if !seen[c] {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("state %d is unreachable", i)
		}
	}
	sigs := map[string]int{}
	for i, nd := range a.Nodes {
		first := nd.First &^ Final
		k := fmt.Sprint(nd.Mask, nd.First&Final, a.Targets[first:first+uint32(bits.OnesCount64(nd.Mask))])
		if j, dup := sigs[k]; dup {
			t.Fatalf("states %d and %d are equivalent: not minimal", j, i)
		}
		sigs[k] = i
	}
}

// TestSmall checks a tiny list against sizes worked out by hand.
func TestSmall(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CAR", "CARE", "CARS", "BAR", "BARE", "BARS")
	if err != nil {
		t.Fatal(err)
	}
	d := BuildDAWG(lex)
	// root -B,C-> x -A-> y -R-> z(final) -E,S-> end(final): 5 states, 6 edges.
	if len(d.Nodes) != 5 || d.Edges() != 6 {
		t.Errorf("DAWG of CAR/CARE/CARS/BAR/BARE/BARS: %d states, %d edges; want 5, 6", len(d.Nodes), d.Edges())
	}
	checkMinimal(t, d)
	g := BuildGADDAG(lex)
	checkMinimal(t, g)
	for i := 0; i < lex.Len(); i++ {
		for _, s := range gaddagStrings(lex.Word(i)) {
			if !g.Accepts(s) {
				t.Errorf("GADDAG rejects %v", s)
			}
		}
	}
	if got, want := len(accepted(g)), 3+4+4+3+4+4; got != want {
		t.Errorf("GADDAG accepts %d strings, want %d", got, want)
	}
}

// TestMembership checks that the DAWG accepts exactly the words of each
// list, in order, and that the GADDAG accepts every word in every split
// and nothing else, and rejects non-words; both must be minimal. The
// GADDAG is built from a sample of each list unless ATRIL_LONG is set.
func TestMembership(t *testing.T) {
	for _, l := range languages {
		t.Run(l.variant, func(t *testing.T) {
			if testing.Short() && l.variant != "english" {
				t.Skip("-short: loading the big Spanish and Czech lists takes seconds")
			}
			lex := loadLexicon(t, l)
			d := BuildDAWG(lex)
			checkMinimal(t, d)
			acc := accepted(d)
			if len(acc) != lex.Len() {
				t.Fatalf("DAWG accepts %d strings, the list has %d words", len(acc), lex.Len())
			}
			for i, w := range acc {
				if !slices.Equal(w, lex.Word(i)) {
					t.Fatalf("DAWG string %d is %v, word %d is %v", i, w, i, lex.Word(i))
				}
			}
			glex := lex
			if !long() {
				glex = sample(lex, 25)
			}
			g := BuildGADDAG(glex)
			checkMinimal(t, g)
			total := 0
			for i := 0; i < glex.Len(); i++ {
				w := glex.Word(i)
				total += len(w)
				for _, s := range gaddagStrings(w) {
					if !g.Accepts(s) {
						t.Fatalf("GADDAG rejects %v of word %s", s, lex.Alphabet.Word(w))
					}
				}
				if !g.Contains(w) {
					t.Fatalf("GADDAG.Contains(%s) is false", lex.Alphabet.Word(w))
				}
			}
			if !long() || l.variant == "english" {
				if n := len(accepted(g)); n != total {
					t.Fatalf("GADDAG accepts %d strings, want %d (one per letter of each word)", n, total)
				}
			}
			// Non-words: words with one letter changed, and random strings.
			rng := rand.New(rand.NewPCG(1, 2))
			size := lex.Alphabet.Size()
			rejected := 0
			for k := 0; k < 20000; k++ {
				var w []alphabet.Tile
				if k%2 == 0 {
					w = slices.Clone(glex.Word(rng.IntN(glex.Len())))
					w[rng.IntN(len(w))] = alphabet.Tile(1 + rng.IntN(size))
				} else {
					w = make([]alphabet.Tile, 2+rng.IntN(8))
					for i := range w {
						w[i] = alphabet.Tile(1 + rng.IntN(size))
					}
				}
				if d.Contains(w) != lex.Contains(w) {
					t.Fatalf("DAWG.Contains(%s) = %v, list says %v", lex.Alphabet.Word(w), d.Contains(w), lex.Contains(w))
				}
				if glex.Contains(w) {
					continue
				}
				rejected++
				for _, s := range gaddagStrings(w) {
					if g.Accepts(s) {
						t.Fatalf("GADDAG accepts %v of non-word %s", s, lex.Alphabet.Word(w))
					}
				}
			}
			if rejected < 5000 {
				t.Errorf("only %d non-words tried", rejected)
			}
			t.Logf("%s: %d words; DAWG %d states %d edges %d bytes; GADDAG of %d words %d states %d edges %d bytes",
				lex.Name, lex.Len(), len(d.Nodes), d.Edges(), d.Bytes(), glex.Len(), len(g.Nodes), g.Edges(), g.Bytes())
		})
	}
}

func smallAutomaton(t testing.TB) *Automaton {
	v := variant.MustLoad("spanish")
	lex, err := lexicon.FromWords(v.Alphabet, "CHORRO", "CHURRO", "LLAMA", "LLAMAR", "AMAR", "MAR", "RAMA")
	if err != nil {
		t.Fatal(err)
	}
	return BuildGADDAG(lex)
}

// TestFileRoundTrip writes and reads an automaton and checks that damage
// anywhere in the file is detected.
func TestFileRoundTrip(t *testing.T) {
	a := smallAutomaton(t)
	data, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != a.Size() {
		t.Errorf("file is %d bytes, Size says %d", len(data), a.Size())
	}
	var b Automaton
	if err := b.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if b.Kind != a.Kind || b.Root != a.Root || b.Words != a.Words || b.Key != a.Key ||
		!slices.Equal(b.Nodes, a.Nodes) || !slices.Equal(b.Targets, a.Targets) {
		t.Fatal("read back a different automaton")
	}
	for i := range data {
		for _, flip := range []byte{1, 0x80} {
			bad := slices.Clone(data)
			bad[i] ^= flip
			var c Automaton
			err := c.UnmarshalBinary(bad)
			if err == nil {
				t.Fatalf("byte %d xor %#x: damage not detected", i, flip)
			}
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("byte %d: error %v does not wrap ErrFormat", i, err)
			}
		}
	}
	for n := 0; n < len(data); n++ {
		var c Automaton
		if err := c.UnmarshalBinary(data[:n]); err == nil {
			t.Fatalf("file cut to %d of %d bytes: not detected", n, len(data))
		}
	}
	if err := new(Automaton).UnmarshalBinary(append(slices.Clone(data), 0)); err == nil {
		t.Fatal("trailing byte not detected")
	}
}

// FuzzUnmarshal feeds arbitrary bytes to the reader: it must never panic,
// and whatever it accepts must be a valid automaton that writes back to
// the same bytes.
func FuzzUnmarshal(f *testing.F) {
	data, err := smallAutomaton(f).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:headerSize])
	f.Add([]byte(magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, in []byte) {
		var a Automaton
		if err := a.UnmarshalBinary(in); err != nil {
			return
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("accepted an invalid automaton: %v", err)
		}
		out, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, in) {
			t.Fatal("accepted file does not write back the same")
		}
	})
}

// forget empties the automata made in this process, as a restart would.
func forget() {
	memoMu.Lock()
	clear(memo)
	memoMu.Unlock()
}

// TestCache checks that the cache builds, writes, reloads, and rebuilds
// a damaged or foreign file instead of trusting it, saying so.
func TestCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CARE", "CARES", "SCARE", "RACE", "ACRE", "ACRES")
	if err != nil {
		t.Fatal(err)
	}
	lex.Name = "test"
	for _, kind := range []Kind{DAWG, GADDAG} {
		forget()
		r, err := Load(lex, kind)
		if r.Loaded || err != nil || r.Path == "" {
			t.Fatalf("%s first call: loaded=%v err=%v path=%q", kind, r.Loaded, err, r.Path)
		}
		if r2, err := Load(lex, kind); !r2.Shared || r2.A != r.A || err != nil {
			t.Fatalf("%s second call in the same process: not shared (%v)", kind, err)
		}
		forget()
		r3, err := Load(lex, kind)
		if !r3.Loaded || err != nil {
			t.Fatalf("%s after restart: loaded=%v err=%v", kind, r3.Loaded, err)
		}
		if !slices.Equal(r3.A.Nodes, r.A.Nodes) || !slices.Equal(r3.A.Targets, r.A.Targets) {
			t.Fatalf("%s: cache file holds a different automaton", kind)
		}
		// Damage the file: it must be rebuilt, reported, and rewritten.
		data, err := os.ReadFile(r.Path)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x10
		if err := os.WriteFile(r.Path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		forget()
		r4, err := Load(lex, kind)
		var ce *CacheError
		if r4.Loaded || !errors.As(err, &ce) || ce.Path != r.Path || !errors.Is(err, ErrFormat) {
			t.Fatalf("%s damaged file: loaded=%v err=%v", kind, r4.Loaded, err)
		}
		if !slices.Equal(r4.A.Nodes, r.A.Nodes) {
			t.Fatalf("%s: rebuilt automaton differs", kind)
		}
		if _, err := ReadFile(r.Path); err != nil {
			t.Fatalf("%s: damaged file was not rewritten: %v", kind, err)
		}
		// A file of another word list under this name is not trusted.
		other, err := lexicon.FromWords(v.Alphabet, "CARE")
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(r.Path, Build(other, kind)); err != nil {
			t.Fatal(err)
		}
		forget()
		if r5, err := Load(lex, kind); r5.Loaded || err == nil || !strings.Contains(err.Error(), "another word list") || !slices.Equal(r5.A.Nodes, r.A.Nodes) {
			t.Fatalf("%s foreign file: loaded=%v err=%v", kind, r5.Loaded, err)
		}
	}
	_, ents, err := ListCache()
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 2 {
		t.Fatalf("ListCache: %d entries, want 2", len(ents))
	}
	for _, e := range ents {
		if e.Err != nil || filepath.Dir(e.Path) != dir || e.Header.Words != lex.Len() {
			t.Errorf("ListCache entry %+v", e)
		}
	}
	t.Setenv(CacheEnv, "off")
	forget()
	if r, err := Load(lex, DAWG); r.Path != "" || r.Loaded || err != nil || r.A == nil {
		t.Errorf("cache off: path %q loaded %v err %v", r.Path, r.Loaded, err)
	}
}

// TestCacheWriteError checks that a cache directory that cannot be
// written is reported, with a good automaton all the same.
func TestCacheWriteError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(CacheEnv, filepath.Join(file, "cache"))
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "CARE", "RACE")
	if err != nil {
		t.Fatal(err)
	}
	lex.Name = "unwritable"
	forget()
	r, err := Load(lex, GADDAG)
	var ce *CacheError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), filepath.Join(file, "cache")) {
		t.Fatalf("error %v, want a *CacheError naming the file", err)
	}
	if r.A == nil || !r.A.Contains(mustTiles(t, v, "RACE")) {
		t.Fatal("no usable automaton with the cache error")
	}
}

// TestLoadConcurrent checks that calls for the same automaton share one
// build while a call for another automaton does not wait for it.
func TestLoadConcurrent(t *testing.T) {
	t.Setenv(CacheEnv, "off")
	v := variant.MustLoad("english")
	slow, err := lexicon.FromWords(v.Alphabet, "CARE", "RACE")
	if err != nil {
		t.Fatal(err)
	}
	quick, err := lexicon.FromWords(v.Alphabet, "ACRE")
	if err != nil {
		t.Fatal(err)
	}
	slowKey := Key(slow)
	release := make(chan struct{})
	var mu sync.Mutex
	builds := map[[32]byte]int{}
	build = func(lex *lexicon.Lexicon, kind Kind) *Automaton {
		k := Key(lex)
		mu.Lock()
		builds[k]++
		mu.Unlock()
		if k == slowKey {
			<-release
		}
		return Build(lex, kind)
	}
	defer func() { build = Build }()
	forget()
	results := make(chan Result, 3)
	for i := 0; i < 3; i++ {
		go func() {
			r, _ := Load(slow, DAWG)
			results <- r
		}()
	}
	quickDone := make(chan Result)
	go func() {
		r, _ := Load(quick, DAWG)
		quickDone <- r
	}()
	select {
	case r := <-quickDone:
		if r.A == nil || !r.A.Accepts(mustTiles(t, v, "ACRE")) {
			t.Error("wrong automaton for the second list")
		}
	case <-time.After(time.Minute):
		t.Fatal("the load of one list waited for the build of another")
	}
	close(release)
	var first *Automaton
	for i := 0; i < 3; i++ {
		r := <-results
		if first == nil {
			first = r.A
		}
		if r.A == nil || r.A != first {
			t.Fatal("calls for the same automaton got different ones")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if builds[slowKey] != 1 {
		t.Errorf("the shared list was built %d times, want once", builds[slowKey])
	}
}

func mustTiles(t *testing.T, v *variant.Variant, s string) []alphabet.Tile {
	t.Helper()
	ts, err := v.Alphabet.Parse(s, alphabet.Plain)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// BenchmarkBuild times building the DAWG and the GADDAG of each list.
func BenchmarkBuild(b *testing.B) {
	for _, l := range languages {
		lex := loadLexicon(b, l)
		for _, kind := range []Kind{DAWG, GADDAG} {
			b.Run(l.variant+"/"+kind.String(), func(b *testing.B) {
				for b.Loop() {
					Build(lex, kind)
				}
			})
		}
	}
}

// BenchmarkLoad times reading a cached file (checksum, decoding, checks).
func BenchmarkLoad(b *testing.B) {
	lex := loadLexicon(b, languages[0])
	for _, kind := range []Kind{DAWG, GADDAG} {
		data, err := Build(lex, kind).MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		b.Run(kind.String(), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var a Automaton
				if err := a.UnmarshalBinary(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
