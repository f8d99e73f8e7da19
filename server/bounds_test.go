package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"atril/store"
)

// TestBoundsHoldUnderConcurrentRequests: requests sent at once, each of
// which would add one to what an account holds, never take it past its
// bound (they used to be counted in one store call and written in
// another, so that all of them could pass the count): as many succeed
// as there is room for, the others get the answer of a full list.
func TestBoundsHoldUnderConcurrentRequests(t *testing.T) {
	ctx := context.Background()
	const writers = 12
	clock := ClockRequest{PerMove: 86400}
	for _, tc := range []struct {
		name string
		// bound is the most the account may hold, before what it holds
		// when the writers come (fill, when set, adds it).
		bound, before int
		fill          func(e *testEnv, me *http.Client)
		// request is the i-th writer's request, about the account named
		// other.
		request func(i int, other string) (path string, body any)
		code    int // of the refusals
		want    string
		// count is what the account of key holds at the end.
		count func(e *testEnv, key string) (int, error)
	}{
		{"follows", maxFollows, maxFollows - 2, func(e *testEnv, me *http.Client) {
			fillList(e, me, "/api/me/follows", maxFollows-2)
		}, func(_ int, other string) (string, any) {
			return "/api/me/follows", map[string]string{"name": other}
		}, 409, fmt.Sprintf("you follow %d players, as many as you may", maxFollows), func(e *testEnv, key string) (int, error) {
			fs, err := e.st.Follows(ctx, key)
			return len(fs), err
		}},
		{"blocks", maxBlocks, maxBlocks - 2, func(e *testEnv, me *http.Client) {
			fillList(e, me, "/api/me/blocks", maxBlocks-2)
		}, func(_ int, other string) (string, any) {
			return "/api/me/blocks", map[string]string{"name": other}
		}, 409, fmt.Sprintf("you block %d players, as many as you may", maxBlocks), func(e *testEnv, key string) (int, error) {
			bs, err := e.st.Blocks(ctx, key)
			return len(bs), err
		}},
		{"open reports", maxOpenReports, 0, nil, func(i int, other string) (string, any) {
			return "/api/players/" + other + "/report", map[string]string{"reason": fmt.Sprint("spam ", i)}
		}, 409, fmt.Sprintf("you have %d reports waiting", maxOpenReports), func(e *testEnv, key string) (int, error) {
			return e.st.OpenReportsBy(ctx, key)
		}},
		{"new contacts", NewContactsPerDay, NewContactsPerDay - 3, func(e *testEnv, me *http.Client) {
			for i := range NewContactsPerDay - 3 {
				name := fmt.Sprintf("Contact%d", i)
				e.signUp(browser(t), name, "battery staple")
				if code := e.doWith(me, "POST", "/api/me/messages/"+name, "", map[string]string{"text": "hello"}, nil); code != 201 {
					t.Fatalf("message to %s: %d", name, code)
				}
			}
		}, func(_ int, other string) (string, any) {
			return "/api/me/messages/" + other, map[string]string{"text": "hello"}
		}, 429, fmt.Sprintf("you wrote to %d players who have not answered", NewContactsPerDay), func(e *testEnv, key string) (int, error) {
			return e.st.NewContacts(ctx, key, time.Now().Add(-time.Hour))
		}},
		{"tournaments directed", maxDirecting, 0, nil, func(i int, _ string) (string, any) {
			return "/api/tournaments", map[string]any{"name": fmt.Sprint("Open ", i), "clock": ClockRequest{Seconds: 600}}
		}, 409, fmt.Sprintf("you direct %d tournaments not over yet", maxDirecting), func(e *testEnv, key string) (int, error) {
			open, _, err := e.st.ListTournaments(ctx, 100)
			return len(open), err
		}},
		{"invitations from one account", maxInvitesFrom, 0, nil, func(_ int, _ string) (string, any) {
			// Every writer invites the same account.
			return "/api/games", map[string]any{"variant": "english", "clock": clock,
				"seats": []SeatRequest{{Kind: "human"}, {Kind: "human", Invite: "Other0"}}}
		}, 409, fmt.Sprintf("has %d of your invitations waiting", maxInvitesFrom), func(e *testEnv, key string) (int, error) {
			return len(e.srv.pendingInvitations(AccountKey("Other0"))), nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, newStore(t))
			me := browser(t)
			e.signUp(me, "Owner", "correct horse")
			var others []string
			for i := range writers {
				name := fmt.Sprintf("Other%d", i)
				e.signUp(browser(t), name, "battery staple")
				others = append(others, name)
			}
			if tc.fill != nil {
				tc.fill(e, me)
			}
			codes := make([]int, writers)
			errs := make([]errorBody, writers)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range writers {
				wg.Go(func() {
					path, body := tc.request(i, others[i])
					<-start
					codes[i] = e.doWith(me, "POST", path, "", body, &errs[i])
				})
			}
			close(start)
			wg.Wait()
			ok := 0
			for i, code := range codes {
				switch {
				case code/100 == 2:
					ok++
				case code != tc.code || !strings.Contains(errs[i].Error, tc.want):
					t.Errorf("request %d: %d %q, want %d %q", i, code, errs[i].Error, tc.code, tc.want)
				}
			}
			n, err := tc.count(e, AccountKey("Owner"))
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.bound-tc.before || n != tc.bound {
				t.Errorf("%d requests at once with room for %d: %d succeeded, the account holds %d of at most %d", writers, tc.bound-tc.before, ok, n, tc.bound)
			}
		})
	}
}

// fillList adds n accounts, made for the purpose in the store, to the
// list at path (follows, blocks) of the account signed in through c.
func fillList(e *testEnv, c *http.Client, path string, n int) {
	e.t.Helper()
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("Filler%d", i)
		if err := e.st.CreateAccount(ctx, &store.Account{Key: AccountKey(name), Name: name, Password: "pbkdf2$x", Created: time.Now()}); err != nil {
			e.t.Fatal(err)
		}
		if code := e.doWith(c, "POST", path, "", map[string]string{"name": name}, nil); code != 200 {
			e.t.Fatalf("%s %s: %d", path, name, code)
		}
	}
}
