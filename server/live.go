package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/move"
	"atril/player"
	"atril/store"
	"atril/variant"
)

// seat is one seat of a live game.
type seat struct {
	name  string
	level string // "" for a person
	taken bool
	hash  [sha256.Size]byte // SHA-256 of the seat's token (people only)
	// keys are the hashes of more tokens of the seat, given to its
	// account on other devices (POST .../seat).
	keys [][sha256.Size]byte
	// account is the key of the account that took the seat ("" for a
	// person not signed in); rating its rating in the game's word list
	// then (0 if it had none).
	account string
	rating  int
	// provisional is set when that rating was provisional.
	provisional bool
}

// live is a game in memory: the engine's game, the seats and the
// notification log, all guarded by mu.
type live struct {
	mu   sync.Mutex
	srv  *Server
	hdr  store.Game
	v    *variant.Variant
	lex  *lexicon.Lexicon
	lr   *lexRes
	g    *game.Game
	seat []*seat
	log  *notifLog
	// hist is the history as the state shows it, rendered once per entry.
	hist []HistEntry
	// watchersRecorded is when each watcher was last recorded in the
	// store (watchers.go).
	watchersRecorded map[string]time.Time
	// seq is the number of events in the game's log.
	seq int
	// thinking is set while a computer seat is choosing a move.
	thinking bool
	// takebacks counts the moves taken back (takeback.go).
	takebacks int
	// listed is set when the game is offered in the lobby to anyone;
	// offeredBy is who offered it, when this process took the offer.
	listed    bool
	offeredBy offerer
	// rematch is the id of the finished game's rematch ("" for none).
	rematch string
	// tournament is the game's place in a tournament (nil: none);
	// calledOffBy is 1 + the seat that called the game off (0: none).
	tournament  *TournamentRef
	calledOffBy int
	// ratingChanges are the seats' ratings before and after a rated
	// game, once this process recorded its result.
	ratingChanges []RatingChange
	// chat holds the game's latest chat lines, kibitz the watchers'.
	chat   recent[ChatLine]
	kibitz recent[KibitzLine]
	// notes are the players' notes on the finished game (notes.go).
	notes gameNotes
	// summary is the finished game's summary, once asked for.
	summary *Summary
	// imported is set for a game played elsewhere and read from its
	// GCG file (gcgText): a record, over from the start.
	imported bool
	gcgText  string
	// active is when the game was created or last changed (the time of
	// its last event); abandoned is set once it expired.
	active        time.Time
	abandoned     bool
	abandonReason string
	// counted is set while the server counts the game as unfinished
	// (guarded by the server's mu, not this one's).
	counted bool
	// sockets counts the WebSockets open for each seat (handleWS),
	// watchSockets the watchers' (handleWatch).
	sockets      map[int]int
	watchSockets int
	// creator is the client that made the game through the API (""
	// for games loaded from the store or made by the server itself);
	// set before the game is counted, then only read.
	creator string
	// With a shared store: botMine is set when this process is to make
	// the computer seat's move (it wrote the event that put the computer
	// on turn, or took the move over); evicted when this copy was dropped
	// from memory (its readers should come back for the new one).
	botMine, evicted bool
	// changed is closed (and replaced) on every change of state, for
	// long polls of the state.
	changed chan struct{}
	// The clocks (clock.go): the time each seat has used on its past
	// turns, when the turn on the clock began, the time of the event
	// being applied, and the timer of the next loss on time.
	used       []time.Duration
	turnStart  time.Time
	evTime     time.Time
	clockTimer *time.Timer
}

// moveEvent is a move as logged: enough to replay it exactly. Tiles and
// Exchanged hold one text per tile, as the variant writes the letter
// ("CH"; lowercase for a blank standing for it, "?" for an undesignated
// blank, "." for a square played through), so a log does not depend on
// the order in which the variant file lists its tiles.
type moveEvent struct {
	Seat      int      `json:"seat"`
	Kind      string   `json:"kind"`
	Row       int      `json:"row,omitempty"`
	Col       int      `json:"col,omitempty"`
	Down      bool     `json:"down,omitempty"`
	Tiles     []string `json:"tiles,omitempty"`
	Exchanged []string `json:"exchanged,omitempty"`
	Score     int      `json:"score"`
	Notation  string   `json:"notation"`
}

// joinEvent is a seat taken by a person, as logged.
type joinEvent struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Token string `json:"token_sha256"`
	// Account is the key of the signed-in account that took the seat,
	// Rating its rating then (none: a guest, or no rating yet), and
	// Provisional set when that rating was provisional.
	Account     string `json:"account,omitempty"`
	Rating      int    `json:"rating,omitempty"`
	Provisional bool   `json:"provisional,omitempty"`
}

var kindNames = map[move.Kind]string{move.Place: "place", move.Exchange: "exchange", move.Pass: "pass"}

// playedThrough is the text of move.PlayThrough in a logged move.
const playedThrough = "."

func encodeMove(a *alphabet.Alphabet, seatNo int, m *move.Move, notation string) moveEvent {
	e := moveEvent{Seat: seatNo, Kind: kindNames[m.Kind], Score: m.Score, Notation: notation}
	if m.Kind == move.Place {
		e.Row, e.Col, e.Down = m.Row, m.Col, m.Dir == board.Down
		for _, t := range m.Tiles {
			if t == move.PlayThrough {
				e.Tiles = append(e.Tiles, playedThrough)
			} else {
				e.Tiles = append(e.Tiles, a.String(t))
			}
		}
	}
	for _, t := range m.Exchanged {
		e.Exchanged = append(e.Exchanged, a.String(t))
	}
	return e
}

func (e *moveEvent) decode(a *alphabet.Alphabet) (move.Move, error) {
	var m move.Move
	tile := func(s string) (alphabet.Tile, error) {
		t, err := a.Letter(s, alphabet.WithBlanks)
		if err != nil {
			return 0, fmt.Errorf("tile %q: %w", s, err)
		}
		return t, nil
	}
	switch e.Kind {
	case "place":
		m.Kind, m.Row, m.Col = move.Place, e.Row, e.Col
		if e.Down {
			m.Dir = board.Down
		}
		for _, s := range e.Tiles {
			t := move.PlayThrough
			if s != playedThrough {
				var err error
				if t, err = tile(s); err != nil {
					return m, err
				}
			}
			m.Tiles = append(m.Tiles, t)
		}
	case "exchange":
		m.Kind = move.Exchange
		for _, s := range e.Exchanged {
			t, err := tile(s)
			if err != nil {
				return m, err
			}
			m.Exchanged = append(m.Exchanged, t)
		}
	case "pass":
		m.Kind = move.Pass
	default:
		return m, fmt.Errorf("unknown move kind %q", e.Kind)
	}
	return m, nil
}

func hashToken(tok string) [sha256.Size]byte { return sha256.Sum256([]byte(tok)) }

// seatOf returns the seat whose token is tok, or -1.
func (l *live) seatOf(tok string) int {
	if tok == "" {
		return -1
	}
	h := hashToken(tok)
	found := -1
	for i, s := range l.seat {
		if s.taken && s.level == "" && subtle.ConstantTimeCompare(h[:], s.hash[:]) == 1 {
			found = i
		}
		for _, k := range s.keys {
			if subtle.ConstantTimeCompare(h[:], k[:]) == 1 {
				found = i
			}
		}
	}
	return found
}

// started reports whether every seat is taken (Empezó in Guberman et al., section 3).
func (l *live) started() bool {
	for _, s := range l.seat {
		if !s.taken {
			return false
		}
	}
	return true
}

// connected counts the seats taken (ClientesConectados in Guberman et al.,
// section 3).
func (l *live) connected() int {
	n := 0
	for _, s := range l.seat {
		if s.taken {
			n++
		}
	}
	return n
}

func (l *live) touch() {
	close(l.changed)
	l.changed = make(chan struct{})
}

func (l *live) broadcast(n Notification) { l.log.push(-1, n) }

// atEvent sets the log position of event seq: the notifications that
// follow are that event's.
func (l *live) atEvent(seq int) { l.log.at(seq + 2) }

// rackTiles renders a rack for the API.
func (l *live) rackTiles(r *alphabet.Rack) []Tile {
	var out []Tile
	for _, t := range r.Tiles() {
		out = append(out, l.tile(t))
	}
	if out == nil {
		out = []Tile{}
	}
	return out
}

func (l *live) tile(t alphabet.Tile) Tile { return tileOf(l.v, t) }

// tileOf is tile t of variant v as the API shows it.
func tileOf(v *variant.Variant, t alphabet.Tile) Tile {
	if t == alphabet.Blank {
		return Tile{Letter: "?", Blank: true}
	}
	return Tile{Letter: v.Alphabet.String(t.Letter()), Blank: t.IsBlanked(), Score: v.Score(t)}
}

// placedTiles are the new tiles of placement m, on their squares, as the
// API shows them.
func placedTiles(v *variant.Variant, m *move.Move) []Tile {
	sq, ts := m.Placed()
	out := make([]Tile, len(ts))
	for k, t := range ts {
		out[k] = tileOf(v, t)
		out[k].Row, out[k].Col = intp(sq[k][0]), intp(sq[k][1])
	}
	return out
}

// announceStart queues the start of the game to every seat. Caller holds mu.
func (l *live) announceStart() {
	l.broadcast(Notification{Type: "started", Size: l.v.Size})
	for i := range l.seat {
		l.log.push(i, Notification{Type: "tiles", Seat: intp(i), Tiles: l.rackTiles(&l.g.Seats[i].Rack)})
	}
	l.broadcast(Notification{Type: "turn", Seat: intp(l.g.Current())})
}

// join gives a person seat i (or the first free person's seat if i < 0),
// logging it before answering. A signed-in person's seat is held by the
// account (acct, nil for a guest), whose name it takes. Caller holds mu.
func (l *live) join(ctx context.Context, i int, name string, acct *seatAccount, token string) (int, error) {
	switch {
	case l.over():
		// (Called off, or abandoned, before its seats were all taken.)
		return -1, &apiError{409, "the game is over"}
	case l.hdr.Rated && acct == nil:
		return -1, &apiError{401, "sign in to take a seat in a rated game"}
	case l.correspondence() && acct == nil:
		// A game that may wait weeks is played between accounts.
		return -1, &apiError{401, "sign in to take a seat in a game of correspondence play"}
	}
	if acct != nil {
		for j, s := range l.seat {
			if s.taken && s.account == acct.key && l.hdr.Rated {
				return -1, &apiError{409, fmt.Sprintf("your account holds seat %d of this rated game already", j)}
			}
		}
		if l.hdr.Tournament == "" {
			// (A tournament pairs its players whatever they block.)
			if err := l.blockedSeat(acct.blocking); err != nil {
				return -1, err
			}
		}
	}
	if i < 0 {
		var other int
		i, other = l.freeSeat(acct)
		switch {
		case i < 0 && other >= 0:
			// Free, but kept for someone else.
			return -1, l.mayTake(other, acct)
		case i < 0:
			return -1, &apiError{409, "every seat of this game is taken"}
		}
	}
	if i >= len(l.seat) {
		return -1, &apiError{400, fmt.Sprintf("seat %d: this game has seats 0 to %d", i, len(l.seat)-1)}
	}
	s := l.seat[i]
	if s.level != "" {
		return -1, &apiError{409, fmt.Sprintf("seat %d is played by the computer", i)}
	}
	if s.taken {
		return -1, &apiError{409, fmt.Sprintf("seat %d is taken", i)}
	}
	if err := l.mayTake(i, acct); err != nil {
		return -1, err
	}
	if name == "" {
		name = s.name
	}
	h := hashToken(token)
	ev := joinEvent{Seat: i, Name: name, Token: hex.EncodeToString(h[:])}
	if acct != nil {
		ev.Name, ev.Account, ev.Rating, ev.Provisional = acct.name, acct.key, acct.rating, acct.provisional
	}
	if err := l.append(ctx, "join", ev); err != nil {
		return -1, err
	}
	l.applyJoin(ev, h)
	if acct != nil {
		// The account's list of games (GET /api/me/games); the seat is
		// taken whether or not the list records it.
		g := store.AccountGame{Game: l.hdr.ID, Seat: i, Joined: l.evTime}
		if err := l.srv.store.AddAccountGame(ctx, acct.key, g); err != nil {
			l.srv.logf("game %s: %v", l.hdr.ID, err)
		}
	}
	l.pushStart(i)
	return i, nil
}

func (l *live) applyJoin(ev joinEvent, h [sha256.Size]byte) {
	s := l.seat[ev.Seat]
	s.taken, s.hash, s.name, s.account, s.rating, s.provisional = true, h, ev.Name, ev.Account, ev.Rating, ev.Provisional
	l.g.Seats[ev.Seat].Name = ev.Name
	l.log.push(ev.Seat, Notification{Type: "seat", Seat: intp(ev.Seat)})
	if l.started() {
		// The first clock starts with the last seat taken.
		l.turnStart = l.evTime
		l.announceStart()
	}
	l.touch()
}

// append writes an event to the store. Caller holds mu.
func (l *live) append(ctx context.Context, kind string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("game %s: encode %s event: %w", l.hdr.ID, kind, err)
	}
	t0 := time.Now()
	e := store.Event{Seq: l.seq, Kind: kind, Data: string(data), Time: t0.UTC()}
	if l.srv.shared != nil {
		err = l.appendShared(ctx, kind, v, e)
	} else {
		err = l.srv.store.Append(ctx, l.hdr.ID, e)
	}
	l.srv.count.appendNanos.Add(int64(time.Since(t0)))
	l.srv.count.appends.Add(1)
	var ae *apiError
	if errors.As(err, &ae) {
		return err
	}
	if err != nil {
		return fmt.Errorf("game %s: %w", l.hdr.ID, err)
	}
	l.atEvent(l.seq)
	l.seq++
	if activity(kind) {
		l.active = time.Now()
	}
	l.evTime = e.Time
	return nil
}

// activity reports whether an event of the kind keeps a game from
// expiring as idle: any but a chat line (the players' or the watchers')
// and a seat's further token.
func activity(kind string) bool {
	return kind != "chat" && kind != "kibitz" && kind != "key" && kind != "revoke" && kind != "note"
}

// play checks, logs, applies and announces a move by seat i, and
// returns its turn in the game's history. A refused move changes nothing
// and is reported to seat i alone. Caller holds mu.
func (l *live) play(ctx context.Context, i int, m move.Move) (*game.Turn, error) {
	if err := l.mayMove(i); err != nil {
		return nil, err
	}
	if l.flagged(i, time.Now()) {
		if err := l.timeOut(ctx, i); err != nil {
			return nil, err
		}
		return nil, &apiError{409, "your time ran out: the game is over"}
	}
	if err := l.g.Check(&m); err != nil {
		return nil, l.reject(i, &apiError{422, err.Error()})
	}
	notation := m.String(l.g.Board)
	ev := encodeMove(l.v.Alphabet, i, &m, notation)
	if err := l.append(ctx, "move", ev); err != nil {
		return nil, err
	}
	if err := l.apply(i, m); err != nil {
		// The move was checked just above: this cannot happen unless
		// the engine disagrees with itself.
		return nil, fmt.Errorf("game %s: logged move %s failed to apply: %w", l.hdr.ID, notation, err)
	}
	if l.seat[i].level != "" {
		l.srv.count.movesComputer.Add(1)
	} else {
		l.srv.count.movesPerson.Add(1)
	}
	l.afterChange()
	l.pushTurn(i)
	return &l.g.History[l.lastPlayed()], nil
}

// reject reports a refused request of seat i to that seat's readers and
// returns err. Caller holds mu.
func (l *live) reject(i int, err *apiError) error {
	l.log.reject(i, short(err.msg, maxMessage))
	l.touch()
	return err
}

// mayMove refuses a move by seat i when the game has not started, is
// over, or another seat is on turn (before the move is even read, so the
// answer is 409 whatever the move). Caller holds mu.
func (l *live) mayMove(i int) error {
	switch {
	case !l.started():
		return l.reject(i, &apiError{409, "the game has not started: seats are still free"})
	case l.over():
		return l.reject(i, &apiError{409, "the game is over"})
	case l.g.Current() != i:
		return l.reject(i, &apiError{409, fmt.Sprintf("it is seat %d's turn, not yours", l.g.Current())})
	}
	return nil
}

// over reports whether the game has ended: by the rules, or abandoned.
func (l *live) over() bool { return l.g.Over() || l.abandoned || l.imported }

func (l *live) lastPlayed() int {
	for k := len(l.g.History) - 1; k >= 0; k-- {
		if l.g.History[k].Kind == game.Played {
			return k
		}
	}
	return -1
}

// apply plays a move on the engine and queues its notifications.
func (l *live) apply(i int, m move.Move) error {
	before := len(l.g.History)
	if err := l.g.Play(m); err != nil {
		return err
	}
	l.charge(i, l.evTime)
	l.credit(i)
	if l.g.Over() {
		if err := l.penalize(); err != nil {
			return err
		}
	}
	t := l.g.History[before]
	switch t.Move.Kind {
	case move.Place:
		sq, ts := t.Move.Placed()
		tiles := make([]Tile, len(ts))
		for k, tl := range ts {
			tiles[k] = l.tile(tl)
			tiles[k].Row, tiles[k].Col = intp(sq[k][0]), intp(sq[k][1])
		}
		l.broadcast(Notification{Type: "placed", Seat: intp(i), Move: t.Notation, Tiles: tiles})
		l.broadcast(Notification{Type: "points", Seat: intp(i), Points: intp(t.Points), Total: intp(t.Total)})
	case move.Exchange:
		l.broadcast(Notification{Type: "exchange", Seat: intp(i), Count: len(t.Move.Exchanged)})
	case move.Pass:
		l.broadcast(Notification{Type: "pass", Seat: intp(i)})
	}
	if len(t.Drawn) > 0 {
		drawn := make([]Tile, len(t.Drawn))
		for k, tl := range t.Drawn {
			drawn[k] = l.tile(tl)
		}
		l.log.push(i, Notification{Type: "tiles", Seat: intp(i), Tiles: drawn})
	}
	if l.g.Over() {
		l.announceOver(before + 1)
	} else {
		l.broadcast(Notification{Type: "turn", Seat: intp(l.g.Current())})
	}
	l.touch()
	return nil
}

// announceOver announces the end of the game, with the adjustments of
// the history from entry from on. Caller holds mu.
func (l *live) announceOver(from int) {
	n := Notification{Type: "over", Winners: l.g.Winners()}
	for _, h := range l.g.History[from:] {
		n.Adjustments = append(n.Adjustments, Adjustment{Seat: h.Player, Points: h.Points, Total: h.Total,
			Rack: l.v.Alphabet.RackString(&h.Rack)})
	}
	for _, p := range l.g.Seats {
		n.Scores = append(n.Scores, p.Score)
	}
	l.broadcast(n)
}

// afterChange marks a finished game in the store and wakes the computer
// if it is on turn. Caller holds mu.
func (l *live) afterChange() {
	if l.over() {
		l.srv.untrack(l)
		if !l.hdr.Finished {
			// A game is marked finished once its result is recorded
			// (for its players' pages, their ratings, its tournament):
			// until then a restart rebuilds it and records it.
			if err := l.recordGame(); err != nil {
				l.srv.logf("game %s: record the result: %v", l.hdr.ID, err)
			} else if err := l.recordTournament(); err != nil {
				l.srv.logf("game %s: %v", l.hdr.ID, err)
			} else if err := l.srv.store.Finish(context.Background(), l.hdr.ID); err != nil {
				l.srv.logf("game %s: mark finished: %v", l.hdr.ID, err)
			} else {
				l.hdr.Finished = true
				l.srv.forget(l.hdr.ID)
				l.analyseFinished()
			}
		}
		if l.clockTimer != nil {
			l.clockTimer.Stop()
			l.clockTimer = nil
		}
		return
	}
	l.schedule()
	l.armClock()
}

// schedule starts the computer's turn if a computer seat is on turn.
// Caller holds mu.
func (l *live) schedule() {
	if l.thinking || !l.started() || l.over() || l.srv.closing() || l.srv.shared != nil && !l.botMine {
		return
	}
	cur := l.g.Current()
	s := l.seat[cur]
	if s.level == "" {
		return
	}
	l.thinking = true
	moves := l.g.MovesPlayed()
	l.srv.wg.Add(1)
	go l.think(cur, moves, l.takebacks)
}

// think lets computer seat i choose and play its move in the position
// after moves moves and takebacks takebacks: if either count changed
// meanwhile, the position is another one and the choice is dropped.
func (l *live) think(i, moves, takebacks int) {
	defer l.srv.wg.Done()
	done := func() {
		l.mu.Lock()
		l.thinking = false
		l.schedule()
		l.mu.Unlock()
	}
	select {
	case <-time.After(l.srv.cfg.ThinkTime):
	case <-l.srv.ctx.Done():
		return
	}
	release, ok := l.srv.thinker(l.computersOnly())
	if !ok {
		return
	}
	l.mu.Lock()
	if l.over() || l.g.MovesPlayed() != moves || l.takebacks != takebacks || l.g.Current() != i {
		l.mu.Unlock()
		release()
		done()
		return
	}
	if kind := l.computerAnswer(); kind != "" {
		// A phony is challenged, a valid play that went out accepted,
		// before anything else; done schedules the move that follows.
		if err := l.answer(context.Background(), i, kind); err != nil {
			l.srv.logf("game %s seat %d: %s: %v", l.hdr.ID, i, kind, err)
		}
		l.mu.Unlock()
		release()
		done()
		return
	}
	view := player.ViewOf(l.g, i)
	level := l.seat[i].level
	l.mu.Unlock()
	gen := l.lr.getGen()
	// A fresh player per move, seeded by the game, seat and move number:
	// the computer's choices are reproducible and need no saved state.
	bot, err := player.New(level, player.Options{Variant: l.v, Lexicon: l.lex, Generator: gen,
		Seed:   l.hdr.Seed ^ (uint64(i+1) << 56) ^ uint64(moves)*0x9e3779b97f4a7c15,
		Budget: l.srv.cfg.MoveBudget, EndgameTime: l.srv.cfg.MoveBudget})
	var m move.Move
	if err == nil {
		// The choosing thread's CPU time is counted apart, so the
		// server's own cost per move can be told from the computer's.
		runtime.LockOSThread()
		t0, ok0 := threadCPU()
		m = bot.Choose(view)
		if t1, ok1 := threadCPU(); ok0 && ok1 {
			l.srv.count.botNanos.Add(int64(t1 - t0))
		}
		runtime.UnlockOSThread()
	} else {
		l.srv.logf("game %s seat %d: %v; passing", l.hdr.ID, i, err)
		m = move.Move{Kind: move.Pass}
	}
	l.lr.putGen(gen)
	release()
	l.mu.Lock()
	if !l.over() && l.g.MovesPlayed() == moves && l.takebacks == takebacks && !l.srv.closing() {
		if _, err := l.play(context.Background(), i, m); err != nil {
			var ae *apiError
			if errors.As(err, &ae) && ae.code == 422 {
				l.srv.logf("game %s seat %d: computer move refused (%v); passing", l.hdr.ID, i, err)
				if _, err := l.play(context.Background(), i, move.Move{Kind: move.Pass}); err != nil {
					l.srv.logf("game %s seat %d: pass: %v", l.hdr.ID, i, err)
				}
			} else {
				l.srv.logf("game %s seat %d: %v", l.hdr.ID, i, err)
			}
		}
	}
	l.mu.Unlock()
	done()
}

// computersOnly says whether only computers play the game. Its seats do
// not change, so any caller may ask.
func (l *live) computersOnly() bool { return l.againstComputerAlone(-1) }

// againstComputerAlone says whether every seat but me is the computer's
// (seats do not change, so any caller may ask).
func (l *live) againstComputerAlone(me int) bool {
	for i, st := range l.hdr.Seats {
		if i != me && st.Level == "" {
			return false
		}
	}
	return true
}

// thinker waits for a token to choose a computer's move, and for a game
// that only computers play (botsOnly) a token of their share too; it
// returns the function that gives them back, or false when the server
// closes meanwhile.
func (s *Server) thinker(botsOnly bool) (release func(), ok bool) {
	if botsOnly {
		select {
		case s.botsOnly <- struct{}{}:
		case <-s.ctx.Done():
			return nil, false
		}
	}
	select {
	case s.sem <- struct{}{}:
	case <-s.ctx.Done():
		if botsOnly {
			<-s.botsOnly
		}
		return nil, false
	}
	return func() {
		<-s.sem
		if botsOnly {
			<-s.botsOnly
		}
	}, true
}
