package player

import (
	"fmt"
	"sort"
	"time"

	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/player/leave"
	"atril/variant"
)

// Options configure a computer player. Only Generator is required; the
// zero value of every other field picks the documented default.
type Options struct {
	Variant   *variant.Variant
	Lexicon   *lexicon.Lexicon
	Generator movegen.Generator
	// EndgameGenerator, when set, is the generator of the endgame and
	// pre-endgame searches of godlike and simulation (nil: Generator).
	// Those searches list every move of their positions, which the
	// GADDAG does fastest, while the interval generators (anagram, iwm)
	// find the best move of a mid-game position faster than they list
	// every move. Like Generator it belongs to one goroutine.
	EndgameGenerator movegen.Generator
	// Seed drives every random choice the player makes.
	Seed uint64

	// Leave names the rack-leave table of inhuman, godlike and
	// simulation (see leave.Load): "" or "default" (the variant's
	// exhaustive table learnt by self-play, or its per-letter table when
	// none is embedded), "learnt", "v1", "v2", "czech", "spanish", "none".
	// LeaveTable, when set, is used instead (e.g. a table read from a
	// file).
	Leave      string
	LeaveTable leave.Evaluator
	// Balance weighs the vowel/consonant term of the leave (0: off).
	Balance float64

	// MaxScore is the amateur's cap on a move's score (0: 10).
	MaxScore int
	// MaxTiles is the experienced player's cap on tiles played (0: 4).
	MaxTiles int
	// Prune is the share of branches the adept's traversal cuts at each
	// level of the lexicon (0: 1/3).
	Prune float64

	// EndgameWidth limits the godlike endgame search to the best
	// EndgameWidth moves per node (0: exact search; Pícek 2008 used 10).
	EndgameWidth int
	// EndgameTime and EndgameNodes bound one endgame search (0: none;
	// when both are 0 the search gets 2 s). A node budget keeps games
	// reproducible; a time budget does not.
	EndgameTime  time.Duration
	EndgameNodes int64
	// EndgamePlayout values where a depth-limited endgame search stops
	// by a greedy playout to the end (see endgame.Options.Playout).
	EndgamePlayout bool
	// EndgameThreads searches the endgame with that many goroutines
	// (endgame.Options.Threads; 0: one).
	EndgameThreads int

	// Simulation player: Candidates moves kept by static value (0: 40,
	// and the best exchange), Iterations the most iterations each plays
	// (0: 400), Plies the moves simulated after the candidate (0: 2: the
	// opponent's reply and our next move), Confidence the chance that the
	// best-arm elimination keeps the best candidate (0: 0.8), Threads
	// goroutines (0: 1), Budget a wall-clock limit per move (0: none;
	// results then depend on the machine), and NoEarlyStop disables the
	// elimination (every candidate plays every iteration).
	Candidates  int
	Iterations  int
	Plies       int
	Confidence  float64
	Threads     int
	Budget      time.Duration
	NoEarlyStop bool
	// RankByWin has the simulation choose, among the candidates the
	// elimination leaves, the one with the highest chance of winning
	// (ties by the mean value) instead of the highest mean value.
	RankByWin bool
	// Infer has the simulation draw, in a game of two, the opponent's
	// rack from the leaves its last placement was consistent with (rack
	// inference, Infer, within DefaultTau, at most InferLeaves leaves
	// weighed: 0 for 600) instead of from every unseen tile alike.
	Infer       bool
	InferLeaves int

	// Pre-endgame (one tile in the bag) of godlike and simulation:
	// PreEndgameCandidates placements by static value are each solved
	// against every tile the bag may hold (0: 8; −1: no pre-endgame
	// search), and PreEndgameWins picks by the chance of winning
	// instead of the expected spread.
	PreEndgameCandidates int
	PreEndgameWins       bool
	// PreEndgameBag is the most tiles the bag may hold for the
	// pre-endgame search (0: 1; at most 2).
	PreEndgameBag int
}

// level describes one registered player.
type level struct {
	summary string
	make    func(Options) (Player, error)
}

// constructors maps level names to their constructors.
var constructors = map[string]level{
	"amateur": {"best move scoring at most 10 points (Pícek 2008, 7.4)", func(o Options) (Player, error) {
		cap := o.MaxScore
		if cap == 0 {
			cap = 10
		}
		return &Static{name: "amateur", gen: o.Generator,
			filter: func(v *View, m *move.Move) bool { return m.Score <= cap }}, nil
	}},
	"adept": {"greedy over a pruned lexicon traversal: a third of the branches cut at each level", func(o Options) (Player, error) {
		share := o.Prune
		if share == 0 {
			share = 1.0 / 3
		}
		p := newPruner(o.Seed, share)
		return &Static{name: "adept", gen: o.Generator, filter: p.keep}, nil
	}},
	"experienced": {"greedy with at most 4 tiles from the rack", func(o Options) (Player, error) {
		n := o.MaxTiles
		if n == 0 {
			n = 4
		}
		return &Static{name: "experienced", gen: o.Generator,
			filter: func(v *View, m *move.Move) bool { return m.NewTiles() <= n }}, nil
	}},
	"professional": {"greedy: the highest-scoring move", func(o Options) (Player, error) {
		return &Greedy{Gen: o.Generator}, nil
	}},
	"inhuman": {"score plus rack-leave value, exchanges considered", func(o Options) (Player, error) {
		return newValued("inhuman", o, false)
	}},
	"godlike": {"inhuman plus exact endgame search once the bag is empty and a pre-endgame search with one tile in it", func(o Options) (Player, error) {
		return newValued("godlike", o, true)
	}},
	"simulation": {"Monte Carlo: the top candidates played two plies ahead over sampled racks and draws, best-arm stopping; pre-endgame and endgame search", func(o Options) (Player, error) {
		return newSimulation(o)
	}},
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

// Summary describes a level in one line ("" for an unknown level).
func Summary(name string) string { return constructors[name].summary }

// New returns the player of the named level.
func New(level string, o Options) (Player, error) {
	c, ok := constructors[level]
	if !ok {
		return nil, fmt.Errorf("unknown player level %q (have %v)", level, Levels())
	}
	if o.Generator == nil {
		return nil, fmt.Errorf("player %s: no move generator", level)
	}
	return c.make(o)
}

// Counter is implemented by players that report how many legal moves
// they found for their last choice (the simulator's "words per turn").
type Counter interface {
	MovesFound() int
}

// Greedy plays the highest-scoring placement, and passes when it has none
// (Pícek 2008: the professional level).
type Greedy struct {
	Gen   movegen.Generator
	found int
}

// Name implements Player.
func (g *Greedy) Name() string { return "professional" }

// MovesFound implements Counter.
func (g *Greedy) MovesFound() int { return g.found }

// Choose implements Player. With a generator that searches by equity
// (movegen.Searcher) it asks for the best move only, and MovesFound is
// then 1 (or 0 when it has none); otherwise it lists every move.
func (g *Greedy) Choose(v *View) move.Move {
	if s, ok := g.Gen.(movegen.Searcher); ok {
		best, ok := s.Best(v.Board, &v.Rack, nil)
		if !ok {
			g.found = 0
			return move.Move{Kind: move.Pass}
		}
		g.found = 1
		return best.Move
	}
	m, n := movegen.BestWhere(g.Gen, v.Board, &v.Rack, nil)
	g.found = n
	return m
}
