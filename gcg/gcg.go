// Package gcg writes whole games in GCG, the community's text format for
// game records, and reads them back by replaying every move under the
// rules.
//
// A file starts with pragmas and then has one line per turn:
//
//	#character-encoding UTF-8
//	#player1 Ana Ana García
//	#player2 Bo Bo
//	#lexicon en-sowpods
//	>Ana: AEINRST 8D RETAINS +76 76
//	>Bo: ?ADEIOU H8 .OUtED +14 14
//	>Ana: EEIIOUU -EIIOUU +0 76
//	>Bo: AEIKLNR - +0 14
//	...
//	>Ana: (AEIKLNR) +12 410
//	>Bo: (AEIKLNR) -12 302
//
// A turn line gives the player's nickname, the rack before the move (blanks
// as "?", written last), the move and its score, and the player's total
// after it. A placement is a position ("8D" across: row first; "H8" down:
// column first) and the main word with the letters already on the board
// shown (or written "."), a lowercase letter for a blank and brackets for
// a multi-letter tile ("[CH]"). "-ABC" is an exchange, "-" a pass. At the
// end, the player who went out gains each other rack's value, "(RACK) +X",
// and each player left with tiles loses their value, "(RACK) -X"; a file
// whose player who went out gains twice the value of the rack left, with
// no line taking it off, follows the North American rule
// (game.OutTwice), and is replayed under it.
// A player who took longer than the game's clock allows loses points
// after that, "RACK (time) -X". "#rack1 RACK" pragmas give the racks of
// an unfinished game, and of a game ended by a resignation, which
// "#resigned NICK" records, or by a player running out of time,
// "#timeout NICK" (the racks are not counted then); "#aborted" records a
// game called off before its first move.
//
// A game played under a challenge rule (see game.ChallengeRule) has the
// pragma "#challenge RULE" (single, double, 5pt or 10pt; a game under the
// void rule has none). A placement may then form words missing from the
// word list, and its line is written like any other. When the next
// player challenges a phony, the line after it takes the play back:
//
//	>Bo: ADEIKOU 7H OKIA +16 30
//	>Bo: ADEIKOU -- -16 14
//
// with the rack the player holds again and the score taken off. A valid
// play challenged under the 5- or 10-point rule gives its player the
// points, "RACK (challenge) +5" (the rack they hold after the play; none
// if they went out); under the double rule the challenger loses the
// turn, which is written, and read back, as a pass (it counts the same
// toward the end of the game). A challenge of a valid play under the
// single rule changes nothing and has no line. A play that goes out waits to be challenged or accepted: when
// it stands, the end-of-game lines follow. Reading a file without the
// pragma, the rule is inferred from its lines: a "(challenge) +5" line
// means 5pt, "+10" 10pt, any other "--" or "(challenge)" line single, and
// none the void rule.
package gcg

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
)

// Player is a #playerN pragma.
type Player struct {
	Nick string // one word, used in turn lines
	Name string // full name
}

// Header holds the pragmas of a file.
type Header struct {
	Players     []Player
	Lexicon     string
	Title       string
	Description string
	ID          string
	// Racks holds the #rackN pragmas (the racks of an unfinished or
	// resigned game), by player index; "" where none was given.
	Racks []string
	// Resigned is the nickname of the #resigned pragma: the player who
	// resigned ("" if nobody did).
	Resigned string
	// TimedOut is the nickname of the #timeout pragma: the player who
	// lost on time ("" if nobody did).
	TimedOut string
	// Aborted is set by the #aborted pragma.
	Aborted bool
	// Challenge is the rule named by the #challenge pragma, as
	// game.ChallengeRule.String writes it ("" if the file has none; the
	// replay then infers the rule from the lines). WriteHeader writes
	// the game's own rule instead.
	Challenge string
	// Extra keeps other pragmas, without the "#", in the order read.
	Extra []string
	// Notes are #note pragmas that WriteHeader writes after the line of
	// a history entry, by the entry's index in the game's History (Parse
	// leaves it nil: it keeps notes in Extra).
	Notes map[int][]string
}

// Write writes a game as GCG with a header made from the game.
func Write(w io.Writer, g *game.Game) error { return WriteHeader(w, g, nil) }

// WriteHeader writes a game as GCG. Player nicknames, names, lexicon,
// title, description, id and extra pragmas come from h where h gives
// them; h may be nil.
func WriteHeader(w io.Writer, g *game.Game, h *Header) error {
	bw := bufio.NewWriter(w)
	if h == nil {
		h = &Header{}
	}
	players := h.Players
	if len(players) != len(g.Seats) {
		players = Nicknames(g)
	}
	a := g.Variant.Alphabet
	fmt.Fprintln(bw, "#character-encoding UTF-8")
	for i, p := range players {
		fmt.Fprintf(bw, "#player%d %s %s\n", i+1, p.Nick, oneLine(p.Name))
	}
	lex := h.Lexicon
	if lex == "" && g.Lex != nil {
		lex = g.Lex.Name
	}
	if lex != "" {
		fmt.Fprintf(bw, "#lexicon %s\n", oneLine(lex))
	}
	if rule := g.ChallengeRule(); rule != game.Void {
		fmt.Fprintf(bw, "#challenge %s\n", rule)
	}
	if h.Title != "" {
		fmt.Fprintf(bw, "#title %s\n", oneLine(h.Title))
	}
	if h.Description != "" {
		fmt.Fprintf(bw, "#description %s\n", oneLine(h.Description))
	}
	if h.ID != "" {
		fmt.Fprintf(bw, "#id %s\n", oneLine(h.ID))
	}
	for _, x := range h.Extra {
		fmt.Fprintf(bw, "#%s\n", oneLine(x))
	}
	for k, t := range g.History {
		nick := players[t.Player].Nick
		switch t.Kind {
		case game.Played:
			m := &t.Move
			var what string
			switch m.Kind {
			case move.Pass:
				what = "-"
			case move.Exchange:
				what = "-" + a.Spell(m.Exchanged)
			default:
				what = m.Position() + " " + word(g.Board, m)
			}
			fmt.Fprintf(bw, ">%s: %s%s %+d %d\n", nick, rackBefore(a, &t.Rack), what, t.Points, t.Total)
		case game.OutBonus:
			fmt.Fprintf(bw, ">%s: (%s) +%d %d\n", nick, rackText(a, &t.Rack), t.Points, t.Total)
		case game.RackPenalty:
			fmt.Fprintf(bw, ">%s: (%s) -%d %d\n", nick, rackText(a, &t.Rack), -t.Points, t.Total)
		case game.TimePenalty:
			fmt.Fprintf(bw, ">%s: %s(time) -%d %d\n", nick, rackBefore(a, &t.Rack), -t.Points, t.Total)
		case game.Withdrawn:
			fmt.Fprintf(bw, ">%s: %s -- -%d %d\n", nick, rackText(a, &t.Rack), -t.Points, t.Total)
		case game.ChallengeBonus:
			fmt.Fprintf(bw, ">%s: %s(challenge) +%d %d\n", nick, rackBefore(a, &t.Rack), t.Points, t.Total)
		case game.LostTurn:
			// Standard GCG has no line for a lost turn. Read back as a
			// pass, it leaves the scores, the turn and the counts toward
			// the end of the game as they were (though it counts as one
			// more move played).
			fmt.Fprintf(bw, ">%s: %s- +0 %d\n", nick, rackBefore(a, &t.Rack), t.Total)
		}
		for _, n := range h.Notes[k] {
			fmt.Fprintf(bw, "#note %s\n", oneLine(n))
		}
	}
	if r := g.Resigned(); r >= 0 {
		fmt.Fprintf(bw, "#resigned %s\n", players[r].Nick)
	}
	if r := g.TimedOut(); r >= 0 {
		fmt.Fprintf(bw, "#timeout %s\n", players[r].Nick)
	}
	if g.Aborted() {
		fmt.Fprintln(bw, "#aborted")
	}
	if !g.Over() || g.Resigned() >= 0 || g.TimedOut() >= 0 {
		for i := range g.Seats {
			if g.Seats[i].Rack.Len() > 0 {
				fmt.Fprintf(bw, "#rack%d %s\n", i+1, rackText(a, &g.Seats[i].Rack))
			}
		}
	}
	return bw.Flush()
}

// word renders the main word of a placement with the letters it plays
// through. Tiles never move once placed, so the current board shows them.
func word(b *board.Board, m *move.Move) string {
	ts := make([]alphabet.Tile, len(m.Tiles))
	for i, t := range m.Tiles {
		if t == move.PlayThrough {
			r, c := m.Square(i)
			t = b.At(r, c)
		}
		ts[i] = t
	}
	return b.Variant.Alphabet.Spell(ts)
}

// rackText writes a rack in a turn line, letters in alphabet order and
// blanks last, spelled so that it reads back to the same tiles.
func rackText(a *alphabet.Alphabet, r *alphabet.Rack) string {
	return a.Spell(r.InWritingOrder())
}

// rackBefore is rackText followed by a space, or "" for an empty rack
// (a line whose rack may be left out).
func rackBefore(a *alphabet.Alphabet, r *alphabet.Rack) string {
	if r.Len() == 0 {
		return ""
	}
	return rackText(a, r) + " "
}

// oneLine replaces line breaks so a value fits on its pragma line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// Nicknames derives one-word, distinct nicknames from the players' names:
// white space and colons become "_", an empty name becomes "playerN", and
// a repeated nickname gets "_N" appended.
func Nicknames(g *game.Game) []Player {
	var out []Player
	seen := map[string]bool{}
	for i, p := range g.Seats {
		nick := strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) || r == ':' || r == utf8.RuneError {
				return '_'
			}
			return r
		}, p.Name)
		if nick == "" {
			nick = fmt.Sprintf("player%d", i+1)
		}
		for seen[nick] {
			nick = fmt.Sprintf("%s_%d", nick, i+1)
		}
		seen[nick] = true
		name := strings.Join(strings.Fields(oneLine(p.Name)), " ")
		if name == "" {
			name = nick
		}
		out = append(out, Player{Nick: nick, Name: name})
	}
	return out
}
