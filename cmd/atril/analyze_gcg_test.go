package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"atril/game"
	"atril/gcg"
	"atril/internal/testvariant"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/variant"
)

// TestAnalyzeGCG plays a game in which the first player always makes its
// lowest-scoring placement and the second its highest, writes it as GCG,
// and checks `analyze --gcg` with no leave table (equity is the score
// while the bag holds tiles): every move of the second player is the
// best, and every move of the first gave up exactly the difference
// between the best and the worst score of its position, as the brute
// oracle found it during the game; the summary adds up the moves.
func TestAnalyzeGCG(t *testing.T) {
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 6)
	dir := t.TempDir()
	list := filepath.Join(dir, "words.txt")
	var words strings.Builder
	for i := 0; i < lex.Len(); i++ {
		words.WriteString(v.Alphabet.Spell(lex.Word(i)) + "\n")
	}
	if err := os.WriteFile(list, []byte(words.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// On this bag the low player once keeps a rack that makes a bingo.
	g, err := game.New(v, lex, []string{"Low", "High"}, 12)
	if err != nil {
		t.Fatal(err)
	}
	brute := movegen.NewBrute(lex)
	var gaps []int        // per move: best score minus the score played, -1 for an unchecked move
	var missedWant [2]int // per seat: moves that played no bingo where the oracle found one
	for !g.Over() && g.MovesPlayed() < 60 {
		me := g.Current()
		rack := g.Seats[me].Rack
		var lo, hi *move.Move
		bingo := false
		brute.Generate(g.Board, &rack, func(m *move.Move) {
			bingo = bingo || m.NewTiles() == v.RackSize
			if lo == nil || m.Score < lo.Score {
				c := movegen.Clone(m)
				lo = &c
			}
			if hi == nil || m.Score > hi.Score {
				c := movegen.Clone(m)
				hi = &c
			}
		})
		m := move.Move{Kind: move.Pass}
		gap := -1
		switch {
		case hi == nil:
		case me == 0:
			m, gap = *lo, hi.Score-lo.Score
		default:
			m, gap = *hi, 0
		}
		if g.BagLen() == 0 {
			gap = -1 // equity counts the tiles kept
		}
		gaps = append(gaps, gap)
		if bingo && m.NewTiles() != v.RackSize {
			missedWant[me]++
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	// A note on the third move, which the report carries.
	var file bytes.Buffer
	if err := gcg.WriteHeader(&file, g, &gcg.Header{Notes: map[int][]string{2: {"kept the Q\ntoo long"}}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game.gcg")
	if p := os.Getenv("ATRIL_KEEP_GCG"); p != "" {
		os.WriteFile(p, file.Bytes(), 0o644)
	}
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(asJSON bool, judge *player.Options) string {
		t.Helper()
		fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
		vn, ln := envFlags(fs)
		if err := fs.Parse([]string{"--lexicon", list}); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := analyzeGCG(&out, fs, *vn, *ln, path, "none", 3, asJSON, false, judge); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	var rep gcgReport
	if err := json.Unmarshal([]byte(run(true, nil)), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Moves) != len(gaps) {
		t.Fatalf("%d moves analysed, the game has %d", len(rep.Moves), len(gaps))
	}
	for k, m := range rep.Moves {
		if want := map[bool]string{true: "[kept the Q too long]", false: "[]"}[k == 2]; fmt.Sprint(m.Notes) != want {
			t.Errorf("move %d's notes: %q, want %s", k+1, m.Notes, want)
		}
	}
	checked := 0
	var lost [2]float64
	var moves, best [2]int
	for k, m := range rep.Moves {
		lost[m.Seat] += m.Lost
		moves[m.Seat]++
		if m.Lost == 0 {
			best[m.Seat]++
		}
		if len(m.Best) != 3 && len(m.Best) != m.Moves {
			t.Errorf("move %d: %d best moves listed, want 3", k+1, len(m.Best))
		}
		if m.Seat != k%2 {
			t.Errorf("move %d by seat %d", k+1, m.Seat)
		}
		if m.Chance == nil || *m.Chance < 0 || *m.Chance > 100 || k == 0 && (*m.Chance < 50 || *m.Chance > 65) {
			t.Errorf("move %d: the mover's chance of winning %v", k+1, m.Chance)
		}
		if gaps[k] < 0 {
			continue
		}
		checked++
		if m.Lost != float64(gaps[k]) || m.Best[0].Equity-m.Played.Equity != float64(gaps[k]) {
			t.Errorf("move %d (%s from %s): lost %.2f (best %s %.2f, played %.2f), want %d", k+1, m.Played.Move, m.Rack,
				m.Lost, m.Best[0].Move, m.Best[0].Equity, m.Played.Equity, gaps[k])
		}
		if m.Rank < 1 || m.Rank > m.Moves {
			t.Errorf("move %d: rank %d of %d", k+1, m.Rank, m.Moves)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d moves checked", checked)
	}
	low := rep.Summary[0]
	if low.Worst == nil || low.Lost <= 0 {
		t.Errorf("the low player's summary %+v shows no loss", low)
	}
	for i, s := range rep.Summary {
		if s.Moves != moves[i] || s.Best != best[i] || s.Lost-lost[i] > 0.01*float64(s.Moves) || lost[i]-s.Lost > 0.01*float64(s.Moves) {
			t.Errorf("summary of seat %d: %+v, the moves add up to %d moves, %d best, %.2f lost", i, s, moves[i], best[i], lost[i])
		}
	}
	// Missed bingos: moves of the seat that played none where the
	// analysis's own best moves hold one (the best bingo is at most as
	// good as the best move).
	missed := 0
	for i, s := range rep.Summary {
		if len(s.MissedBingos) != missedWant[i] {
			t.Errorf("seat %d missed %d bingos by the report, %d by the oracle", i, len(s.MissedBingos), missedWant[i])
		}
		for _, mb := range s.MissedBingos {
			missed++
			m := rep.Moves[mb.Move-1]
			if m.Seat != i || m.Played.Move != mb.Played || m.Rack != mb.Rack || len(mb.Bingos) == 0 || len(mb.Bingos) > 5 {
				t.Errorf("seat %d's missed bingo %+v; the move's analysis: %+v", i, mb, m)
			}
		}
	}
	text := run(false, nil)
	for _, want := range []string{"Low vs High", "equity lost", "costliest", "\nLow ", "\nHigh "} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "\nnote on move 3 (Low): kept the Q too long\n") {
		t.Errorf("the report lacks the note on move 3:\n%s", text)
	}
	if got := strings.Count(text, "\nmissed bingo: "); got != missed {
		t.Errorf("the report lists %d missed bingos, the JSON %d:\n%s", got, missed, text)
	}
	if missed == 0 {
		t.Error("no missed bingo to check")
	}
}

// TestAnalyzeGCGJudged judges every move of a game by simulation and,
// with the bag empty, by the endgame (analyze --gcg --sim, with small
// searches): each move has its verdict from the right search, no move is
// valued above the best, and the summary adds up the verdicts.
func TestAnalyzeGCGJudged(t *testing.T) {
	_, _, path, list := playedGCG(t, "professional", 9)
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	vn, ln := envFlags(fs)
	if err := fs.Parse([]string{"--lexicon", list}); err != nil {
		t.Fatal(err)
	}
	judge := &player.Options{Seed: 1, Candidates: 4, Iterations: 12, Plies: 1, Threads: 1, EndgameNodes: 20000, EndgameThreads: 1}
	var out bytes.Buffer
	if err := analyzeGCG(&out, fs, *vn, *ln, path, "", 1, true, false, judge); err != nil {
		t.Fatal(err)
	}
	var rep gcgReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var lost [2]float64
	phases := map[string]int{}
	for _, m := range rep.Moves {
		j := m.Judged
		if j == nil {
			t.Fatalf("move %d not judged", m.Move)
		}
		phases[j.Phase]++
		want := "simulation"
		if m.Bag == 0 {
			want = "endgame"
		}
		if j.Phase != want || j.Value == nil || j.BestValue == nil || j.Lost < 0 || j.Lost != math.Round(max(0, *j.BestValue-*j.Value)*100)/100 {
			t.Errorf("move %d (bag %d): %+v", m.Move, m.Bag, j)
		}
		if j.Phase == "simulation" && (j.Win == nil || j.BestWin == nil || j.Iterations == 0) {
			t.Errorf("move %d: a simulation without chances or iterations: %+v", m.Move, j)
		}
		lost[m.Seat] += j.Lost
	}
	if phases["simulation"] == 0 || phases["endgame"] == 0 {
		t.Errorf("verdicts by phase: %v", phases)
	}
	for i, s := range rep.Summary {
		if math.Abs(s.Lost-lost[i]) > 0.01*float64(s.Moves) {
			t.Errorf("seat %d: summary %.2f lost, the moves %.2f", i, s.Lost, lost[i])
		}
	}
}

// TestAnalyzeGCGRefused checks that a file that does not replay, and one
// that names an unknown word list, are refused with where and why.
func TestAnalyzeGCGRefused(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text, want string
	}{
		{"notgcg", "hello\n", "line 1"},
		{"lexicon", "#player1 a A\n#player2 b B\n#lexicon NOSUCHLIST\n>a: AEINRST 8D TAINTERS +0 0\n", "NOSUCHLIST"},
		{"score", "#player1 a A\n#player2 b B\n#lexicon sowpods\n>a: AEINRST 8D RETAINS +12 12\n", "line 4"},
	}
	for _, tc := range tests {
		path := filepath.Join(dir, tc.name+".gcg")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
		vn, ln := envFlags(fs)
		var out bytes.Buffer
		err := analyzeGCG(&out, fs, *vn, *ln, path, "", 1, false, false, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestAnalyzeGCGInfer infers, for every placement of a game between
// inhuman players made with tiles in the bag, what it told the next
// player (analyze --gcg --infer): the tiles kept as the file says, the
// next player's rack taken from the file, and the report's lines.
func TestAnalyzeGCGInfer(t *testing.T) {
	v, g, path, list := playedGCG(t, "inhuman", 4)
	run := func(asJSON bool) string {
		fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
		vn, ln := envFlags(fs)
		if err := fs.Parse([]string{"--lexicon", list}); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := analyzeGCG(&out, fs, *vn, *ln, path, "", 1, asJSON, true, nil); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	var rep gcgReport
	if err := json.Unmarshal([]byte(run(true)), &rep); err != nil {
		t.Fatal(err)
	}
	inferred, lines := 0, 0
	for i, m := range rep.Moves {
		h := g.History[i] // no challenges: history entries are the moves
		kept, _ := h.Kept()
		inf := m.Inferred
		if inf == nil {
			continue
		}
		inferred++
		if inf.Kept > 0 {
			lines++
		}
		if inf.Observer != 1-m.Seat || inf.Kept != kept.Len() || inf.Truth != v.Alphabet.Bracketed(kept.InWritingOrder()) {
			t.Errorf("move %d: %+v, kept %v", m.Move, inf, kept)
		}
		// inhuman chose the move by these values: some rack is consistent.
		if inf.Kept > 0 && inf.Consistent <= 0 {
			t.Errorf("move %d (%s): nothing consistent", m.Move, m.Played.Move)
		}
	}
	if inferred < 5 {
		t.Errorf("%d moves inferred", inferred)
	}
	if text := run(false); strings.Count(text, "\ninferred, move ") != lines {
		t.Errorf("%d lines of inference in the report, want %d (the moves that kept tiles):\n%s", strings.Count(text, "\ninferred, move "), lines, text)
	}
}

// playedGCG plays a game between two computer players of a level on a
// sample of the English list (seed: the bag's) and writes it as a GCG
// file, and the list as a word list file, in a test directory.
func playedGCG(t *testing.T, level string, seed uint64) (*variant.Variant, *game.Game, string, string) {
	t.Helper()
	v := variant.MustLoad("english")
	lex := testvariant.Sample(t, v, "en-sowpods", 6)
	g, err := game.New(v, lex, []string{"One", "Two"}, seed)
	if err != nil {
		t.Fatal(err)
	}
	p, err := player.New(level, player.Options{Variant: v, Lexicon: lex, Generator: movegen.NewBrute(lex)})
	if err != nil {
		t.Fatal(err)
	}
	for !g.Over() {
		if err := g.Play(p.Choose(player.ViewOf(g, g.Current()))); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	path, list := filepath.Join(dir, "game.gcg"), filepath.Join(dir, "words.txt")
	var file, words bytes.Buffer
	if err := gcg.Write(&file, g); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < lex.Len(); i++ {
		words.WriteString(v.Alphabet.Spell(lex.Word(i)) + "\n")
	}
	if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(list, words.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return v, g, path, list
}
