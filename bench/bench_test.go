package bench

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/lexicon"
	"atril/move"
	"atril/movegen"
	"atril/variant"
)

// tinyWords is a small English list: enough for a few turns of greedy
// play and for the blank experiment's board word.
var tinyWords = []string{
	"AA", "AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN", "AR", "AS", "AT", "AW", "AX", "AY",
	"BA", "BE", "BI", "BO", "BY", "DA", "DE", "DO", "ED", "EH", "EL", "EM", "EN", "ER", "ES", "EX",
	"GO", "HA", "HE", "HI", "HO", "ID", "IF", "IN", "IS", "IT", "LA", "LI", "LO", "MA", "ME", "MI",
	"MO", "MU", "MY", "NA", "NE", "NO", "NU", "OD", "OE", "OF", "OH", "OI", "OM", "ON", "OP", "OR",
	"OS", "OW", "OX", "OY", "PA", "PE", "PI", "RE", "SH", "SI", "SO", "TA", "TI", "TO", "UH", "UM",
	"UN", "UP", "US", "UT", "WE", "WO", "XI", "XU", "YA", "YE", "YO",
	"ANE", "ANEROID", "ARE", "ART", "DOE", "EAR", "EAT", "END", "ERA", "ETA", "IRE", "NAE", "NET",
	"NOD", "NOR", "NOT", "ODE", "OAR", "ORE", "RAN", "RAT", "RED", "RID", "ROD", "SEA", "SET", "TAN",
	"TEN", "TIN", "TOE", "TON", "RAIN", "REIN", "RENT", "SANE", "SNARE", "EARNS", "NEARS", "RANTS",
	"STARE", "TEARS", "RATES", "NITER", "INERT", "SATIRE", "RETAINS", "STAINER", "NASTIER", "ANESTRI",
	"SARNIE", "ARSINE", "ARISEN", "RANI", "RAINS", "SNARED", "DENARS",
}

func tinyEnv(t *testing.T) (*variant.Variant, *lexicon.Lexicon) {
	t.Helper()
	t.Setenv("ATRIL_CACHE", "off")
	v, err := variant.Load("english")
	if err != nil {
		t.Fatal(err)
	}
	lex, err := lexicon.FromWords(v.Alphabet, tinyWords...)
	if err != nil {
		t.Fatal(err)
	}
	lex.Name = "tiny"
	return v, lex
}

func tinyAlgos(t *testing.T, lex *lexicon.Lexicon, names string) []Algo {
	t.Helper()
	as, err := NewTables(lex).Build(ParseAlgos(names), Options{Threshold: 2})
	if err != nil {
		t.Fatal(err)
	}
	return as
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 3, 2}, 2}, // (2+3)/2 rounded down
		{[]time.Duration{10, 30, 20, 1000, 0}, 20},
	} {
		if got := Median(append([]time.Duration(nil), c.in...)); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestParseAlgos(t *testing.T) {
	got := ParseAlgos(" gaddag, ,iwm,")
	if strings.Join(got, "|") != "gaddag|iwm" {
		t.Errorf("ParseAlgos = %q", got)
	}
}

func TestBuildRejects(t *testing.T) {
	_, lex := tinyEnv(t)
	for _, names := range []string{"", "gaddag,gaddag", "nosuch"} {
		if _, err := NewTables(lex).Build(ParseAlgos(names), Options{}); err == nil {
			t.Errorf("Build(%q) succeeded", names)
		}
	}
}

// TestRunMovegen plays tiny games and checks the bookkeeping against an
// independent count: every position's moves from the brute oracle.
func TestRunMovegen(t *testing.T) {
	v, lex := tinyEnv(t)
	as := tinyAlgos(t, lex, "gaddag,dawg,anagram,iwm,brute")
	brute := movegen.NewBrute(lex)
	positions, oracleMoves := 0, 0
	perTurn := map[int]int{}
	csv := CSVHeader([]string{"gaddag", "dawg", "anagram", "iwm", "brute"}, []bool{false, false, true, true, false}) + "\n"
	res, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: as, Games: 3, Seed: 7, Reps: 2,
		OnPosition: func(p *PositionResult) {
			csv += p.CSVRow() + "\n"
			positions++
			perTurn[p.Turn]++
			if len(strings.Split(p.CSVRow(), ",")) != len(strings.Split(CSVHeader([]string{"gaddag", "dawg", "anagram", "iwm", "brute"}, p.Counted), ",")) {
				t.Errorf("CSV row %q does not match the header", p.CSVRow())
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	// Replay the same games with the oracle to count moves independently.
	ps, err := GreedyPositions(v, lex, brute, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		oracleMoves += len(movegen.All(brute, ps[i].Board, &ps[i].Rack))
	}
	if len(ps) != positions {
		t.Fatalf("RunMovegen saw %d positions, replay with brute %d", positions, len(ps))
	}
	var moves int64
	sumTurns := 0
	for _, n := range res.GameTurns {
		sumTurns += n
	}
	for _, row := range res.Turns {
		moves += row.Moves
		if row.Positions != perTurn[row.Turn] {
			t.Errorf("turn %d: %d positions, callback saw %d", row.Turn, row.Positions, perTurn[row.Turn])
		}
		for ai := range res.Algos {
			if row.Time[ai] <= 0 {
				t.Errorf("turn %d: %s took no time", row.Turn, res.Algos[ai])
			}
		}
	}
	if sumTurns != positions || int(moves) != oracleMoves {
		t.Errorf("turns %d (want %d), moves %d (oracle %d)", sumTurns, positions, moves, oracleMoves)
	}
	if res.Turns[0].Intervals == 0 || res.Turns[0].Instances[res.Index("anagram")] == 0 {
		t.Errorf("turn 1: no intervals or instances counted: %+v", res.Turns[0])
	}
	if res.Counted[res.Index("gaddag")] || !res.Counted[res.Index("iwm")] {
		t.Errorf("counted = %v", res.Counted)
	}
	var buf bytes.Buffer
	if err := res.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"gaddag ms", "iwm cand/inst", "turns 1-12", "anagram/"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	// The CSV read back in two pieces gives the same table.
	lines := strings.SplitAfter(csv, "\n")
	half := len(lines) / 2
	back := &MovegenResult{Variant: res.Variant, Lexicon: res.Lexicon, Reps: res.Reps, Clock: res.Clock}
	if err := back.ReadCSV(strings.NewReader(strings.Join(lines[:half], "")), "a"); err != nil {
		t.Fatal(err)
	}
	if err := back.ReadCSV(strings.NewReader(lines[0]+strings.Join(lines[half:], "")), "b"); err != nil {
		t.Fatal(err)
	}
	back.Elapsed = res.Elapsed
	var buf2 bytes.Buffer
	if err := back.WriteTable(&buf2); err != nil {
		t.Fatal(err)
	}
	if buf.String() != buf2.String() {
		t.Errorf("table from CSV differs:\n%s\nwant:\n%s", buf2.String(), buf.String())
	}
	if len(res.Targets()) != 6 {
		t.Errorf("%d targets, want 6", len(res.Targets()))
	}
}

// dropOne wraps a generator and loses its first move.
type dropOne struct{ movegen.Generator }

func (d dropOne) Name() string { return "drop" }
func (d dropOne) Generate(b *board.Board, r *alphabet.Rack, sink movegen.Sink) {
	first := true
	d.Generator.Generate(b, r, func(m *move.Move) {
		if first {
			first = false
			return
		}
		sink(m)
	})
}

func TestRunMovegenMismatch(t *testing.T) {
	v, lex := tinyEnv(t)
	as := tinyAlgos(t, lex, "gaddag")
	as = append(as, Algo{Name: "drop", Gen: dropOne{as[0].Gen}})
	_, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: as, Games: 1, Seed: 1, Reps: 1})
	if err == nil || !strings.Contains(err.Error(), "drop finds") {
		t.Fatalf("mismatch not reported: %v", err)
	}
}

func TestTargets(t *testing.T) {
	r := &MovegenResult{Algos: []string{"gaddag", "dawg", "anagram", "iwm"}, Games: 1,
		Turns: []TurnRow{
			{Turn: 1, Positions: 1, Time: []time.Duration{300, 450, 100, 90}},
			{Turn: 2, Positions: 1, Time: []time.Duration{300, 400, 100, 120}},
		}}
	got := map[string]bool{}
	for _, tg := range r.Targets() {
		got[tg.Text] = tg.Met
	}
	want := map[string]bool{
		"iwm at least as fast as anagram at every turn number": false, // turn 2
		"iwm ≥ 1.5× anagram overall":                           false, // 200/210
		"iwm ≥ 3× gaddag at turn 1":                            true,  // 300/90
		"iwm ≥ 2× gaddag over whole games":                     true,  // 600/210
		"anagram ≥ 2× gaddag over turns 1-12":                  true,  // 600/200
		"gaddag ≥ 1.5× dawg over whole games":                  false, // 850/600
	}
	for k, w := range want {
		if m, ok := got[k]; !ok || m != w {
			t.Errorf("target %q: met %v (present %v), want %v", k, m, ok, w)
		}
	}
}

func TestRunBlanks(t *testing.T) {
	v, lex := tinyEnv(t)
	as := tinyAlgos(t, lex, "gaddag,anagram,iwm")
	c, ok := BlankCaseFor("english")
	if !ok {
		t.Fatal("no English blank case")
	}
	res, err := RunBlanks(v, lex, as, c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 3 {
		t.Fatalf("%d rows", len(res.Rows))
	}
	// More blanks, more moves: each blank rack can do all the next one can.
	if !(res.Rows[0].Moves > res.Rows[1].Moves && res.Rows[1].Moves > res.Rows[2].Moves && res.Rows[2].Moves > 0) {
		t.Errorf("moves by rack: %d, %d, %d", res.Rows[0].Moves, res.Rows[1].Moves, res.Rows[2].Moves)
	}
	if r := res.Ratio(0, "gaddag", "iwm"); r <= 0 {
		t.Errorf("ratio %v", r)
	}
	var buf bytes.Buffer
	if err := res.WriteTable(&buf); err != nil || !strings.Contains(buf.String(), "AENRS??") {
		t.Errorf("table: %v\n%s", err, buf.String())
	}
}

func TestBlankCasesParse(t *testing.T) {
	for _, c := range BlankCases {
		v, err := variant.Load(c.Variant)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range c.Racks {
			rack, err := v.Alphabet.ParseRack(r)
			if err != nil || rack.Len() != v.RackSize {
				t.Errorf("%s rack %q: %v (%d tiles)", c.Variant, r, err, rack.Len())
			}
		}
	}
}

func TestRunThreshold(t *testing.T) {
	v, lex := tinyEnv(t)
	as := tinyAlgos(t, lex, "gaddag")
	ps, err := GreedyPositions(v, lex, as[0].Gen, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	res, err := RunThreshold(v, lex, nil, ps, []int{1, 2, 5}, 1, 2, func(int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || len(res.Rows) != 3 || res.Rows[2].Threshold != 5 {
		t.Fatalf("%d progress calls, %d rows", calls, len(res.Rows))
	}
	// A higher threshold moves placed inner words from the low-level to
	// the high-level table.
	if !(res.Rows[0].HighIndex <= res.Rows[2].HighIndex && res.Rows[0].LowIndex >= res.Rows[2].LowIndex) {
		t.Errorf("index entries do not shift with the threshold: %+v", res.Rows)
	}
	sp := 0
	for _, n := range res.StagePositions {
		sp += n
	}
	if sp != len(ps) {
		t.Errorf("stages hold %d positions of %d", sp, len(ps))
	}
	th, _ := res.Best(-1)
	if th != 1 && th != 2 && th != 5 {
		t.Errorf("best threshold %d", th)
	}
	var buf bytes.Buffer
	if err := res.WriteTable(&buf); err != nil || !strings.Contains(buf.String(), "best threshold") {
		t.Errorf("table: %v\n%s", err, buf.String())
	}
}

func TestProgressLine(t *testing.T) {
	p := &Progress{label: "games", total: 4}
	for _, c := range []struct {
		done int
		want string
	}{
		{0, "games [..............................] 0/4   0% elapsed 10s eta ?"},
		{1, "games [#######.......................] 1/4  25% elapsed 10s eta 30s"},
		{4, "games [##############################] 4/4 100% elapsed 10s eta 0s"},
	} {
		if got := strings.TrimSpace(p.Line(c.done, 10*time.Second)); got != c.want {
			t.Errorf("Line(%d) = %q, want %q", c.done, got, c.want)
		}
	}
}

func TestSuffixPaths(t *testing.T) {
	if got := CountersPath("out/x.png"); got != "out/x-counters.png" {
		t.Error(got)
	}
	if got := ThresholdTimePath("x"); got != "x-time" {
		t.Error(got)
	}
}

func TestClock(t *testing.T) {
	if _, err := ParseClock("sundial"); err == nil {
		t.Error("ParseClock accepted sundial")
	}
	for _, c := range []Clock{ThreadCPU, Wall} {
		old := TimeWith
		TimeWith = c
		tm := startTimer()
		x := 0
		d := tm.time(func() {
			for i := 0; i < 3_000_000; i++ {
				x += i ^ (x >> 3)
			}
		})
		tm.stop()
		TimeWith = old
		if d <= 0 || d > 10*time.Second || x == 42 {
			t.Errorf("%v: a busy loop took %v", c, d)
		}
	}
}

// logGen is a generator that notes its calls in a shared log and emits
// moves moves.
type logGen struct {
	name  string
	log   *[]string
	moves int
}

func (g logGen) Name() string { return g.name }

func (g logGen) Fork() movegen.Generator { return g }

func (g logGen) Generate(_ *board.Board, _ *alphabet.Rack, sink movegen.Sink) {
	*g.log = append(*g.log, g.name)
	for i := 0; i < g.moves; i++ {
		sink(&move.Move{Kind: move.Place})
	}
}

func TestMeasureAllOrder(t *testing.T) {
	if _, err := ParseOrder("random"); err == nil {
		t.Error("ParseOrder accepted random")
	}
	for _, tc := range []struct {
		order Order
		want  string
	}{
		{Interleaved, "a b a b a b a b"},
		{Consecutive, "a a a a b b b b"},
	} {
		var log []string
		algos := []Algo{{"a", logGen{"a", &log, 3}}, {"b", logGen{"b", &log, 5}}}
		old := RunOrder
		RunOrder = tc.order
		out := make([]Measurement, 2)
		MeasureAll(algos, nil, nil, 3, out)
		RunOrder = old
		if got := strings.Join(log, " "); got != tc.want {
			t.Errorf("%v: calls %q, want %q", tc.order, got, tc.want)
		}
		if out[0].Moves != 3 || out[1].Moves != 5 {
			t.Errorf("%v: moves %d, %d, want 3, 5", tc.order, out[0].Moves, out[1].Moves)
		}
	}
}

// lowBest wraps a searcher and reports its best equity one point low.
type lowBest struct{ movegen.Searcher }

func (l lowBest) Name() string { return "low" }
func (l lowBest) Best(b *board.Board, r *alphabet.Rack, lv movegen.Leave) (movegen.Scored, bool) {
	sc, ok := l.Searcher.Best(b, r, lv)
	sc.Equity--
	return sc, ok
}

// TestRunMovegenBest times best-by-equity generation on tiny games: the
// searchers agree, the moves are still counted (against a run listing
// every move), the report says what was timed and lists the
// best-by-equity targets; a generator with no best-by-equity search and
// a searcher that disagrees are refused.
func TestRunMovegenBest(t *testing.T) {
	v, lex := tinyEnv(t)
	as := tinyAlgos(t, lex, "gaddag,anagram,iwm")
	all, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: as[:1], Games: 2, Seed: 3, Reps: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: as, Games: 2, Seed: 3, Reps: 1, Best: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Best || res.Leave != "none" || len(res.Turns) != len(all.Turns) {
		t.Fatalf("best run: Best %v, leave %q, %d turns (all moves: %d)", res.Best, res.Leave, len(res.Turns), len(all.Turns))
	}
	for i := range res.Turns {
		if res.Turns[i].Moves != all.Turns[i].Moves {
			t.Errorf("turn %d: %d moves counted, %d listed", i+1, res.Turns[i].Moves, all.Turns[i].Moves)
		}
	}
	var buf bytes.Buffer
	if err := res.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "best-by-equity searches (leave none)") {
		t.Errorf("table does not say what was timed:\n%s", buf.String())
	}
	if ts := res.Targets(); len(ts) != 2 || !strings.Contains(ts[0].Text, "best-by-equity") {
		t.Errorf("targets %+v", ts)
	}
	dawg := tinyAlgos(t, lex, "dawg")
	if _, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: dawg, Games: 1, Seed: 1, Reps: 1, Best: true}); err == nil {
		t.Error("dawg accepted for best-by-equity timing")
	}
	bad := append(as[:1:1], Algo{Name: "low", Gen: lowBest{as[0].Gen.(movegen.Searcher)}})
	if _, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: bad, Games: 1, Seed: 1, Reps: 1, Best: true}); err == nil || !strings.Contains(err.Error(), "low's") {
		t.Errorf("disagreeing searcher not reported: %v", err)
	}
}

// rackLog is a Searcher that records the racks it is asked to search
// and, when order is set, its name in a log shared with others.
type rackLog struct {
	movegen.Generator
	racks []alphabet.Rack
	name  string
	order *[]string
}

func (l *rackLog) Best(b *board.Board, rack *alphabet.Rack, leave movegen.Leave) (movegen.Scored, bool) {
	l.racks = append(l.racks, *rack)
	if l.order != nil {
		*l.order = append(*l.order, l.name)
	}
	return movegen.Scored{}, false
}

func (l *rackLog) TopN(b *board.Board, rack *alphabet.Rack, leave movegen.Leave, n int, out []movegen.Scored) []movegen.Scored {
	l.Best(b, rack, leave)
	return out[:0]
}

// atBoard returns the English variant, a lexicon of the words AT and TA
// and an empty board.
func atBoard(t *testing.T) (*variant.Variant, *lexicon.Lexicon, *board.Board) {
	t.Helper()
	v := variant.MustLoad("english")
	lex, err := lexicon.FromWords(v.Alphabet, "AT", "TA")
	if err != nil {
		t.Fatal(err)
	}
	return v, lex, board.New(v, lex)
}

// TestMeasureBestNoRepeat checks that MeasureBest never searches the
// same rack twice in a row, in either order: a searcher may keep what it
// worked out for a rack, which would time a repeat instead of a search.
func TestMeasureBestNoRepeat(t *testing.T) {
	v, lex, b := atBoard(t)
	for _, order := range []Order{Consecutive, Interleaved} {
		for _, rs := range []string{"AT", "A", "", "AAA", "TTAA"} {
			rack, _ := v.Alphabet.ParseRack(rs)
			logs := []*rackLog{{Generator: movegen.NewBrute(lex)}, {Generator: movegen.NewBrute(lex)}}
			algos := []Algo{{Name: "a", Gen: logs[0]}, {Name: "b", Gen: logs[1]}}
			saved := RunOrder
			RunOrder = order
			out := make([]Measurement, 2)
			MeasureBest(algos, b, &rack, nil, 3, out)
			RunOrder = saved
			for k, l := range logs {
				if len(l.racks) != 10 {
					t.Fatalf("order %v, rack %q, algorithm %d: %d searches, want 1 + 3 × 3", order, rs, k, len(l.racks))
				}
				// Each search of the rack after the first follows two
				// of two other racks, so that a searcher keeping the
				// last two racks' work keeps none of the rack's.
				for i := 3; i < len(l.racks); i += 3 {
					a, c := l.racks[i-2], l.racks[i-1]
					if l.racks[i] != rack || a == rack || c == rack || a == c {
						t.Errorf("order %v, rack %q, algorithm %d: searches %d to %d are of %v, %v, %v", order, rs, k, i-2, i, a, c, l.racks[i])
					}
				}
				if l.racks[len(l.racks)-1] != rack {
					t.Errorf("order %v, rack %q: the last search is not of the rack measured", order, rs)
				}
			}
		}
	}
}

// TestMeasureBestOnce checks that a search timed as played is the only
// search of the position: each algorithm searches the rack once, from
// the one named first, with no untimed search before.
func TestMeasureBestOnce(t *testing.T) {
	v, lex, b := atBoard(t)
	rack, _ := v.Alphabet.ParseRack("AT")
	var order []string
	logs := []*rackLog{
		{Generator: movegen.NewBrute(lex), name: "a", order: &order},
		{Generator: movegen.NewBrute(lex), name: "b", order: &order},
		{Generator: movegen.NewBrute(lex), name: "c", order: &order},
	}
	algos := []Algo{{Name: "a", Gen: logs[0]}, {Name: "b", Gen: logs[1]}, {Name: "c", Gen: logs[2]}}
	out := make([]Measurement, 3)
	for first, want := range []string{"a b c", "b c a", "c a b"} {
		order = order[:0]
		for _, l := range logs {
			l.racks = l.racks[:0]
		}
		if _, ok := MeasureBestOnce(algos, b, &rack, nil, first, out); ok {
			t.Error("a searcher that finds nothing gave a move")
		}
		if got := strings.Join(order, " "); got != want {
			t.Errorf("first %d: searches by %s, want %s", first, got, want)
		}
		for k, l := range logs {
			if len(l.racks) != 1 || l.racks[0] != rack {
				t.Errorf("first %d, algorithm %d: searched %v, want the rack once", first, k, l.racks)
			}
		}
	}
}

// TestRunMovegenAsPlayed times searches as played on tiny games: the
// searchers agree, each position is searched once by each, the games
// are played by the best move found (so end), and the run is refused
// without --best.
func TestRunMovegenAsPlayed(t *testing.T) {
	v, lex := tinyEnv(t)
	as := tinyAlgos(t, lex, "gaddag,anagram")
	res, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: as, Games: 3, Seed: 3, Reps: 5, Best: true, AsPlayed: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.AsPlayed || res.Reps != 1 || len(res.GameTurns) != 3 {
		t.Fatalf("as played %v, reps %d, %d games", res.AsPlayed, res.Reps, len(res.GameTurns))
	}
	var buf bytes.Buffer
	if err := res.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "legal moves not counted") || !strings.Contains(buf.String(), "played by the best move by equity") {
		t.Errorf("table does not say the moves were not counted:\n%s", buf.String())
	}
	if _, err := RunMovegen(MovegenConfig{V: v, Lex: lex, Algos: as, Games: 1, Seed: 3, Reps: 1, AsPlayed: true}); err == nil {
		t.Error("timing as played accepted without best-by-equity generation")
	}
}
