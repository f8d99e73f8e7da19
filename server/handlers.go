package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"atril/move"
)

// The routes of the JSON API and their handlers.

// token reads a seat token from the Authorization header ("Bearer ...")
// or, for the WebSocket only (a browser cannot set its headers), the
// token query parameter. A token in the address of any other request is
// refused before it gets here (see ServeHTTP): addresses end up in logs
// and histories.
func token(r *http.Request) string {
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return strings.TrimSpace(h[len("Bearer "):])
	}
	if isWS(r) {
		return r.URL.Query().Get("token")
	}
	return ""
}

// isWS reports whether r asks for the notification WebSocket.
func isWS(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/games/") && strings.HasSuffix(r.URL.Path, "/ws")
}

func (s *Server) routes() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/info", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, s.info()) })
	mux.HandleFunc("GET /metrics", s.handleMetrics)
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("POST /api/games", s.handleCreate)
	mux.HandleFunc("POST /api/games/import", s.handleImport)
	mux.HandleFunc("GET /api/games/{id}", s.handleState)
	mux.HandleFunc("POST /api/games/{id}/join", s.handleJoin)
	mux.HandleFunc("POST /api/games/{id}/move", s.handleMove)
	mux.HandleFunc("GET /api/games/{id}/notifications", s.handleNotifications)
	mux.HandleFunc("GET /api/games/{id}/ws", s.handleWS)
	mux.HandleFunc("GET /api/games/{id}/watch", s.handleWatch)
	mux.HandleFunc("GET /api/games/{id}/gcg", s.handleGCG)
	mux.HandleFunc("GET /api/games/{id}/board.png", s.handleGameImage)
	mux.HandleFunc("GET /api/games/{id}/game.gif", s.handleGameGIF)
	mux.HandleFunc("POST /api/games/{id}/preview", s.handlePreview)
	mux.HandleFunc("POST /api/games/{id}/resign", s.handleResign)
	mux.HandleFunc("POST /api/games/{id}/abort", s.handleAbort)
	mux.HandleFunc("POST /api/games/{id}/takeback", s.handleTakeback)
	mux.HandleFunc("POST /api/games/{id}/decline", s.handleDecline)
	mux.HandleFunc("POST /api/games/{id}/rematch", s.handleRematch)
	mux.HandleFunc("POST /api/games/{id}/challenge", s.handleChallenge)
	mux.HandleFunc("POST /api/games/{id}/accept", s.handleAccept)
	mux.HandleFunc("GET /api/words", s.handleWords)
	mux.HandleFunc("GET /api/find", s.handleFind)
	mux.HandleFunc("GET /api/study", s.handleStudy)
	mux.HandleFunc("POST /api/games/{id}/chat", s.handleChat)
	mux.HandleFunc("POST /api/games/{id}/kibitz", s.handleKibitz)
	mux.HandleFunc("POST /api/games/{id}/notes", s.handleNote)
	mux.HandleFunc("POST /api/games/{id}/list", s.handleList)
	mux.HandleFunc("POST /api/quick", s.handleQuick)
	mux.HandleFunc("GET /api/lobby", s.handleLobby)
	mux.HandleFunc("GET /api/lobby/ws", s.handleLobbyWS)
	mux.HandleFunc("POST /api/lobby/chat", s.handleLobbyChat)
	mux.HandleFunc("GET /api/games/{id}/review", s.handleReview)
	mux.HandleFunc("GET /api/games/{id}/analysis", s.handleAnalysis)
	mux.HandleFunc("GET /api/games/{id}/infer", s.handleInfer)
	mux.HandleFunc("GET /api/games/{id}/summary", s.handleSummary)
	mux.HandleFunc("GET /api/games/{id}/practice/{k}", s.handlePractice)
	mux.HandleFunc("POST /api/games/{id}/practice/{k}/preview", s.handlePracticePreview)
	mux.HandleFunc("POST /api/games/{id}/practice/{k}/answer", s.handlePracticeAnswer)
	mux.HandleFunc("POST /api/analyze", s.handleAnalyze)
	mux.HandleFunc("GET /api/leaves", s.handleLeaves)
	mux.HandleFunc("POST /api/position", s.handlePosition)
	mux.HandleFunc("POST /api/position/preview", s.handlePositionPreview)
	mux.HandleFunc("POST /api/position/play", s.handlePositionPlay)
	mux.HandleFunc("GET /api/games/{id}/position", s.handleGamePosition)
	mux.HandleFunc("POST /api/accounts", s.handleSignUp)
	mux.HandleFunc("POST /api/login", s.handleSignIn)
	mux.HandleFunc("POST /api/logout", s.handleSignOut)
	mux.HandleFunc("GET /api/me", s.handleMe)
	mux.HandleFunc("POST /api/me/password", s.handlePassword)
	mux.HandleFunc("GET /api/me/blocks", s.handleBlocks)
	mux.HandleFunc("POST /api/me/blocks", s.handleBlock)
	mux.HandleFunc("DELETE /api/me/blocks/{name}", s.handleUnblock)
	mux.HandleFunc("POST /api/me/close", s.handleCloseAccount)
	mux.HandleFunc("GET /api/me/data", s.handleAccountData)
	mux.HandleFunc("GET /api/me/games.zip", s.handleGamesArchive)
	mux.HandleFunc("PUT /api/me/bio", s.handleBio)
	mux.HandleFunc("PUT /api/me/settings", s.handleSettings)
	mux.HandleFunc("GET /api/me/recovery-codes", s.handleRecoveryCodesLeft)
	mux.HandleFunc("POST /api/me/recovery-codes", s.handleNewRecoveryCodes)
	mux.HandleFunc("POST /api/login/recover", s.handleRecover)
	mux.HandleFunc("GET /api/me/passkeys", s.handlePasskeys)
	mux.HandleFunc("POST /api/me/passkeys/options", s.handlePasskeyOptions)
	mux.HandleFunc("POST /api/me/passkeys", s.handleAddPasskey)
	mux.HandleFunc("DELETE /api/me/passkeys/{id}", s.handleRemovePasskey)
	mux.HandleFunc("POST /api/login/passkey/options", s.handlePasskeyLoginOptions)
	mux.HandleFunc("POST /api/login/passkey", s.handlePasskeyLogin)
	mux.HandleFunc("GET /api/push/key", s.handlePushKey)
	mux.HandleFunc("POST /api/me/push", s.handlePushSubscribe)
	mux.HandleFunc("DELETE /api/me/push", s.handlePushUnsubscribe)
	mux.HandleFunc("POST /api/me/push/test", s.handlePushTest)
	mux.HandleFunc("GET /api/me/follows", s.handleFollows)
	mux.HandleFunc("POST /api/me/follows", s.handleFollow)
	mux.HandleFunc("DELETE /api/me/follows/{name}", s.handleUnfollow)
	mux.HandleFunc("GET /api/puzzles/{lexicon}/{n}", s.handlePuzzle)
	mux.HandleFunc("GET /api/puzzles/{lexicon}/{n}/board.png", s.handlePuzzleImage)
	mux.HandleFunc("GET /api/puzzles/{lexicon}/next", s.handlePuzzleNext)
	mux.HandleFunc("GET /api/puzzles/{lexicon}/leaders", s.handlePuzzleLeaders)
	mux.HandleFunc("POST /api/puzzles/{lexicon}/{n}/preview", s.handlePuzzlePreview)
	mux.HandleFunc("POST /api/puzzles/{lexicon}/{n}/answer", s.handlePuzzleAnswer)
	mux.HandleFunc("GET /api/endgames/{lexicon}/{n}", s.handleEndgame)
	mux.HandleFunc("GET /api/endgames/{lexicon}/{n}/board.png", s.handleEndgameImage)
	mux.HandleFunc("POST /api/endgames/{lexicon}/{n}/preview", s.handleEndgamePreview)
	mux.HandleFunc("POST /api/endgames/{lexicon}/{n}/answer", s.handleEndgameAnswer)
	mux.HandleFunc("GET /api/me/messages", s.handleConversations)
	mux.HandleFunc("GET /api/me/messages/{name}", s.handleConversation)
	mux.HandleFunc("POST /api/me/messages/{name}", s.handleSendMessage)
	mux.HandleFunc("POST /api/rush", s.handleRushStart)
	mux.HandleFunc("GET /api/rush/leaders", s.handleRushLeaders)
	mux.HandleFunc("GET /api/rush/{id}", s.handleRush)
	mux.HandleFunc("POST /api/rush/{id}/preview", s.handleRushPreview)
	mux.HandleFunc("POST /api/rush/{id}/answer", s.handleRushAnswer)
	mux.HandleFunc("POST /api/rush/{id}/end", s.handleRushEnd)
	mux.HandleFunc("GET /api/me/games", s.handleAccountGames)
	mux.HandleFunc("GET /api/me/cardbox", s.handleCardbox)
	mux.HandleFunc("PUT /api/me/cardbox", s.handleCardboxPut)
	mux.HandleFunc("DELETE /api/me/cardbox", s.handleCardboxClear)
	mux.HandleFunc("POST /api/games/{id}/seat", s.handleSeatKey)
	mux.HandleFunc("GET /api/players", s.handleFindPlayers)
	mux.HandleFunc("GET /api/players/{name}", s.handleProfile)
	mux.HandleFunc("GET /api/players/{name}/games", s.handlePlayerGames)
	mux.HandleFunc("GET /api/players/{name}/stats", s.handlePlayerStats)
	mux.HandleFunc("POST /api/players/{name}/report", s.handleReport)
	mux.HandleFunc("GET /api/leaderboard", s.handleLeaderboard)
	mux.HandleFunc("POST /api/tournaments", s.handleCreateTournament)
	mux.HandleFunc("GET /api/tournaments", s.handleTournaments)
	mux.HandleFunc("GET /api/tournaments/{id}", s.handleTournament)
	mux.HandleFunc("POST /api/tournaments/{id}/register", s.handleRegister)
	mux.HandleFunc("POST /api/tournaments/{id}/withdraw", s.handleWithdraw)
	mux.HandleFunc("POST /api/tournaments/{id}/start", s.handleStartTournament)
	mux.HandleFunc("POST /api/tournaments/{id}/cancel", s.handleCancelTournament)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, errorBody{"no such API endpoint: " + r.Method + " " + r.URL.Path})
	})
	if s.static != nil {
		page := func(w http.ResponseWriter, r *http.Request) { s.serveStatic(w, r, "index.html") }
		mux.HandleFunc("GET /{$}", page)
		mux.HandleFunc("GET /g/{id}", s.pageMeta)
		mux.HandleFunc("GET /g/{id}/practice", page)
		mux.HandleFunc("GET /g/{id}/practice/{k}", page)
		mux.HandleFunc("GET /p/{name}", s.pageMeta)
		mux.HandleFunc("GET /t/{id}", s.pageMeta)
		mux.HandleFunc("GET /puzzle", s.pageMeta)
		mux.HandleFunc("GET /puzzle/{lexicon}/{n}", s.pageMeta)
		mux.HandleFunc("GET /endgame", s.pageMeta)
		mux.HandleFunc("GET /endgame/{lexicon}/{n}", s.pageMeta)
		mux.HandleFunc("GET /rush", page)
		mux.HandleFunc("GET /messages", page)
		mux.HandleFunc("GET /messages/{name}", page)
		mux.HandleFunc("GET /analysis", page)
		mux.HandleFunc("GET /words", page)
		mux.HandleFunc("GET /study", page)
		mux.HandleFunc("GET /static/{name}", func(w http.ResponseWriter, r *http.Request) { s.serveStatic(w, r, r.PathValue("name")) })
		mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { s.serveStatic(w, r, "favicon.ico") })
		// The service worker at the top, so that it serves every page.
		mux.HandleFunc("GET /sw.js", func(w http.ResponseWriter, r *http.Request) { s.serveStatic(w, r, "sw.js") })
		mux.HandleFunc("GET /icons/{name}", s.handleIcon)
	}
	s.mux = mux
}

// answerTimeout bounds the writing of an answer (a long poll adds its
// wait; the WebSocket lifts it); a variable for the tests.
var answerTimeout = 30 * time.Second

// ServeHTTP implements http.Handler. Before an API request reaches its
// handler it checks the client's allowance of refused requests, refuses
// a state-changing request sent by a browser from another site, and
// refuses a seat token in the address (except for the WebSocket).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["X-Content-Type-Options"], h["Referrer-Policy"] = hdrNosniff, hdrNoReferr
	// Every answer, the page's files too, is written within
	// answerTimeout: a client that reads none of it does not hold its
	// connection for good.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(answerTimeout))
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		h["Content-Security-Policy"], h["X-Frame-Options"] = hdrCSP, hdrFrames
		s.mux.ServeHTTP(w, r)
		return
	}
	key := ""
	if s.badLim != nil {
		key = s.clientKey(r)
	}
	if out, retry := s.badLim.empty(key, time.Now()); out {
		s.count.requests.Add(1)
		s.count.limited.Add(1)
		s.fail(w, tooMany("refused requests", retry))
		return
	}
	sw := &statusWriter{ResponseWriter: w}
	switch {
	case s.cop.Check(r) != nil:
		s.fail(sw, &apiError{403, "cross-site request refused: this server takes state-changing requests only from its own pages (or a trusted origin)"})
	case strings.Contains(r.URL.RawQuery, "token") && r.URL.Query().Has("token") && !isWS(r):
		s.fail(sw, &apiError{400, "a seat token goes in the Authorization header (Bearer TOKEN), not in the address"})
	default:
		t0 := time.Now()
		s.mux.ServeHTTP(sw, r)
		if r.Pattern != "" && !longLived(r) {
			s.latency.observe(r.Pattern, time.Since(t0))
		}
	}
	s.count.requests.Add(1)
	switch {
	case sw.code == 429:
		s.count.limited.Add(1)
	case sw.code >= 400 && sw.code < 500:
		s.count.refused.Add(1)
		s.badLim.take(key, time.Now())
	}
}

// CreateResponse is the answer of POST /api/games.
type CreateResponse struct {
	ID    string `json:"id"`
	Seats int    `json:"seats"`
}

// limitedBody takes one of the client's allowance lim (of what, in the
// refusal) and reads the request's body; on failure it has answered.
func (s *Server) limitedBody(w http.ResponseWriter, r *http.Request, lim *limiter, what string) ([]byte, bool) {
	if ok, retry := lim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany(what, retry))
		return nil, false
	}
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return nil, false
	}
	return data, true
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.createLim, "new games")
	if !ok {
		return
	}
	req, err := s.decodeCreate(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	req.creator = s.clientKey(r)
	l, err := s.createSigned(r, req)
	if err != nil {
		s.fail(w, err)
		return
	}
	if s.push != nil && slices.ContainsFunc(req.Seats, func(st SeatRequest) bool { return st.Invite != "" }) {
		l.mu.Lock()
		s.pushInvitations(&l.hdr)
		l.mu.Unlock()
	}
	writeJSON(w, 201, CreateResponse{ID: l.hdr.ID, Seats: len(req.Seats)})
}

// createSigned makes the game of a create request, checking first that
// the player who asks is signed in when it must be and that the players
// it invites have room for the invitations.
func (s *Server) createSigned(r *http.Request, req *createRequest) (*live, error) {
	// Rated games, games of correspondence play and invitations are made
	// by signed-in players only (the session looked up once).
	invites := slices.ContainsFunc(req.Seats, func(st SeatRequest) bool { return st.Invite != "" })
	why := ""
	switch {
	case req.Rated:
		why = "sign in to create a rated game"
	case req.Clock != nil && req.Clock.PerMove > 0:
		why = "sign in to create a game of correspondence play"
	case invites:
		why = "sign in to invite a player"
	}
	if why != "" {
		a, err := s.requireSignIn(r, why)
		if err != nil {
			return nil, err
		}
		if invites {
			// The invitations pending are counted from the games in
			// memory: the game is made, and in memory, before another
			// creation counts them.
			s.inviteMu.Lock()
			defer s.inviteMu.Unlock()
		}
		if err := s.invitations(r.Context(), req, a); err != nil {
			return nil, err
		}
	}
	return s.create(r.Context(), req)
}

// JoinResponse is the answer of POST /api/games/{id}/join. The token is
// shown once: it is the only key to the seat.
type JoinResponse struct {
	Seat  int    `json:"seat"`
	Token string `json:"token"`
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.joinLim, "seats taken")
	if !ok {
		return
	}
	req, err := decodeJoin(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	want := -1
	if req.Seat != nil {
		want = *req.Seat
	}
	a, err := s.signedIn(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	acct, err := s.seatAccountFor(r.Context(), a, l.ratingCategory())
	if err != nil {
		s.fail(w, err)
		return
	}
	tok := randomHex(24)
	l.mu.Lock()
	seatNo, err := l.join(r.Context(), want, req.Name, acct, tok)
	if err == nil {
		l.afterChange()
	}
	l.mu.Unlock()
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, JoinResponse{Seat: seatNo, Token: tok})
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	tok := token(r)
	l.mu.Lock()
	me := l.seatOf(tok)
	l.mu.Unlock()
	if tok != "" && me < 0 {
		s.fail(w, &apiError{403, "this token holds no seat of this game"})
		return
	}
	wt := s.watched(r, l, me, time.Now())
	l.mu.Lock()
	st := l.state(me)
	l.mu.Unlock()
	st.Watching, st.WatchingNames = wt.Count, wt.Names
	writeState(w, st)
}

// authed finds the game and the seat of the request's token.
func (s *Server) authed(r *http.Request) (*live, int, error) {
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, -1, err
	}
	tok := token(r)
	if tok == "" {
		return nil, -1, &apiError{401, "this needs a seat's token (Authorization: Bearer TOKEN)"}
	}
	l.mu.Lock()
	me := l.seatOf(tok)
	l.mu.Unlock()
	if me < 0 {
		return nil, -1, &apiError{403, "this token holds no seat of this game"}
	}
	return l, me, nil
}

// seatAction starts a request a seat makes to change its game: it reads
// the body and finds the game and the seat of the token, then returns
// with the game locked (the caller unlocks it). On an error it answers
// the request and ok is false.
func (s *Server) seatAction(w http.ResponseWriter, r *http.Request) (data []byte, l *live, me int, ok bool) {
	data, err := readBody(w, r)
	if err != nil {
		s.fail(w, err)
		return nil, nil, -1, false
	}
	if l, me, err = s.authed(r); err != nil {
		s.fail(w, err)
		return nil, nil, -1, false
	}
	l.mu.Lock()
	return data, l, me, true
}

// MoveResponse is the answer to an accepted move.
type MoveResponse struct {
	Move  string `json:"move"`
	Score int    `json:"score"`
	Over  bool   `json:"over"`
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	data, l, me, ok := s.seatAction(w, r)
	if !ok {
		return
	}
	defer l.mu.Unlock()
	if err := l.mayMove(me); err != nil {
		s.fail(w, err)
		return
	}
	m, err := decodeMove(data, l.g.Board)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			l.reject(me, ae)
		}
		s.fail(w, err)
		return
	}
	played, err := l.play(r.Context(), me, *m)
	if err != nil {
		s.fail(w, err)
		return
	}
	notation := played.Notation
	if played.Move.Kind != move.Place {
		notation = kindNames[played.Move.Kind]
	}
	mr := MoveResponse{Move: notation, Score: played.Move.Score, Over: l.over()}
	writeBody(w, 200, append(mr.appendJSON(make([]byte, 0, 64)), '\n'))
}

// maxWait bounds a long poll.
const maxWait = 60 * time.Second

// parseWait reads the wait parameter: seconds, at most maxWait.
func parseWait(ws string) (time.Duration, error) {
	if ws == "" {
		return 0, nil
	}
	sec, err := strconv.ParseFloat(ws, 64)
	if err != nil || sec < 0 || sec != sec {
		return 0, &apiError{400, "wait: want a number of seconds from 0 to 60"}
	}
	if sec >= maxWait.Seconds() {
		return maxWait, nil
	}
	return time.Duration(sec * float64(time.Second)), nil
}

// parseAfter reads a notification cursor (after=SEQ); ok is false when
// there is none.
func parseAfter(r *http.Request) (after int, ok bool, err error) {
	q := r.URL.Query()
	if !q.Has("after") {
		return 0, false, nil
	}
	a, err := strconv.Atoi(q.Get("after"))
	if err != nil || a < 0 {
		return 0, false, &apiError{400, "after: want the seq of the last notification read (an integer, 0 or more)"}
	}
	return a, true, nil
}

// handleNotifications answers the seat's notifications after the cursor
// given as after=SEQ, or, without one, those not yet taken from the
// seat's queue (Consultar in Guberman et al., section 3). With wait=s it waits up to s seconds
// for one when there are none.
func (s *Server) handleNotifications(w http.ResponseWriter, r *http.Request) {
	l, me, err := s.authed(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	wait, err := parseWait(r.URL.Query().Get("wait"))
	if err != nil {
		s.fail(w, err)
		return
	}
	after, cursor, err := parseAfter(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if r.ContentLength != 0 {
		s.fail(w, &apiError{400, "this request takes no body"})
		return
	}
	if wait > 0 {
		// The request is read: lift the read deadline for the wait.
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Now().Add(wait + answerTimeout))
		rc.SetWriteDeadline(time.Now().Add(wait + answerTimeout))
	}
	ctx, cancel := context.WithTimeout(r.Context(), wait)
	defer cancel()
	tok := token(r)
	for {
		l.mu.Lock()
		if l.seatOf(tok) != me {
			// The seat's tokens were taken back while it waited.
			l.mu.Unlock()
			s.fail(w, &apiError{403, "this seat's token was taken back; sign in again"})
			return
		}
		var out [][]byte
		if cursor {
			out, _ = l.log.since(me, after)
		} else {
			out = l.log.drain(me)
		}
		wake := l.log.wake
		l.mu.Unlock()
		if len(out) > 0 || wait == 0 {
			writeRawJSON(w, 200, jsonArray(out))
			return
		}
		select {
		case <-wake:
		case <-ctx.Done():
			writeRawJSON(w, 200, []byte("[]"))
			return
		}
	}
}

// queryInt reads the whole number of query parameter key, def when it
// is absent, with a 400 error that names it when it is not a number
// from lo to hi.
func queryInt(q url.Values, key string, def, lo, hi int) (int, error) {
	text := q.Get(key)
	if text == "" {
		return def, nil
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < lo || n > hi {
		return 0, &apiError{400, fmt.Sprintf("%s=%s: want %d to %d", key, short(text, 10), lo, hi)}
	}
	return n, nil
}
