package gcg

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"atril/game"
	"atril/lexicon"
	"atril/variant"
)

// LineKind says what a turn line records.
type LineKind uint8

const (
	// Placement puts tiles on the board: ">nick: RACK 8H WORD +s t".
	Placement LineKind = iota
	// Exchange: ">nick: RACK -ABC +0 t".
	Exchange
	// Pass: ">nick: RACK - +0 t" (">nick: - +0 t" for an empty rack).
	Pass
	// EndRack is an end-of-game adjustment: ">nick: (RACK) +X t" for the
	// player who went out, ">nick: (RACK) -X t" for a player left with
	// tiles.
	EndRack
	// TimePenalty is the points a player loses for time taken past the
	// clock: ">nick: RACK (time) -X t" (no rack if they went out).
	TimePenalty
	// Withdrawn takes back the placement of the line before, a phony
	// the next player challenged: ">nick: RACK -- -s t", with the rack
	// the player held before it (and holds again) and its score.
	Withdrawn
	// Challenged is the bonus for a valid placement of the line before
	// that the next player challenged: ">nick: RACK (challenge) +X t",
	// with the rack the player holds after the placement (none if they
	// went out) and the bonus of the game's rule.
	Challenged
)

// Line is a turn line as read, before it is checked against the rules.
type Line struct {
	Num  int // line number in the file, from 1
	Text string
	Nick string
	Kind LineKind
	// Rack is the rack before the move, the rack counted by an EndRack
	// line, or the rack held after a challenge (Withdrawn, Challenged).
	Rack string
	// Pos and Word of a placement; Word is also the exchanged tiles.
	Pos, Word string
	// Score is the points of the line (signed) and Total the player's
	// total after it.
	Score, Total int
	// Bonus marks an EndRack line that adds points (written with "+"),
	// as opposed to a penalty.
	Bonus bool
}

// File is a GCG file as read: its pragmas and turn lines.
type File struct {
	Header
	Lines []Line
	// LineNotes are the #note pragmas that follow a turn line, by the
	// line's index in Lines (they are in Extra too; a note before the
	// first turn line is only there). Entries, set by Replay, holds for
	// each line the index in the game's History of the last entry made
	// once the line was applied (−1 for none), which places each note
	// on an entry: see EntryNotes.
	LineNotes map[int][]string
	Entries   []int
	// PartialRacks, set before Replay, accepts a record kept by one
	// player, who saw only the tiles the others played: a rack that
	// does not hold what its player kept from their last move is taken
	// as written (and the moves made from it are judged from it).
	PartialRacks bool
}

// Read reads a GCG file and replays it with the variant and lexicon,
// checking every move, score and total.
func Read(r io.Reader, v *variant.Variant, lex *lexicon.Lexicon) (*game.Game, error) {
	g, _, err := ReadHeader(r, v, lex)
	return g, err
}

// ReadHeader is Read that also returns the file's pragmas, so that
// WriteHeader can write the game back with them.
func ReadHeader(r io.Reader, v *variant.Variant, lex *lexicon.Lexicon) (*game.Game, *Header, error) {
	f, err := Parse(r)
	if err != nil {
		return nil, nil, err
	}
	g, err := f.Replay(v, lex, 0)
	if err != nil {
		return nil, nil, err
	}
	return g, &f.Header, nil
}

// Parse reads the pragmas and turn lines of a GCG file without checking
// the moves (see Replay). Blank lines are skipped; white space between
// fields may be any run of spaces and tabs.
func Parse(r io.Reader) (*File, error) {
	f := &File{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	num := 0
	players := map[int]Player{}
	racks := map[int]string{}
	note := false // the last line was a #note or went on with one
	for sc.Scan() {
		num++
		text := strings.TrimRight(sc.Text(), " \t\r")
		if num == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("gcg: line %d: "+format, append([]any{num}, args...)...)
		}
		if !utf8.ValidString(text) {
			return nil, fail("not valid UTF-8")
		}
		trimmed := strings.TrimSpace(text)
		switch {
		case trimmed == "":
			continue
		case trimmed[0] == '#':
			if err := f.pragma(trimmed[1:], players, racks, fail); err != nil {
				return nil, err
			}
			note = strings.HasPrefix(trimmed, "#note") && (len(trimmed) == 5 || unicode.IsSpace(rune(trimmed[5])))
			if k := len(f.Lines) - 1; note && k >= 0 {
				if f.LineNotes == nil {
					f.LineNotes = map[int][]string{}
				}
				f.LineNotes[k] = append(f.LineNotes[k], strings.TrimSpace(trimmed[5:]))
			}
		case trimmed[0] == '>':
			l, err := parseTurn(trimmed[1:])
			if err != nil {
				return nil, fail("%q: %v", trimmed, err)
			}
			l.Num, l.Text = num, trimmed
			f.Lines = append(f.Lines, l)
			note = false
		case note:
			// A note goes on until the next pragma or turn.
			f.Extra[len(f.Extra)-1] += "\n" + trimmed
			if ns := f.LineNotes[len(f.Lines)-1]; len(f.Lines) > 0 && len(ns) > 0 {
				ns[len(ns)-1] += "\n" + trimmed
			}
		default:
			return nil, fail("%q is neither a pragma (#...) nor a turn (>nick: ...)", trimmed)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("gcg: line %d: %w", num+1, err)
	}
	// Players: #player1..#playerN without gaps, or else the nicknames of
	// the turn lines in order of appearance.
	if len(players) > 0 {
		for i := 1; i <= len(players); i++ {
			p, ok := players[i]
			if !ok {
				return nil, fmt.Errorf("gcg: #player%d is missing (players are numbered from 1 without gaps)", i)
			}
			f.Players = append(f.Players, p)
		}
	} else {
		seen := map[string]bool{}
		for _, l := range f.Lines {
			if !seen[l.Nick] {
				seen[l.Nick] = true
				f.Players = append(f.Players, Player{Nick: l.Nick, Name: l.Nick})
			}
		}
	}
	if len(f.Players) < 2 || len(f.Players) > 4 {
		return nil, fmt.Errorf("gcg: %d players; a game has 2 to 4 (#player1 nick name, ...)", len(f.Players))
	}
	for i := range racks {
		if i > len(f.Players) {
			return nil, fmt.Errorf("gcg: #rack%d names a player beyond the %d players", i, len(f.Players))
		}
	}
	if len(racks) > 0 {
		f.Racks = make([]string, len(f.Players))
		for i, r := range racks {
			f.Racks[i-1] = r
		}
	}
	nicks := map[string]bool{}
	for i, p := range f.Players {
		if nicks[p.Nick] {
			return nil, fmt.Errorf("gcg: #player%d: nickname %q is used twice", i+1, p.Nick)
		}
		nicks[p.Nick] = true
	}
	for _, l := range f.Lines {
		if !nicks[l.Nick] {
			return nil, fmt.Errorf("gcg: line %d: %q: unknown player %q (not in the #player pragmas)", l.Num, l.Text, l.Nick)
		}
	}
	return f, nil
}

// pragma reads one "#name value" line (text without the "#").
func (f *File) pragma(text string, players map[int]Player, racks map[int]string, fail func(string, ...any) error) error {
	// The name ends at the first white space of any kind (a stray
	// carriage return too, which a writer would turn into a space).
	name, value := text, ""
	if i := strings.IndexFunc(text, unicode.IsSpace); i >= 0 {
		_, n := utf8.DecodeRuneInString(text[i:])
		name, value = text[:i], text[i+n:]
	}
	value = strings.TrimSpace(value)
	switch {
	case name == "character-encoding":
		if !strings.EqualFold(value, "UTF-8") && !strings.EqualFold(value, "UTF8") {
			return fail("character encoding %q: only UTF-8 is supported", value)
		}
	case strings.HasPrefix(name, "player") && len(name) > len("player"):
		n, err := strconv.Atoi(name[len("player"):])
		if err != nil || n < 1 || n > 4 {
			return fail("#%s: players are #player1 to #player4", name)
		}
		if _, dup := players[n]; dup {
			return fail("#%s given twice", name)
		}
		fs := strings.Fields(value)
		if len(fs) == 0 {
			return fail("#%s needs a nickname: \"#%s nick Full Name\"", name, name)
		}
		nick := fs[0]
		if strings.Contains(nick, ":") {
			return fail("#%s: nickname %q must not contain ':'", name, nick)
		}
		full := strings.Join(fs[1:], " ")
		if full == "" {
			full = nick
		}
		players[n] = Player{Nick: nick, Name: full}
	case strings.HasPrefix(name, "rack") && len(name) > len("rack"):
		n, err := strconv.Atoi(name[len("rack"):])
		if err != nil || n < 1 || n > 4 {
			return fail("#%s: racks are #rack1 to #rack4", name)
		}
		if strings.ContainsAny(value, " \t") {
			return fail("#%s %q: a rack is one word", name, value)
		}
		racks[n] = value
	case name == "lexicon":
		f.Lexicon = value
	case name == "title":
		f.Title = value
	case name == "description":
		f.Description = value
	case name == "id":
		f.ID = strings.Join(strings.Fields(value), " ")
	case name == "resigned":
		if value == "" || strings.ContainsAny(value, " \t") {
			return fail("#resigned %q: give the nickname of the player who resigned", value)
		}
		f.Resigned = value
	case name == "timeout":
		if value == "" || strings.ContainsAny(value, " \t") {
			return fail("#timeout %q: give the nickname of the player who lost on time", value)
		}
		f.TimedOut = value
	case name == "aborted":
		f.Aborted = true
	case name == "challenge":
		if value == "" {
			return fail("#challenge needs a rule: single, double, 5pt or 10pt")
		}
		if _, err := game.ParseChallengeRule(value); err != nil {
			return fail("#challenge: %v", err)
		}
		f.Challenge = value
	case name == "":
		return fail("empty pragma name after #")
	default:
		f.Extra = append(f.Extra, strings.TrimSpace(name+" "+value))
	}
	return nil
}

// parseTurn reads a turn line after the ">".
func parseTurn(s string) (Line, error) {
	var l Line
	nick, rest, ok := strings.Cut(s, ":")
	nick = strings.TrimSpace(nick)
	if !ok || nick == "" {
		return l, fmt.Errorf("want \">nick: RACK MOVE SCORE TOTAL\"")
	}
	if strings.IndexFunc(nick, unicode.IsSpace) >= 0 {
		// (A #player pragma's nickname ends at any white space.)
		return l, fmt.Errorf("nickname %q holds white space: want \">nick: RACK MOVE SCORE TOTAL\"", nick)
	}
	l.Nick = nick
	fs := strings.Fields(rest)
	if len(fs) < 3 {
		return l, fmt.Errorf("too few fields: want \">nick: RACK MOVE SCORE TOTAL\"")
	}
	var err error
	n := len(fs)
	if l.Score, err = signed(fs[n-2]); err != nil {
		return l, fmt.Errorf("score %q: %v", fs[n-2], err)
	}
	l.Bonus = l.Score > 0 || strings.HasPrefix(fs[n-2], "+")
	if l.Total, err = strconv.Atoi(fs[n-1]); err != nil || len(fs[n-1]) > 9 {
		return l, fmt.Errorf("total %q is not a number", fs[n-1])
	}
	fs = fs[:n-2]
	paren := func(s string) (string, bool) {
		if len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' {
			return s[1 : len(s)-1], true
		}
		return "", false
	}
	// End-of-game rack: "(RACK)" or "RACK (RACK)".
	if len(fs) <= 2 {
		if r, ok := paren(fs[len(fs)-1]); ok {
			if r == "time" {
				if len(fs) == 2 {
					l.Rack = fs[0]
				}
				if l.Score >= 0 {
					return l, fmt.Errorf("(time) %+d: a time penalty takes points off", l.Score)
				}
				l.Kind = TimePenalty
				return l, nil
			}
			if r == "challenge" {
				if len(fs) == 2 {
					l.Rack = fs[0]
				}
				if l.Score < 0 {
					return l, fmt.Errorf("(challenge) %+d: a challenge bonus adds points", l.Score)
				}
				l.Kind = Challenged
				return l, nil
			}
			if len(fs) == 2 {
				if fs[0] != r {
					return l, fmt.Errorf("rack %s and end-of-game rack (%s) differ", fs[0], r)
				}
			}
			l.Kind, l.Rack = EndRack, r
			return l, nil
		}
	}
	if len(fs) == 1 && fs[0] == "-" {
		// A pass with no tiles, as a turn lost to a challenge by a
		// player whose rack the file does not give.
		l.Kind = Pass
		return l, nil
	}
	if len(fs) < 2 {
		return l, fmt.Errorf("want \">nick: RACK MOVE SCORE TOTAL\"")
	}
	l.Rack = fs[0]
	if strings.ContainsAny(l.Rack, "()") {
		return l, fmt.Errorf("rack %q: parentheses only go around an end-of-game rack", l.Rack)
	}
	switch {
	case len(fs) == 2 && fs[1] == "--":
		if l.Score > 0 {
			return l, fmt.Errorf("-- %+d: a withdrawn play takes its score off (-SCORE)", l.Score)
		}
		l.Kind = Withdrawn
	case len(fs) == 2 && fs[1] == "-":
		l.Kind = Pass
	case len(fs) == 2 && strings.HasPrefix(fs[1], "-"):
		l.Kind, l.Word = Exchange, fs[1][1:]
		if _, err := strconv.Atoi(l.Word); err == nil {
			return l, fmt.Errorf("exchange %q of unknown tiles: give the tiles exchanged", fs[1])
		}
	case len(fs) == 3:
		l.Kind, l.Pos, l.Word = Placement, fs[1], fs[2]
	default:
		return l, fmt.Errorf("want \">nick: RACK POSITION WORD +SCORE TOTAL\", \">nick: RACK -TILES +0 TOTAL\" or \">nick: RACK - +0 TOTAL\"")
	}
	return l, nil
}

// signed reads "+12", "-3" or "12".
func signed(s string) (int, error) {
	t := strings.TrimPrefix(s, "+")
	if t == "" || t[0] == '+' || len(t) > 9 {
		return 0, fmt.Errorf("not a number")
	}
	n, err := strconv.Atoi(t)
	if err != nil {
		return 0, fmt.Errorf("not a number")
	}
	return n, nil
}

// endSummary lists the end-of-game adjustments of the game from entry k.
func (f *File) endSummary(g *game.Game, k int) string {
	var parts []string
	for ; k < len(g.History); k++ {
		t := &g.History[k]
		parts = append(parts, fmt.Sprintf("%s (%s) %+d", f.Players[t.Player].Nick, rackText(g.Variant.Alphabet, &t.Rack), t.Points))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// where names the source of a rack: a line number, or a #rack pragma.
func where(line, player int) string {
	if line == 0 {
		return fmt.Sprintf("#rack%d", player+1)
	}
	return fmt.Sprintf("line %d", line)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
