package server

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"atril/store"
)

// Ratings by pace. A rated game moves its players' ratings in its word
// list and its pace, named by its clock: a player's blitz and
// correspondence strengths are rated apart, as the sites where people
// play rated games do. A rating's category is "LEXICON/PACE"; categories
// of word lists alone come from before ratings were kept by pace, and a
// server starting on such a store rates the games again by pace
// (rerateByPace). Rated games against the computer move a rating of
// their own, of pace "computer", whatever the clock.

// The paces of rated play, fastest first, and the computer's.
const (
	PaceBlitz          = "blitz"
	PaceRapid          = "rapid"
	PaceRegular        = "regular"
	PaceCorrespondence = "correspondence"
	PaceComputer       = "computer"
)

// Paces are the paces of rated play, fastest first, then that of rated
// games against the computer.
var Paces = []string{PaceBlitz, PaceRapid, PaceRegular, PaceCorrespondence, PaceComputer}

// paceMoves is the increments a person's time for a game counts: about
// the moves a person makes in a game of two.
const paceMoves = 15

// paceBounds are the live paces by the time a person has for a game
// (the clock's seconds and paceMoves increments): under each bound its
// pace, regular past them all.
var paceBounds = []PaceInfo{{PaceBlitz, 8 * 60}, {PaceRapid, 20 * 60}}

// paceOf is the pace of a game whose people's seats have st's clock:
// correspondence for a time for each move, and by the time a person has
// for the game otherwise (regular for a game without a clock, which a
// rated game never is).
func paceOf(st store.Seat) string {
	if st.PerMove > 0 {
		return PaceCorrespondence
	}
	if st.Seconds == 0 {
		return PaceRegular
	}
	t := st.Seconds + paceMoves*st.Increment
	for _, b := range paceBounds {
		if t < b.UnderSeconds {
			return b.Name
		}
	}
	return PaceRegular
}

// clockPace is the pace of a game whose people's seats have clock c
// (nil: none).
func clockPace(c *ClockRequest) string {
	if c == nil {
		return paceOf(store.Seat{})
	}
	return paceOf(store.Seat{Seconds: c.Seconds, Increment: c.Increment, PerMove: c.PerMove})
}

// gamePace is the pace of a game with these seats: computer for a rated
// game against the computer, else that of its first person's seat
// (regular when none is known).
func gamePace(seats []store.Seat, rated bool) string {
	if rated && hasComputer(seats) {
		return PaceComputer
	}
	for _, st := range seats {
		if st.Level == "" {
			return paceOf(st)
		}
	}
	return PaceRegular
}

// hasComputer says whether one of the seats is the computer's.
func hasComputer(seats []store.Seat) bool {
	return slices.ContainsFunc(seats, func(st store.Seat) bool { return st.Level != "" })
}

// ratingCategory is the category of the ratings a game of this word
// list and these seats moves (or, not rated, of its record).
func ratingCategory(lexicon string, seats []store.Seat, rated bool) string {
	return category(lexicon, gamePace(seats, rated))
}

// category is the category of the ratings of a word list and a pace;
// splitCategory parts it again.
func category(lexicon, pace string) string { return lexicon + "/" + pace }

// splitCategory parts a rating's category into its word list and pace
// ("" in a category of a word list alone).
func splitCategory(c string) (lexicon, pace string) {
	lexicon, pace, _ = strings.Cut(c, "/")
	return lexicon, pace
}

// paceInfo lists the paces, with their bounds, for the page.
func paceInfo() []PaceInfo {
	out := make([]PaceInfo, len(Paces))
	for i, p := range Paces {
		out[i].Name = p
		for _, b := range paceBounds {
			if b.Name == p {
				out[i].UnderSeconds = b.UnderSeconds
			}
		}
	}
	return out
}

// validPace reports whether p names a pace.
func validPace(p string) bool { return slices.Contains(Paces, p) }

// paceParam reads a pace from the query parameter name of q: def when it
// is absent, a 400 when it names no pace.
func paceParam(q interface{ Get(string) string }, name, def string) (string, error) {
	p := q.Get(name)
	if p == "" {
		return def, nil
	}
	if !validPace(p) {
		return "", &apiError{400, fmt.Sprintf("%s=%s: want one of %s", name, short(p, 20), strings.Join(Paces, ", "))}
	}
	return p, nil
}

// rerateByPace moves the recorded games of categories of word lists
// alone (a store written before ratings were kept by pace) to their
// word lists' categories by pace, and works their players' ratings out
// again, game by game in the order they finished, as if they had always
// been kept by pace. It changes nothing on a store without such games.
func rerateByPace(ctx context.Context, st store.Store, logf func(string, ...any)) error {
	cats, err := st.RecordedCategories(ctx)
	if err != nil {
		return err
	}
	var old []string
	for _, c := range cats {
		if _, p := splitCategory(c); p == "" {
			old = append(old, c)
		}
	}
	if len(old) == 0 {
		return nil
	}
	n, err := st.Rerate(ctx, old, func(g *store.RatedGame, seats []store.Seat) string {
		lex, _ := splitCategory(g.Category)
		return ratingCategory(lex, seats, g.Rated)
	}, rateRecorded)
	if err != nil {
		return err
	}
	logf("server: ratings kept by pace: the recorded games of %s moved to their paces, %d rated games rated again", strings.Join(old, ", "), n)
	return nil
}
