package server

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"atril/internal/password"
	"atril/puzzle"
	"atril/rating"
	"atril/store"
)

// Player accounts: a name and a password, a session kept in a cookie,
// and a rating per word list from rated games between accounts.
//
// An account's name is 3 to 20 letters, digits, '_', '-' or '.', with no
// invisible character, and unique however it is written: its key folds
// case and width, drops accents and maps the letters that look like
// Latin ones (Cyrillic а, Greek ο, the digit 0) to them, so that nobody
// can take a name that looks like another's.
// A seat taken by a signed-in person is held by the account and shows
// its name; a rated game may be taken only so. Passwords are stored as
// PBKDF2-HMAC-SHA-256 hashes (package password); a session is a random
// token in an HttpOnly cookie, stored as its SHA-256.

// DefaultLoginPerMinute is how many accounts one client may make, or
// sign-ins it may try, a minute.
const DefaultLoginPerMinute = 10

// DefaultAccountFailsPerHour is how many failed sign-ins to one account
// a client may make an hour before it is locked out of the account until
// its allowance refills.
const DefaultAccountFailsPerHour = 20

// AccountFailsScale is how many times more failed sign-ins an account
// takes from all clients together, an hour, before it is locked for
// everyone: a guesser spread over many addresses is bounded, and one
// client alone cannot lock a player out.
const AccountFailsScale = 5

// sessionCookie names the cookie that holds a session's token;
// sessionLife is how long a session lasts.
const (
	sessionCookie = "atril_session"
	sessionLife   = 30 * 24 * time.Hour
)

// Bounds of accounts' names.
const (
	minAccountName = 3
	maxAccountName = 20
)

// Bounds of a password, in characters.
const (
	MinPassword = 8
	MaxPassword = 200
)

// accountName checks a new account's name and returns it (in NFC form)
// with its key.
func accountName(name string) (display, key string, err error) {
	if !utf8.ValidString(name) {
		return "", "", &apiError{400, "the name is not UTF-8"}
	}
	display = norm.NFC.String(strings.TrimSpace(name))
	n := utf8.RuneCountInString(display)
	if n < minAccountName || n > maxAccountName {
		return "", "", &apiError{400, fmt.Sprintf("a name has %d to %d characters", minAccountName, maxAccountName)}
	}
	marks := 0
	for i, r := range display {
		mark := unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me)
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case invisible(r) || unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector, unicode.Cf):
			return "", "", &apiError{400, fmt.Sprintf("a name may not hold invisible characters (%U)", r)}
		case mark:
			if marks++; i == 0 || marks > maxMarks {
				return "", "", &apiError{400, "an accent goes on a letter, at most three on one"}
			}
			continue
		case !letter && !strings.ContainsRune("_-.", r):
			return "", "", &apiError{400, fmt.Sprintf("a name holds letters, digits, '_', '-' and '.' only, not %q", r)}
		case !letter && (i == 0 || i+utf8.RuneLen(r) == len(display)):
			return "", "", &apiError{400, "a name begins and ends with a letter or digit"}
		}
		marks = 0
	}
	if passesForComputer(display) {
		return "", "", &apiError{400, "a person's name may not look like a computer seat's"}
	}
	return display, AccountKey(display), nil
}

// AccountKey is the key of an account's name, its skeleton: compatibility
// decomposition (one width), case folded, accents and invisible
// characters dropped, lookalikes of Latin letters mapped to them.
func AccountKey(name string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(cases.Fold().String(name)) {
		if unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) || invisible(r) {
			continue
		}
		if l, ok := lookalikes[r]; ok {
			r = l
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// accountRequest is the body of POST /api/accounts and /api/login.
type accountRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// decodeAccount reads the body of an account request.
func decodeAccount(w http.ResponseWriter, r *http.Request) (*accountRequest, error) {
	data, err := readBody(w, r)
	if err != nil {
		return nil, err
	}
	var req accountRequest
	if err := decodeJSON(data, &req); err != nil {
		return nil, err
	}
	if err := checkPasswordLength(req.Password); err != nil {
		return nil, err
	}
	return &req, nil
}

// checkPasswordLength refuses a password that is not valid UTF-8 or has
// too few or too many characters.
func checkPasswordLength(pw string) error {
	if n := utf8.RuneCountInString(pw); n < MinPassword || n > MaxPassword || !utf8.ValidString(pw) {
		return &apiError{400, fmt.Sprintf("a password has %d to %d characters", MinPassword, MaxPassword)}
	}
	return nil
}

// Me is the answer of GET /api/me, and of signing up or in.
type Me struct {
	SignedIn bool         `json:"signed_in"`
	Name     string       `json:"name,omitempty"`
	Ratings  []RatingInfo `json:"ratings,omitempty"`
	// Blocked names the accounts the player blocks (the page hides what
	// they write).
	Blocked []string `json:"blocked,omitempty"`
	// Follows names the accounts the player follows.
	Follows []string `json:"follows,omitempty"`
	// UnreadMessages counts the messages to the player not read yet.
	UnreadMessages int `json:"unread_messages,omitempty"`
	// Settings are the player's settings (absent when all are the
	// defaults).
	Settings *Settings `json:"settings,omitempty"`
}

// RatingInfo is an account's rating in one word list and pace.
type RatingInfo struct {
	Name      string `json:"name,omitempty"`
	Lexicon   string `json:"lexicon"`
	Pace      string `json:"pace"`
	Rating    int    `json:"rating"`
	Deviation int    `json:"deviation"`
	// Provisional is set while the deviation is above
	// rating.ProvisionalRD.
	Provisional bool `json:"provisional,omitempty"`
	Games       int  `json:"games"`
	Wins        int  `json:"wins"`
	Losses      int  `json:"losses"`
	Draws       int  `json:"draws"`
}

func ratingInfo(r store.Rating) RatingInfo {
	lex, pace := splitCategory(r.Category)
	return RatingInfo{Name: r.Name, Lexicon: lex, Pace: pace, Rating: roundInt(r.R), Deviation: roundInt(r.RD),
		Provisional: provisional(r.RD), Games: r.Games, Wins: r.Wins, Losses: r.Losses, Draws: r.Draws}
}

// provisional reports whether a rating of deviation rd is provisional.
func provisional(rd float64) bool { return rating.Rating{RD: rd}.Provisional() }

func roundInt(x float64) int {
	if x < 0 {
		return -int(-x + 0.5)
	}
	return int(x + 0.5)
}

// loginLimited takes one of the client's sign-up and sign-in allowance.
func (s *Server) loginLimited(w http.ResponseWriter, r *http.Request) bool {
	if ok, retry := s.loginLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("sign-ups and sign-ins", retry))
		return true
	}
	return false
}

// readAccount reads the body of a sign-up or sign-in, taking one of the
// client's allowance first; on failure it has answered.
func (s *Server) readAccount(w http.ResponseWriter, r *http.Request) (*accountRequest, bool) {
	if s.loginLimited(w, r) {
		return nil, false
	}
	req, err := decodeAccount(w, r)
	if err != nil {
		s.fail(w, err)
		return nil, false
	}
	return req, true
}

// hashing runs fn, which hashes a password for r's client, in one of the
// slots for it (half the CPUs: many sign-ins at once cannot take the CPU
// from the games), waiting for one at most hashWait in all or until r's
// context ends. A client's passwords are hashed one after the other: its
// second waits for its first to be done before it queues for a slot, so
// that a burst from one address cannot fill the queue ahead of everyone
// else's.
func (s *Server) hashing(r *http.Request, fn func() error) error {
	client := s.clientKey(r)
	s.hashMu.Lock()
	turn := s.hashClients[client]
	if turn == nil {
		turn = &hashTurn{ch: make(chan struct{}, 1)}
		s.hashClients[client] = turn
	}
	turn.n++
	s.hashMu.Unlock()
	defer func() {
		s.hashMu.Lock()
		if turn.n--; turn.n == 0 {
			delete(s.hashClients, client)
		}
		s.hashMu.Unlock()
	}()
	ctx := r.Context()
	t := time.NewTimer(hashWait)
	defer t.Stop()
	busy := &apiError{503, "the server is busy; try again"}
	for _, sem := range []chan struct{}{turn.ch, s.hashes} {
		select {
		case sem <- struct{}{}:
			defer func() { <-sem }()
		case <-ctx.Done():
			return busy
		case <-t.C:
			return busy
		}
	}
	return fn()
}

// hashTurn is a client's turn to hash a password (ch holds a token while
// one is waiting for a slot or being hashed) and how many of its
// passwords wait or are being hashed (n).
type hashTurn struct {
	ch chan struct{}
	n  int
}

func (s *Server) handleSignUp(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readAccount(w, r)
	if !ok {
		return
	}
	name, key, err := accountName(req.Name)
	if err != nil {
		s.fail(w, err)
		return
	}
	var hash string
	if err := s.hashing(r, func() (err error) {
		hash, err = password.Hash(req.Password, s.cfg.PasswordIterations)
		return err
	}); err != nil {
		s.fail(w, err)
		return
	}
	a := &store.Account{Key: key, Name: name, Password: hash, Created: time.Now().UTC()}
	if err := s.store.CreateAccount(r.Context(), a); err != nil {
		if errors.Is(err, store.ErrConflict) {
			err = &apiError{409, fmt.Sprintf("the name %q is taken", short(name, 40))}
		}
		s.fail(w, err)
		return
	}
	s.startSession(w, r, a, 201)
}

func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	req, ok := s.readAccount(w, r)
	if !ok {
		return
	}
	a, err := s.store.Account(r.Context(), AccountKey(strings.TrimSpace(req.Name)))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.fail(w, err)
		return
	}
	if a != nil && a.Closed() {
		a = nil // a closed account signs in no more: as no account at all
	}
	if a != nil && !s.spendGuess(w, r, a) {
		return
	}
	stored, key := s.dummyHash, "(none)"
	if a != nil {
		stored, key = a.Password, a.Key
	}
	// An unknown name costs the same check as a wrong password, so the
	// answer's time does not tell which names exist.
	ok, err = s.checkPassword(r, stored, key, req.Password)
	if a != nil && (err != nil || ok) {
		s.refundGuess(r, a) // only a wrong password counts
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	if a == nil || !ok {
		s.fail(w, &apiError{401, "wrong name or password"})
		return
	}
	if a.Suspended != "" {
		// Told only to whoever knows the password.
		s.fail(w, &apiError{403, "this account is suspended: " + a.Suspended})
		return
	}
	s.startSession(w, r, a, 200)
}

// spendGuess takes one of the client's guesses at a's password, and one
// of the account's, before the password is checked (so that requests
// sent at once cannot all pass a check made before any of them failed),
// or answers 429. Account names are public (profiles, leaderboards), so
// the lock tells nothing new; it holds whatever password comes, or the
// guessing would go on through it.
func (s *Server) spendGuess(w http.ResponseWriter, r *http.Request, a *store.Account) bool {
	now := time.Now()
	mine := s.guessKey(r, a)
	if ok, retry := s.failLim.take(mine, now); !ok {
		e := tooMany("", retry)
		e.msg = fmt.Sprintf("too many failed sign-ins to this account from your address; try again in %d s", e.retry)
		s.fail(w, e)
		return false
	}
	if ok, retry := s.failAll.take(a.Key, now); !ok {
		s.failLim.give(mine, now)
		e := tooMany("", retry)
		e.msg = fmt.Sprintf("too many failed sign-ins to this account; try again in %d s", e.retry)
		s.fail(w, e)
		return false
	}
	return true
}

// guessKey names the guesses at a's password from r's client.
func (s *Server) guessKey(r *http.Request, a *store.Account) string {
	return a.Key + "\x00" + s.clientKey(r)
}

// refundGuess gives back a guess spendGuess took, when the password was
// right or could not be checked.
func (s *Server) refundGuess(r *http.Request, a *store.Account) {
	now := time.Now()
	s.failLim.give(s.guessKey(r, a), now)
	s.failAll.give(a.Key, now)
}

// checkPassword checks a password of r's against a stored hash (of the
// account of key, named in errors) in a hash slot.
func (s *Server) checkPassword(r *http.Request, stored, key, pw string) (ok bool, err error) {
	err = s.hashing(r, func() (err error) {
		if ok, err = password.Check(stored, pw); err != nil {
			err = fmt.Errorf("account %q: %w", key, err)
		}
		return err
	})
	return ok, err
}

// confirmed reads into req the body of a request that the signed-in
// player confirms with their current password (which the body puts in
// *current), checks the body with check, then the password (a wrong one
// counts as a failed sign-in, 403), and returns the account; why says
// what signing in is needed for. On failure it has answered.
func (s *Server) confirmed(w http.ResponseWriter, r *http.Request, why string, req any, current *string, check func() error) (*store.Account, bool) {
	if s.loginLimited(w, r) {
		return nil, false
	}
	a, err := s.requireSignIn(r, why)
	if err != nil {
		s.fail(w, err)
		return nil, false
	}
	data, err := readBody(w, r)
	if err == nil {
		err = decodeJSON(data, req)
	}
	if err == nil && check != nil {
		err = check()
	}
	if err != nil {
		s.fail(w, err)
		return nil, false
	}
	if !s.spendGuess(w, r, a) {
		return nil, false
	}
	ok, err := s.checkPassword(r, a.Password, a.Key, *current)
	if err != nil || ok {
		s.refundGuess(r, a)
	}
	if err != nil {
		s.fail(w, err)
		return nil, false
	}
	if !ok {
		s.fail(w, &apiError{403, "the current password is wrong"})
		return nil, false
	}
	return a, true
}

// passwordRequest is the body of POST /api/me/password.
type passwordRequest struct {
	Password string `json:"password"`
	New      string `json:"new"`
}

// handlePassword changes the signed-in account's password: the current
// one must come with the new one. Every other session of the account
// ends (a new password is what one sets after a leak); this one stays.
func (s *Server) handlePassword(w http.ResponseWriter, r *http.Request) {
	var req passwordRequest
	a, ok := s.confirmed(w, r, "sign in to change your password", &req, &req.Password, func() error { return checkPasswordLength(req.New) })
	if !ok {
		return
	}
	keep := ""
	if c, err := r.Cookie(sessionCookie); err == nil {
		keep = sessionHash(c.Value)
	}
	if _, ok := s.setPassword(w, r, a, req.New, keep); !ok {
		return
	}
	s.writeMe(w, r, a, 200)
}

// setPassword gives the account a the new password pw and ends every
// session but keep's (none: ""), the seats' tokens (a device still
// signed in gets new ones as it opens its games), and the push messages
// of every browser (a device signed out is told nothing more; the page
// of keep's session subscribes again). It returns the new hash, or
// answers the failure.
func (s *Server) setPassword(w http.ResponseWriter, r *http.Request, a *store.Account, pw, keep string) (string, bool) {
	var hash string
	if err := s.hashing(r, func() (err error) {
		hash, err = password.Hash(pw, s.cfg.PasswordIterations)
		return err
	}); err != nil {
		s.fail(w, err)
		return "", false
	}
	if err := s.store.SetPassword(r.Context(), a.Key, a.Password, hash, keep); err != nil {
		if errors.Is(err, store.ErrConflict) {
			err = &apiError{409, "the password was changed meanwhile; sign in again"}
		}
		s.fail(w, err)
		return "", false
	}
	if _, err := s.revokeSeats(r.Context(), a.Key); err != nil {
		s.fail(w, err)
		return "", false
	}
	if err := s.unsubscribeAll(r.Context(), a.Key); err != nil {
		s.fail(w, err)
		return "", false
	}
	return hash, true
}

// hashWait bounds the wait for a slot to hash a password in.
const hashWait = 5 * time.Second

// startSession stores a new session for a, sets its cookie and answers
// the account. A session the request already had ends.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a *store.Account, code int) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		if err := s.store.DeleteSession(r.Context(), sessionHash(c.Value)); err != nil {
			s.fail(w, err)
			return
		}
	}
	tok := randomHex(32)
	expires := time.Now().Add(sessionLife)
	if err := s.store.CreateSession(r.Context(), sessionHash(tok), a.Key, a.Password, expires); err != nil {
		if errors.Is(err, store.ErrConflict) {
			// The password changed since it was checked.
			err = &apiError{401, "wrong name or password"}
		}
		s.fail(w, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: tok, Path: "/", Expires: expires, MaxAge: int(sessionLife / time.Second),
		HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	s.writeMe(w, r, a, code)
}

// secure reports whether r came over HTTPS: to this server, or to the
// reverse proxy in front of it (trusted when RealIPHeader is set), which
// says so in X-Forwarded-Proto. The session cookie is then sent over
// HTTPS only.
func (s *Server) secure(r *http.Request) bool {
	return r.TLS != nil || s.cfg.RealIPHeader != "" && r.Header.Get("X-Forwarded-Proto") == "https"
}

// sessionHash is the stored form of a session's token.
func sessionHash(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// SignOut is the answer of POST /api/logout: signed out, and how many
// sessions ended.
type SignOut struct {
	SignedIn bool `json:"signed_in"`
	Ended    int  `json:"sessions_ended"`
	// Seats counts the seats whose tokens were taken back (everywhere).
	Seats int `json:"seats_closed,omitempty"`
}

// handleSignOut ends the request's session, or with ?everywhere=1 every
// session of its account (on every device).
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	everywhere := false
	switch v := r.URL.Query().Get("everywhere"); v {
	case "", "0", "false":
	case "1", "true":
		everywhere = true
	default:
		s.fail(w, &apiError{400, fmt.Sprintf("everywhere is 1 or 0, not %q", short(v, 20))})
		return
	}
	var out SignOut
	if everywhere {
		a, err := s.requireSignIn(r, "sign in to sign out everywhere")
		if err != nil {
			s.fail(w, err)
			return
		}
		if out.Ended, err = s.store.DeleteSessions(r.Context(), a.Key, ""); err != nil {
			s.fail(w, err)
			return
		}
		if out.Seats, err = s.revokeSeats(r.Context(), a.Key); err != nil {
			s.fail(w, err)
			return
		}
		// No device signed out is told anything more.
		if err := s.unsubscribeAll(r.Context(), a.Key); err != nil {
			s.fail(w, err)
			return
		}
	} else if c, err := r.Cookie(sessionCookie); err == nil {
		if a, err := s.signedIn(r); err == nil && a != nil {
			out.Ended = 1
		}
		if err := s.store.DeleteSession(r.Context(), sessionHash(c.Value)); err != nil {
			s.fail(w, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	writeJSON(w, 200, out)
}

// signedIn returns the account of the request's session, or nil when it
// has none (or one that ended).
func (s *Server) signedIn(r *http.Request) (*store.Account, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || len(c.Value) != 64 {
		return nil, nil
	}
	a, err := s.store.Session(r.Context(), sessionHash(c.Value), time.Now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return a, err
}

// writeMe answers what GET /api/me answers for account a, with code.
func (s *Server) writeMe(w http.ResponseWriter, r *http.Request, a *store.Account, code int) {
	me, err := s.me(r.Context(), a)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, code, me)
}

// me is what GET /api/me answers for account a.
func (s *Server) me(ctx context.Context, a *store.Account) (*Me, error) {
	rs, err := s.store.Ratings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	bs, err := s.store.Blocks(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	fs, err := s.store.Follows(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	unread, err := s.store.UnreadMessages(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	st, err := s.storedSettings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	me := &Me{SignedIn: true, Name: a.Name, Ratings: ownRatings(rs), UnreadMessages: unread, Settings: settingsOrNil(st)}
	for _, b := range bs {
		me.Blocked = append(me.Blocked, b.Name)
	}
	for _, f := range fs {
		me.Follows = append(me.Follows, f.Name)
	}
	return me, nil
}

// ownRatings are an account's ratings as its own answers show them
// (without its name in each).
func ownRatings(rs []store.Rating) []RatingInfo {
	out := []RatingInfo{}
	for _, r := range rs {
		ri := ratingInfo(r)
		ri.Name = ""
		out = append(out, ri)
	}
	return out
}

// requireSignIn returns the account of r's session, or an error saying
// why one is needed (a 401 when r has none).
func (s *Server) requireSignIn(r *http.Request, why string) (*store.Account, error) {
	a, err := s.signedIn(r)
	if err == nil && a == nil {
		err = &apiError{401, why}
	}
	return a, err
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	a, err := s.signedIn(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if a == nil {
		writeJSON(w, 200, Me{})
		return
	}
	s.writeMe(w, r, a, 200)
}

// Profile is the answer of GET /api/players/{name}.
type Profile struct {
	Name    string       `json:"name"`
	Since   time.Time    `json:"since"`
	Ratings []RatingInfo `json:"ratings"`
	Games   []RatedInfo  `json:"games"`
	// Puzzles is how the player did at the puzzles (their first answers).
	Puzzles PuzzleStats `json:"puzzles"`
	// Followers counts the accounts that follow the player.
	Followers int `json:"followers"`
	// Computer is what the player's games against the computer add up
	// to, level by level, weakest first (the levels never played left
	// out).
	Computer []LevelStats `json:"computer"`
	// Closed is set when the player closed the account.
	Closed bool `json:"closed,omitempty"`
	// About is what the player says about themselves, Country the ISO
	// 3166 code of the country they play from (each absent for none, and
	// for a suspended account).
	About   string `json:"about,omitempty"`
	Country string `json:"country,omitempty"`
	// Seen is when the player was last seen, in the lobby or making a
	// move, and Online whether that is now (each absent for never, for a
	// suspended account, and for a player asking who blocks the account
	// or is blocked by it).
	Seen   *time.Time `json:"seen,omitempty"`
	Online bool       `json:"online,omitempty"`
	// Offers are the games the player offers in the lobby now, Playing
	// those it plays that anyone may watch (each absent as Seen is, and
	// without the games of accounts blocked either way with the one
	// asking).
	Offers  []LobbyGame `json:"offers,omitempty"`
	Playing []LobbyGame `json:"playing,omitempty"`
}

// LevelStats is what a player's games against one computer level add
// up to: how many, won, lost and drawn, and the average scores, the
// player's and the computer's, to one decimal.
type LevelStats struct {
	Level           string  `json:"level"`
	Games           int     `json:"games"`
	Wins            int     `json:"wins"`
	Losses          int     `json:"losses"`
	Draws           int     `json:"draws"`
	Average         float64 `json:"average"`
	ComputerAverage float64 `json:"computer_average"`
}

// levelStats are the player's games against the computer by level, in
// the ladder's order (player.Levels is by name).
func levelStats(ts []store.LevelTotal) []LevelStats {
	out := []LevelStats{}
	for _, t := range ts {
		if t.Games == 0 {
			continue
		}
		out = append(out, LevelStats{Level: t.Level, Games: t.Games, Wins: t.Wins, Losses: t.Losses, Draws: t.Draws,
			Average: tenths(float64(t.Points) / float64(t.Games)), ComputerAverage: tenths(float64(t.LevelPoints) / float64(t.Games))})
	}
	slices.SortStableFunc(out, func(a, b LevelStats) int { return cmp.Compare(levelRatings[a.Level], levelRatings[b.Level]) })
	return out
}

// RatedInfo is a finished game as a player's page lists it.
type RatedInfo struct {
	ID      string `json:"id"`
	Lexicon string `json:"lexicon"`
	// Pace is the game's pace, that of the ratings it moves (blitz,
	// rapid, regular, correspondence).
	Pace     string          `json:"pace"`
	Finished time.Time       `json:"finished"`
	Rated    bool            `json:"rated"`
	Seats    []RatedSeatInfo `json:"seats"`
}

// RatedSeatInfo is a seat of a finished game: the name of who held it,
// its score, its result (1 a win, ½ a draw, 0 a loss, 1/n each of n
// seats sharing the best score), and in a rated game its account's
// rating before and after. Level is the computer level that held the
// seat; Guest marks a person not signed in; a seat with neither was an
// account's (the name is its player's page).
type RatedSeatInfo struct {
	Name   string  `json:"name"`
	Level  string  `json:"level,omitempty"`
	Guest  bool    `json:"guest,omitempty"`
	Score  int     `json:"score"`
	Result float64 `json:"result"`
	Before int     `json:"rating_before,omitempty"`
	After  int     `json:"rating_after,omitempty"`
	// Turns, Bingos and Best say how the seat played: turns taken,
	// placements of the whole rack, the points of the best placement
	// (left out for games recorded before the server kept them).
	Turns  int `json:"turns,omitempty"`
	Bingos int `json:"bingos,omitempty"`
	Best   int `json:"best_move,omitempty"`
	// Analysed, TopMoves and Lost say how the seat's moves fared against
	// the computer's static valuation: the moves judged, those that were
	// the best, the equity given up in all (left out until the game's
	// moves are analysed).
	Analysed int     `json:"analysed,omitempty"`
	TopMoves int     `json:"top_moves,omitempty"`
	Lost     float64 `json:"lost,omitempty"`
}

// profileGames is how many of the latest finished games a profile lists.
const profileGames = 50

// playerNamed returns the account that a player's address names
// (/api/players/{name}: a 404 error when there is none, a malformed name
// included; a name sent in a request's body or query goes through
// accountNamed).
func (s *Server) playerNamed(ctx context.Context, name string) (*store.Account, error) {
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxAccountName {
		return nil, &apiError{404, "no such player"}
	}
	a, err := s.store.Account(ctx, AccountKey(name))
	if errors.Is(err, store.ErrNotFound) {
		return nil, &apiError{404, fmt.Sprintf("no player is called %q", short(name, 40))}
	}
	return a, err
}

func (s *Server) handleProfile(w http.ResponseWriter, r *http.Request) {
	a, err := s.playerNamed(r.Context(), r.PathValue("name"))
	if err != nil {
		s.fail(w, err)
		return
	}
	rs, err := s.store.Ratings(r.Context(), a.Key)
	if err != nil {
		s.fail(w, err)
		return
	}
	games, err := s.store.RatedGames(r.Context(), a.Key, store.RatedFilter{}, profileGames)
	if err != nil {
		s.fail(w, err)
		return
	}
	puzzles, err := s.store.PuzzleRecords(r.Context(), a.Key, puzzleRecords)
	var puzzleRatings []store.PuzzleRating
	if err == nil {
		puzzleRatings, err = s.store.PuzzleRatings(r.Context(), a.Key)
	}
	var rushes []store.RushBest
	if err == nil {
		rushes, err = s.store.RushBests(r.Context(), a.Key)
	}
	var endgames []store.EndgameRecord
	if err == nil {
		endgames, err = s.store.EndgameRecords(r.Context(), a.Key, puzzleRecords)
	}
	var endgameRatings []store.PuzzleRating
	if err == nil {
		endgameRatings, err = s.store.EndgameRatings(r.Context(), a.Key)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	followers, err := s.store.Followers(r.Context(), a.Key)
	var levels []store.LevelTotal
	if err == nil {
		levels, err = s.store.LevelTotals(r.Context(), a.Key)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	p := Profile{Name: a.Name, Since: a.Created, Ratings: ownRatings(rs), Games: []RatedInfo{},
		Puzzles: puzzleStats(puzzles, puzzleRatings, puzzle.Today(time.Now())), Followers: followers, Closed: a.Closed(),
		Computer: levelStats(levels)}
	p.Puzzles.Rush = rushBests(rushes)
	p.Puzzles.EndgamesTried = len(endgames)
	p.Puzzles.EndgameRatings = ratingInfos(endgameRatings)
	for _, e := range endgames {
		if e.Correct {
			p.Puzzles.EndgamesSolved++
		}
	}
	if a.Suspended == "" { // a suspended account's bio and sightings are not shown
		bio, err := s.store.Bio(r.Context(), a.Key)
		if err != nil {
			s.fail(w, err)
			return
		}
		p.About, p.Country = bio.About, bio.Country
		if err := s.profileLive(r, a.Key, &p); err != nil {
			s.fail(w, err)
			return
		}
	}
	for _, g := range games {
		p.Games = append(p.Games, ratedInfo(&g))
	}
	writeJSON(w, 200, p)
}

// ratedInfo is a finished game as the API lists it.
func ratedInfo(g *store.RatedGame) RatedInfo {
	lex, pace := splitCategory(g.Category)
	gi := RatedInfo{ID: g.Game, Lexicon: lex, Pace: pace, Finished: g.Finished, Rated: g.Rated}
	for _, st := range g.Seats {
		si := RatedSeatInfo{Name: st.Name, Level: st.Level, Guest: st.Account == "" && st.Level == "", Score: st.Score, Result: st.Result,
			Turns: st.Turns, Bingos: st.Bingos, Best: st.Best, Analysed: st.Analysed, TopMoves: st.TopMoves, Lost: st.Lost}
		if g.Rated {
			si.Before, si.After = roundInt(st.RBefore), roundInt(st.RAfter)
		}
		gi.Seats = append(gi.Seats, si)
	}
	return gi
}

// Leaderboard is the answer of GET /api/leaderboard.
type Leaderboard struct {
	Lexicon string       `json:"lexicon"`
	Pace    string       `json:"pace"`
	Players []RatingInfo `json:"players"`
}

// Bounds of a leaderboard's length.
const (
	defaultBoard = 20
	maxBoard     = 100
)

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lex := q.Get("lexicon")
	if !s.offers(lex) {
		s.fail(w, &apiError{400, fmt.Sprintf("word list %q is not offered here", short(lex, 40))})
		return
	}
	n, err := queryInt(q, "n", defaultBoard, 1, maxBoard)
	if err != nil {
		s.fail(w, err)
		return
	}
	pace, err := paceParam(q, "pace", PaceRegular)
	if err != nil {
		s.fail(w, err)
		return
	}
	rs, err := s.store.Leaderboard(r.Context(), category(lex, pace), n)
	if err != nil {
		s.fail(w, err)
		return
	}
	b := Leaderboard{Lexicon: lex, Pace: pace, Players: []RatingInfo{}}
	for _, r := range rs {
		b.Players = append(b.Players, ratingInfo(r))
	}
	writeJSON(w, 200, b)
}
