package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	"atril/store"
	"atril/tournament"
)

// Tournaments: a signed-in player (the director) announces a tournament
// of one game, word list, clock and challenge rule, Swiss or a round
// robin; signed-in players register until the director starts it. Each
// round's games are made at once, each seat kept for its player's
// account as an invitation is (the games show in the players' "My
// games"); when a round's last game ends the next round is paired, and
// after the last round the tournament is over. Results count as in club
// play (package tournament): wins, then spread; a bye, or a game the
// opponent never came to or called off, is a win by 50. A player may
// withdraw, or be withdrawn by the director, after the start: the game
// being played goes on, and the player is in no later Swiss round (a
// round robin's later games with the player are forfeits); a Swiss
// tournament with fewer than two players left ends with its round.
//
// A tournament's whole state is one JSON document in the store, written
// under a version check, so processes sharing a store take turns. A
// game's end records its result before the game is marked finished (a
// restart rebuilds an unfinished game and records it then), and the
// sweeper looks over the tournaments being played every minute, making
// a round's games that a crash left unmade and recording the results of
// games that ended meanwhile.

// Bounds of a tournament.
const (
	maxTournamentPlayers = 64
	maxTournamentRounds  = 20
	// maxDirecting bounds the tournaments not yet over that one account
	// directs.
	maxDirecting = 3
)

// TournamentRequest is the body of POST /api/tournaments, and the
// settings of a tournament as stored and shown.
type TournamentRequest struct {
	Name      string        `json:"name"`
	Variant   string        `json:"variant"`
	Lexicon   string        `json:"lexicon"`
	Clock     *ClockRequest `json:"clock"`
	Challenge string        `json:"challenge,omitempty"`
	Rated     bool          `json:"rated,omitempty"`
	// Format is "swiss" (the default) or "round-robin".
	Format string `json:"format"`
	// Rounds is the number of rounds of a Swiss tournament (a round
	// robin has as many as it needs, known once it starts).
	Rounds     int `json:"rounds"`
	MaxPlayers int `json:"max_players"`
}

// tournamentDoc is a tournament's state as stored.
type tournamentDoc struct {
	TournamentRequest
	Director    string `json:"director"`
	DirectorKey string `json:"director_key"`
	// State is "registering", "playing", "over" or "cancelled".
	State   string    `json:"state"`
	Players []tPlayer `json:"players"`
	// Played holds the rounds paired so far.
	Played  [][]tGame `json:"played,omitempty"`
	Created time.Time `json:"created"`
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`
}

// tPlayer is a registered player.
type tPlayer struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	// Left is set when the player withdrew after the start: the number
	// of rounds paired then. The player is in no later round (a round
	// robin's games with the player are forfeits), and a game of the
	// round being played goes on.
	Left int `json:"left,omitempty"`
}

// tGame is one game of a round, by its players' numbers (Second is
// tournament.Bye for a bye), and once done its result.
type tGame struct {
	Game   string `json:"game,omitempty"`
	First  int    `json:"first"`
	Second int    `json:"second"`
	Done   bool   `json:"done,omitempty"`
	// How is "played", "forfeit" or "bye".
	How    string     `json:"how,omitempty"`
	Score  [2]int     `json:"score"`
	Wins   [2]float64 `json:"wins"`
	Spread [2]int     `json:"spread"`
}

// result is g's result for the standings.
func (g tGame) result() tournament.Result {
	return tournament.Result{Pairing: tournament.Pairing{First: g.First, Second: g.Second}, Wins: g.Wins, Spread: g.Spread, Unplayed: g.How == "forfeit"}
}

// results are the results of the rounds whose games are all done.
func (d *tournamentDoc) results() [][]tournament.Result {
	var out [][]tournament.Result
	for _, round := range d.Played {
		var rs []tournament.Result
		for _, g := range round {
			if !g.Done {
				return out
			}
			rs = append(rs, g.result())
		}
		out = append(out, rs)
	}
	return out
}

// roundDone reports whether every game of the latest round is done.
func (d *tournamentDoc) roundDone() bool {
	if len(d.Played) == 0 {
		return false
	}
	for _, g := range d.Played[len(d.Played)-1] {
		if !g.Done {
			return false
		}
	}
	return true
}

// withdrawn says which players have withdrawn.
func (d *tournamentDoc) withdrawn() []bool {
	out := make([]bool, len(d.Players))
	for i, p := range d.Players {
		out[i] = p.Left > 0
	}
	return out
}

// pairNext pairs the next round (the rounds before it done), with new
// game ids; a bye, and in a round robin a game with a player who has
// withdrawn (a forfeit), is done at once, and the bye of a player who
// has withdrawn is left out. A Swiss round pairs only the players still
// in.
func (d *tournamentDoc) pairNext() {
	n, done, gone := len(d.Players), d.results(), d.withdrawn()
	var ps []tournament.Pairing
	if d.Format == "round-robin" {
		ps = tournament.RoundRobin(n, len(d.Played))
	} else {
		ps = tournament.SwissAmong(n, done, gone)
	}
	round := make([]tGame, 0, len(ps))
	for _, p := range ps {
		g := tGame{First: p.First, Second: p.Second}
		switch {
		case p.Second == tournament.Bye && gone[p.First]:
			// A round robin's bye of a player who has withdrawn: the
			// player is in no later round, so no win by a bye.
			continue
		case p.Second == tournament.Bye:
			r := tournament.Forfeit(p, false, true)
			g.Done, g.How, g.Wins, g.Spread = true, "bye", r.Wins, r.Spread
		case gone[p.First] || gone[p.Second]:
			r := tournament.Forfeit(p, gone[p.First], gone[p.Second])
			g.Done, g.How, g.Wins, g.Spread = true, "forfeit", r.Wins, r.Spread
		default:
			g.Game = randomHex(8)
		}
		round = append(round, g)
	}
	d.Played = append(d.Played, round)
}

// advance pairs the next round while the latest is done (byes and
// forfeits only finish a round at once), or ends the tournament after
// its last, or when fewer than two players are left in a Swiss one.
func (d *tournamentDoc) advance(now time.Time) {
	for d.State == "playing" && d.roundDone() {
		in := len(d.Players) - d.left()
		if len(d.Played) >= d.Rounds || d.Format != "round-robin" && in < 2 {
			d.State, d.Ended = "over", now
			return
		}
		d.pairNext()
	}
}

// left counts the players who have withdrawn.
func (d *tournamentDoc) left() int {
	n := 0
	for _, p := range d.Players {
		if p.Left > 0 {
			n++
		}
	}
	return n
}

// TournamentRef is a game's place in a tournament, as its header keeps
// it.
type TournamentRef struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Round int    `json:"round"` // from 1
}

// errUnchanged tells updateTournament that there is nothing to write.
var errUnchanged = errors.New("unchanged")

// loadTournament reads a tournament from the store.
func (s *Server) loadTournament(ctx context.Context, id string) (*tournamentDoc, int, error) {
	if !validID(id) {
		return nil, 0, &apiError{404, "no such tournament"}
	}
	t, err := s.store.Tournament(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, &apiError{404, "no such tournament"}
	}
	if err != nil {
		return nil, 0, err
	}
	var d tournamentDoc
	if err := json.Unmarshal([]byte(t.Data), &d); err != nil {
		return nil, 0, fmt.Errorf("tournament %s: %w", id, err)
	}
	return &d, t.Version, nil
}

// updateTournament applies fn to tournament id and writes it back if its
// version is still the one read, reading again and reapplying fn when
// another writer got there first. fn returns errUnchanged when there is
// nothing to write (then so does updateTournament, with the document).
func (s *Server) updateTournament(ctx context.Context, id string, fn func(d *tournamentDoc) error) (*tournamentDoc, error) {
	for try := 0; ; try++ {
		d, version, err := s.loadTournament(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := fn(d); err != nil {
			return d, err
		}
		data, err := json.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("tournament %s: %w", id, err)
		}
		over := d.State == "over" || d.State == "cancelled"
		_, err = s.store.UpdateTournament(ctx, id, version, string(data), over, time.Now().UTC())
		if errors.Is(err, store.ErrConflict) && try < 20 {
			continue
		}
		return d, err
	}
}

// decodeTournament reads and checks a new tournament.
func (s *Server) decodeTournament(data []byte) (*TournamentRequest, error) {
	var req TournamentRequest
	if err := decodeJSON(data, &req); err != nil {
		return nil, err
	}
	name, err := cleanText(req.Name, "name", 40)
	if err != nil {
		return nil, &apiError{400, err.Error()}
	}
	if len([]rune(name)) < 3 {
		return nil, &apiError{400, "a tournament's name has 3 to 40 characters"}
	}
	req.Name = name
	if req.Clock == nil {
		// Without one, a game could wait for ever and hold up its round.
		return nil, &apiError{400, "a tournament's games have a clock"}
	}
	game := s.tournamentGame(&req, [2]tPlayer{{Name: "a"}, {Name: "b"}}, "")
	if err := s.checkCreate(game); err != nil {
		return nil, err
	}
	req.Variant, req.Lexicon, req.Challenge = game.Variant, game.Lexicon, game.Challenge
	switch req.Format {
	case "", "swiss":
		req.Format = "swiss"
		if req.Rounds == 0 {
			req.Rounds = 5
		}
		if req.Rounds < 1 || req.Rounds > maxTournamentRounds {
			return nil, &apiError{400, fmt.Sprintf("%d rounds: give 1 to %d", req.Rounds, maxTournamentRounds)}
		}
	case "round-robin":
		if req.Rounds != 0 {
			return nil, &apiError{400, "a round robin has as many rounds as its players need: give no rounds"}
		}
	default:
		return nil, &apiError{400, fmt.Sprintf("format %q: want \"swiss\" or \"round-robin\"", short(req.Format, 40))}
	}
	if req.MaxPlayers == 0 {
		req.MaxPlayers = 16
	}
	most := maxTournamentPlayers
	if req.Format == "round-robin" {
		// As many rounds as a Swiss tournament may have at most.
		most = maxTournamentRounds + 1
	}
	if req.MaxPlayers < 2 || req.MaxPlayers > most {
		return nil, &apiError{400, fmt.Sprintf("%d players at most: give 2 to %d", req.MaxPlayers, most)}
	}
	return &req, nil
}

// tournamentGame is the creation of a game of tournament req between
// two players (each seat kept for the player's account), invited by
// the director.
func (s *Server) tournamentGame(req *TournamentRequest, p [2]tPlayer, director string) *createRequest {
	g := &createRequest{Variant: req.Variant, Lexicon: req.Lexicon, Challenge: req.Challenge, Rated: req.Rated}
	if req.Clock != nil {
		c := *req.Clock
		g.Clock = &c
	}
	for _, pl := range p {
		g.Seats = append(g.Seats, SeatRequest{Kind: "human", Name: pl.Name, Invite: pl.Name, inviteKey: pl.Key, invitedBy: director})
	}
	return g
}

func (s *Server) handleCreateTournament(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.createLim, "new games")
	if !ok {
		return
	}
	req, err := s.decodeTournament(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	me, err := s.requireSignIn(r, "sign in to direct a tournament")
	if err != nil {
		s.fail(w, err)
		return
	}
	now := time.Now().UTC()
	d := tournamentDoc{TournamentRequest: *req, Director: me.Name, DirectorKey: me.Key, State: "registering", Created: now}
	body, err := json.Marshal(&d)
	if err != nil {
		s.fail(w, err)
		return
	}
	id := randomHex(8)
	// The tournaments not over that me directs are counted in the
	// store's write, so that creations sent at once cannot all pass.
	directs := func(t *store.Tournament) bool {
		var d tournamentDoc
		return json.Unmarshal([]byte(t.Data), &d) == nil && d.DirectorKey == me.Key
	}
	lim := store.TournamentLimit{Account: me.Key, Max: maxDirecting, Holds: directs}
	if err := s.store.CreateTournament(r.Context(), &store.Tournament{ID: id, Data: string(body), Created: now, Updated: now}, lim); err != nil {
		var le *store.LimitError
		if errors.As(err, &le) {
			err = &apiError{409, fmt.Sprintf("you direct %d tournaments not over yet; that is as many as one may", le.Have)}
		}
		s.fail(w, err)
		return
	}
	s.logf("tournament %s %q created by %s", id, d.Name, me.Name)
	writeJSON(w, 201, map[string]string{"id": id})
}

// TournamentInfo is a tournament as GET /api/tournaments/{id} shows it.
type TournamentInfo struct {
	ID string `json:"id"`
	TournamentRequest
	Director string `json:"director"`
	// State is "registering", "playing", "over" or "cancelled".
	State   string    `json:"state"`
	Created time.Time `json:"created"`
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`
	// Players are the registered players' names, in the order of
	// registration until the start, then in the order ties are broken.
	Players []string `json:"players"`
	// Withdrawn are the players who withdrew after the start.
	Withdrawn []string `json:"withdrawn,omitempty"`
	// Standings rank the players by the rounds finished.
	Standings []StandingInfo `json:"standings,omitempty"`
	// Pairings are the rounds paired so far, the latest last.
	Pairings [][]PairingInfo `json:"pairings,omitempty"`
	// You says what the signed-in account is to the tournament.
	You *TournamentYou `json:"you,omitempty"`
}

// StandingInfo is a player's line of the standings.
type StandingInfo struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	Wins   float64 `json:"wins"`
	Losses float64 `json:"losses"`
	Spread int     `json:"spread"`
	Games  int     `json:"games"`
	Byes   int     `json:"byes,omitempty"`
	// Withdrawn is set for a player who withdrew after the start.
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// PairingInfo is a game of a round: its players (Second empty for a
// bye), the game, and once done how it ended and the final scores.
type PairingInfo struct {
	Game   string     `json:"game,omitempty"`
	First  string     `json:"first"`
	Second string     `json:"second,omitempty"`
	Done   bool       `json:"done,omitempty"`
	How    string     `json:"how,omitempty"`
	Score  [2]int     `json:"score"`
	Wins   [2]float64 `json:"wins"`
}

// TournamentYou is the signed-in account's part in a tournament: whether
// it directs it or has registered, and its game of the current round.
type TournamentYou struct {
	Director   bool `json:"director,omitempty"`
	Registered bool `json:"registered,omitempty"`
	// Withdrawn is set once the account has withdrawn after the start.
	Withdrawn bool   `json:"withdrawn,omitempty"`
	Game      string `json:"game,omitempty"`
}

// info is d as shown to the account me (nil: signed out).
func (d *tournamentDoc) info(id string, me *store.Account) *TournamentInfo {
	t := &TournamentInfo{ID: id, TournamentRequest: d.TournamentRequest, Director: d.Director, State: d.State,
		Created: d.Created, Started: d.Started, Ended: d.Ended, Players: []string{}}
	for _, p := range d.Players {
		t.Players = append(t.Players, p.Name)
		if p.Left > 0 {
			t.Withdrawn = append(t.Withdrawn, p.Name)
		}
	}
	name := func(i int) string {
		if i < 0 || i >= len(d.Players) {
			return ""
		}
		return d.Players[i].Name
	}
	if len(d.Played) > 0 {
		for k, s := range tournament.Standings(len(d.Players), d.results()) {
			t.Standings = append(t.Standings, StandingInfo{Rank: k + 1, Name: name(s.Player), Wins: s.Wins, Losses: s.Losses,
				Spread: s.Spread, Games: s.Games, Byes: s.Byes, Withdrawn: d.Players[s.Player].Left > 0})
		}
	}
	for _, round := range d.Played {
		var ps []PairingInfo
		for _, g := range round {
			ps = append(ps, PairingInfo{Game: g.Game, First: name(g.First), Second: name(g.Second), Done: g.Done, How: g.How, Score: g.Score, Wins: g.Wins})
		}
		t.Pairings = append(t.Pairings, ps)
	}
	if me != nil {
		you := &TournamentYou{Director: me.Key == d.DirectorKey}
		if i := d.player(me.Key); i >= 0 {
			you.Registered, you.Withdrawn = true, d.Players[i].Left > 0
			if n := len(d.Played); n > 0 && d.State == "playing" {
				for _, g := range d.Played[n-1] {
					if (g.First == i || g.Second == i) && g.Game != "" {
						you.Game = g.Game
					}
				}
			}
		}
		t.You = you
	}
	return t
}

// player is the number of the player of account key (-1: none).
func (d *tournamentDoc) player(key string) int {
	return slices.IndexFunc(d.Players, func(p tPlayer) bool { return p.Key == key })
}

func (s *Server) handleTournament(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	d, _, err := s.loadTournament(r.Context(), id)
	if err != nil {
		s.fail(w, err)
		return
	}
	me, err := s.signedIn(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, d.info(id, me))
}

// TournamentList is the answer of GET /api/tournaments.
type TournamentList struct {
	// Open are the tournaments not over, newest first; Over the latest
	// finished or cancelled.
	Open []TournamentInfo `json:"open"`
	Over []TournamentInfo `json:"over"`
}

func (s *Server) handleTournaments(w http.ResponseWriter, r *http.Request) {
	open, over, err := s.store.ListTournaments(r.Context(), 30)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := TournamentList{Open: []TournamentInfo{}, Over: []TournamentInfo{}}
	for _, list := range []struct {
		ts  []store.Tournament
		out *[]TournamentInfo
	}{{open, &out.Open}, {over, &out.Over}} {
		for _, t := range list.ts {
			var d tournamentDoc
			if err := json.Unmarshal([]byte(t.Data), &d); err != nil {
				s.logf("tournament %s: %v", t.ID, err)
				continue
			}
			info := d.info(t.ID, nil)
			info.Pairings, info.Standings = nil, nil
			*list.out = append(*list.out, *info)
		}
	}
	writeJSON(w, 200, out)
}

// tournamentAction runs the request of a signed-in account to change
// tournament id (fn says why not with an apiError), answers the
// tournament as it is then, and makes the games of a round just paired.
func (s *Server) tournamentAction(w http.ResponseWriter, r *http.Request, why string, fn func(d *tournamentDoc, me *store.Account, body []byte) error) {
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return
	}
	me, err := s.requireSignIn(r, why)
	if err != nil {
		s.fail(w, err)
		return
	}
	id := r.PathValue("id")
	rounds := 0
	d, err := s.updateTournament(r.Context(), id, func(d *tournamentDoc) error {
		rounds = len(d.Played)
		return fn(d, me, body)
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		s.fail(w, err)
		return
	}
	if len(d.Played) > rounds {
		s.makeRound(id, d)
	}
	writeJSON(w, 200, d.info(id, me))
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	s.tournamentAction(w, r, "sign in to register", func(d *tournamentDoc, me *store.Account, _ []byte) error {
		switch {
		case d.player(me.Key) >= 0:
			return errUnchanged
		case d.State != "registering":
			return &apiError{409, "the tournament takes no more players: it is " + d.State}
		case len(d.Players) >= d.MaxPlayers:
			return &apiError{409, fmt.Sprintf("the tournament is full (%d players)", d.MaxPlayers)}
		}
		d.Players = append(d.Players, tPlayer{Key: me.Key, Name: me.Name})
		return nil
	})
}

// WithdrawRequest is the body of POST /api/tournaments/{id}/withdraw:
// empty to withdraw oneself, or the director naming a player to
// withdraw.
type WithdrawRequest struct {
	Player string `json:"player,omitempty"`
}

// handleWithdraw takes a player out of a tournament: before the start
// off the list, after it out of the rounds still to be paired (the game
// of the round being played goes on).
func (s *Server) handleWithdraw(w http.ResponseWriter, r *http.Request) {
	s.tournamentAction(w, r, "sign in to withdraw", func(d *tournamentDoc, me *store.Account, body []byte) error {
		var req WithdrawRequest
		if len(bytes.TrimSpace(body)) > 0 {
			if err := decodeJSON(body, &req); err != nil {
				return err
			}
		}
		i := d.player(me.Key)
		if req.Player != "" {
			if me.Key != d.DirectorKey {
				return &apiError{403, "only the director withdraws another player"}
			}
			i = slices.IndexFunc(d.Players, func(p tPlayer) bool { return strings.EqualFold(p.Name, req.Player) })
			if i < 0 {
				return &apiError{404, fmt.Sprintf("%q is not a player of the tournament", short(req.Player, 40))}
			}
		}
		switch {
		case i < 0 || d.Players[i].Left > 0:
			return errUnchanged
		case d.State == "registering":
			d.Players = slices.Delete(d.Players, i, i+1)
		case d.State == "playing":
			d.Players[i].Left = len(d.Played)
		default:
			return &apiError{409, "the tournament is " + d.State}
		}
		return nil
	})
}

func (s *Server) handleStartTournament(w http.ResponseWriter, r *http.Request) {
	s.tournamentAction(w, r, "sign in as the director", func(d *tournamentDoc, me *store.Account, _ []byte) error {
		switch {
		case me.Key != d.DirectorKey:
			return &apiError{403, "only the director starts the tournament"}
		case d.State != "registering":
			return &apiError{409, "the tournament is " + d.State}
		case len(d.Players) < 2:
			return &apiError{409, "a tournament needs at least two players"}
		}
		// Ties the results leave are broken in an order drawn now.
		rand.Shuffle(len(d.Players), func(i, j int) { d.Players[i], d.Players[j] = d.Players[j], d.Players[i] })
		if d.Format == "round-robin" {
			d.Rounds = tournament.RoundRobinRounds(len(d.Players))
		}
		d.State, d.Started = "playing", time.Now().UTC()
		d.pairNext()
		d.advance(d.Started)
		return nil
	})
}

func (s *Server) handleCancelTournament(w http.ResponseWriter, r *http.Request) {
	s.tournamentAction(w, r, "sign in as the director", func(d *tournamentDoc, me *store.Account, _ []byte) error {
		if me.Key != d.DirectorKey {
			return &apiError{403, "only the director cancels the tournament"}
		}
		if d.State != "registering" && d.State != "playing" {
			return &apiError{409, "the tournament is " + d.State}
		}
		// Games being played go on, as games outside it.
		d.State, d.Ended = "cancelled", time.Now().UTC()
		return nil
	})
}

// DefaultTournamentRegistration is how long a tournament takes
// registrations before it is cancelled unstarted.
const DefaultTournamentRegistration = 30 * 24 * time.Hour

// registrationOver says whether tournament d has taken registrations for
// longer than cfg.TournamentRegistration.
func (s *Server) registrationOver(d *tournamentDoc, now time.Time) bool {
	return s.cfg.TournamentRegistration > 0 && now.Sub(d.Created) > s.cfg.TournamentRegistration
}

// cancelUnstarted cancels tournament id if it still takes registrations
// past their time.
func (s *Server) cancelUnstarted(id string) {
	_, err := s.updateTournament(s.ctx, id, func(d *tournamentDoc) error {
		now := time.Now().UTC()
		if d.State != "registering" || !s.registrationOver(d, now) {
			return errUnchanged
		}
		d.State, d.Ended = "cancelled", now
		return nil
	})
	if err != nil && !errors.Is(err, errUnchanged) {
		s.logf("server: tournament %s: cancel unstarted: %v", id, err)
	}
}

// makeRound makes the games of d's latest round that are not made yet,
// in the background (a game may already exist: made by another process,
// or before a crash).
func (s *Server) makeRound(id string, d *tournamentDoc) {
	if len(d.Played) == 0 || d.State != "playing" || s.closing() {
		return
	}
	round := len(d.Played)
	games := slices.Clone(d.Played[round-1])
	req := d.TournamentRequest // a copy: the goroutine outlives the call
	ref := TournamentRef{ID: id, Name: d.Name, Round: round}
	players, director := slices.Clone(d.Players), d.Director
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for _, g := range games {
			if g.Game == "" || g.Done {
				continue
			}
			s.mu.Lock()
			_, in := s.games[g.Game]
			s.mu.Unlock()
			if in {
				continue
			}
			cr := s.tournamentGame(&req, [2]tPlayer{players[g.First], players[g.Second]}, director)
			cr.tournament = &ref
			_, err := s.createAs(s.ctx, cr, g.Game)
			switch {
			case err == nil:
				// Made here, not by another process: its players are told.
				s.pushRound(ref, [2]tPlayer{players[g.First], players[g.Second]}, g.Game)
			case !errors.Is(err, store.ErrConflict) && s.ctx.Err() == nil:
				s.logf("tournament %s: make game %s: %v", id, g.Game, err)
			}
		}
	}()
}

// tournamentResult is the result of a finished tournament game. A game
// that ended without being played is a forfeit: of the seat that called
// it off or declined it, or else of the seats never taken (of both when
// both were taken); so is one resigned or lost on time before any word
// was played. A game won by resignation or on time later counts the
// scores, but as a win by one point at least. Caller holds mu.
func (l *live) tournamentResult() tGame {
	var g tGame
	if l.abandoned || l.g.Aborted() {
		g.How = "forfeit"
		var absent [2]bool
		for i := range 2 {
			if l.calledOffBy > 0 {
				absent[i] = l.calledOffBy == i+1
			} else {
				absent[i] = !l.seat[i].taken
			}
		}
		if !absent[0] && !absent[1] {
			// Abandoned with both seats taken: both lose.
			absent = [2]bool{true, true}
		}
		r := tournament.Forfeit(tournament.Pairing{}, absent[0], absent[1])
		g.Wins, g.Spread = r.Wins, r.Spread
		return g
	}
	winners := l.g.Winners()
	decided := l.g.TimedOut() >= 0 || l.g.Resigned() >= 0
	if decided && l.lastPlayed() < 0 {
		// Resigned or out of time before any word was played: as a
		// forfeit, so that joining to resign at once costs what staying
		// away costs.
		g.How = "forfeit"
		r := tournament.Forfeit(tournament.Pairing{}, !slices.Contains(winners, 0), !slices.Contains(winners, 1))
		g.Wins, g.Spread = r.Wins, r.Spread
		return g
	}
	g.How = "played"
	g.Score = [2]int{l.g.Seats[0].Score, l.g.Seats[1].Score}
	g.Spread = [2]int{g.Score[0] - g.Score[1], g.Score[1] - g.Score[0]}
	for i := range 2 {
		if slices.Contains(winners, i) {
			g.Wins[i] = 1 / float64(len(winners))
		}
	}
	if decided && len(winners) == 1 {
		// Won by resignation or on time: by the scores, but by one point
		// at least, the loser's lead not counting.
		w := winners[0]
		if g.Spread[w] < 1 {
			g.Spread[w], g.Spread[1-w] = 1, -1
		}
	}
	return g
}

// recordTournament records the result of l, a finished game of a
// tournament, in the tournament (once: a second call changes nothing),
// and makes the next round's games if it finished a round. Caller holds
// mu.
func (l *live) recordTournament() error {
	if l.tournament == nil || !l.over() {
		return nil
	}
	res, ref := l.tournamentResult(), *l.tournament
	return l.srv.recordResult(ref, l.hdr.ID, res)
}

// recordResult records the result of game id in tournament ref.
func (s *Server) recordResult(ref TournamentRef, id string, res tGame) error {
	ctx, cancel := context.WithTimeout(context.Background(), rateTimeout)
	defer cancel()
	rounds := 0
	d, err := s.updateTournament(ctx, ref.ID, func(d *tournamentDoc) error {
		rounds = len(d.Played)
		if ref.Round > len(d.Played) || d.State != "playing" {
			return errUnchanged
		}
		round := d.Played[ref.Round-1]
		k := slices.IndexFunc(round, func(g tGame) bool { return g.Game == id })
		if k < 0 || round[k].Done {
			return errUnchanged
		}
		g := &round[k]
		g.Done, g.How, g.Score, g.Wins, g.Spread = true, res.How, res.Score, res.Wins, res.Spread
		d.advance(time.Now().UTC())
		return nil
	})
	if errors.Is(err, errUnchanged) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tournament %s: record game %s: %w", ref.ID, id, err)
	}
	if len(d.Played) > rounds {
		s.makeRound(ref.ID, d)
	}
	return nil
}

// sweepTournaments looks over the tournaments being played: it makes the
// games of their latest round that are missing and records the results
// of those that ended without being recorded.
func (s *Server) sweepTournaments() {
	err := s.eachOpenTournament(s.ctx, func(id string, d *tournamentDoc) {
		if d.State == "registering" && s.registrationOver(d, time.Now()) {
			s.cancelUnstarted(id)
			return
		}
		if d.State != "playing" || len(d.Played) == 0 {
			return
		}
		s.makeRound(id, d)
		for _, g := range d.Played[len(d.Played)-1] {
			if g.Done || g.Game == "" {
				continue
			}
			l, err := s.game(s.ctx, g.Game)
			if err != nil {
				continue
			}
			l.mu.Lock()
			var res tGame
			over := l.over() && l.tournament != nil
			if over && !l.hdr.Finished {
				// Records the result, then marks the game finished.
				l.afterChange()
				over = false
			} else if over {
				res = l.tournamentResult()
			}
			l.mu.Unlock()
			if over {
				if err := s.recordResult(TournamentRef{ID: id, Round: len(d.Played)}, g.Game, res); err != nil {
					s.logf("server: %v", err)
				}
			}
		}
	})
	if err != nil && s.ctx.Err() == nil {
		s.logf("server: tournaments: %v", err)
	}
}

// eachOpenTournament calls fn with every unfinished tournament, oldest
// first, read from the store a page at a time (so that none is missed
// however many there are); a record whose document does not parse is
// skipped.
func (s *Server) eachOpenTournament(ctx context.Context, fn func(id string, d *tournamentDoc)) error {
	var after store.TournamentCursor
	for {
		page, err := s.store.OpenTournaments(ctx, after, s.cfg.openPage)
		if err != nil {
			return err
		}
		for _, t := range page {
			var d tournamentDoc
			if json.Unmarshal([]byte(t.Data), &d) == nil {
				fn(t.ID, &d)
			}
		}
		if len(page) < s.cfg.openPage {
			return nil
		}
		after = after.Next(page)
	}
}
