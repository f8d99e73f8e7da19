package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	"atril/store"
)

// The operators' fair-play report (atril accounts fairplay): over the
// rated games between people finished lately, each account's share of
// moves that were the computer's top choice by static equity (the
// analysis the server records at a game's end), against the share of
// all the accounts listed. A player who copies a computer's moves plays
// its top choice far more often than the players around them; the
// report ranks the accounts by how far, in standard errors of a share
// over that many moves (the z of a binomial share against the pool's).
// Moves in a game are not independent draws and players differ in
// strength, so a high z is a reason to look at the games, not a proof.

// fairPlayZ is the z from which the report marks an account.
const fairPlayZ = 3

// fairPlayLine is an account's line of the report.
type fairPlayLine struct {
	store.FairPlayRow
	share, lostPerMove, z float64
}

// fairPlayAction writes the fair-play report over the rated games
// between people finished in the days before now, listing the accounts
// with at least minMoves moves analysed.
func fairPlayAction(ctx context.Context, st store.Store, w io.Writer, days, minMoves int, now time.Time, where string) error {
	if days <= 0 {
		return fmt.Errorf("fairplay: --days %d: want a number of days above 0", days)
	}
	if minMoves <= 0 {
		return fmt.Errorf("fairplay: --min-moves %d: want a number of moves above 0", minMoves)
	}
	rows, err := st.FairPlay(ctx, now.Add(-time.Duration(days)*24*time.Hour), "")
	if err != nil {
		return err
	}
	var lines []fairPlayLine
	top, moves, few := 0, 0, 0
	for _, r := range rows {
		if r.Analysed < minMoves {
			few++
			continue
		}
		top += r.TopMoves
		moves += r.Analysed
		lines = append(lines, fairPlayLine{FairPlayRow: r, share: float64(r.TopMoves) / float64(r.Analysed), lostPerMove: r.Lost / float64(r.Analysed)})
	}
	fmt.Fprintf(w, "rated games between people finished in the last %d days (%s)\n", days, where)
	if len(lines) == 0 {
		fmt.Fprintf(w, "no account has %d moves analysed there (%d with fewer)\n", minMoves, few)
		return nil
	}
	pool := float64(top) / float64(moves)
	for i := range lines {
		l := &lines[i]
		if se := math.Sqrt(pool * (1 - pool) / float64(l.Analysed)); se > 0 {
			l.z = (l.share - pool) / se
		}
	}
	slices.SortStableFunc(lines, func(a, b fairPlayLine) int {
		if c := cmp.Compare(b.z, a.z); c != 0 {
			return c
		}
		return cmp.Compare(a.lostPerMove, b.lostPerMove)
	})
	fmt.Fprintf(w, "%d accounts with at least %d moves analysed (%d with fewer not listed): the computer's top choice in %.1f%% of their %d moves\n\n",
		len(lines), minMoves, few, 100*pool, moves)
	width := len("account")
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l.Name))
	}
	fmt.Fprintf(w, "%-*s %6s %6s %6s %11s %6s\n", width, "account", "games", "moves", "top %", "lost a move", "z")
	marked := 0
	for _, l := range lines {
		mark := ""
		if l.z >= fairPlayZ {
			mark, marked = " *", marked+1
		}
		pad := width - utf8.RuneCountInString(l.Name)
		fmt.Fprintf(w, "%s%*s %6d %6d %6.1f %11.1f %+6.1f%s\n", l.Name, pad, "", l.Games, l.Analysed, 100*l.share, l.lostPerMove, l.z, mark)
	}
	fmt.Fprintf(w, "\n%d marked * (z of %d or more: the top choice far more often than the pool); look at their games before anything else\n", marked, fairPlayZ)
	return nil
}
