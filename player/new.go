package player

import (
	"fmt"
	"sort"

	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// Options configure a computer player.
type Options struct {
	Variant   *variant.Variant
	Lexicon   *lexicon.Lexicon
	Generator movegen.Generator
	// Seed drives every random choice the player makes.
	Seed uint64
}

// constructors maps level names to their constructors.
var constructors = map[string]func(Options) (Player, error){
	"professional": func(o Options) (Player, error) { return &Greedy{Gen: o.Generator}, nil },
}

// Levels lists the known player names.
func Levels() []string {
	var out []string
	for n := range constructors {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// New returns the player of the named level.
func New(level string, o Options) (Player, error) {
	c, ok := constructors[level]
	if !ok {
		return nil, fmt.Errorf("unknown player level %q (have %v)", level, Levels())
	}
	if o.Generator == nil {
		return nil, fmt.Errorf("player %s: no move generator", level)
	}
	return c(o)
}

// Greedy plays the highest-scoring placement, and passes when it has none
// (seed 004: the professional level).
type Greedy struct {
	Gen movegen.Generator
}

// Name implements Player.
func (g *Greedy) Name() string { return "professional" }

// Choose implements Player.
func (g *Greedy) Choose(v *View) move.Move {
	if m, ok := movegen.Best(g.Gen, v.Board, &v.Rack); ok {
		return m
	}
	return move.Move{Kind: move.Pass}
}
