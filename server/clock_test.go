package server

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"atril/move"
	"atril/store"
)

// createTimed creates a game of two people with a clock and takes both
// seats.
func (e *testEnv) createTimed(seconds, overtime int) (string, []string) {
	e.t.Helper()
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 42,
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}},
		"clock": ClockRequest{Seconds: seconds, Overtime: overtime}}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		e.t.Fatalf("create with a clock: %d", code)
	}
	a, b := e.join(cr.ID), e.join(cr.ID)
	return cr.ID, []string{a.Token, b.Token}
}

// restartSame stops the server, starts another on the same store and
// checks that it shows game id as st; it returns the new server.
func (e *testEnv) restartSame(st0 store.Store, id string, st *State) *testEnv {
	e.t.Helper()
	// The watchers are counted live, not kept with the game.
	was := *st
	was.Watching, was.WatchingNames = 0, nil
	before, _ := json.Marshal(&was)
	e.hs.Close()
	e.srv.Close()
	e2 := newEnv(e.t, st0)
	now := e2.state(id, "")
	now.Watching, now.WatchingNames = 0, nil
	after, _ := json.Marshal(now)
	if !bytes.Equal(before, after) {
		e.t.Errorf("state differs after restart:\n%s\n%s", before, after)
	}
	return e2
}

// waitOver polls the game's state until it is over.
func (e *testEnv) waitOver(id string, within time.Duration) *State {
	e.t.Helper()
	deadline := time.Now().Add(within)
	for {
		st := e.state(id, "")
		if st.Over {
			return st
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("game not over after %v: %+v", within, st.Clock)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestClockBadRequests(t *testing.T) {
	e := newEnv(t, nil)
	for _, c := range []ClockRequest{{Overtime: 60}, {Seconds: MaxClockSeconds + 1}, {Seconds: 60, Overtime: -1}, {Seconds: 60, Overtime: MaxOvertimeSeconds + 1}} {
		body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "clock": c}
		var eb errorBody
		if code := e.do("POST", "/api/games", "", body, &eb); code != 400 || !strings.Contains(eb.Error, "clock") {
			t.Errorf("clock %+v: %d %q, want 400 about the clock", c, code, eb.Error)
		}
	}
	// An untimed game shows no clock; a computer's seat has none.
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "computer"}},
		"clock": ClockRequest{Seconds: 600, Overtime: 60}}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	st := e.state(cr.ID, "")
	if st.Clock == nil || st.Clock.Seconds[0] != 600 || st.Clock.Seconds[1] != 0 || st.Clock.Overtime[0] != 60 ||
		st.Clock.Running != -1 || st.Clock.LeftMs[0] != 600_000 {
		t.Errorf("clock before the start: %+v", st.Clock)
	}
	if st := e.state(e.create(SeatRequest{Kind: "human"}, SeatRequest{Kind: "human"}), ""); st.Clock != nil {
		t.Errorf("untimed game shows a clock: %+v", st.Clock)
	}
}

// TestClockOvertimePenalty plays a game whose first player goes into
// overtime: the clock shows it, the game ends with a penalty of 10
// points for the minute begun, and a restart rebuilds the same clocks.
func TestClockOvertimePenalty(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	id, toks := e.createTimed(1, 60)
	st := e.state(id, "")
	if st.Clock == nil || st.Clock.Running != 0 || st.Clock.LeftMs[0] > 1000 || st.Clock.LeftMs[1] != 1000 {
		t.Fatalf("clock at the start: %+v", st.Clock)
	}
	time.Sleep(1200 * time.Millisecond)
	if st := e.state(id, ""); st.Over || st.Clock.LeftMs[0] >= -150 || st.Clock.Running != 0 {
		t.Fatalf("after 1.2 s: over %v, clock %+v", st.Over, st.Clock)
	}
	// Everyone passes until the game ends.
	for k := 0; k < 20 && !e.state(id, "").Over; k++ {
		if code := e.do("POST", "/api/games/"+id+"/move", toks[k%2], map[string]any{"kind": "pass"}, nil); code != 200 {
			t.Fatalf("pass %d: %d", k, code)
		}
	}
	st = e.state(id, "")
	if !st.Over || st.TimedOut != nil {
		t.Fatalf("over %v, timed out %v", st.Over, st.TimedOut)
	}
	last := st.History[len(st.History)-1]
	if last.Kind != "time_penalty" || last.Seat != 0 || last.Points != -OvertimePenalty {
		t.Errorf("last entry %+v, want seat 0's time penalty of %d", last, OvertimePenalty)
	}
	for _, h := range st.History[:len(st.History)-1] {
		if h.Kind == "time_penalty" {
			t.Errorf("a second time penalty: %+v", h)
		}
	}
	// The passes end with the racks counted, then the penalty.
	if st.Clock.Running != -1 || st.Clock.LeftMs[0] >= -150 || st.Clock.LeftMs[1] <= 0 {
		t.Errorf("clock at the end: %+v", st.Clock)
	}
	resp, err := http.Get(e.url + "/api/games/" + id + "/gcg")
	if err != nil {
		t.Fatal(err)
	}
	gcg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(gcg, []byte(" (time) -10 ")) {
		t.Errorf("no time penalty in the GCG:\n%s", gcg)
	}
	e.restartSame(st0, id, st)
}

// TestClockLossOnTime lets the first player's time and overtime run
// out: the game ends on time without a request, a late move is refused,
// and a restart rebuilds the same end.
func TestClockLossOnTime(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	id, toks := e.createTimed(1, 0)
	ws := e.drain(id, toks[1])
	st := e.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 0 || len(st.Winners) != 1 || st.Winners[0] != 1 {
		t.Fatalf("timed out %v winners %v, want seat 0 out and seat 1 the winner", st.TimedOut, st.Winners)
	}
	if st.Clock.Running != -1 || st.Clock.LeftMs[0] != 0 {
		t.Errorf("clock after the loss on time: %+v (want no time left, none running)", st.Clock)
	}
	for _, h := range st.History {
		if h.Kind == "time_penalty" {
			t.Errorf("a penalty without overtime: %+v", h)
		}
	}
	ws = append(ws, e.drain(id, toks[1])...)
	if got := types(ws); !strings.HasSuffix(got, "timeout,over") {
		t.Errorf("seat 1 notifications %s, want the loss on time and the end", got)
	}
	if code := e.do("POST", "/api/games/"+id+"/move", toks[0], map[string]any{"kind": "pass"}, nil); code != 409 {
		t.Errorf("move after the loss on time: %d, want 409", code)
	}
	e.restartSame(st0, id, st)
}

// TestClockRunsOutWhileDown: a game whose player ran out of time while
// no server ran ends on time when a server starts, with the overtime
// allowed charged and no more.
func TestClockRunsOutWhileDown(t *testing.T) {
	st0 := newStore(t)
	// Nobody can wait a minute in a test: the game is written to the
	// store as if both seats had been taken three minutes ago.
	id := "00112233445566aa"
	storeStarted(t, st0, id, time.Now().Add(-3*time.Minute),
		store.Seat{Name: "Ana", Seconds: 1, Overtime: 60}, store.Seat{Name: "Bo", Seconds: 1, Overtime: 60})
	e2 := newEnv(t, st0)
	st := e2.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 0 {
		t.Fatalf("timed out %v, want seat 0", st.TimedOut)
	}
	last := st.History[len(st.History)-1]
	if last.Kind != "time_penalty" || last.Points != -OvertimePenalty || st.Clock.LeftMs[0] != -60_000 {
		t.Errorf("last entry %+v, clock %+v: want one minute of overtime charged", last, st.Clock)
	}
}

// storeStarted writes to st0 a game of the given seats whose seats were
// all taken at time at, as a server would have.
func storeStarted(t *testing.T, st0 store.Store, id string, at time.Time, seats ...store.Seat) {
	t.Helper()
	ctx := context.Background()
	hdr := &store.Game{ID: id, Variant: "english", Lexicon: "en-sowpods", Seed: 42, Created: at.UTC(), Seats: seats}
	if err := st0.CreateGame(ctx, hdr); err != nil {
		t.Fatal(err)
	}
	for i := range seats {
		h := hashToken(fmt.Sprint("token", i))
		data, _ := json.Marshal(joinEvent{Seat: i, Name: seats[i].Name, Token: hex.EncodeToString(h[:])})
		if err := st0.Append(ctx, id, store.Event{Seq: i, Kind: "join", Data: string(data), Time: at.UTC()}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestClockChatKeepsFlag: a chat line (an event that is not a move) does
// not stop the flag from falling.
func TestClockChatKeepsFlag(t *testing.T) {
	e := newEnv(t, nil)
	id, toks := e.createTimed(1, 0)
	if code := e.do("POST", "/api/games/"+id+"/chat", toks[0], map[string]any{"text": "hi"}, nil); code != 200 {
		t.Fatalf("chat: %d", code)
	}
	st := e.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 0 {
		t.Errorf("timed out %v, want seat 0", st.TimedOut)
	}
}

// TestClockResignPaysOvertime: with three seats, a resignation ends the
// game with the overtime used paid, which decides among the others.
func TestClockResignPaysOvertime(t *testing.T) {
	e := newEnv(t, nil)
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 42, "clock": ClockRequest{Seconds: 1, Overtime: 60},
		"seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}, {Kind: "human"}}}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	toks := []string{e.join(cr.ID).Token, e.join(cr.ID).Token, e.join(cr.ID).Token}
	time.Sleep(1200 * time.Millisecond)
	for _, tok := range toks[:2] {
		if code := e.do("POST", "/api/games/"+cr.ID+"/move", tok, map[string]any{"kind": "pass"}, nil); code != 200 {
			t.Fatalf("pass: %d", code)
		}
	}
	if code := e.do("POST", "/api/games/"+cr.ID+"/resign", toks[2], nil, nil); code != 200 {
		t.Fatalf("resign: %d", code)
	}
	st := e.state(cr.ID, "")
	last := st.History[len(st.History)-1]
	if last.Kind != "time_penalty" || last.Seat != 0 || last.Points != -OvertimePenalty || len(st.Winners) != 1 || st.Winners[0] != 1 {
		t.Errorf("after the resignation: last entry %+v, winners %v; want seat 0's penalty and seat 1 the winner", last, st.Winners)
	}
}

// TestClockMoveAtTheFlag: a move accepted just before the flag falls is
// charged no more than the seat's limit.
func TestClockMoveAtTheFlag(t *testing.T) {
	e := newEnv(t, nil)
	id, _ := e.createTimed(60, 0)
	e.srv.mu.Lock()
	l := e.srv.games[id]
	e.srv.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.turnStart = time.Now().Add(-60*time.Second + 50*time.Microsecond)
	if _, err := l.play(context.Background(), 0, move.Move{Kind: move.Pass}); err != nil {
		t.Skipf("the pass came too late on this machine: %v", err)
	}
	if l.used[0] > l.limit(0) {
		t.Errorf("used %v past the limit %v", l.used[0], l.limit(0))
	}
}

// TestClockIncrement checks a clock with an increment: requests out of
// bounds are refused, each move adds the increment to the seat's time
// (a seat of one second that passes at once outlives that second), the
// loss on time still comes, and a restart and a rematch keep it.
func TestClockIncrement(t *testing.T) {
	st0 := newStore(t)
	e := newEnv(t, st0)
	for _, c := range []ClockRequest{{Seconds: 60, Increment: MaxIncrementSeconds + 1}, {Seconds: 60, Increment: -1}, {PerMove: 3600, Increment: 5}} {
		body := map[string]any{"variant": "english", "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}}, "clock": c}
		var eb errorBody
		if code := e.do("POST", "/api/games", "", body, &eb); code != 400 || !strings.Contains(eb.Error, "clock") {
			t.Errorf("clock %+v: %d %q, want 400 about the clock", c, code, eb.Error)
		}
	}
	var cr CreateResponse
	body := map[string]any{"variant": "english", "seed": 42, "seats": []SeatRequest{{Kind: "human"}, {Kind: "human"}},
		"clock": ClockRequest{Seconds: 1, Increment: 2}}
	if code := e.do("POST", "/api/games", "", body, &cr); code != 201 {
		t.Fatalf("create: %d", code)
	}
	id := cr.ID
	toks := []string{e.join(id).Token, e.join(id).Token}
	for k := range 2 {
		if code := e.do("POST", "/api/games/"+id+"/move", toks[k], map[string]any{"kind": "pass"}, nil); code != 200 {
			t.Fatalf("pass %d: %d", k, code)
		}
	}
	st := e.state(id, "")
	if c := st.Clock; c == nil || len(c.Increment) != 2 || c.Increment[0] != 2 || c.Increment[1] != 2 ||
		c.Running != 0 || c.LeftMs[0] <= 2000 || c.LeftMs[0] > 3000 || c.LeftMs[1] <= 2000 || c.LeftMs[1] > 3000 {
		t.Fatalf("clock after a pass each: %+v, want 2 to 3 s left each and increments of 2 s", st.Clock)
	}
	time.Sleep(1500 * time.Millisecond)
	if st := e.state(id, ""); st.Over {
		t.Fatalf("lost on time within its second and its increment")
	}
	st = e.waitOver(id, 5*time.Second)
	if st.TimedOut == nil || *st.TimedOut != 0 || st.Clock.LeftMs[0] != 0 {
		t.Fatalf("timed out %v, clock %+v: want seat 0 out of time", st.TimedOut, st.Clock)
	}
	e = e.restartSame(st0, id, st)
	var rm struct {
		ID string `json:"id"`
	}
	if code := e.do("POST", "/api/games/"+id+"/rematch", toks[0], nil, &rm); code != 200 && code != 201 {
		t.Fatalf("rematch: %d", code)
	}
	if c := e.state(rm.ID, "").Clock; c == nil || len(c.Increment) != 2 || c.Increment[0] != 2 || c.Seconds[0] != 1 {
		t.Errorf("the rematch's clock: %+v, want the same increment", c)
	}
}

// appendsFailing is a store whose appends to a game's log fail while
// fail is set, as a store out of reach for a while.
type appendsFailing struct {
	store.Store
	fail atomic.Bool
}

func (f *appendsFailing) Append(ctx context.Context, id string, e store.Event) error {
	if f.fail.Load() {
		return errors.New("append refused for the test")
	}
	return f.Store.Append(ctx, id, e)
}

// TestClockFlagAfterStoreFailure: a loss on time the store failed to
// record when the flag fell is recorded once the store takes writes
// again, with no request (the seat out of time need never move).
func TestClockFlagAfterStoreFailure(t *testing.T) {
	st := &appendsFailing{Store: newStore(t)}
	e := newEnv(t, st)
	id, _ := e.createTimed(1, 0)
	st.fail.Store(true)
	time.Sleep(1300 * time.Millisecond)
	if s := e.state(id, ""); s.Over {
		t.Fatalf("the loss on time was recorded by a store refusing writes")
	}
	st.fail.Store(false)
	s := e.waitOver(id, 3*flagRetry)
	if s.TimedOut == nil || *s.TimedOut != 0 {
		t.Errorf("timed out %v, want seat 0", s.TimedOut)
	}
}
