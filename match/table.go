package match

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteTable prints the statistics table of Pícek 2008 (Figures 20–26) for both players,
// then the spread and player 1's win rate with their 95% intervals.
func (r *Report) WriteTable(w io.Writer) error {
	s := r.Summaries()
	n1, n2 := s[0].Name, s[1].Name
	if n1 == n2 {
		n1, n2 = n1+" (1)", n2+" (2)"
	}
	rows := []struct {
		label string
		f     func(x *Summary) string
	}{
		{"wins", func(x *Summary) string { return strconv.Itoa(x.Wins) }},
		{"wins (%)", func(x *Summary) string { return fmt.Sprintf("%.1f", x.WinPct) }},
		{"points/game", func(x *Summary) string { return fmt.Sprintf("%.1f", x.PointsGame) }},
		{"points/turn", func(x *Summary) string { return fmt.Sprintf("%.2f", x.PointsTurn) }},
		{"ms/turn", func(x *Summary) string { return fmt.Sprintf("%.2f", x.MsTurn) }},
		{"legal moves found/turn", func(x *Summary) string { return fmt.Sprintf("%.1f", x.MovesTurn) }},
		{"bingos/game", func(x *Summary) string { return fmt.Sprintf("%.2f", x.BingosGame) }},
	}
	if r.Config.Judge != nil {
		rows = append(rows, []struct {
			label string
			f     func(x *Summary) string
		}{
			{"static top choice (%)", func(x *Summary) string { return fmt.Sprintf("%.1f", x.TopPct) }},
			{"equity given up/move", func(x *Summary) string { return fmt.Sprintf("%.2f", x.LostPerMove) }},
		}...)
	}
	c1 := max(len(n1), 10)
	c2 := max(len(n2), 10)
	var b strings.Builder
	fmt.Fprintf(&b, "| %-22s | %*s | %*s |\n", "level", c1, n1, c2, n2)
	fmt.Fprintf(&b, "|%s|%s:|%s:|\n", strings.Repeat("-", 24), strings.Repeat("-", c1+1), strings.Repeat("-", c2+1))
	for _, row := range rows {
		fmt.Fprintf(&b, "| %-22s | %*s | %*s |\n", row.label, c1, row.f(&s[0]), c2, row.f(&s[1]))
	}
	mean, half := r.Spread()
	rate, lo, hi := r.WinRate()
	fmt.Fprintf(&b, "\ngames %d (ties %d), %s moved first in the even games and %s in the odd ones\n", len(r.Games), s[0].Ties, n1, n2)
	fmt.Fprintf(&b, "spread (%s − %s) per game: %+.1f ± %.1f (95%%)\n", n1, n2, mean, half)
	fmt.Fprintf(&b, "%s win rate (ties count half): %.1f%%, 95%% CI [%.1f%%, %.1f%%] (Wilson)\n", n1, 100*rate, 100*lo, 100*hi)
	if r.Config.Paired {
		pr, plo, phi, pairs := r.PairedWinRate()
		fmt.Fprintf(&b, "paired (same bag, seats swapped): %d pairs, %s scores %.1f%%, 95%% CI [%.1f%%, %.1f%%] over pairs\n", pairs, n1, 100*pr, 100*plo, 100*phi)
	}
	fmt.Fprintf(&b, "time %.1f s\n", r.Elapsed.Seconds())
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes one line per game.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	p := r.Config.Players
	head := []string{"game", "seed", "first", "p1", "p2", "score1", "score2", "turns1", "turns2",
		"bingos1", "bingos2", "moves1", "moves2", "ms1", "ms2", "winner"}
	if err := cw.Write(head); err != nil {
		return err
	}
	for i := range r.Games {
		g := &r.Games[i]
		rec := []string{
			strconv.Itoa(g.Index), strconv.FormatUint(g.Seed, 10), strconv.Itoa(g.First + 1), p[0], p[1],
			strconv.Itoa(g.Score[0]), strconv.Itoa(g.Score[1]), strconv.Itoa(g.Turns[0]), strconv.Itoa(g.Turns[1]),
			strconv.Itoa(g.Bingos[0]), strconv.Itoa(g.Bingos[1]), strconv.Itoa(g.Moves[0]), strconv.Itoa(g.Moves[1]),
			fmt.Sprintf("%.3f", float64(g.Time[0].Microseconds())/1000), fmt.Sprintf("%.3f", float64(g.Time[1].Microseconds())/1000),
			strconv.Itoa(g.Winner() + 1),
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
