package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"atril/alphabet"
	"atril/game"
	"atril/gcg"
	"atril/move"
	"atril/movegen"
	"atril/player"
	"atril/player/leave"
	"atril/review"
	"atril/winprob"
)

// gcgReport is the --json form of a game's analysis.
type gcgReport struct {
	Players   []string        `json:"players"`
	Lexicon   string          `json:"lexicon"`
	Challenge string          `json:"challenge"`
	Moves     []gcgMoveReport `json:"moves"`
	// Summary sums up the moves by static equity, or with --sim by the
	// simulation's and the endgame's values.
	Summary []gcgSeatReport `json:"summary"`
	Judged  string          `json:"judged"`
}

// gcgMoveReport is one move of a game's analysis, numbered from 1.
type gcgMoveReport struct {
	Move   int            `json:"move"`
	Seat   int            `json:"seat"`
	Rack   string         `json:"rack"`
	Bag    int            `json:"bag"`
	Played gcgCandidate   `json:"played"`
	Best   []gcgCandidate `json:"best"`
	Lost   float64        `json:"lost"`
	// Notes are the file's #note lines after the move's line.
	Notes []string `json:"notes,omitempty"`
	// Rank is the played move's place among Moves (0: not listed, a
	// phony or a withdrawn placement).
	Rank  int `json:"rank"`
	Moves int `json:"moves"`
	// Judged is the simulation's or the endgame's verdict (--sim).
	Judged *review.Judgement `json:"judged,omitempty"`
	// Inferred is what the placement told the next player about the
	// tiles kept (--infer).
	Inferred *gcgInference `json:"inferred,omitempty"`
	// Chance is the mover's chance of winning before the move, in
	// percent, from the score and the tiles not yet on the board
	// (package winprob; games of two players).
	Chance *float64 `json:"chance,omitempty"`
}

// gcgInference is rack inference on a placement (player.Infer), as the
// next player saw it: the tiles kept, the share of the racks the player
// could have held that make the move the computer's choice, the kinds of
// tile made likelier or unlikelier than the draw alone makes them ("S 62%
// (by chance 25%)"), the likeliest leaves, and what was kept.
type gcgInference struct {
	Observer   int      `json:"observer"`
	Kept       int      `json:"kept"`
	Consistent float64  `json:"consistent"`
	Likelier   []string `json:"likelier,omitempty"`
	Unlikelier []string `json:"unlikelier,omitempty"`
	Leaves     []string `json:"leaves,omitempty"`
	Truth      string   `json:"truth"`
}

// gcgCandidate is a move with its static equity.
type gcgCandidate struct {
	Move      string  `json:"move"`
	Score     int     `json:"score"`
	Leave     string  `json:"leave"`
	Equity    float64 `json:"equity"`
	Withdrawn bool    `json:"withdrawn,omitempty"`
}

// gcgSeatReport is how one player played.
type gcgSeatReport struct {
	Seat  int      `json:"seat"`
	Moves int      `json:"moves"`
	Best  int      `json:"best"`
	Lost  float64  `json:"lost"`
	Worst *gcgMiss `json:"worst,omitempty"`
	// MissedBingos are the player's moves that played no bingo where
	// one could be played (by the static ranking).
	MissedBingos []gcgBingoMiss `json:"missed_bingos,omitempty"`
}

// gcgBingoMiss is a move (numbered from 1) that played no bingo where
// one could be played: its rack, the move played and the best bingos by
// equity ("8B RETAINS 72").
type gcgBingoMiss struct {
	Move   int      `json:"move"`
	Rack   string   `json:"rack"`
	Played string   `json:"played"`
	Bingos []string `json:"bingos"`
}

// gcgMiss is a player's costliest move (numbered from 1) and the best
// in its place.
type gcgMiss struct {
	Move   int     `json:"move"`
	Played string  `json:"played"`
	Best   string  `json:"best"`
	Lost   float64 `json:"lost"`
}

// analyzeGCG ranks every move of the game in a GCG file (path, or "-"
// for standard input) by static equity, lists the best `top` moves of
// each position beside the one played, and sums up how each player
// played. With judge set (a two-player game), each move is also judged
// by the simulation player's search, or with the bag empty by the
// endgame's (player.Judge, with o's settings), and the summary is by
// those values.
func analyzeGCG(w io.Writer, fs *flag.FlagSet, variantName, lexName, path, leaveName string, top int, asJSON, infer bool, judge *player.Options) error {
	var in io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	f, err := gcg.Parse(in)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	f.PartialRacks = true // a record kept by one of the players
	e, err := namedEnv(fs, variantName, lexName, f.Lexicon, path+": #lexicon")
	if err != nil {
		return err
	}
	g, err := f.ReplayAnyRule(e.V, e.Lex, 1)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	table, err := leave.Load(e.V, leaveName, 0)
	if err != nil {
		return err
	}
	gen, err := movegen.New("gaddag", e.Lex)
	if err != nil {
		return err
	}
	names := make([]string, len(g.Seats))
	for i := range g.Seats {
		names[i] = g.Seats[i].Name
	}
	start, err := game.New(e.V, e.Lex, names, 1)
	if err == nil {
		err = start.SetChallengeRule(g.ChallengeRule())
	}
	if err == nil {
		err = start.SetEndRule(g.EndRule())
	}
	if err != nil {
		return err
	}
	a := e.V.Alphabet
	cand := func(c *review.Candidate) gcgCandidate {
		return gcgCandidate{Move: c.Text, Score: c.Move.Score, Leave: a.Bracketed(c.Kept.InWritingOrder()),
			Equity: c.Equity, Withdrawn: c.Withdrawn}
	}
	rep := gcgReport{Players: names, Lexicon: e.Lex.Name, Challenge: g.ChallengeRule().String(), Judged: "static equity"}
	if judge != nil {
		if len(names) != 2 {
			return fmt.Errorf("%s: --sim judges games of two players, this one has %d", path, len(names))
		}
		judge.Variant, judge.Lexicon, judge.Generator = e.V, e.Lex, gen
		judge.Leave = leaveName
		rep.Judged = "simulation and endgame"
	}
	judged := &review.Summary{Seats: make([]review.SeatSummary, len(names))}
	progress := false
	if st, err := os.Stderr.Stat(); err == nil && judge != nil {
		progress = st.Mode()&os.ModeCharDevice != 0 // a terminal
	}
	rk := &review.Ranker{Gen: gen, Leave: table}
	rec := review.NewRecord(g.History, true)
	var chances []float64
	if m, ok := winprob.For(e.V, len(names)); ok {
		var winners []int
		if g.Over() {
			winners = g.Winners()
		}
		chances = m.Series(g.History, e.V.TotalTiles(), winners)
	}
	notes := f.EntryNotes()
	sum, err := rk.Summarize(rec, start, top, func(k int, pos *game.Game, r *review.Ranking) error {
		mr := gcgMoveReport{Move: k + 1, Seat: r.Seat, Rack: spellRack(a, &r.Rack), Bag: r.Bag, Played: cand(&r.Played),
			Lost: r.Lost(), Rank: r.Rank, Moves: r.Moves, Notes: notes[rec.Moves[k].At]}
		for i := range r.Best {
			mr.Best = append(mr.Best, cand(&r.Best[i]))
		}
		if at := rec.Moves[k].At; at < len(chances) {
			c := chances[at]
			if r.Seat == 1 {
				c = 1 - c
			}
			mr.Chance = review.Hundredths(100 * c)
		}
		if infer {
			inf, err := inferMove(gen, pos, rec, k, table)
			if err != nil {
				return fmt.Errorf("move %d: %w", k+1, err)
			}
			mr.Inferred = inf
		}
		if judge != nil {
			jm, err := judgeMove(pos, r, judge, judged, k)
			if err != nil {
				return fmt.Errorf("move %d: %w", k+1, err)
			}
			mr.Judged = jm
		}
		rep.Moves = append(rep.Moves, mr)
		if progress {
			fmt.Fprintf(os.Stderr, "\rjudged %d moves", k+1)
		}
		return nil
	})
	if progress {
		fmt.Fprintln(os.Stderr)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	static := sum
	if judge != nil {
		sum = judged
	}
	for i, s := range sum.Seats {
		sr := gcgSeatReport{Seat: i, Moves: s.Moves, Best: s.Best, Lost: s.Lost}
		if m := s.Worst; m != nil {
			sr.Worst = &gcgMiss{m.Move + 1, m.Played.Text, m.Best.Text, m.Lost}
		}
		for _, m := range static.Seats[i].MissedBingos {
			bm := gcgBingoMiss{Move: m.Move + 1, Rack: spellRack(a, &m.Rack), Played: m.Played.Text}
			for _, b := range m.Bingos {
				bm.Bingos = append(bm.Bingos, fmt.Sprintf("%s %d", b.Text, b.Move.Score))
			}
			sr.MissedBingos = append(sr.MissedBingos, bm)
		}
		rep.Summary = append(rep.Summary, sr)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(rep)
	}
	return writeGCGReport(w, &rep, leaveName)
}

// inferMove infers what move k of rec, made in pos, told the seat after
// its player about the tiles kept (nil for anything but a placement that
// stood, made with tiles in the bag, or when the file records no later
// move of that seat, whose rack is then unknown).
func inferMove(gen movegen.Generator, pos *game.Game, rec *review.Record, k int, table leave.Evaluator) (*gcgInference, error) {
	m := rec.Moves[k]
	if m.Move.Kind != move.Place || m.Withdrawn || pos.BagLen() == 0 || table == nil {
		return nil, nil
	}
	seat := pos.Current()
	observer := (seat + 1) % len(pos.Seats)
	held, ok := rec.HeldAt(observer, k)
	if !ok {
		return nil, nil
	}
	inf, err := player.InferFrom(gen, pos, m.Move, observer, &held, table, player.InferOptions{Seed: uint64(k) + 1})
	if err != nil {
		return nil, err
	}
	a := pos.Variant.Alphabet
	kept := m.Move.Kept(pos.Seats[seat].Rack)
	out := &gcgInference{Observer: observer, Kept: inf.Kept, Consistent: inf.Consistent, Truth: a.Bracketed(kept.InWritingOrder())}
	letters := slices.Clone(inf.Letters)
	lift := func(l player.LetterOdds) float64 { return l.Held - l.Prior }
	slices.SortStableFunc(letters, func(x, y player.LetterOdds) int { return cmp.Compare(lift(y), lift(x)) })
	odds := func(l player.LetterOdds) string {
		return fmt.Sprintf("%s %.0f%% (by chance %.0f%%)", a.Bracketed([]alphabet.Tile{l.Tile}), 100*l.Held, 100*l.Prior)
	}
	for _, l := range letters {
		if lift(l) >= 0.05 && len(out.Likelier) < 5 {
			out.Likelier = append(out.Likelier, odds(l))
		}
	}
	for i := len(letters) - 1; i >= 0; i-- {
		if l := letters[i]; -lift(l) >= 0.05 && len(out.Unlikelier) < 5 {
			out.Unlikelier = append(out.Unlikelier, odds(l))
		}
	}
	for _, l := range inf.Leaves[:min(len(inf.Leaves), 5)] {
		out.Leaves = append(out.Leaves, fmt.Sprintf("%s %.0f%%", a.Bracketed(l.Leave.InWritingOrder()), 100*l.Share))
	}
	return out, nil
}

// judgeMove judges the move of ranking r in pos (player.Judge; a
// withdrawn placement as the pass it amounted to), counts it in sum and
// returns the verdict.
func judgeMove(pos *game.Game, r *review.Ranking, o *player.Options, sum *review.Summary, k int) (*review.Judgement, error) {
	view := player.ViewOf(pos, pos.Current())
	if view.Unseen.Len() == 0 {
		// Nothing hidden and nothing to draw: the static ranking is exact
		// for the move's points.
		sum.Add(k, r.Seat, &r.Played, &r.Best[0], r.Lost())
		return review.StaticJudgement(r), nil
	}
	played := r.Played.Move
	if r.Played.Withdrawn {
		played = move.Move{Kind: move.Pass}
	}
	vd, err := player.Judge(view, played, *o)
	if err != nil {
		return nil, err
	}
	j := review.Judged(view.Board, vd)
	if j.Value == nil || j.BestValue == nil {
		return nil, fmt.Errorf("the %s found no value for %s or %s", vd.Phase, j.Played, j.Best)
	}
	if r.Played.Withdrawn {
		j.Played = r.Played.Text
	}
	pc := review.Candidate{Move: vd.Played.Move, Text: j.Played, Equity: *j.Value, Withdrawn: r.Played.Withdrawn}
	bc := review.Candidate{Move: vd.Best.Move, Text: j.Best, Equity: *j.BestValue}
	sum.Add(k, r.Seat, &pc, &bc, j.Lost)
	return j, nil
}

// spellRack writes a rack in writing order, blanks as "?".
func spellRack(a *alphabet.Alphabet, r *alphabet.Rack) string {
	return a.Bracketed(r.InWritingOrder())
}

// writeGCGReport prints a game's analysis: a line a move, the best moves
// under it when more than one is asked for, and a line a player.
func writeGCGReport(w io.Writer, rep *gcgReport, leaveName string) error {
	if leaveName == "" {
		leaveName = "default"
	}
	judged := rep.Judged != "static equity"
	how := fmt.Sprintf("moves ranked by score plus leave (table %s)", leaveName)
	if judged {
		how = "moves judged by simulation (value: mean spread to its horizon plus the leave there; win: chance of winning) and, with the bag empty, by the solved endgame (value: spread to the end)"
	}
	fmt.Fprintf(w, "%s: %d moves, %s, %s challenge rule; %s\n",
		strings.Join(rep.Players, " vs "), len(rep.Moves), rep.Lexicon, rep.Challenge, how)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if judged {
		fmt.Fprintln(tw, "#\tplayer\track\tplayed\tscore\tvalue\twin %\tbest\tvalue\twin %\tlost\tby\t")
	} else {
		fmt.Fprintln(tw, "#\tplayer\track\tplayed\tscore\tequity\tbest\tequity\tlost\trank\twin %\t")
	}
	for _, m := range rep.Moves {
		p := m.Played
		played := p.Move
		if p.Withdrawn {
			played += " (withdrawn)"
		}
		if j := m.Judged; j != nil {
			by := j.Phase
			switch {
			case j.Phase == "simulation":
				by = fmt.Sprintf("simulation, %d iterations", j.Iterations)
			case j.Phase == "endgame" && !j.Exact:
				by = "endgame, not exact"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%.1f\t%s\t%s\t%.1f\t%s\t%s\t%s\t\n", m.Move, rep.Players[m.Seat], m.Rack, played,
				p.Score, *j.Value, chance(j.Win), j.Best, *j.BestValue, chance(j.BestWin), tenths(j.Lost), by)
			continue
		}
		rank := "-"
		if m.Rank > 0 {
			rank = fmt.Sprintf("%d/%d", m.Rank, m.Moves)
		}
		b := m.Best[0]
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%.1f\t%s\t%.1f\t%s\t%s\t%s\t\n", m.Move, rep.Players[m.Seat], m.Rack, played, p.Score, p.Equity,
			b.Move, b.Equity, tenths(m.Lost), rank, chance(m.Chance))
		for i := 1; i < len(m.Best); i++ {
			c := m.Best[i]
			fmt.Fprintf(tw, "\t\t\t\t\t\t%d. %s\t%.1f\t\t\t\n", i+1, c.Move, c.Equity)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range rep.Moves {
		for _, n := range m.Notes {
			fmt.Fprintf(w, "note on move %d (%s): %s\n", m.Move, rep.Players[m.Seat], strings.Join(strings.Fields(n), " "))
		}
	}
	for _, m := range rep.Moves {
		if inf := m.Inferred; inf != nil && inf.Kept > 0 {
			writeInference(w, m, inf, rep.Players)
		}
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	what := "equity"
	if judged {
		what = "value"
	}
	fmt.Fprintf(tw, "player\tmoves\tbest\t%s lost\ta move\tcostliest\t\n", what)
	for _, s := range rep.Summary {
		per := 0.0
		if s.Moves > 0 {
			per = s.Lost / float64(s.Moves)
		}
		worst := "-"
		if m := s.Worst; m != nil {
			worst = fmt.Sprintf("move %d: %s for %s (%.1f)", m.Move, m.Played, m.Best, m.Lost)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.2f\t%s\t\n", rep.Players[s.Seat], s.Moves, s.Best, s.Lost, per, worst)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range rep.Summary {
		for _, m := range s.MissedBingos {
			if _, err := fmt.Fprintf(w, "missed bingo: %s, move %d (%s, played %s): %s\n", rep.Players[s.Seat], m.Move, m.Rack, m.Played,
				strings.Join(m.Bingos, ", ")); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeInference writes what move m told the next player (--infer), for
// a move that kept tiles.
func writeInference(w io.Writer, m gcgMoveReport, inf *gcgInference, players []string) {
	who, by := players[m.Seat], players[inf.Observer]
	fmt.Fprintf(w, "inferred, move %d (%s, %s): %s kept %d; ", m.Move, who, m.Played.Move, who, inf.Kept)
	if inf.Consistent == 0 {
		fmt.Fprintf(w, "no rack %s could see for %s makes it the computer's choice; kept %s\n", by, who, inf.Truth)
		return
	}
	fmt.Fprintf(w, "%.0f%% of the racks %s could see for %s make it the computer's choice", 100*inf.Consistent, by, who)
	if len(inf.Likelier) > 0 {
		fmt.Fprintf(w, "; likelier %s", strings.Join(inf.Likelier, ", "))
	}
	if len(inf.Unlikelier) > 0 {
		fmt.Fprintf(w, "; unlikelier %s", strings.Join(inf.Unlikelier, ", "))
	}
	if len(inf.Leaves) > 0 {
		fmt.Fprintf(w, "; likeliest %s", strings.Join(inf.Leaves, ", "))
	}
	fmt.Fprintf(w, "; kept %s\n", inf.Truth)
}

// tenths writes a loss to a tenth of a point, or nothing for none.
func tenths(x float64) string {
	if x <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f", x)
}

// chance writes a chance in percent, or "-" when there is none.
func chance(x *float64) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *x)
}
