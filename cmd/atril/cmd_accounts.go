package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"atril/internal/password"
	"atril/server"
	"atril/store"
)

func init() {
	register("accounts", "an operator's work on player accounts: show one, set its password, sign it out everywhere, suspend it, read and close the players' reports, the fair-play report", runAccounts)
}

// accountsUsage is the usage line of atril accounts.
const accountsUsage = `usage: atril accounts [--db FILE | --pg DSN] show NAME
       atril accounts [--db FILE | --pg DSN] password [--stdin] NAME
       atril accounts [--db FILE | --pg DSN] signout NAME
       atril accounts [--db FILE | --pg DSN] suspend --reason TEXT NAME
       atril accounts [--db FILE | --pg DSN] unsuspend NAME
       atril accounts [--db FILE | --pg DSN] reports [--all] [NAME]
       atril accounts [--db FILE | --pg DSN] close-report ID
       atril accounts [--db FILE | --pg DSN] lobby-chat
       atril accounts [--db FILE | --pg DSN] delete-line ID
       atril accounts [--db FILE | --pg DSN] fairplay [--days 90] [--min-moves 100]

show      the account's name, key, creation time, ratings, how its moves
          fared in rated games between people (as fairplay counts them),
          suspension and the players' reports about it
password  a new password for a player who lost theirs (the operator having
          made sure who asks): a random one printed once, or with --stdin
          the first line of standard input; every session of the account ends
signout   ends every session of the account, on every device
suspend   keeps the account from signing in (a sign-in with the right
          password is told the reason) and ends every session of it; it is
          left off the leaderboards. Its past games and ratings stay
unsuspend lifts the suspension
reports   the players' reports waiting for the operators (with --all the
          closed ones too), newest first, or only those about NAME
close-report marks a report read and dealt with
lobby-chat the lobby chat's latest lines with their numbers, oldest first
          (a suspended account's lines are not shown there, nor here)
delete-line removes a line of the lobby's chat
fairplay  the fair-play report: over the rated games between people
          finished in the last --days, each account with --min-moves moves
          analysed or more, with how often its moves were the computer's
          top choice by static equity and the equity it gave up a move,
          ranked by how far its share lies above all those accounts'
          (in standard errors; 3 or more is marked): a reason to look at
          the games, not a proof

The command works on the store, not on a running server's games: the
tokens of the account's seats are taken back when the player signs out
everywhere or changes the password on the page.

NAME is found as the server finds it at sign-in (case, width, accents and
lookalike letters folded).`

func runAccounts(args []string) error {
	fs := flag.NewFlagSet("accounts", flag.ContinueOnError)
	db := fs.String("db", "", "SQLite database file (default: atril.db in the user's data directory)")
	pg := fs.String("pg", "", "PostgreSQL connection string; used instead of SQLite when set")
	stdin := fs.Bool("stdin", false, "password: read the new password from the first line of standard input instead of making one")
	reason := fs.String("reason", "", "suspend: why the account is suspended (required; shown to the player at sign-in)")
	all := fs.Bool("all", false, "reports: list the closed reports too")
	days := fs.Int("days", 90, "fairplay: the games finished in this many days before now")
	minMoves := fs.Int("min-moves", 100, "fairplay: list the accounts with at least this many moves analysed")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), accountsUsage)
		fmt.Fprintln(fs.Output(), "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	// Flags may also follow the action (atril accounts password --stdin NAME).
	rest := fs.Args()
	if len(rest) > 0 {
		if err := fs.Parse(rest[1:]); err != nil {
			return err
		}
		rest = append(rest[:1], fs.Args()...)
	}
	if len(rest) == 1 && (rest[0] == "reports" || rest[0] == "lobby-chat" || rest[0] == "fairplay") {
		rest = append(rest, "") // about anyone
	}
	if len(rest) != 2 {
		fs.Usage()
		return errors.New("want an action and one account name")
	}
	action, name := rest[0], rest[1]
	switch action {
	case "show", "password", "signout", "unsuspend", "reports", "close-report", "lobby-chat", "delete-line":
	case "fairplay":
		if name != "" {
			fs.Usage()
			return fmt.Errorf("fairplay takes no account name (got %q)", name)
		}
	case "suspend":
		if strings.TrimSpace(*reason) == "" {
			fs.Usage()
			return errors.New("suspend needs --reason: the player is told it at sign-in")
		}
	default:
		fs.Usage()
		return fmt.Errorf("unknown action %q (want show, password, signout, suspend, unsuspend, reports, close-report, lobby-chat, delete-line or fairplay)", action)
	}
	if *db != "" && *pg != "" {
		return errors.New("give --db or --pg, not both")
	}
	if *pg == "" {
		// An operator's command never makes a new, empty database.
		path, err := sqlitePath(*db)
		if err != nil {
			return err
		}
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("no database at %s: %w", path, err)
		}
		*db = path
	}
	st, where, err := openStore(*db, *pg)
	if err != nil {
		return fmt.Errorf("open the store: %w", err)
	}
	defer st.Close()
	if action == "reports" || action == "close-report" {
		return reportAction(context.Background(), st, os.Stdout, action, name, *all, where)
	}
	if action == "fairplay" {
		return fairPlayAction(context.Background(), st, os.Stdout, *days, *minMoves, time.Now(), where)
	}
	if action == "lobby-chat" || action == "delete-line" {
		return lobbyChatAction(context.Background(), st, os.Stdout, action, name, where)
	}
	var in io.Reader
	if *stdin {
		in = os.Stdin
	}
	return accountAction(context.Background(), st, os.Stdout, action, name, accountInput{password: in, reason: strings.TrimSpace(*reason)}, where)
}

// accountInput is what an action of atril accounts takes besides the
// account's name: for "password", the new password on the first line of
// password (nil: make one); for "suspend", the reason.
type accountInput struct {
	password io.Reader
	reason   string
}

// accountAction carries out one action of atril accounts on the account
// called name, writing what it did to w.
func accountAction(ctx context.Context, st store.Store, w io.Writer, action, name string, in accountInput, where string) error {
	a, err := st.Account(ctx, server.AccountKey(strings.TrimSpace(name)))
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no account is called %q in %s", name, where)
	}
	if err != nil {
		return err
	}
	if a.Closed() && (action == "password" || action == "suspend" || action == "unsuspend") {
		return fmt.Errorf("%s closed the account: it cannot be given a password, suspended or reopened", a.Name)
	}
	switch action {
	case "show":
		rs, err := st.Ratings(ctx, a.Key)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "name     %s\nkey      %s\ncreated  %s\n", a.Name, a.Key, a.Created.UTC().Format("2006-01-02 15:04:05 MST"))
		if len(rs) == 0 {
			fmt.Fprintln(w, "ratings  none")
		}
		for _, r := range rs {
			fmt.Fprintf(w, "rating   %s %.0f ± %.0f, %d games (%d–%d–%d)\n", r.Category, r.R, r.RD, r.Games, r.Wins, r.Losses, r.Draws)
		}
		prs, err := st.PuzzleRatings(ctx, a.Key)
		if err != nil {
			return err
		}
		for _, r := range prs {
			fmt.Fprintf(w, "puzzles  %s %.0f ± %.0f, %d answered, %d solved\n", r.Lexicon, r.R, r.RD, r.Answered, r.Solved)
		}
		follows, err := st.Follows(ctx, a.Key)
		if err != nil {
			return err
		}
		followers, err := st.Followers(ctx, a.Key)
		if err != nil {
			return err
		}
		if len(follows) > 0 || followers > 0 {
			fmt.Fprintf(w, "follows  %d players, followed by %d\n", len(follows), followers)
		}
		seen, err := st.SeenAt(ctx, a.Key)
		if err != nil {
			return err
		}
		if !seen.IsZero() {
			fmt.Fprintf(w, "seen     %s (the lobby open)\n", seen.UTC().Format("2006-01-02 15:04:05 MST"))
		}
		// What the player says on its page, for an operator reading a
		// report about it.
		bio, err := st.Bio(ctx, a.Key)
		if err != nil {
			return err
		}
		if bio.About != "" || bio.Country != "" {
			fmt.Fprintf(w, "about    %q, country %q\n", bio.About, bio.Country)
		}
		// How its moves fared in rated games between people, for an
		// operator reading a report of cheating.
		fp, err := st.FairPlay(ctx, time.Unix(0, 0), a.Key)
		if err != nil {
			return err
		}
		for _, r := range fp {
			fmt.Fprintf(w, "play     %d rated games between people analysed: the computer's top choice in %.1f%% of %d moves, %.1f equity given up a move (atril accounts fairplay)\n",
				r.Games, 100*float64(r.TopMoves)/float64(r.Analysed), r.Analysed, r.Lost/float64(r.Analysed))
		}
		if a.Suspended != "" {
			fmt.Fprintf(w, "suspended since %s: %s\n", a.SuspendedAt.UTC().Format("2006-01-02 15:04:05 MST"), a.Suspended)
		}
		reps, err := st.Reports(ctx, a.Key, true, maxListedReports)
		if err != nil {
			return err
		}
		if len(reps) > 0 {
			open := 0
			for _, r := range reps {
				if r.Closed.IsZero() {
					open++
				}
			}
			fmt.Fprintf(w, "reports  %d about it, %d open (atril accounts reports --all %s)\n", len(reps), open, a.Name)
		}
		return nil
	case "suspend":
		if in.reason == "" {
			return errors.New("suspend needs a reason")
		}
		if err := st.Suspend(ctx, a.Key, in.reason, time.Now()); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: suspended (%s); every session ended\n", a.Name, in.reason)
		return nil
	case "unsuspend":
		if a.Suspended == "" {
			fmt.Fprintf(w, "%s: not suspended\n", a.Name)
			return nil
		}
		if err := st.Unsuspend(ctx, a.Key); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: suspension lifted\n", a.Name)
		return nil
	case "signout":
		n, err := st.DeleteSessions(ctx, a.Key, "")
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %d sessions ended\n", a.Name, n)
		return nil
	}
	pw, made := "", in.password == nil
	if made {
		pw = newPassword()
	} else {
		line, err := bufio.NewReader(in.password).ReadString('\n')
		if err != nil && !(errors.Is(err, io.EOF) && line != "") {
			return fmt.Errorf("read the new password from standard input: %w", err)
		}
		pw = strings.TrimRight(line, "\r\n")
	}
	if n := utf8.RuneCountInString(pw); n < server.MinPassword || n > server.MaxPassword || !utf8.ValidString(pw) {
		return fmt.Errorf("a password has %d to %d characters, not %d", server.MinPassword, server.MaxPassword, n)
	}
	hash, err := password.Hash(pw, 0)
	if err != nil {
		return err
	}
	if err := st.SetPassword(ctx, a.Key, a.Password, hash, ""); err != nil {
		return err
	}
	if made {
		fmt.Fprintf(w, "%s: new password %s (every session ended; give it to the player, who should change it)\n", a.Name, pw)
	} else {
		fmt.Fprintf(w, "%s: password set (every session ended)\n", a.Name)
	}
	return nil
}

// newPassword makes a random password of 16 letters and digits that are
// hard to confuse (no 0/O, 1/l/I), in groups of four: about 80 bits.
func newPassword() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
	var b strings.Builder
	for i, c := range []byte(rand.Text()[:16]) {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		// rand.Text is base32 (A-Z, 2-7): map its 32 symbols onto ours.
		k := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", c)
		b.WriteByte(alphabet[k])
	}
	return b.String()
}

// maxListedReports is the most reports atril accounts reports lists.
const maxListedReports = 200

// reportAction carries out reports (arg: an account's name, or "" for
// anyone; all: the closed ones too) or close-report (arg: the report's
// number), writing what it did to w.
func reportAction(ctx context.Context, st store.Store, w io.Writer, action, arg string, all bool, where string) error {
	if action == "close-report" {
		id, err := strconv.ParseInt(strings.TrimPrefix(arg, "#"), 10, 64)
		if err != nil || id <= 0 {
			return fmt.Errorf("close-report: %q is not a report's number", arg)
		}
		if err := st.CloseReport(ctx, id, time.Now()); errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no report #%d in %s", id, where)
		} else if err != nil {
			return err
		}
		fmt.Fprintf(w, "report #%d closed\n", id)
		return nil
	}
	key := ""
	if arg != "" {
		a, err := st.Account(ctx, server.AccountKey(strings.TrimSpace(arg)))
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no account is called %q in %s", arg, where)
		}
		if err != nil {
			return err
		}
		key = a.Key
	}
	rs, err := st.Reports(ctx, key, all, maxListedReports)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		if all {
			fmt.Fprintln(w, "no reports")
		} else {
			fmt.Fprintln(w, "no open reports")
		}
		return nil
	}
	const when = "2006-01-02 15:04 MST"
	for _, r := range rs {
		game := ""
		if r.Game != "" {
			game = " in game " + r.Game
		}
		fmt.Fprintf(w, "#%d %s: %s reports %s%s: %s\n", r.ID, r.Created.UTC().Format(when), r.ByName, r.OfName, game, r.Reason)
		if !r.Closed.IsZero() {
			fmt.Fprintf(w, "    closed %s\n", r.Closed.UTC().Format(when))
		}
	}
	return nil
}

// lobbyChatAction lists the lobby chat's latest lines (action
// "lobby-chat", as many as the store keeps) or deletes the line numbered
// arg ("delete-line").
func lobbyChatAction(ctx context.Context, st store.Store, w io.Writer, action, arg, where string) error {
	if action == "delete-line" {
		id, err := strconv.ParseInt(strings.TrimPrefix(arg, "#"), 10, 64)
		if err != nil || id <= 0 {
			return fmt.Errorf("delete-line: %q is not a line's number", arg)
		}
		if err := st.DeleteLobbyLine(ctx, id); errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no line #%d in the lobby's chat in %s", id, where)
		} else if err != nil {
			return err
		}
		fmt.Fprintf(w, "line #%d deleted\n", id)
		return nil
	}
	lines, err := st.LobbyLines(ctx, server.LobbyChatKept)
	if err != nil {
		return err
	}
	if len(lines) == 0 {
		fmt.Fprintln(w, "no lines in the lobby's chat")
	}
	for _, l := range lines {
		fmt.Fprintf(w, "#%d %s %s: %s\n", l.ID, l.At.UTC().Format("2006-01-02 15:04 MST"), l.Name, l.Text)
	}
	return nil
}
