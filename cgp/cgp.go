// Package cgp reads and writes positions in CGP, a one-line text form of a
// game position:
//
//	<rows> <racks> <scores> <zero-turn count> [opcodes...]
//
// Rows run top to bottom separated by "/"; inside a row a number is a run
// of empty squares, an uppercase letter is a tile, a lowercase letter is a
// blank played as that letter, and a multi-letter tile is written in
// brackets ("[CH]", a blank CH "[ch]"). Racks are separated by "/", the
// player on turn first; "?" is a blank and an empty rack is an empty
// string.
//
// Outside brackets every character is one tile, as other engines read
// CGP: in Spanish "LL" is two L tiles and "[LL]" is one LL tile. Only
// multi-letter tiles are written in brackets; a one-letter tile in
// brackets ("[L]L", as earlier versions of this package wrote a letter
// that would run together with the next) is read too. Scores are separated by "/" in the same order as the racks. The
// zero-turn count is the number of consecutive scoreless turns. Opcodes
// follow, each "name args...;", for example "lex CSW21;".
//
// Reading happens in two steps: ParseText splits the text into its fields
// without knowing the variant, and Resolve reads the letters with the
// variant's alphabet and checks the position against the variant's board
// size, rack size and tile set. Parse does both.
package cgp

import (
	"fmt"
	"strconv"
	"strings"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/lexicon"
	"atril/variant"
)

// Op is one opcode of a CGP line: its name and arguments.
type Op struct {
	Name string
	Args []string
}

// Position is a CGP position. The text fields are filled by ParseText;
// Resolve fills V, Squares and RackTiles from them.
type Position struct {
	// Rows holds the text of each board row, top to bottom.
	Rows []string
	// Racks holds the text of each rack, the player on turn first.
	Racks []string
	// Scores holds the players' scores in the same order as Racks.
	Scores []int
	// ZeroTurns is the number of consecutive scoreless turns.
	ZeroTurns int
	// Ops are the opcodes in the order given, unknown ones included.
	Ops []Op

	// V is the variant the position was resolved against (nil before).
	V *variant.Variant
	// Squares holds the board's tiles row-major, V.Size×V.Size; board.Empty
	// marks an empty square, designated blanks carry alphabet.BlankBit.
	Squares []alphabet.Tile
	// RackTiles holds the racks as tile counts, in the order of Racks.
	RackTiles []alphabet.Rack
}

// Limits of the format as read here.
const (
	MinSize    = 5
	MaxSize    = 25
	MinPlayers = 2
	MaxPlayers = 4
)

// Parse reads a CGP line and resolves it against the variant.
func Parse(s string, v *variant.Variant) (*Position, error) {
	p, err := ParseText(s)
	if err != nil {
		return nil, err
	}
	if err := p.Resolve(v); err != nil {
		return nil, err
	}
	return p, nil
}

// ParseText splits a CGP line into its fields and checks the parts that do
// not depend on the variant: the shape of the rows, the number of racks,
// the scores, the zero-turn count and the opcodes.
func ParseText(s string) (*Position, error) {
	fields, rest := splitFields(s, 4)
	names := []string{"board", "racks", "scores", "zero-turn count"}
	if len(fields) < 4 {
		return nil, fmt.Errorf("cgp: missing %s field: want \"<rows> <racks> <scores> <zero-turn count> [opcodes]\"", names[len(fields)])
	}
	p := &Position{}
	// Board.
	p.Rows = strings.Split(fields[0], "/")
	if len(p.Rows) < MinSize || len(p.Rows) > MaxSize {
		return nil, fmt.Errorf("cgp: board: %d rows, want %d to %d", len(p.Rows), MinSize, MaxSize)
	}
	for i, row := range p.Rows {
		if err := checkRow(row); err != nil {
			return nil, fmt.Errorf("cgp: board row %d %q: %w", i+1, row, err)
		}
	}
	// Racks.
	p.Racks = strings.Split(fields[1], "/")
	if len(p.Racks) < MinPlayers || len(p.Racks) > MaxPlayers {
		return nil, fmt.Errorf("cgp: racks %q: %d racks, want %d to %d separated by /", fields[1], len(p.Racks), MinPlayers, MaxPlayers)
	}
	for i, r := range p.Racks {
		if j := strings.IndexAny(r, "0123456789"); j >= 0 {
			return nil, fmt.Errorf("cgp: rack %d %q: digit %q is not a tile", i+1, r, r[j])
		}
	}
	// Scores.
	scores := strings.Split(fields[2], "/")
	if len(scores) != len(p.Racks) {
		return nil, fmt.Errorf("cgp: scores %q: %d scores for %d racks", fields[2], len(scores), len(p.Racks))
	}
	for i, sc := range scores {
		n, err := strconv.Atoi(sc)
		if err != nil || len(sc) > 9 {
			return nil, fmt.Errorf("cgp: score %d %q is not a number", i+1, sc)
		}
		p.Scores = append(p.Scores, n)
	}
	// Zero-turn count.
	z, err := strconv.Atoi(fields[3])
	if err != nil || z < 0 || len(fields[3]) > 9 {
		return nil, fmt.Errorf("cgp: zero-turn count %q is not a non-negative number", fields[3])
	}
	p.ZeroTurns = z
	// Opcodes.
	ops, err := parseOps(rest)
	if err != nil {
		return nil, err
	}
	p.Ops = ops
	return p, nil
}

// splitFields returns the first n white-space separated fields of s and
// the text after them.
func splitFields(s string, n int) ([]string, string) {
	var out []string
	i := 0
	for len(out) < n {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		j := i
		for j < len(s) && !isSpace(s[j]) {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out, s[i:]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// checkRow checks the syntax of a row: it is not empty, runs of empty
// squares are positive numbers, and brackets close.
func checkRow(row string) error {
	if row == "" {
		return fmt.Errorf("empty row: write a run of empty squares as a number")
	}
	_, err := rowTokens(row, func(tok string, run int, at int) error { return nil })
	return err
}

// rowTokens walks a row, calling f with either a run of empty squares
// (run > 0, tok == "") or a piece of letter text (run == 0) together with
// the byte offset of the piece. It returns the number of pieces.
func rowTokens(row string, f func(tok string, run int, at int) error) (int, error) {
	n := 0
	i := 0
	for i < len(row) {
		c := row[i]
		switch {
		case c >= '0' && c <= '9':
			j := i
			for j < len(row) && row[j] >= '0' && row[j] <= '9' {
				j++
			}
			k, err := strconv.Atoi(row[i:j])
			if err != nil || k == 0 || k > MaxSize {
				return n, fmt.Errorf("byte %d: bad run of empty squares %q", i, row[i:j])
			}
			if err := f("", k, i); err != nil {
				return n, err
			}
			i = j
		default:
			j := i
			for j < len(row) && (row[j] < '0' || row[j] > '9') {
				if row[j] == '[' {
					end := strings.IndexByte(row[j:], ']')
					if end < 0 {
						return n, fmt.Errorf("byte %d: unclosed [", j)
					}
					j += end + 1
					continue
				}
				j++
			}
			if err := f(row[i:j], 0, i); err != nil {
				return n, err
			}
			i = j
		}
		n++
	}
	return n, nil
}

// parseOps reads opcodes "name args...;" separated by semicolons. The last
// semicolon may be left out.
func parseOps(s string) ([]Op, error) {
	var ops []Op
	for _, part := range strings.Split(s, ";") {
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		op := Op{Name: f[0], Args: f[1:]}
		if op.Name == "lex" && len(op.Args) != 1 {
			return nil, fmt.Errorf("cgp: opcode %q: lex wants one lexicon name", strings.TrimSpace(part))
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// Lexicon returns the argument of the "lex" opcode, or "" if there is none.
func (p *Position) Lexicon() string {
	for _, op := range p.Ops {
		if op.Name == "lex" && len(op.Args) == 1 {
			return op.Args[0]
		}
	}
	return ""
}

// SetLexicon sets the "lex" opcode, replacing any there is; an empty name
// removes it.
func (p *Position) SetLexicon(name string) {
	var ops []Op
	done := false
	for _, op := range p.Ops {
		if op.Name == "lex" {
			if done || name == "" {
				continue
			}
			op = Op{Name: "lex", Args: []string{name}}
			done = true
		}
		ops = append(ops, op)
	}
	if !done && name != "" {
		ops = append([]Op{{Name: "lex", Args: []string{name}}}, ops...)
	}
	p.Ops = ops
}

// Resolve reads the rows and racks with the variant's alphabet and checks
// the position: the board has the variant's size, every letter is known,
// no rack is longer than the rack size, and board and racks together use
// no more of any tile than the tile set holds.
func (p *Position) Resolve(v *variant.Variant) error {
	a := v.Alphabet
	n := v.Size
	if len(p.Rows) != n {
		return fmt.Errorf("cgp: board has %d rows; the %s board is %d×%d", len(p.Rows), v.Name, n, n)
	}
	if len(p.Scores) != len(p.Racks) {
		return fmt.Errorf("cgp: %d scores for %d racks", len(p.Scores), len(p.Racks))
	}
	squares := make([]alphabet.Tile, n*n)
	var used alphabet.Rack
	for r, row := range p.Rows {
		col := 0
		var buf []alphabet.Tile
		_, err := rowTokens(row, func(tok string, run int, at int) error {
			if run > 0 {
				col += run
				if col > n {
					return fmt.Errorf("row %d has more than %d squares (run %d ends at column %d)", r+1, n, run, col)
				}
				return nil
			}
			var err error
			buf, err = a.ParseBracketed(tok, alphabet.WithBlanks)
			if err != nil {
				c := col + len(buf)
				if ae, ok := err.(*alphabet.Error); ok && ae.Reason == "" {
					return fmt.Errorf("row %d column %d (%s): unknown letter %q", r+1, c+1, squareName(r, c), ae.Letter)
				}
				return fmt.Errorf("row %d column %d (%s): %v", r+1, c+1, squareName(r, c), err)
			}
			for _, t := range buf {
				if col >= n {
					return fmt.Errorf("row %d has more than %d squares", r+1, n)
				}
				if t == alphabet.Blank {
					return fmt.Errorf("row %d column %d (%s): a blank on the board is written as the lowercase letter it stands for, not ?", r+1, col+1, squareName(r, col))
				}
				squares[r*n+col] = t
				used.Add(t)
				col++
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("cgp: board: %w", err)
		}
		if col != n {
			return fmt.Errorf("cgp: board: row %d has %d squares; the %s board is %d wide", r+1, col, v.Name, n)
		}
	}
	racks := make([]alphabet.Rack, len(p.Racks))
	for i, text := range p.Racks {
		ts, err := a.ParseBracketed(text, alphabet.WithBlanks)
		if err != nil {
			return fmt.Errorf("cgp: rack %d %q: %w", i+1, text, err)
		}
		for _, t := range ts {
			if t.IsBlanked() {
				return fmt.Errorf("cgp: rack %d %q: %q: a blank on a rack is written ?", i+1, text, a.String(t))
			}
		}
		if len(ts) > v.RackSize {
			return fmt.Errorf("cgp: rack %d %q holds %d tiles; the rack size is %d", i+1, text, len(ts), v.RackSize)
		}
		racks[i] = alphabet.RackOf(ts)
		for _, t := range ts {
			used.Add(t)
		}
	}
	for t := 0; t < len(v.Counts); t++ {
		if int(used[t]) > v.Counts[t] {
			name := a.String(alphabet.Tile(t))
			if t == 0 {
				name = "blanks (?)"
			}
			return fmt.Errorf("cgp: too many %s: %d on the board and racks, the %s tile set has %d", name, used[t], v.Name, v.Counts[t])
		}
	}
	p.V, p.Squares, p.RackTiles = v, squares, racks
	return nil
}

func squareName(r, c int) string { return variant.SquareName(r, c) }

// At returns the tile on square (row, col) of a resolved position.
func (p *Position) At(row, col int) alphabet.Tile { return p.Squares[row*p.V.Size+col] }

// Board builds a board holding the position's tiles, with cross-sets
// computed with ws (a lexicon). The position must be resolved.
func (p *Position) Board(ws board.WordSet) (*board.Board, error) {
	if p.V == nil {
		return nil, fmt.Errorf("cgp: position not resolved against a variant")
	}
	b := board.New(p.V, ws)
	n := p.V.Size
	for i, t := range p.Squares {
		if t != board.Empty {
			b.SetTile(i/n, i%n, t, 0)
		}
	}
	b.Recompute()
	return b, nil
}

// Game starts a game at the position (which must be resolved), with
// lex as its word list, seats named "1" to "n" in the CGP's order (the
// player on turn first) and the bag of what the set leaves shuffled by
// seed; see game.FromPosition.
func (p *Position) Game(lex *lexicon.Lexicon, seed uint64) (*game.Game, error) {
	if p.V == nil {
		return nil, fmt.Errorf("cgp: position not resolved against a variant")
	}
	names := make([]string, len(p.RackTiles))
	for i := range names {
		names[i] = strconv.Itoa(i + 1)
	}
	g, err := game.FromPosition(p.V, lex, names, p.Squares, p.RackTiles, p.Scores, p.ZeroTurns, seed)
	if err != nil {
		return nil, fmt.Errorf("cgp: %w", err)
	}
	return g, nil
}

// FromGame returns the position of a game: its board, the racks and
// scores starting with the player on turn, the count of consecutive
// scoreless turns and the lexicon's name.
func FromGame(g *game.Game) *Position {
	k := len(g.Seats)
	var racks []alphabet.Rack
	var scores []int
	for i := 0; i < k; i++ {
		pl := g.Seats[(g.Current()+i)%k]
		racks = append(racks, pl.Rack)
		scores = append(scores, pl.Score)
	}
	name := ""
	if g.Lex != nil {
		name = g.Lex.Name
	}
	return New(g.Variant, g.Board, racks, scores, g.ScorelessTurns(), name)
}

// New returns the position of board b with the racks and scores given
// (the player on turn first; an empty rack is written as none), the
// count of consecutive scoreless turns and the word list's name as lex
// opcode (none when empty).
func New(v *variant.Variant, b *board.Board, racks []alphabet.Rack, scores []int, zeroTurns int, lexicon string) *Position {
	n := v.Size
	p := &Position{V: v, Squares: make([]alphabet.Tile, n*n), ZeroTurns: zeroTurns,
		RackTiles: append([]alphabet.Rack(nil), racks...), Scores: append([]int(nil), scores...)}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			p.Squares[r*n+c] = b.At(r, c)
		}
	}
	p.SetLexicon(lexicon)
	p.fillText()
	return p
}

// fillText sets the text fields from the resolved tiles.
func (p *Position) fillText() {
	a := p.V.Alphabet
	n := p.V.Size
	p.Rows = make([]string, n)
	for r := 0; r < n; r++ {
		var sb strings.Builder
		run := 0
		var word []alphabet.Tile
		flush := func() {
			if len(word) > 0 {
				sb.WriteString(a.Bracketed(word))
				word = word[:0]
			}
			if run > 0 {
				sb.WriteString(strconv.Itoa(run))
				run = 0
			}
		}
		for c := 0; c < n; c++ {
			t := p.Squares[r*n+c]
			if t == board.Empty {
				if len(word) > 0 {
					flush()
				}
				run++
				continue
			}
			if run > 0 {
				flush()
			}
			word = append(word, t)
		}
		flush()
		p.Rows[r] = sb.String()
	}
	p.Racks = make([]string, len(p.RackTiles))
	for i := range p.RackTiles {
		p.Racks[i] = RackText(a, &p.RackTiles[i])
	}
}

// String renders the position as a CGP line. A resolved position is
// written in canonical form (racks sorted with blanks last, multi-letter
// tiles and nothing else bracketed); an unresolved one from its text
// fields.
func (p *Position) String() string {
	if p.V != nil {
		p.fillText()
	}
	var sb strings.Builder
	sb.WriteString(strings.Join(p.Rows, "/"))
	sb.WriteByte(' ')
	sb.WriteString(strings.Join(p.Racks, "/"))
	sb.WriteByte(' ')
	for i, s := range p.Scores {
		if i > 0 {
			sb.WriteByte('/')
		}
		sb.WriteString(strconv.Itoa(s))
	}
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(p.ZeroTurns))
	for _, op := range p.Ops {
		sb.WriteByte(' ')
		sb.WriteString(op.Name)
		for _, a := range op.Args {
			sb.WriteByte(' ')
			sb.WriteString(a)
		}
		sb.WriteByte(';')
	}
	return sb.String()
}

// RackText writes a rack the way players do, letters in alphabet order and
// blanks last ("AEINRS?"), with multi-letter tiles in brackets.
func RackText(a *alphabet.Alphabet, r *alphabet.Rack) string {
	return a.Bracketed(r.InWritingOrder())
}
