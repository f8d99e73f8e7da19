package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"atril/alphabet"
	"atril/game"
	"atril/gcg"
	"atril/movegen"
	"atril/player/leave"
	"atril/review"
)

// gcgReport is the --json form of a game's analysis.
type gcgReport struct {
	Players   []string        `json:"players"`
	Lexicon   string          `json:"lexicon"`
	Challenge string          `json:"challenge"`
	Moves     []gcgMoveReport `json:"moves"`
	Summary   []gcgSeatReport `json:"summary"`
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
	// Rank is the played move's place among Moves (0: not listed, a
	// phony or a withdrawn placement).
	Rank  int `json:"rank"`
	Moves int `json:"moves"`
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
// played.
func analyzeGCG(w io.Writer, fs *flag.FlagSet, variantName, lexName, path, leaveName string, top int, asJSON bool) error {
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
	rep := gcgReport{Players: names, Lexicon: e.Lex.Name, Challenge: g.ChallengeRule().String()}
	rk := &review.Ranker{Gen: gen, Leave: table}
	sum, err := rk.Summarize(review.NewRecord(g.History, true), start, top, func(k int, r *review.Ranking) {
		mr := gcgMoveReport{Move: k + 1, Seat: r.Seat, Rack: spellRack(a, &r.Rack), Bag: r.Bag, Played: cand(&r.Played),
			Lost: r.Lost(), Rank: r.Rank, Moves: r.Moves}
		for i := range r.Best {
			mr.Best = append(mr.Best, cand(&r.Best[i]))
		}
		rep.Moves = append(rep.Moves, mr)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for i, s := range sum.Seats {
		sr := gcgSeatReport{Seat: i, Moves: s.Moves, Best: s.Best, Lost: s.Lost}
		if m := s.Worst; m != nil {
			sr.Worst = &gcgMiss{m.Move + 1, m.Played.Text, m.Best.Text, m.Lost}
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
	fmt.Fprintf(w, "%s: %d moves, %s, %s challenge rule; moves ranked by score plus leave (table %s)\n",
		strings.Join(rep.Players, " vs "), len(rep.Moves), rep.Lexicon, rep.Challenge, leaveName)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tplayer\track\tplayed\tscore\tequity\tbest\tequity\tlost\trank\t")
	for _, m := range rep.Moves {
		p := m.Played
		played := p.Move
		if p.Withdrawn {
			played += " (withdrawn)"
		}
		rank := "-"
		if m.Rank > 0 {
			rank = fmt.Sprintf("%d/%d", m.Rank, m.Moves)
		}
		b := m.Best[0]
		lost := ""
		if m.Lost > 0 {
			lost = fmt.Sprintf("%.1f", m.Lost)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%.1f\t%s\t%.1f\t%s\t%s\t\n", m.Move, rep.Players[m.Seat], m.Rack, played, p.Score, p.Equity,
			b.Move, b.Equity, lost, rank)
		for i := 1; i < len(m.Best); i++ {
			c := m.Best[i]
			fmt.Fprintf(tw, "\t\t\t\t\t\t%d. %s\t%.1f\t\t\t\n", i+1, c.Move, c.Equity)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "player\tmoves\tbest\tequity lost\ta move\tcostliest\t")
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
	return tw.Flush()
}
