package player

import (
	"testing"

	"atril/movegen/interval"
)

// BenchmarkSimulation40x100Anagram is BenchmarkSimulation40x100 through
// the anagram tables (built in memory first, outside the timing).
func BenchmarkSimulation40x100Anagram(b *testing.B) {
	views, o := midgames(b, 4)
	o.Seed, o.Candidates, o.Iterations, o.Plies = 1, 40, 100, 1
	o.Generator = anagramGenerator(b, &o)
	benchSimulation(b, views, o)
}

// BenchmarkSimulationAnagram is BenchmarkSimulation (the player's
// defaults) through the anagram tables, as atril sim plays it.
func BenchmarkSimulationAnagram(b *testing.B) {
	views, o := midgames(b, 4)
	o.Seed = 1
	o.Generator = anagramGenerator(b, &o)
	benchSimulation(b, views, o)
}

// anagramGenerator builds the anagram tables of o's word list in memory.
func anagramGenerator(b *testing.B, o *Options) *interval.Anagram {
	b.Helper()
	g, err := interval.NewAnagram(o.Lexicon)
	if err != nil {
		b.Fatal(err)
	}
	return g
}
