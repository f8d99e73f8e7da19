package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// TestFairPlayReport checks atril accounts fairplay: over the rated
// games between people of the last days, the account playing the
// computer's top choice far more often than the others comes first and
// is marked, the others are not, an account with few moves is left out,
// and neither a game against the computer, a casual game nor one
// finished before the days counts.
func TestFairPlayReport(t *testing.T) {
	ctx := context.Background()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, n := range []string{"Ana", "Bo", "Cy", "Di"} {
		if err := st.CreateAccount(ctx, &store.Account{Key: strings.ToLower(n), Name: n, Password: "pbkdf2$x", Created: now}); err != nil {
			t.Fatal(err)
		}
	}
	type seat struct {
		key          string
		moves, top   int
		lost         float64
		computerSeat bool
	}
	games := 0
	record := func(rated bool, at time.Time, a, b seat) {
		t.Helper()
		games++
		g := &store.RatedGame{Game: fmt.Sprintf("g%03d", games), Category: "en-sowpods/regular", Finished: at, Rated: rated}
		for i, s := range []seat{a, b} {
			rs := store.RatedSeat{Seat: i, Account: s.key, Name: s.key, Score: 400 - 10*i, Result: float64(1 - i), Turns: s.moves}
			if s.computerSeat {
				rs.Account, rs.Name, rs.Level = "", "Computer", "inhuman"
			}
			g.Seats = append(g.Seats, rs)
		}
		if rated {
			if _, err := st.RateGame(ctx, g, func(b []store.Rating) ([]store.Rating, error) { return b, nil }); err != nil {
				t.Fatal(err)
			}
		} else if _, err := st.RecordGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		for i, s := range []seat{a, b} {
			g.Seats[i].Analysed, g.Seats[i].TopMoves, g.Seats[i].Lost = s.moves, s.top, s.lost
		}
		if err := st.SetAccuracy(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	day := 24 * time.Hour
	// Ana plays the top choice 24 times in 25, Bo and Cy 10 in 25, over
	// four games each; Di plays one game of 20 moves.
	for k := range 4 {
		at := now.Add(-time.Duration(k+1) * day)
		record(true, at, seat{key: "ana", moves: 25, top: 24, lost: 5}, seat{key: "bo", moves: 25, top: 10, lost: 100})
		record(true, at, seat{key: "cy", moves: 25, top: 10, lost: 110}, seat{key: "ana", moves: 25, top: 24, lost: 4})
		record(true, at, seat{key: "bo", moves: 25, top: 10, lost: 90}, seat{key: "cy", moves: 25, top: 11, lost: 95})
	}
	record(true, now.Add(-2*day), seat{key: "di", moves: 20, top: 20}, seat{key: "bo", moves: 20, top: 5, lost: 80})
	// Not counted: long ago, against the computer, casual.
	record(true, now.Add(-100*day), seat{key: "bo", moves: 25, top: 25}, seat{key: "cy", moves: 25, top: 25})
	record(true, now.Add(-day), seat{key: "cy", moves: 25, top: 25}, seat{computerSeat: true, moves: 25, top: 25})
	record(false, now.Add(-day), seat{key: "bo", moves: 25, top: 25}, seat{key: "cy", moves: 25, top: 25})

	var w bytes.Buffer
	if err := fairPlayAction(ctx, st, &w, 30, 100, now, "f.db"); err != nil {
		t.Fatal(err)
	}
	out := w.String()
	// Ana 200 moves, Bo 220, Cy 200: 192 + 85 + 84 top of 620.
	for _, want := range []string{
		"3 accounts with at least 100 moves analysed (1 with fewer not listed): the computer's top choice in 58.2% of their 620 moves\n",
		"1 marked * (z of 3 or more",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	lines := regexp.MustCompile(`(?m)^(Ana|Bo|Cy|Di) .*$`).FindAllString(out, -1)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "Ana ") || !strings.HasSuffix(lines[0], " *") ||
		strings.HasSuffix(lines[1], "*") || strings.HasSuffix(lines[2], "*") {
		t.Errorf("the report's accounts: %q; want Ana first and marked, Bo and Cy unmarked, Di left out:\n%s", lines, out)
	}
	if !regexp.MustCompile(`(?m)^Ana +8 +200 +96\.0 +0\.2 +\+`).MatchString(out) {
		t.Errorf("Ana's line: %q", lines[0])
	}

	// Fewer moves asked: Di is listed too; nobody: said so.
	w.Reset()
	if err := fairPlayAction(ctx, st, &w, 30, 10, now, "f.db"); err != nil || !strings.Contains(w.String(), "\nDi ") {
		t.Errorf("with --min-moves 10: %v\n%s", err, w.String())
	}
	w.Reset()
	if err := fairPlayAction(ctx, st, &w, 30, 1000, now, "f.db"); err != nil || !strings.Contains(w.String(), "no account has 1000 moves analysed there (4 with fewer)") {
		t.Errorf("with --min-moves 1000: %v\n%s", err, w.String())
	}
	// The account's line in show: every rated game between people, the
	// one of long ago included (Bo: 245 moves, 110 top choices).
	w.Reset()
	if err := accountAction(ctx, st, &w, "show", "Bo", accountInput{}, "f.db"); err != nil ||
		!strings.Contains(w.String(), "\nplay     10 rated games between people analysed: the computer's top choice in 44.9% of 245 moves, 3.4 equity given up a move") {
		t.Errorf("show Bo: %v\n%s", err, w.String())
	}
	w.Reset()
	if err := accountAction(ctx, st, &w, "show", "Di", accountInput{}, "f.db"); err != nil || !strings.Contains(w.String(), "\nplay     1 rated games") {
		t.Errorf("show Di: %v\n%s", err, w.String())
	}
	for _, c := range [][2]int{{0, 100}, {30, 0}} {
		if err := fairPlayAction(ctx, st, &w, c[0], c[1], now, "f.db"); err == nil {
			t.Errorf("--days %d --min-moves %d: no error", c[0], c[1])
		}
	}
}
