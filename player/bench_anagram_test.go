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
	g, err := interval.NewAnagram(o.Lexicon)
	if err != nil {
		b.Fatal(err)
	}
	o.Generator = g
	benchSimulation(b, views, o)
}
