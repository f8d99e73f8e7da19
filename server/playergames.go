package server

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"atril/player"
	"atril/store"
)

// A player's finished games, rated and casual (against people or the
// computer), beyond the latest ones of the profile: a list by pages,
// picked by kind, word list, pace and opponent, and what they add up to
// (won, lost, drawn, the average scores, the highest one), with the
// player's rating after each of the latest rated games of a word list
// and pace for a graph.

// PlayerGames is the answer of GET /api/players/{name}/games.
type PlayerGames struct {
	Games []RatedInfo `json:"games"`
	// More says whether older games follow; the next page is asked
	// for with before= the last game's ID.
	More bool `json:"more"`
}

// PlayerStats is the answer of GET /api/players/{name}/stats.
type PlayerStats struct {
	Lexicon  string `json:"lexicon,omitempty"`
	Pace     string `json:"pace,omitempty"`
	Opponent string `json:"opponent,omitempty"`
	// Level is the computer level the games were against, when asked.
	Level  string `json:"level,omitempty"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Losses int    `json:"losses"`
	Draws  int    `json:"draws"`
	// Average is the player's average score, OpponentAverage the
	// opponents' (over their seats), to one decimal.
	Average         float64 `json:"average"`
	OpponentAverage float64 `json:"opponent_average"`
	// High is the player's highest score (none without games).
	High *HighGame `json:"high,omitempty"`
	// Of the games whose play was recorded (PlayGames of them): the
	// player's points a turn (to one decimal) and bingos a game (to
	// two), and the best placement (its points in Score).
	PlayGames     int       `json:"play_games"`
	PerTurn       float64   `json:"points_per_turn,omitempty"`
	BingosPerGame float64   `json:"bingos_per_game"`
	Best          *HighGame `json:"best_move,omitempty"`
	// Of the games whose moves were analysed by static equity
	// (AnalysedGames of them, Analysed moves): the share of the moves
	// that were the computer's best, in percent, and the equity given up
	// a move against the best, each to one decimal.
	AnalysedGames int     `json:"analysed_games"`
	Analysed      int     `json:"analysed_moves"`
	TopShare      float64 `json:"top_share"`
	LostPerMove   float64 `json:"lost_per_move"`
	// Accuracy is how the player's moves fared in each of the latest
	// accuracyGames analysed games of the filter (among its latest
	// accuracyScan games), oldest first.
	Accuracy []AccuracyPoint `json:"accuracy,omitempty"`
	// History is the player's rating after each of the latest
	// historyGames rated games in the word list and pace, oldest first:
	// given with lexicon= and pace=, without opponent=.
	History []RatingPoint `json:"history,omitempty"`
}

// HighGame is a game of a player's highest score.
type HighGame struct {
	Score    int       `json:"score"`
	Game     string    `json:"game"`
	Finished time.Time `json:"finished"`
}

// RatingPoint is a player's rating after a game.
type RatingPoint struct {
	Game     string    `json:"game"`
	Finished time.Time `json:"finished"`
	Rating   int       `json:"rating"`
}

// AccuracyPoint is how a player's moves fared in one analysed game: the
// moves judged, how many were the computer's top choice and their share
// (in percent, to one decimal), and the equity given up in all (to one
// decimal) and a move (to two).
type AccuracyPoint struct {
	Game        string    `json:"game"`
	Finished    time.Time `json:"finished"`
	Moves       int       `json:"moves"`
	TopMoves    int       `json:"top_moves"`
	TopShare    float64   `json:"top_share"`
	Lost        float64   `json:"lost"`
	LostPerMove float64   `json:"lost_per_move"`
}

// The length of an accuracy history, and how many of the latest games
// are looked through for it.
const (
	accuracyGames = 50
	accuracyScan  = 200
)

// Bounds of a page of games, and the length of a rating history.
const (
	defaultGamesPage = 20
	maxGamesPage     = 100
	historyGames     = 200
)

// playerFilter reads the filter of a player's games from the query:
// kind= (all, the default; rated; casual), lexicon= (a word list offered
// here), pace= (blitz, rapid, regular or correspondence; with lexicon=),
// opponent= (another player's name) or level= (a computer level: the
// games against it) and, when paged, before= (the ID of
// the last game of the page before, one of the player's rated games).
// It returns the filter and the category it picks alone ("" for none or
// several).
func (s *Server) playerFilter(r *http.Request, a *store.Account, paged bool) (store.RatedFilter, string, error) {
	q := r.URL.Query()
	var f store.RatedFilter
	one := ""
	switch k := q.Get("kind"); k {
	case "", "all":
	case string(store.KindRated), string(store.KindCasual):
		f.Kind = store.Kind(k)
	default:
		return f, "", &apiError{400, fmt.Sprintf("kind=%s: want all, rated or casual", short(k, 20))}
	}
	if lex := q.Get("lexicon"); lex != "" {
		if !s.offers(lex) {
			return f, "", &apiError{400, fmt.Sprintf("word list %q is not offered here", short(lex, 40))}
		}
		pace, err := paceParam(q, "pace", "")
		if err != nil {
			return f, "", err
		}
		if pace != "" {
			one = category(lex, pace)
			f.Categories = []string{one}
		} else {
			for _, p := range Paces {
				f.Categories = append(f.Categories, category(lex, p))
			}
		}
	} else if q.Get("pace") != "" {
		return f, "", &apiError{400, "pace= goes with lexicon="}
	}
	if name := q.Get("opponent"); name != "" {
		o, err := s.accountNamed(r.Context(), name)
		if err != nil {
			return f, "", err
		}
		f.Opponent = o.Key
	}
	if lv := q.Get("level"); lv != "" {
		if f.Opponent != "" {
			return f, "", &apiError{400, "give opponent= or level=, not both"}
		}
		if !slices.Contains(player.Levels(), lv) {
			return f, "", &apiError{400, fmt.Sprintf("level=%s: want one of %s", short(lv, 20), strings.Join(player.Levels(), ", "))}
		}
		f.Level = lv
	}
	if id := q.Get("before"); paged && id != "" {
		g, err := s.store.RatedGame(r.Context(), id)
		if errors.Is(err, store.ErrNotFound) || err == nil && ratedSeat(g, a.Key) == nil {
			return f, "", &apiError{400, fmt.Sprintf("before=%s: not a finished game of %s", short(id, 40), a.Name)}
		}
		if err != nil {
			return f, "", err
		}
		f.Before = &store.RatedCursor{Finished: g.Finished, Game: g.Game}
	}
	return f, one, nil
}

// ratedSeat is the seat of g held by the account of key (nil: none).
func ratedSeat(g *store.RatedGame, key string) *store.RatedSeat {
	for i := range g.Seats {
		if g.Seats[i].Account == key {
			return &g.Seats[i]
		}
	}
	return nil
}

// offers reports whether the server offers the word list lex.
func (s *Server) offers(lex string) bool {
	for _, v := range s.info().Variants {
		for _, l := range v.Lexicons {
			if l == lex {
				return true
			}
		}
	}
	return false
}

func (s *Server) handlePlayerGames(w http.ResponseWriter, r *http.Request) {
	a, err := s.playerNamed(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, err)
		return
	}
	n, err := queryInt(r.URL.Query(), "n", defaultGamesPage, 1, maxGamesPage)
	if err != nil {
		s.fail(w, err)
		return
	}
	f, _, err := s.playerFilter(r, a, true)
	if err != nil {
		s.fail(w, err)
		return
	}
	games, err := s.store.RatedGames(r.Context(), a.Key, f, n+1)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := PlayerGames{Games: []RatedInfo{}, More: len(games) > n}
	for i := range games[:min(n, len(games))] {
		out.Games = append(out.Games, ratedInfo(&games[i]))
	}
	writeJSON(w, 200, out)
}

func (s *Server) handlePlayerStats(w http.ResponseWriter, r *http.Request) {
	a, err := s.playerNamed(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, err)
		return
	}
	f, one, err := s.playerFilter(r, a, false)
	if err != nil {
		s.fail(w, err)
		return
	}
	t, err := s.store.RatedTotals(r.Context(), a.Key, f)
	if err != nil {
		s.fail(w, err)
		return
	}
	q := r.URL.Query()
	out := PlayerStats{Lexicon: q.Get("lexicon"), Pace: q.Get("pace"), Opponent: q.Get("opponent"), Level: f.Level,
		Games: t.Games, Wins: t.Wins, Losses: t.Losses, Draws: t.Draws}
	if t.Games > 0 {
		out.Average = tenths(float64(t.Points) / float64(t.Games))
		out.High = &HighGame{Score: t.High, Game: t.HighGame, Finished: t.HighFinished}
	}
	if t.PlayGames > 0 {
		out.PlayGames = t.PlayGames
		out.BingosPerGame = math.Round(100*float64(t.Bingos)/float64(t.PlayGames)) / 100
		out.Best = &HighGame{Score: t.Best, Game: t.BestGame, Finished: t.BestFinished}
		if t.Turns > 0 {
			out.PerTurn = tenths(float64(t.PlayPoints) / float64(t.Turns))
		}
	}
	// The latest games of the filter, read for the accuracy graph and
	// kept for the rating graph when that reads the same.
	var latest []store.RatedGame
	if t.Analysed > 0 {
		out.AnalysedGames, out.Analysed = t.AnalysedGames, t.Analysed
		out.TopShare = tenths(100 * float64(t.TopMoves) / float64(t.Analysed))
		out.LostPerMove = tenths(t.Lost / float64(t.Analysed))
		if latest, err = s.store.RatedGames(r.Context(), a.Key, f, accuracyScan); err != nil {
			s.fail(w, err)
			return
		}
		out.Accuracy = accuracyHistory(latest, a.Key)
	}
	if t.OpponentSeats > 0 {
		out.OpponentAverage = tenths(float64(t.OpponentPoints) / float64(t.OpponentSeats))
	}
	if one != "" && f.Opponent == "" && f.Kind != store.KindCasual && t.Games > 0 {
		games := latest
		if f.Kind != store.KindRated || latest == nil || historyGames != accuracyScan {
			f.Kind = store.KindRated
			if games, err = s.store.RatedGames(r.Context(), a.Key, f, historyGames); err != nil {
				s.fail(w, err)
				return
			}
		}
		out.History = make([]RatingPoint, 0, len(games))
		for i := len(games) - 1; i >= 0; i-- {
			g := &games[i]
			if st := ratedSeat(g, a.Key); st != nil {
				out.History = append(out.History, RatingPoint{Game: g.Game, Finished: g.Finished, Rating: roundInt(st.RAfter)})
			}
		}
	}
	writeJSON(w, 200, out)
}

// accuracyHistory is the accuracy of the account's seat in the latest
// accuracyGames analysed games of games (newest first), oldest first.
func accuracyHistory(games []store.RatedGame, key string) []AccuracyPoint {
	var out []AccuracyPoint
	for i := range games {
		g := &games[i]
		if st := ratedSeat(g, key); st != nil && st.Analysed > 0 {
			out = append(out, AccuracyPoint{Game: g.Game, Finished: g.Finished, Moves: st.Analysed, TopMoves: st.TopMoves,
				TopShare: tenths(100 * float64(st.TopMoves) / float64(st.Analysed)), Lost: tenths(st.Lost),
				LostPerMove: math.Round(100*st.Lost/float64(st.Analysed)) / 100})
			if len(out) == accuracyGames {
				break
			}
		}
	}
	slices.Reverse(out)
	return out
}

// tenths rounds x to one decimal.
func tenths(x float64) float64 { return float64(roundInt(x*10)) / 10 }
