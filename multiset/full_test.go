package multiset

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
)

// TestFullBuild builds the PER tables of the three full word lists and
// checks them on every word: the word's multiset and its two halves have
// PERs that decode to their letters, the halves sum to the word and are
// subsets of it, and the count of feasible exceedances is the one
// bench/results reports.
func TestFullBuild(t *testing.T) {
	if os.Getenv("ATRIL_LONG") == "" {
		t.Skip("set ATRIL_LONG=1")
	}
	for _, tc := range []struct{ variant, lex string }{
		{"english", "en-sowpods"}, {"spanish", "es-fise"}, {"czech", "cs-hunspell-2to9"},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			v, ws := sample(t, tc.variant, tc.lex, 1)
			tab, err := Build(v.Alphabet.Size(), ws)
			if err != nil {
				t.Fatal(err)
			}
			if want := reportedExceedances(t, tc.variant); tab.Exceedances() != want {
				t.Errorf("%d feasible exceedances, bench/results reports %d", tab.Exceedances(), want)
			}
			for i, w := range ws {
				c := countsOf(w)
				half := len(w) / 2
				a, b := countsOf(w[:half]), countsOf(w[half:])
				p, pa, pb := tab.FromCounts(&c), tab.FromCounts(&a), tab.FromCounts(&b)
				word := v.Alphabet.Word(w)
				switch {
				case p == Invalid || pa == Invalid || pb == Invalid:
					t.Fatalf("word %d %s or one of its halves has no PER", i, word)
				case tab.Counts(p) != c || tab.Size(p) != len(w):
					got := tab.Counts(p)
					t.Fatalf("word %d %s: its PER decodes to %s", i, word, v.Alphabet.RackString(&got))
				case tab.Sum(pa, pb) != p:
					t.Fatalf("word %d %s: the sum of its halves is not its PER", i, word)
				case !tab.Subset(pa, p) || !tab.Subset(pb, p):
					t.Fatalf("word %d %s: a half is not a subset", i, word)
				}
			}
		})
	}
}

// reportedExceedances reads the count of feasible exceedances from
// bench/results/lexicon-stats-<variant>.txt.
func reportedExceedances(t *testing.T, variant string) int {
	t.Helper()
	path := fmt.Sprintf("../bench/results/lexicon-stats-%s.txt", variant)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^feasible exceedances\s+(\d+)`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no line \"feasible exceedances\"", path)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
