package player

import (
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/lexicon/automaton"
	"atril/move"
	"atril/movegen"
	"atril/player/leave"
	"atril/variant"
)

var (
	smallOnce sync.Once
	smallLex  *lexicon.Lexicon
	smallGen  movegen.Generator
	smallErr  error
)

// small returns the English variant and the SOWPODS words of 2 to 4
// letters, enough for real games. Tests use the GADDAG generator on it
// (movegen cross-checks it against the reference generator).
func small(t testing.TB) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	v := variant.MustLoad("english")
	smallOnce.Do(func() {
		full, err := lexicon.Open("en-sowpods", v.Alphabet, lexicon.Options{MaxLen: v.Size})
		if err != nil {
			smallErr = err
			return
		}
		var ws [][]alphabet.Tile
		for i := 0; i < full.Len(); i++ {
			if w := full.Word(i); len(w) <= 4 {
				ws = append(ws, w)
			}
		}
		smallLex = lexicon.FromTiles(v.Alphabet, ws)
		smallGen = movegen.NewGaddagFrom(automaton.BuildGADDAG(smallLex))
	})
	if smallErr != nil {
		t.Fatal(smallErr)
	}
	return v, smallLex
}

func newPlayer(t testing.TB, level string, o Options) Player {
	t.Helper()
	p, err := New(level, o)
	if err != nil {
		t.Fatalf("%s: %v", level, err)
	}
	return p
}

func quick(v *variant.Variant, lex *lexicon.Lexicon, seed uint64) Options {
	return Options{Variant: v, Lexicon: lex, Generator: smallGen, Seed: seed,
		Candidates: 4, Iterations: 6, EndgameNodes: 2000}
}

// play runs one game and calls check for every move seat 0 makes.
func play(t *testing.T, g *game.Game, ps [2]Player, check func(m move.Move, v *View)) {
	t.Helper()
	for turn := 0; !g.Over() && turn < 200; turn++ {
		seat := g.Current()
		v := ViewOf(g, seat)
		m := ps[seat].Choose(v)
		if seat == 0 && check != nil {
			check(m, v)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s played an illegal move %s: %v", ps[seat].Name(), m.String(g.Board), err)
		}
	}
	if !g.Over() {
		t.Fatalf("game did not end")
	}
}

func TestLevels(t *testing.T) {
	want := []string{"adept", "amateur", "experienced", "godlike", "inhuman", "professional", "simulation"}
	if got := Levels(); !reflect.DeepEqual(got, want) {
		t.Errorf("Levels() = %v, want %v", got, want)
	}
	if _, err := New("nobody", Options{}); err == nil {
		t.Error("unknown level accepted")
	}
}

func TestLevelRules(t *testing.T) {
	v, lex := small(t)
	games := 2
	if testing.Short() {
		games = 1
	}
	tests := []struct {
		level string
		rule  string
		ok    func(m move.Move) bool
	}{
		{"amateur", "scores at most 10", func(m move.Move) bool { return m.Kind != move.Place || m.Score <= 10 }},
		{"experienced", "plays at most 4 tiles", func(m move.Move) bool { return m.NewTiles() <= 4 }},
		{"professional", "plays the top score", nil},
	}
	for _, tc := range tests {
		for i := 0; i < games; i++ {
			g, err := game.New(v, lex, []string{tc.level, "professional"}, uint64(10+i))
			if err != nil {
				t.Fatal(err)
			}
			ps := [2]Player{newPlayer(t, tc.level, quick(v, lex, 1)), newPlayer(t, "professional", quick(v, lex, 2))}
			places := 0
			play(t, g, ps, func(m move.Move, view *View) {
				if m.Kind == move.Place {
					places++
				}
				if tc.ok != nil && !tc.ok(m) {
					t.Errorf("%s %s, but played %s (%d points, %d tiles)", tc.level, tc.rule, m.String(view.Board), m.Score, m.NewTiles())
				}
				if tc.ok == nil && m.Kind == move.Place {
					best, _ := movegen.Best(movegen.NewBrute(lex), view.Board, &view.Rack) // the reference
					if best.Score != m.Score {
						t.Errorf("professional played %d, top score %d", m.Score, best.Score)
					}
				}
			})
			if places == 0 {
				t.Errorf("%s never placed a tile", tc.level)
			}
		}
	}
}

// TestViewHoldsNoHiddenInformation pins the fields of View: anything
// added must be reviewed for hidden information.
func TestViewHoldsNoHiddenInformation(t *testing.T) {
	var names []string
	rt := reflect.TypeOf(View{})
	for i := 0; i < rt.NumField(); i++ {
		names = append(names, rt.Field(i).Name)
	}
	sort.Strings(names)
	want := []string{"BagLen", "Board", "Last", "LastWasPass", "Me", "Rack", "ScorelessTurns", "Scores", "Unseen"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("View fields %v, want %v", names, want)
	}
}

// TestPlayersIgnoreHiddenTiles builds two games that differ only in what
// seat 0 cannot see (the opponent's rack and the bag order) and checks
// that every level sees the same view and makes the same choice, in mid
// game and in the endgame.
func TestPlayersIgnoreHiddenTiles(t *testing.T) {
	v, lex := small(t)
	for _, stage := range []string{"midgame", "endgame"} {
		g1, _ := game.New(v, lex, []string{"a", "b"}, 5)
		g2, _ := game.New(v, lex, []string{"a", "b"}, 5)
		pro := newPlayer(t, "professional", quick(v, lex, 0))
		for turns := 0; !g1.Over(); turns++ {
			if stage == "midgame" && turns == 6 {
				break
			}
			if stage == "endgame" && g1.BagLen() == 0 && g1.Current() == 0 {
				break
			}
			m := pro.Choose(ViewOf(g1, g1.Current()))
			if err := g1.Play(m); err != nil {
				t.Fatal(err)
			}
			if err := g2.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if g1.Over() {
			t.Fatalf("%s: game over before the position was reached", stage)
		}
		// Give the opponent of game 2 a different rack of the same size
		// from what seat 0 cannot see (in the endgame there is nothing to
		// swap with, so the bag order is what differs, i.e. nothing).
		unseen := g2.Unseen(0)
		opp := g2.Seats[1].Rack
		var other alphabet.Rack
		n := opp.Len()
		for t, c := range unseen {
			for k := 0; k < int(c) && other.Len() < n; k++ {
				if k >= int(opp[t]) || g2.BagLen() == 0 {
					other[t]++
				}
			}
		}
		if g2.BagLen() > 0 {
			for t2 := range other {
				for other.Len() < n && other[t2] < unseen[t2] {
					other[t2]++
				}
			}
			if err := g2.SetRack(1, other); err != nil {
				t.Fatal(err)
			}
			if g2.Seats[1].Rack == g1.Seats[1].Rack {
				t.Fatalf("%s: failed to change the hidden rack", stage)
			}
		}
		v1, v2 := ViewOf(g1, 0), ViewOf(g2, 0)
		if !v1.Board.Equal(v2.Board) || v1.Rack != v2.Rack || v1.Unseen != v2.Unseen || v1.BagLen != v2.BagLen {
			t.Fatalf("%s: views differ though only hidden tiles changed", stage)
		}
		for _, level := range Levels() {
			m1 := newPlayer(t, level, quick(v, lex, 3)).Choose(ViewOf(g1, 0))
			m2 := newPlayer(t, level, quick(v, lex, 3)).Choose(ViewOf(g2, 0))
			if m1.Key() != m2.Key() {
				t.Errorf("%s %s: chose %s with one hidden rack and %s with another", stage, level, m1.String(g1.Board), m2.String(g2.Board))
			}
			if err := g1.Check(&m1); err != nil {
				t.Errorf("%s %s: illegal move %s: %v", stage, level, m1.String(g1.Board), err)
			}
		}
	}
}

func TestInhumanExchangesBadRack(t *testing.T) {
	v, lex := small(t)
	r, _ := v.Alphabet.ParseRack("QVVWWUU")
	var g *game.Game
	for seed := uint64(1); ; seed++ { // a deal where the bag holds these
		g, _ = game.New(v, lex, []string{"a", "b"}, seed)
		if g.SetRack(0, r) == nil {
			break
		}
	}
	m := newPlayer(t, "inhuman", quick(v, lex, 1)).Choose(ViewOf(g, 0))
	if m.Kind != move.Exchange {
		t.Errorf("inhuman with QVVWWUU on an empty board played %s, want an exchange", m.String(g.Board))
	}
	if err := g.Check(&m); err != nil {
		t.Error(err)
	}
	// With the same rack professional never exchanges.
	if m := newPlayer(t, "professional", quick(v, lex, 1)).Choose(ViewOf(g, 0)); m.Kind == move.Exchange {
		t.Error("professional exchanged")
	}
}

func TestAdeptPrunes(t *testing.T) {
	v, lex := small(t)
	g, _ := game.New(v, lex, []string{"a", "b"}, 3)
	pro := newPlayer(t, "professional", quick(v, lex, 1)).(Counter)
	found, all := 0, 0
	for i := 0; i < 8 && !g.Over(); i++ {
		view := ViewOf(g, g.Current())
		a1 := newPlayer(t, "adept", quick(v, lex, 9))
		a2 := newPlayer(t, "adept", quick(v, lex, 9))
		m1, m2 := a1.Choose(view), a2.Choose(view)
		if m1.Key() != m2.Key() {
			t.Errorf("adept with one seed chose %s and %s", m1.String(view.Board), m2.String(view.Board))
		}
		pm := pro.(Player).Choose(view)
		found += a1.(Counter).MovesFound()
		all += len(movegen.All(smallGen.Fork(), view.Board, &view.Rack))
		if err := g.Play(pm); err != nil {
			t.Fatal(err)
		}
	}
	ratio := float64(found) / float64(all)
	// Each word survives with (2/3)^length: 44% of two-letter words, 20%
	// of four-letter ones.
	if ratio < 0.1 || ratio > 0.6 {
		t.Errorf("adept keeps %.2f of the moves (%d of %d), want about a fifth to a half", ratio, found, all)
	}
}

func TestSimulationThreadsAgree(t *testing.T) {
	v, lex := small(t)
	g, _ := game.New(v, lex, []string{"a", "b"}, 4)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	for i := 0; i < 4; i++ {
		if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
			t.Fatal(err)
		}
	}
	view := ViewOf(g, g.Current())
	o1, o2 := quick(v, lex, 7), quick(v, lex, 7)
	o1.Threads, o2.Threads = 1, 2
	s1 := newPlayer(t, "simulation", o1)
	m1 := s1.Choose(view)
	m2 := newPlayer(t, "simulation", o2).Choose(view)
	if n := s1.(*Simulation).Simulated; n < 2*6 {
		t.Errorf("simulated %d candidate-racks, want at least 2 candidates × 6 racks", n)
	}
	if m1.Key() != m2.Key() {
		t.Errorf("1 thread chose %s, 2 threads %s", m1.String(view.Board), m2.String(view.Board))
	}
	if err := g.Check(&m1); err != nil {
		t.Error(err)
	}
}

// TestGodlikeSolvesEndgame sets up the endgame of the endgame package's
// TestGreedyLoses (CAT at 8H; ACX against AZ, bag empty) as a view:
// professional plays J8 TAX and loses, godlike finds I8 AX and wins.
// catEndgame is a small endgame: CAT on the board, ACX against AZ with
// the bag empty, on a list of a few words; the best play is I8 AX.
func catEndgame(t *testing.T) (*variant.Variant, *lexicon.Lexicon, *View) {
	t.Helper()
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "AT", "TA", "ZA", "CAT", "AX", "XI", "TAX", "ET", "TE", "ZO", "ZOA", "IT", "TI")
	if err != nil {
		t.Fatal(err)
	}
	b := board.New(v, lex)
	m, _ := move.Parse(b, "8H CAT")
	sq, tl := m.Placed()
	b.Place(sq, tl, 0)
	me, _ := v.Alphabet.ParseRack("ACX")
	opp, _ := v.Alphabet.ParseRack("AZ")
	return v, lex, &View{Board: b, Rack: me, Unseen: opp, Scores: []int{100, 100}, BagLen: 0}
}

func TestGodlikeSolvesEndgame(t *testing.T) {
	v, lex, view := catEndgame(t)
	b := view.Board
	o := Options{Variant: v, Lexicon: lex, Generator: movegen.NewBrute(lex)}
	for level, want := range map[string]string{"professional": "J8 TAX", "godlike": "I8 AX", "simulation": "I8 AX"} {
		got := newPlayer(t, level, o).Choose(view)
		if s := got.String(b); s != want {
			t.Errorf("%s played %s, want %s", level, s, want)
		}
	}
}

// countingGen is a Generator that counts its Generate calls (its forks
// share the count) and passes them to g.
type countingGen struct {
	g     movegen.Generator
	calls *atomic.Int64
}

func (c countingGen) Name() string { return c.g.Name() }
func (c countingGen) Fork() movegen.Generator {
	return countingGen{g: c.g.Fork(), calls: c.calls}
}
func (c countingGen) Generate(b *board.Board, rack *alphabet.Rack, sink movegen.Sink) {
	c.calls.Add(1)
	c.g.Generate(b, rack, sink)
}

// TestEndgameGenerator checks that godlike and simulation solve the
// endgame with Options.EndgameGenerator, when set, and never ask their
// main generator, and that they make the same choice as without it.
func TestEndgameGenerator(t *testing.T) {
	v, lex, view := catEndgame(t)
	b := view.Board
	for _, level := range []string{"godlike", "simulation"} {
		var main, end atomic.Int64
		o := Options{Variant: v, Lexicon: lex,
			Generator:        countingGen{g: movegen.NewBrute(lex), calls: &main},
			EndgameGenerator: countingGen{g: movegen.NewBrute(lex), calls: &end}}
		got := newPlayer(t, level, o).Choose(view)
		if s := got.String(b); s != "I8 AX" {
			t.Errorf("%s played %s, want I8 AX", level, s)
		}
		if main.Load() != 0 || end.Load() == 0 {
			t.Errorf("%s: %d calls of the main generator, %d of the endgame's; want 0 and some", level, main.Load(), end.Load())
		}
	}
}

// TestSimulationEliminatesAndAgrees runs the multi-ply simulation long
// enough for the elimination to act, with 1 and 3 threads: same
// candidates, same estimates, same choice; the chosen candidate is
// alive and has the best mean among the live ones.
func TestSimulationEliminatesAndAgrees(t *testing.T) {
	v, lex := small(t)
	g, _ := game.New(v, lex, []string{"a", "b"}, 11)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	for i := 0; i < 6; i++ {
		if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
			t.Fatal(err)
		}
	}
	view := ViewOf(g, g.Current())
	var runs [2]*Simulation
	var moves [2]move.Move
	for k, threads := range []int{1, 3} {
		o := quick(v, lex, 5)
		o.Candidates, o.Iterations, o.Threads = 12, 96, threads
		runs[k] = newPlayer(t, "simulation", o).(*Simulation)
		moves[k] = runs[k].Choose(view)
	}
	if moves[0].Key() != moves[1].Key() {
		t.Fatalf("1 thread chose %s, 3 threads %s", moves[0].String(view.Board), moves[1].String(view.Board))
	}
	if !reflect.DeepEqual(runs[0].Estimates, runs[1].Estimates) {
		t.Errorf("estimates differ between 1 and 3 threads")
	}
	es := runs[0].Estimates
	if len(es) < 2 {
		t.Fatalf("%d candidates simulated", len(es))
	}
	dropped := 0
	var chosen *Estimate
	for i := range es {
		if !es[i].Alive {
			dropped++
			if es[i].Iterations >= 96 {
				t.Errorf("%s eliminated after all %d iterations", es[i].Move.String(view.Board), es[i].Iterations)
			}
		}
		if es[i].Move.Key() == moves[0].Key() {
			chosen = &es[i]
		}
	}
	if dropped == 0 {
		t.Errorf("no candidate of %d eliminated in 96 iterations", len(es))
	}
	if chosen == nil || !chosen.Alive {
		t.Fatalf("the chosen move is not a live candidate")
	}
	for i := range es {
		if es[i].Alive && es[i].Mean > chosen.Mean {
			t.Errorf("%s has mean %.2f above the chosen %.2f", es[i].Move.String(view.Board), es[i].Mean, chosen.Mean)
		}
		if es[i].Win < 0 || es[i].Win > 1 {
			t.Errorf("win chance %.3f out of [0,1]", es[i].Win)
		}
	}
	if err := g.Check(&moves[0]); err != nil {
		t.Error(err)
	}
}

func TestEliminate(t *testing.T) {
	// Four candidates over 40 paired iterations: candidate 1 is the
	// leader, 0 is 5 points behind with noise 1 (dropped), 2 is 0.1
	// behind with noise 10 (kept), 3 exactly 5 behind every time (no
	// spread: dropped by any finite bound, kept when there is none).
	n := 40
	vals := make([][]float64, 4)
	for i := 0; i < n; i++ {
		noise := float64(i%5) - 2
		vals[0] = append(vals[0], 10-5+noise*0.5)
		vals[1] = append(vals[1], 10)
		vals[2] = append(vals[2], 10-0.1+noise*10)
		vals[3] = append(vals[3], 5)
	}
	tests := []struct {
		z    float64
		want []int
	}{
		{3, []int{1, 2}},
		{1e6, []int{0, 1, 2}},
		{math.Inf(1), []int{0, 1, 2, 3}},
	}
	for _, tc := range tests {
		if got := eliminate(vals, []int{0, 1, 2, 3}, n, tc.z); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("z %g: kept %v, want %v", tc.z, got, tc.want)
		}
	}
}

func TestNormalQuantile(t *testing.T) {
	for _, tc := range []struct{ p, want float64 }{{0.5, 0}, {0.975, 1.959964}, {0.05, -1.644854}, {1 - 1e-5, 4.264891}} {
		if got := normalQuantile(tc.p); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("normalQuantile(%g) = %.6f, want %.6f", tc.p, got, tc.want)
		}
	}
}

// TestStudentQuantile checks the t quantiles the elimination uses
// against printed tables (df, probability, quantile), and that they
// approach the normal's as df grows.
func TestStudentQuantile(t *testing.T) {
	for _, tc := range []struct {
		df      int
		p, want float64
	}{{10, 0.975, 2.228}, {15, 0.999, 3.733}, {7, 0.995, 3.499}, {7, 0.9995, 5.408}, {30, 0.9995, 3.646}, {100, 0.975, 1.984}} {
		if got := studentQuantile(normalQuantile(tc.p), tc.df); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("t quantile at %g with %d degrees of freedom = %.4f, want %.3f", tc.p, tc.df, got, tc.want)
		}
	}
	if got := studentQuantile(3, 1_000_000); math.Abs(got-3) > 1e-4 {
		t.Errorf("t quantile with a million degrees of freedom = %.5f, want the normal's 3", got)
	}
	if !math.IsInf(studentQuantile(2, 0), 1) {
		t.Error("no degrees of freedom: want an infinite bound")
	}
}

// TestPreEndgame plays a game to one tile in the bag and checks that
// godlike's pre-endgame search values its candidates (win shares within
// [0, 1], spreads bounded by the points on the racks and board moves)
// and plays a legal move among them.
func TestPreEndgame(t *testing.T) {
	v, lex := small(t)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	for seed := uint64(1); seed < 20; seed++ {
		g, _ := game.New(v, lex, []string{"a", "b"}, seed)
		if !playToBag(t, g, pro, 1) {
			continue
		}
		view := ViewOf(g, g.Current())
		o := quick(v, lex, 1)
		o.EndgameNodes = 20000
		o.PreEndgameCandidates = 2
		p := newPlayer(t, "godlike", o).(*Valued)
		res := p.PreEndgameSearch(view, 2)
		if len(res) == 0 {
			continue
		}
		checkPreEndgame(t, g, view, p, res, 0)
		return
	}
	t.Fatal("no game reached one tile in the bag")
}

// playToBag plays pro's moves in g until the bag holds bag tiles, and
// reports whether the game got there (false when it ended first, or when
// a move drew past it).
func playToBag(t *testing.T, g *game.Game, pro Player, bag int) bool {
	t.Helper()
	for !g.Over() && g.BagLen() > bag {
		if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
			t.Fatal(err)
		}
	}
	return !g.Over() && g.BagLen() == bag
}

// checkPreEndgame checks the results of p's pre-endgame search on view
// (win shares within [0, 1], give or take slack for rounding; spreads
// bounded by the points on the racks and board moves), and that p plays
// a legal move among them.
func checkPreEndgame(t *testing.T, g *game.Game, view *View, p *Valued, res []PreEndgame, slack float64) {
	t.Helper()
	for _, r := range res {
		if r.Wins < -slack || r.Wins > 1+slack {
			t.Errorf("%s: win share %.3f", r.Move.String(view.Board), r.Wins)
		}
		if math.Abs(r.Spread) > 400 {
			t.Errorf("%s: expected spread %.1f", r.Move.String(view.Board), r.Spread)
		}
	}
	m := p.Choose(view)
	found := false
	for _, r := range res {
		found = found || r.Move.Key() == m.Key()
	}
	if !found {
		t.Errorf("godlike played %s, not one of its pre-endgame candidates", m.String(view.Board))
	}
	if err := g.Check(&m); err != nil {
		t.Error(err)
	}
}

// TestSimulationPlayValues checks the value of one iteration by hand on
// the endgame of TestGodlikeSolvesEndgame (CAT at 8H, bag empty): going
// out earns the other rack twice and ends the horizon; after a pass the
// opponent's best reply by equity (going out first) is subtracted, and
// our rack is valued by the bag-empty rule (minus its tiles).
func TestSimulationPlayValues(t *testing.T) {
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "AT", "TA", "ZA", "CAT", "AX", "XI", "TAX", "ET", "TE", "ZO", "ZOA", "IT", "TI")
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.NewBrute(lex)
	b := board.New(v, lex)
	m, _ := move.Parse(b, "8H CAT")
	sq, tl := m.Placed()
	b.Place(sq, tl, 0)
	me, _ := v.Alphabet.ParseRack("AX")
	opp, _ := v.Alphabet.ParseRack("AZ")
	view := &View{Board: b, Rack: me, Unseen: opp, Scores: []int{100, 100}, BagLen: 0}
	find := func(r alphabet.Rack, s string) move.Move {
		for _, x := range movegen.All(gen, b, &r) {
			if x.String(b) == s {
				return x
			}
		}
		t.Fatalf("no move %s", s)
		return move.Move{}
	}
	tax := find(me, "J8 TAX")
	// The opponent's best reply to a pass: going out with both tiles
	// earns our rack (A 1 + X 8) twice; otherwise it loses what it keeps.
	// If it goes out the horizon ends there (the end adjustment counts
	// our tiles); otherwise our rack counts minus its tiles.
	best, afterPass := math.Inf(-1), 0.0
	for _, x := range movegen.All(gen, b, &opp) {
		e, ours := float64(x.Score), -9.0
		if x.NewTiles() == opp.Len() {
			e, ours = e+2*9, 0
		} else {
			kept := x.Kept(opp)
			e -= float64(kept.Value(v.Scores))
		}
		if e > best {
			best, afterPass = e, -e+ours
		}
	}
	tests := []struct {
		name  string
		c     candidate
		plies int
		want  float64
		win   float64
	}{
		{"go out", candidate{m: tax}, 2, float64(tax.Score) + 2*11, 1},
		{"pass, then the reply", candidate{m: move.Move{Kind: move.Pass}}, 1, afterPass, -1},
	}
	sh := opp.Tiles()
	for _, tc := range tests {
		w := newSimWorker(view, gen, nil, tc.plies)
		got, win := w.play(&tc.c, sh, &replyRanking{}, 1)
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: value %.1f, want %.1f", tc.name, got, tc.want)
		}
		if tc.win >= 0 && win != tc.win {
			t.Errorf("%s: win %.2f, want %.2f", tc.name, win, tc.win)
		}
		if !w.b.Equal(b) {
			t.Errorf("%s: board not restored", tc.name)
		}
	}
}

// TestSimulationBudgetMidRound gives the simulation less time than one
// round takes: it must stop inside the round, keep only whole iterations
// (every live candidate the same number), and still choose a legal move
// (with no iteration at all, the best by static equity).
func TestSimulationBudgetMidRound(t *testing.T) {
	v, lex := small(t)
	g, _ := game.New(v, lex, []string{"a", "b"}, 11)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	for i := 0; i < 4; i++ {
		if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
			t.Fatal(err)
		}
	}
	view := ViewOf(g, g.Current())
	for _, budget := range []time.Duration{time.Nanosecond, 3 * time.Millisecond} {
		o := quick(v, lex, 5)
		o.Candidates, o.Iterations, o.Threads, o.Budget = 8, 400, 2, budget
		s := newPlayer(t, "simulation", o).(*Simulation)
		m := s.Choose(view)
		if err := g.Check(&m); err != nil {
			t.Fatalf("budget %v: %v", budget, err)
		}
		live := -1
		for _, e := range s.Estimates {
			if !e.Alive {
				continue
			}
			if live >= 0 && e.Iterations != live {
				t.Errorf("budget %v: live candidates with %d and %d iterations", budget, live, e.Iterations)
			}
			live = e.Iterations
		}
		if budget == time.Nanosecond {
			if s.Simulated != 0 {
				t.Errorf("budget 1ns: %d candidate-iterations, want 0", s.Simulated)
			}
			if want := s.Estimates[0].Move; m.Key() != want.Key() {
				t.Errorf("budget 1ns: chose %s, want the static best %s", m.String(view.Board), want.String(view.Board))
			}
		}
		if s.Simulated >= 8*400 {
			t.Errorf("budget %v: all %d candidate-iterations ran", budget, s.Simulated)
		}
	}
}

// searchOnly hides a generator's line search, so the simulation finds
// every reply with a whole-board search.
type searchOnly struct{ movegen.Searcher }

func (s searchOnly) Fork() movegen.Generator { return searchOnly{s.Searcher.Fork().(movegen.Searcher)} }

// TestSimulationSharedReplies checks that the replies found from the
// iteration's shared ranking and the squares a candidate changed give the
// simulation exactly the estimates whole-board searches give, over
// several positions of a game with two threads.
func TestSimulationSharedReplies(t *testing.T) {
	v, lex := small(t)
	g, _ := game.New(v, lex, []string{"a", "b"}, 9)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	compared := 0
	for turn := 0; turn < 14 && !g.Over(); turn++ {
		view := ViewOf(g, g.Current())
		if turn%3 == 2 && view.BagLen > 7 {
			var est [2][]Estimate
			for k, gen := range []movegen.Generator{smallGen, searchOnly{smallGen.(movegen.Searcher)}} {
				o := quick(v, lex, 5)
				o.Generator, o.Candidates, o.Iterations, o.Threads = gen, 10, 40, 2
				s := newPlayer(t, "simulation", o).(*Simulation)
				s.Choose(view)
				est[k] = s.Estimates
			}
			if len(est[0]) != len(est[1]) || len(est[0]) < 2 {
				t.Fatalf("turn %d: %d and %d estimates", turn, len(est[0]), len(est[1]))
			}
			for i := range est[0] {
				a, b := est[0][i], est[1][i]
				if a.Mean != b.Mean || a.Iterations != b.Iterations || a.Move.Key() != b.Move.Key() {
					t.Fatalf("turn %d, candidate %s: shared replies give mean %v over %d iterations, whole-board searches %v over %d",
						turn, a.Move.String(view.Board), a.Mean, a.Iterations, b.Mean, b.Iterations)
				}
			}
			compared++
		}
		if err := g.Play(pro.Choose(view)); err != nil {
			t.Fatal(err)
		}
	}
	if compared < 3 {
		t.Fatalf("only %d positions compared", compared)
	}
}

// TestDrawsOf checks the draws a bag may hold and their chances by hand.
func TestDrawsOf(t *testing.T) {
	v := variant.MustLoad("english")
	for _, c := range []struct {
		unseen string
		n      int
		want   map[string]float64
	}{
		{"AAB", 1, map[string]float64{"A": 2.0 / 3, "B": 1.0 / 3}},
		{"AAB", 2, map[string]float64{"AA": 1.0 / 3, "AB": 2.0 / 3}},
		{"AB?", 2, map[string]float64{"?A": 1.0 / 3, "?B": 1.0 / 3, "AB": 1.0 / 3}},
		{"EEEE", 2, map[string]float64{"EE": 1}},
	} {
		r, err := v.Alphabet.ParseRack(c.unseen)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, d := range drawsOf(r, c.n) {
			s := ""
			for _, x := range d.tiles {
				s += v.Alphabet.String(x)
			}
			got[s] += d.w
		}
		if len(got) != len(c.want) {
			t.Errorf("%s, %d: draws %v, want %v", c.unseen, c.n, got, c.want)
		}
		for k, w := range c.want {
			if math.Abs(got[k]-w) > 1e-12 {
				t.Errorf("%s, %d: draw %s has chance %v, want %v", c.unseen, c.n, k, got[k], w)
			}
		}
	}
}

// TestPreEndgameTwoInBag plays games to two tiles in the bag and checks
// the search with PreEndgameBag 2: it values one-tile placements (which
// leave a tile for the opponent) beside the others, its win shares are
// within [0, 1], and godlike plays one of its candidates.
func TestPreEndgameTwoInBag(t *testing.T) {
	v, lex := small(t)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	checked := 0
	for seed := uint64(1); seed < 60 && checked < 3; seed++ {
		g, _ := game.New(v, lex, []string{"a", "b"}, seed)
		if !playToBag(t, g, pro, 2) {
			continue
		}
		view := ViewOf(g, g.Current())
		o := quick(v, lex, 1)
		o.EndgameNodes = 4000
		o.PreEndgameBag = 2
		o.PreEndgameCandidates = 4
		p := newPlayer(t, "godlike", o).(*Valued)
		res := p.PreEndgameSearch(view, 4)
		if len(res) == 0 {
			continue
		}
		checked++
		for _, r := range res {
			if r.Move.NewTiles() < 2 && r.Exact {
				t.Errorf("%s leaves a tile in the bag, so its value rests on a static reply, yet it is marked exact", r.Move.String(view.Board))
			}
		}
		checkPreEndgame(t, g, view, p, res, 1e-9)
	}
	if checked == 0 {
		t.Fatal("no game reached two tiles in the bag")
	}
}

// TestLeaveWrappersEvalSubRacks checks that inhuman's and the
// simulation's leave values pass the table's one-pass valuation on while
// the bag has tiles, with the table's values; with the bag empty, where
// their values are not the table's, inhuman's values the sub-racks
// itself (as its Eval does) and the simulation's declines.
func TestLeaveWrappersEvalSubRacks(t *testing.T) {
	v := variant.MustLoad("english")
	tb, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	rack, _ := v.Alphabet.ParseRack("AEQRS?")
	other, _ := v.Alphabet.ParseRack("BDEIOT") // as many sub-racks as rack
	size := 1
	for _, c := range rack {
		size *= int(c) + 1
	}
	b := board.New(v, nil)
	unseen, _ := v.Alphabet.ParseRack("BCDEFG")
	for _, bag := range []int{20, 0} {
		view := &View{Board: b, Rack: rack, Unseen: unseen, Scores: []int{0, 0}, BagLen: bag}
		for _, l := range []interface {
			movegen.SubRackLeave
		}{newStaticLeave(view, tb), &plyLeave{t: tb, bagEmpty: bag == 0, other: 12, scores: v.Scores}} {
			out := make([]float64, size)
			ok := l.EvalSubRacks(&rack, out)
			_, static := l.(*staticLeave)
			if ok != (bag > 0 || static) {
				t.Fatalf("%T with %d tiles in the bag: EvalSubRacks reported %v", l, bag, ok)
			}
			if !ok {
				continue
			}
			i := 0
			rack.SubRacks(func(kept *alphabet.Rack) {
				if got, want := out[rack.SubIndex(kept)], l.Eval(kept); got != want {
					t.Errorf("%T: sub-rack %s: %v in one pass, Eval %v", l, v.Alphabet.RackString(kept), got, want)
				}
				i++
			})
			if i != size {
				t.Fatalf("%d sub-racks, %d indices", i, size)
			}
			// Another rack, then the first again: a wrapper that keeps
			// its last answer must not give it for another rack.
			for _, r := range []alphabet.Rack{other, rack} {
				n := 1
				for _, c := range r {
					n *= int(c) + 1
				}
				vals := make([]float64, n)
				if !l.EvalSubRacks(&r, vals) {
					t.Fatalf("%T: EvalSubRacks declined rack %s", l, v.Alphabet.RackString(&r))
				}
				r.SubRacks(func(kept *alphabet.Rack) {
					if got, want := vals[r.SubIndex(kept)], l.Eval(kept); got != want {
						t.Errorf("%T: rack %s, sub-rack %s: %v in one pass, Eval %v", l, v.Alphabet.RackString(&r), v.Alphabet.RackString(kept), got, want)
					}
				})
			}
		}
	}
}

// evalOnly hides a leave's EvalSubRacks, so that EachSubRack must call
// Eval for each sub-rack.
type evalOnly struct{ l movegen.Leave }

func (e evalOnly) Eval(kept *alphabet.Rack) float64 { return e.l.Eval(kept) }

// TestEachSubRack checks that movegen.EachSubRack visits every sub-rack
// once, with the value Eval gives it, whether it values them in one pass
// (the exhaustive table) or one by one.
func TestEachSubRack(t *testing.T) {
	v := variant.MustLoad("english")
	tb, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range []string{"AEQRS??", "EEEIIOU", "A", "", "BCDFGHJ", "AAE?"} {
		rack, err := v.Alphabet.ParseRack(rs)
		if err != nil {
			t.Fatal(err)
		}
		size := 1
		for _, c := range rack {
			size *= int(c) + 1
		}
		for _, l := range []movegen.Leave{tb, evalOnly{tb}, nil} {
			seen := map[alphabet.Rack]bool{}
			movegen.EachSubRack(&rack, l, func(kept *alphabet.Rack, val float64) {
				if !rack.Contains(kept) || seen[*kept] {
					t.Fatalf("%s, %T: sub-rack %s repeated or not in the rack", rs, l, v.Alphabet.RackString(kept))
				}
				seen[*kept] = true
				want := 0.0
				if l != nil {
					want = l.Eval(kept)
				}
				if val != want {
					t.Errorf("%s, %T: sub-rack %s valued %v, Eval %v", rs, l, v.Alphabet.RackString(kept), val, want)
				}
			})
			if len(seen) != size {
				t.Errorf("%s, %T: %d sub-racks visited, want %d", rs, l, len(seen), size)
			}
		}
	}
}

// TestEliminationLoss (ATRIL_SIM_QUALITY=N: N greedy games, three mid-game
// positions each) measures what the best-arm elimination costs in the
// quality of the simulation's choices: at 40 candidates × 100 iterations,
// one ply, the move chosen with elimination and the one chosen without
// it are both valued by a reference simulation of 400 iterations without
// elimination, and the elimination may lose at most 0.1 point a move on
// average against playing every iteration. It also reports the
// candidate-iterations each played.
func TestEliminationLoss(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("ATRIL_SIM_QUALITY"))
	if games == 0 {
		t.Skip("ATRIL_SIM_QUALITY=N runs it on N games")
	}
	views, o := midgames(t, games)
	o.Seed, o.Plies, o.Candidates = 1, 1, 40
	choose := func(v *View, iters int, noStop bool) (move.Move, *Simulation) {
		o.Iterations, o.NoEarlyStop = iters, noStop
		p, err := New("simulation", o)
		if err != nil {
			t.Fatal(err)
		}
		s := p.(*Simulation)
		return s.Choose(v), s
	}
	var lossStop, lossAll float64
	var itStop, itAll, same, n int
	for _, v := range views {
		_, ref := choose(v, 400, true)
		val := map[string]float64{}
		best := math.Inf(-1)
		for _, e := range ref.Estimates {
			val[e.Move.Key()] = e.Mean
			best = math.Max(best, e.Mean)
		}
		mStop, sStop := choose(v, 100, false)
		mAll, sAll := choose(v, 100, true)
		a, ok1 := val[mStop.Key()]
		b, ok2 := val[mAll.Key()]
		if !ok1 || !ok2 {
			t.Fatalf("a choice is not among the reference's candidates")
		}
		lossStop += best - a
		lossAll += best - b
		itStop += sStop.Simulated
		itAll += sAll.Simulated
		if mStop.Key() == mAll.Key() {
			same++
		}
		n++
	}
	t.Logf("%d positions: with elimination %.3f points a move below the reference's best, %.0f candidate-iterations a move; without %.3f, %.0f; the same choice in %d",
		n, lossStop/float64(n), float64(itStop)/float64(n), lossAll/float64(n), float64(itAll)/float64(n), same)
	if d := (lossStop - lossAll) / float64(n); d > 0.1 {
		t.Errorf("the elimination loses %.3f points a move against playing every iteration (at most 0.1)", d)
	}
}

// listOnly hides a generator's Searcher methods, so that
// movegen.SearchFrom ranks every move it lists.
type listOnly struct{ movegen.Generator }

// scaledLeave is a leave table's values times k.
type scaledLeave struct {
	t leave.Evaluator
	k float64
}

func (s scaledLeave) Eval(kept *alphabet.Rack) float64 { return s.k * s.t.Eval(kept) }

// TestRankExchangeFloor checks that rank, which searches placements only
// above the keep-th best exchange, returns the same candidates, in the
// same order and with the same values, as ranking every move, for one,
// three and forty candidates, over the positions of inhuman self-play,
// with the English table and with its values four times as large (which
// makes exchanges common).
func TestRankExchangeFloor(t *testing.T) {
	v, lex := small(t)
	table, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range []leave.Evaluator{table, scaledLeave{table, 4}} {
		checkRankExchangeFloor(t, v, lex, tb)
	}
}

func checkRankExchangeFloor(t *testing.T, v *variant.Variant, lex *lexicon.Lexicon, tb leave.Evaluator) {
	ps := [2]Player{newPlayer(t, "inhuman", quick(v, lex, 1)), newPlayer(t, "inhuman", quick(v, lex, 2))}
	positions, exchanges := 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		g, err := game.New(v, lex, []string{"a", "b"}, seed)
		if err != nil {
			t.Fatal(err)
		}
		for turn := 0; !g.Over() && turn < 200; turn++ {
			view := ViewOf(g, g.Current())
			for _, keep := range []int{1, 3, 40} {
				got, _, _ := rank(smallGen, view, tb, keep)
				want, _, _ := rank(listOnly{smallGen}, view, tb, keep)
				if len(got) != len(want) {
					t.Fatalf("seed %d turn %d keep %d: %d candidates, ranking every move %d", seed, turn, keep, len(got), len(want))
				}
				for i := range got {
					if got[i].m.Key() != want[i].m.Key() || got[i].value != want[i].value {
						t.Fatalf("seed %d turn %d keep %d: candidate %d is %s (%.3f), ranking every move gives %s (%.3f)",
							seed, turn, keep, i, got[i].m.String(g.Board), got[i].value, want[i].m.String(g.Board), want[i].value)
					}
				}
				if keep == 1 && len(got) > 0 && got[0].m.Kind == move.Exchange {
					exchanges++
				}
			}
			positions++
			m := ps[g.Current()].Choose(view)
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, scaled := tb.(scaledLeave); scaled && exchanges == 0 {
		t.Fatalf("no exchange was best in %d positions: the floor was not tested", positions)
	}
	t.Logf("%T: %d positions, an exchange best in %d", tb, positions, exchanges)
}

// keepSix values a leave of six tiles at 1000 points and every other at
// nothing: on an empty board, where a placement plays two tiles or more,
// exchanging one tile is always best.
type keepSix struct{}

func (keepSix) Eval(kept *alphabet.Rack) float64 {
	if kept.Len() == 6 {
		return 1000
	}
	return 0
}

// TestExchangeLoopEnds plays inhuman against inhuman under rules that
// end a game on passes alone, with a leave table that makes both
// players exchange on the empty board: after two scoreless rounds they
// must place, and the game ends. Under the English rule of six scoreless
// turns the players keep exchanging until the rule ends the game.
func TestExchangeLoopEnds(t *testing.T) {
	v, lex := small(t)
	noZeros := *v
	noZeros.ScorelessTurns, noZeros.PassingRounds = 0, 2
	for _, tc := range []struct {
		v         *variant.Variant
		exchanges int // the game's first turns that must be exchanges
		placed    bool
	}{
		{&noZeros, 4, true},
		{v, 6, false},
	} {
		o := func(seed uint64) Options {
			o := quick(tc.v, lex, seed)
			o.LeaveTable = keepSix{}
			return o
		}
		ps := [2]Player{newPlayer(t, "inhuman", o(1)), newPlayer(t, "inhuman", o(2))}
		g, err := game.New(tc.v, lex, []string{"a", "b"}, 7)
		if err != nil {
			t.Fatal(err)
		}
		placed := false
		for turn := 0; !g.Over() && turn < 300; turn++ {
			m := ps[g.Current()].Choose(ViewOf(g, g.Current()))
			if turn < tc.exchanges && m.Kind != move.Exchange {
				t.Fatalf("scoreless turns %d: turn %d is a %v, not an exchange: the test's table does not work", tc.v.ScorelessTurns, turn, m.Kind)
			}
			if turn >= tc.exchanges && m.Kind == move.Exchange && tc.placed {
				t.Fatalf("turn %d: an exchange after %d scoreless turns", turn, tc.exchanges)
			}
			placed = placed || m.Kind == move.Place
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if !g.Over() {
			t.Fatalf("scoreless turns %d: no end after 300 turns", tc.v.ScorelessTurns)
		}
		if placed != tc.placed {
			t.Errorf("scoreless turns %d: placed %v, want %v", tc.v.ScorelessTurns, placed, tc.placed)
		}
	}
}

// TestRankListsEveryExchange checks that rank, asked for every
// candidate, lists each exchange once: one per sub-rack the player may
// keep, the whole rack excepted, every one a legal move.
func TestRankListsEveryExchange(t *testing.T) {
	v, lex := small(t)
	table, err := leave.Load(v, "default", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range []string{"QVVWWUU", "AEINRST", "EE?ORSS", "ABCDEFG"} {
		r, _ := v.Alphabet.ParseRack(rs)
		var g *game.Game
		for seed := uint64(1); ; seed++ { // a deal where the bag holds these
			g, _ = game.New(v, lex, []string{"a", "b"}, seed)
			if g.SetRack(0, r) == nil {
				break
			}
		}
		want := 1
		for _, c := range r {
			want *= int(c) + 1
		}
		want-- // the whole rack kept is no exchange
		seen := map[string]bool{}
		ranked, _, _ := rank(smallGen, ViewOf(g, 0), table, 0)
		for _, c := range ranked {
			if c.m.Kind != move.Exchange {
				continue
			}
			key := v.Alphabet.RackString(&c.leave)
			if seen[key] {
				t.Fatalf("%s: keeping %s listed twice", rs, key)
			}
			seen[key] = true
			if err := g.Check(&c.m); err != nil {
				t.Fatalf("%s: keeping %s: %v", rs, key, err)
			}
		}
		if len(seen) != want {
			t.Errorf("%s: %d exchanges listed, want %d", rs, len(seen), want)
		}
	}
}

// TestStaticLeaveSubRacks checks staticLeave's one-pass values against
// its Eval for every sub-rack of random racks, blanks included, with
// the bag empty (minus the points kept; the unseen tiles for going out)
// and with tiles in it (the table's), and that a short buffer is refused.
func TestStaticLeaveSubRacks(t *testing.T) {
	v := variant.MustLoad("english")
	tb, err := leave.ForVariant(v, "v2", 0)
	if err != nil {
		t.Fatal(err)
	}
	var bag []alphabet.Tile
	for l, c := range v.Counts {
		for range c {
			bag = append(bag, alphabet.Tile(l))
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var out [128]float64
	for _, bagLen := range []int{0, 30} {
		for i := 0; i < 300; i++ {
			rng.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
			view := &View{Board: board.New(v, nil), Rack: alphabet.RackOf(bag[:1+rng.IntN(7)]), Unseen: alphabet.RackOf(bag[7:20]), BagLen: bagLen}
			sl := newStaticLeave(view, tb)
			size := 1
			for _, c := range view.Rack {
				size *= int(c) + 1
			}
			if !sl.EvalSubRacks(&view.Rack, out[:size]) {
				t.Fatalf("bag %d, rack %s: refused", bagLen, v.Alphabet.RackString(&view.Rack))
			}
			idx := 0
			view.Rack.SubRacks(func(kept *alphabet.Rack) {
				at := view.Rack.SubIndex(kept)
				if got, want := out[at], sl.Eval(kept); got != want {
					t.Fatalf("bag %d, rack %s, kept %s (index %d): %v, Eval %v", bagLen, v.Alphabet.RackString(&view.Rack), v.Alphabet.RackString(kept), at, got, want)
				}
				idx++
			})
			if idx != size {
				t.Fatalf("%d sub-racks, index space %d", idx, size)
			}
			if size > 1 && sl.EvalSubRacks(&view.Rack, out[:size-1]) {
				t.Fatalf("bag %d: a buffer of %d for %d sub-racks was taken", bagLen, size-1, size)
			}
		}
	}
}

// TestSimulationRankByWin: the simulation chooses among the live
// candidates the one with the best mean, or with RankByWin the one with
// the highest chance of winning (ties by the mean), from the same
// estimates; over positions of a game, at least one where the two
// choices differ.
func TestSimulationRankByWin(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates every position of a game twice")
	}
	v, lex := small(t)
	g, _ := game.New(v, lex, []string{"a", "b"}, 11)
	pro := newPlayer(t, "professional", quick(v, lex, 1))
	differ, positions := 0, 0
	for turn := 0; turn < 60 && !g.Over(); turn++ {
		view := ViewOf(g, g.Current())
		var runs [2]*Simulation
		var chosen [2]*Estimate
		for k, byWin := range []bool{false, true} {
			o := quick(v, lex, 5)
			o.Candidates, o.Iterations, o.RankByWin = 12, 96, byWin
			runs[k] = newPlayer(t, "simulation", o).(*Simulation)
			m := runs[k].Choose(view)
			for i := range runs[k].Estimates {
				if runs[k].Estimates[i].Move.Key() == m.Key() {
					chosen[k] = &runs[k].Estimates[i]
				}
			}
		}
		if len(runs[0].Estimates) == 0 {
			// (No simulation: one candidate, or the endgame.)
		} else if chosen[0] == nil || chosen[1] == nil || !chosen[0].Alive || !chosen[1].Alive {
			t.Fatalf("turn %d: a chosen move is not a live candidate", turn)
		} else {
			if !reflect.DeepEqual(runs[0].Estimates, runs[1].Estimates) {
				t.Fatalf("turn %d: the estimates depend on the choice's rule", turn)
			}
			for _, e := range runs[0].Estimates {
				if e.Alive && e.Mean > chosen[0].Mean {
					t.Errorf("turn %d: %s has mean %.2f above the chosen %.2f", turn, e.Move.String(view.Board), e.Mean, chosen[0].Mean)
				}
				if e.Alive && (e.Win > chosen[1].Win || e.Win == chosen[1].Win && e.Mean > chosen[1].Mean) {
					t.Errorf("turn %d: %s (win %.3f, mean %.2f) beats the chosen (win %.3f, mean %.2f)",
						turn, e.Move.String(view.Board), e.Win, e.Mean, chosen[1].Win, chosen[1].Mean)
				}
			}
			positions++
			if chosen[0].Move.Key() != chosen[1].Move.Key() {
				differ++
			}
		}
		if err := g.Play(pro.Choose(ViewOf(g, g.Current()))); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d of %d positions differ", differ, positions)
	if differ == 0 {
		t.Error("no position where the chance of winning and the mean choose differently: the test checks nothing")
	}
}
