package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"atril/internal/password"
	"atril/store"
)

func TestAccountActions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	st, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	old, err := password.Hash("old password", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateAccount(ctx, &store.Account{Key: "ana", Name: "Ana", Password: old, Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	sessions := func(n int) {
		t.Helper()
		for i := range n {
			if err := st.CreateSession(ctx, strings.Repeat(string(rune('a'+i)), 64), "ana", pwHash(t, st), time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
	}
	run := func(action, name, stdin string) (string, error) {
		var w bytes.Buffer
		in := accountInput{reason: "abuse in chat"}
		if stdin != "" {
			in.password = strings.NewReader(stdin)
		}
		err := accountAction(ctx, st, &w, action, name, in, path)
		return w.String(), err
	}
	checks := func(pw string) bool {
		t.Helper()
		a, err := st.Account(ctx, "ana")
		if err != nil {
			t.Fatal(err)
		}
		ok, err := password.Check(a.Password, pw)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	if out, err := run("show", "ＡＮＡ", ""); err != nil || out != "name     Ana\nkey      ana\ncreated  2026-01-02 03:04:05 UTC\nratings  none\n" {
		t.Errorf("show: %q, %v", out, err)
	}
	if _, err := run("show", "Bo", ""); err == nil || !strings.Contains(err.Error(), `no account is called "Bo"`) {
		t.Errorf("show of nobody: %v", err)
	}
	// Puzzle ratings and follows, when there are some.
	if err := st.CreateAccount(ctx, &store.Account{Key: "cy", Name: "Cy", Password: old, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := st.Follow(ctx, "cy", "ana", time.Now(), 0); err != nil {
		t.Fatal(err)
	}
	rate := func(a, p *store.PuzzleRating) (store.PuzzleRating, store.PuzzleRating, error) {
		na, np := *a, *p
		na.R, na.RD, np.R, np.RD = 1662.3, 290.3, 1337.7, 290.3
		return na, np, nil
	}
	if _, err := st.RecordPuzzle(ctx, "ana", &store.PuzzleRecord{Lexicon: "en-sowpods", Number: 3, Correct: true, Score: 40, Answered: time.Now()}, rate); err != nil {
		t.Fatal(err)
	}
	if out, err := run("show", "Ana", ""); err != nil || !strings.HasSuffix(out, "ratings  none\npuzzles  en-sowpods 1662 ± 290, 1 answered, 1 solved\nfollows  0 players, followed by 1\n") {
		t.Errorf("show with a puzzle rating and a follower: %q, %v", out, err)
	}
	if err := st.SetSeen(ctx, "ana", time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if out, err := run("show", "Ana", ""); err != nil || !strings.HasSuffix(out, "followed by 1\nseen     2026-03-04 05:06:07 UTC (the lobby open)\n") {
		t.Errorf("show once seen: %q, %v", out, err)
	}
	sessions(3)
	if out, err := run("signout", "ana", ""); err != nil || out != "Ana: 3 sessions ended\n" {
		t.Errorf("signout: %q, %v", out, err)
	}
	sessions(2)
	if out, err := run("password", "Ana", "chosen by the operator\n"); err != nil || out != "Ana: password set (every session ended)\n" {
		t.Errorf("password from stdin: %q, %v", out, err)
	}
	if !checks("chosen by the operator") || checks("old password") {
		t.Error("the password read from stdin is not the account's")
	}
	if n, err := st.DeleteSessions(ctx, "ana", ""); err != nil || n != 0 {
		t.Errorf("sessions left after the new password: %d, %v", n, err)
	}
	if _, err := run("password", "Ana", "short\n"); err == nil || !strings.Contains(err.Error(), "8 to 200 characters") {
		t.Errorf("a short password: %v", err)
	}
	out, err := run("password", "Ana", "")
	m := regexp.MustCompile(`^Ana: new password ([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}) `).FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("a made password: %q, %v", out, err)
	}
	if !checks(m[1]) {
		t.Errorf("the printed password %q is not the account's", m[1])
	}
	if a, b := newPassword(), newPassword(); a == b {
		t.Errorf("two made passwords are the same: %s", a)
	}

	// Suspend: the sessions end, show says why, and it is lifted.
	sessions(2)
	if out, err := run("suspend", "Ana", ""); err != nil || out != "Ana: suspended (abuse in chat); every session ended\n" {
		t.Errorf("suspend: %q, %v", out, err)
	}
	if n, err := st.DeleteSessions(ctx, "ana", ""); err != nil || n != 0 {
		t.Errorf("sessions left after the suspension: %d, %v", n, err)
	}
	if out, err := run("show", "Ana", ""); err != nil || !regexp.MustCompile(`\nsuspended since 20\d\d-\d\d-\d\d \d\d:\d\d:\d\d UTC: abuse in chat\n$`).MatchString(out) {
		t.Errorf("show of a suspended account: %q, %v", out, err)
	}
	if out, err := run("unsuspend", "Ana", ""); err != nil || out != "Ana: suspension lifted\n" {
		t.Errorf("unsuspend: %q, %v", out, err)
	}
	if out, err := run("unsuspend", "Ana", ""); err != nil || out != "Ana: not suspended\n" {
		t.Errorf("unsuspend again: %q, %v", out, err)
	}
	if out, _ := run("show", "Ana", ""); strings.Contains(out, "suspended") {
		t.Errorf("show after the suspension: %q", out)
	}
	// What the player says on its page.
	if err := st.SetBio(ctx, "ana", store.Bio{About: "Club player in Brno.", Country: "CZ", Updated: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if out, err := run("show", "Ana", ""); err != nil || !strings.Contains(out, "\nabout    \"Club player in Brno.\", country \"CZ\"\n") {
		t.Errorf("show with a bio: %q, %v", out, err)
	}

	// Reports: listed newest first, by the account reported, closed.
	if err := st.CreateAccount(ctx, &store.Account{Key: "bo", Name: "Bo", Password: old, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	reports := func(arg string, all bool) string {
		t.Helper()
		var w bytes.Buffer
		if err := reportAction(ctx, st, &w, "reports", arg, all, path); err != nil {
			t.Fatal(err)
		}
		return w.String()
	}
	if out := reports("", false); out != "no open reports\n" {
		t.Errorf("reports of an empty table: %q", out)
	}
	at := time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC)
	r1 := &store.Report{By: "ana", Of: "bo", Game: "0123456789abcdef", Reason: "rude in chat", Created: at}
	r2 := &store.Report{By: "bo", Of: "ana", Reason: "stalls", Created: at.Add(time.Hour)}
	for _, r := range []*store.Report{r1, r2} {
		if err := st.AddReport(ctx, r, 0); err != nil {
			t.Fatal(err)
		}
	}
	want := "#2 2026-03-04 06:06 UTC: Bo reports Ana: stalls\n#1 2026-03-04 05:06 UTC: Ana reports Bo in game 0123456789abcdef: rude in chat\n"
	if out := reports("", false); out != want {
		t.Errorf("reports:\n%s\nwant\n%s", out, want)
	}
	if out := reports("BO", false); !strings.HasPrefix(out, "#1 ") || strings.Contains(out, "#2") {
		t.Errorf("reports about Bo: %q", out)
	}
	var w bytes.Buffer
	if err := reportAction(ctx, st, &w, "close-report", "#1", false, path); err != nil || w.String() != "report #1 closed\n" {
		t.Errorf("close-report: %q, %v", w.String(), err)
	}
	for _, arg := range []string{"99", "x", "-1"} {
		if err := reportAction(ctx, st, &w, "close-report", arg, false, path); err == nil {
			t.Errorf("close-report %s: no error", arg)
		}
	}
	var shown bytes.Buffer
	if err := accountAction(ctx, st, &shown, "show", "Bo", accountInput{}, path); err != nil || !strings.HasSuffix(shown.String(), "\nreports  1 about it, 0 open (atril accounts reports --all Bo)\n") {
		t.Errorf("show of an account reported: %q, %v", shown.String(), err)
	}
	if out := reports("Bo", false); out != "no open reports\n" {
		t.Errorf("open reports about Bo once closed: %q", out)
	}
	if out := reports("Bo", true); !regexp.MustCompile(`^#1 .*\n    closed 20\d\d-\d\d-\d\d \d\d:\d\d UTC\n$`).MatchString(out) {
		t.Errorf("all reports about Bo: %q", out)
	}
	if err := reportAction(ctx, st, &w, "reports", "Nobody", false, path); err == nil || !strings.Contains(err.Error(), `no account is called "Nobody"`) {
		t.Errorf("reports about no one: %v", err)
	}

	// The lobby's chat: its lines listed with their numbers, one deleted.
	chat := func(action, arg string) (string, error) {
		var w bytes.Buffer
		err := lobbyChatAction(ctx, st, &w, action, arg, path)
		return w.String(), err
	}
	if out, err := chat("lobby-chat", ""); err != nil || out != "no lines in the lobby's chat\n" {
		t.Errorf("the lobby's chat, empty: %q, %v", out, err)
	}
	for i, l := range []store.LobbyLine{{Account: "ana", Text: "hello", At: at}, {Account: "bo", Text: "spam spam", At: at.Add(time.Minute)}} {
		if err := st.AddLobbyLine(ctx, &l, 100); err != nil || l.ID != int64(i+1) {
			t.Fatalf("line %d: numbered %d, %v", i, l.ID, err)
		}
	}
	if out, err := chat("lobby-chat", ""); err != nil || out != "#1 2026-03-04 05:06 UTC Ana: hello\n#2 2026-03-04 05:07 UTC Bo: spam spam\n" {
		t.Errorf("the lobby's chat: %q, %v", out, err)
	}
	if out, err := chat("delete-line", "#2"); err != nil || out != "line #2 deleted\n" {
		t.Errorf("delete-line #2: %q, %v", out, err)
	}
	if out, _ := chat("lobby-chat", ""); out != "#1 2026-03-04 05:06 UTC Ana: hello\n" {
		t.Errorf("the lobby's chat after deleting #2: %q", out)
	}
	for _, arg := range []string{"2", "x", "0"} {
		if _, err := chat("delete-line", arg); err == nil {
			t.Errorf("delete-line %s: no error", arg)
		}
	}
}

// pwHash is the stored password hash of account ana.
func pwHash(t *testing.T, st store.Store) string {
	t.Helper()
	a, err := st.Account(context.Background(), "ana")
	if err != nil {
		t.Fatal(err)
	}
	return a.Password
}

func TestAccountsCommandErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	// The usage printed with each refusal goes nowhere.
	stderr := os.Stderr
	defer func() { os.Stderr = stderr }()
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	os.Stderr = devNull
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", missing, "show", "Ana"}, "no database at"},
		{[]string{"--db", missing, "rename", "Ana"}, `unknown action "rename"`},
		{[]string{"--db", missing, "show"}, "want an action and one account name"},
		{[]string{"--db", missing, "--pg", "postgres://x", "show", "Ana"}, "not both"},
		{[]string{"--db", missing, "suspend", "Ana"}, "suspend needs --reason"},
		{[]string{"--db", missing, "reports"}, "no database at"},
		{[]string{"--db", missing, "close-report"}, "want an action and one account name"},
	} {
		err := runAccounts(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error with %q", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the command made a database at %s", missing)
	}
}

// TestAccountActionsClosed: an account its owner closed is shown as
// such, and the operator can neither give it a password nor reopen it.
func TestAccountActionsClosed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.db")
	st, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CreateAccount(ctx, &store.Account{Key: "ana", Name: "Ana", Password: "pbkdf2$x", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := st.CloseAccount(ctx, "ana", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, action := range []string{"password", "suspend", "unsuspend"} {
		var w bytes.Buffer
		err := accountAction(ctx, st, &w, action, "Ana", accountInput{reason: "x", password: strings.NewReader("a new password\n")}, path)
		if err == nil || !strings.Contains(err.Error(), "Ana closed the account") {
			t.Errorf("%s of a closed account: %v, want a refusal", action, err)
		}
	}
	var w bytes.Buffer
	if err := accountAction(ctx, st, &w, "show", "Ana", accountInput{}, path); err != nil || !strings.Contains(w.String(), store.ClosedReason) {
		t.Errorf("show of a closed account: %q, %v", w.String(), err)
	}
}
