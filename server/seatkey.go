package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// An account's seats on every device: a seat taken by a signed-in
// account can be opened on another device where the account is signed
// in. That device asks for a token of its own for the seat (POST
// .../seat), logged as a "key" event (its hash only, as a join logs its
// token's); the seat's first token keeps working. When the account signs
// out everywhere or changes its password, every token of its seats in
// its unfinished games is taken back ("revoke" events): a device signed
// in again asks for a new one.

// keyEvent is a further token of a seat, given to the account holding it.
type keyEvent struct {
	Seat  int    `json:"seat"`
	Token string `json:"token_sha256"`
}

// maxSeatKeys bounds the further tokens of one seat.
const maxSeatKeys = 16

// seatKeyRequest is the body of POST /api/games/{id}/seat.
type seatKeyRequest struct {
	Seat *int `json:"seat,omitempty"`
}

func (s *Server) handleSeatKey(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.joinLim, "seats taken")
	if !ok {
		return
	}
	var req seatKeyRequest
	if len(data) > 0 {
		if err := decodeJSON(data, &req); err != nil {
			s.fail(w, err)
			return
		}
	}
	a, err := s.requireSignIn(r, "sign in to open your seat on this device")
	if err != nil {
		s.fail(w, err)
		return
	}
	l, err := s.game(r.Context(), r.PathValue("id"))
	if err != nil {
		s.fail(w, err)
		return
	}
	tok := randomHex(24)
	l.mu.Lock()
	seatNo, err := l.seatKey(r, a.Key, req.Seat, tok)
	l.mu.Unlock()
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, JoinResponse{Seat: seatNo, Token: tok})
}

// seatKey logs and gives a further token to the seat the account of key
// holds (seat, when it holds several). Caller holds mu.
func (l *live) seatKey(r *http.Request, key string, seat *int, tok string) (int, error) {
	var mine []int
	for i, st := range l.seat {
		if st.taken && st.account == key && (seat == nil || *seat == i) {
			mine = append(mine, i)
		}
	}
	switch {
	case len(mine) == 0:
		return -1, &apiError{403, "your account holds no seat of this game"}
	case len(mine) > 1:
		return -1, &apiError{409, fmt.Sprintf("your account holds seats %v of this game: say which", mine)}
	case len(l.seat[mine[0]].keys) >= maxSeatKeys:
		devices := maxSeatKeys
		if l.seat[mine[0]].hash != [32]byte{} {
			devices++ // the seat's first token too
		}
		return -1, &apiError{409, fmt.Sprintf("seat %d is open on %d devices already", mine[0], devices)}
	}
	h := hashToken(tok)
	ev := keyEvent{Seat: mine[0], Token: hex.EncodeToString(h[:])}
	if err := l.append(r.Context(), "key", ev); err != nil {
		return -1, err
	}
	l.seat[ev.Seat].keys = append(l.seat[ev.Seat].keys, h)
	return ev.Seat, nil
}

// replayKey applies a logged key event.
func (l *live) replayKey(data string) error {
	var ev keyEvent
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return err
	}
	h, err := hex.DecodeString(ev.Token)
	if err != nil || len(h) != 32 || ev.Seat < 0 || ev.Seat >= len(l.seat) || !l.seat[ev.Seat].taken {
		return errors.New("key: bad seat or token")
	}
	l.seat[ev.Seat].keys = append(l.seat[ev.Seat].keys, [32]byte(h))
	return nil
}

// revokeEvent takes back every token of a seat.
type revokeEvent struct {
	Seat int `json:"seat"`
}

// revokeGames bounds the latest seats of an account whose tokens a
// sign-out everywhere takes back.
const revokeGames = 500

// revokeSeats takes back every token of the seats the account of key
// holds in its unfinished games (among its revokeGames latest seats),
// and returns how many seats it closed. The sessions are ended by then,
// so it goes on past a game it cannot reach (logged), and is not
// stopped by the request's end. With one process every unfinished game
// is in memory, and only those are looked at; with a shared store the
// games are read from it.
func (s *Server) revokeSeats(ctx context.Context, key string) (int, error) {
	ctx = context.WithoutCancel(ctx)
	gs, err := s.store.AccountGames(ctx, key, revokeGames)
	if err != nil {
		return 0, err
	}
	n := 0
	seen := map[string]bool{}
	for _, g := range gs {
		if seen[g.Game] {
			continue
		}
		seen[g.Game] = true
		var l *live
		if s.shared == nil {
			s.mu.Lock()
			l = s.games[g.Game]
			s.mu.Unlock()
		} else if l, err = s.game(ctx, g.Game); err != nil {
			s.logf("game %s: take back the seats of %q: %v", g.Game, key, err)
			continue
		}
		if l == nil {
			continue
		}
		// Another process may write first (409, the game read again):
		// once more.
		for try := 0; try < 2; try++ {
			l.mu.Lock()
			k, err := l.revoke(ctx, key)
			l.mu.Unlock()
			n += k
			var ae *apiError
			if err == nil || try == 1 || !errors.As(err, &ae) || ae.code != 409 {
				if err != nil {
					s.logf("game %s: take back the seats of %q: %v", g.Game, key, err)
				}
				break
			}
		}
	}
	return n, nil
}

// revoke takes back every token of the seats the account of key holds,
// unless the game is over. Caller holds mu.
func (l *live) revoke(ctx context.Context, key string) (int, error) {
	if l.over() {
		return 0, nil
	}
	n := 0
	for i, st := range l.seat {
		if !st.taken || st.account != key {
			continue
		}
		if err := l.append(ctx, "revoke", revokeEvent{Seat: i}); err != nil {
			return n, err
		}
		l.closeSeat(i)
		n++
	}
	return n, nil
}

// closeSeat forgets every token of seat i and wakes its connections,
// which then find their token gone. Caller holds mu.
func (l *live) closeSeat(i int) {
	l.seat[i].hash, l.seat[i].keys = [32]byte{}, nil
	l.log.wakeAll()
}

// replayRevoke applies a logged revoke event.
func (l *live) replayRevoke(data string) error {
	var ev revokeEvent
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return err
	}
	if ev.Seat < 0 || ev.Seat >= len(l.seat) || !l.seat[ev.Seat].taken {
		return errors.New("revoke: bad seat")
	}
	l.closeSeat(ev.Seat)
	return nil
}

// AccountGames is the answer of GET /api/me/games: the seats the
// signed-in account took, newest first.
type AccountGames struct {
	Games []AccountGameInfo `json:"games"`
	// Invitations are the seats kept for the account in games that wait
	// for its answer (those in this process's memory), newest first.
	Invitations []AccountGameInfo `json:"invitations"`
}

// AccountGameInfo is a seat an account took.
type AccountGameInfo struct {
	ID     string    `json:"id"`
	Seat   int       `json:"seat"`
	Joined time.Time `json:"joined"`
}

// accountGamesListed bounds the seats GET /api/me/games lists.
const accountGamesListed = 50

func (s *Server) handleAccountGames(w http.ResponseWriter, r *http.Request) {
	a, err := s.requireSignIn(r, "sign in to list your games")
	if err != nil {
		s.fail(w, err)
		return
	}
	gs, err := s.store.AccountGames(r.Context(), a.Key, accountGamesListed)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := AccountGames{Games: []AccountGameInfo{}, Invitations: []AccountGameInfo{}}
	for _, g := range gs {
		out.Games = append(out.Games, AccountGameInfo{ID: g.Game, Seat: g.Seat, Joined: g.Joined})
	}
	for _, ref := range s.pendingInvitations(a.Key) {
		out.Invitations = append(out.Invitations, AccountGameInfo{ID: ref.game, Seat: ref.seat, Joined: ref.created})
	}
	writeJSON(w, 200, out)
}
