// Package variant describes a game variant: board size and premium layout,
// the tile set with counts and scores, rack size, bingo bonus, start square
// and the rules for exchanges and the end of the game. The English, Spanish
// and Czech variants are embedded; others can be loaded from JSON files.
package variant

import (
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"atril/alphabet"
)

//go:embed english.json spanish.json czech.json
var embedded embed.FS

// Premium is the bonus of a board square.
type Premium struct {
	LetterMul int8 // 1, 2 or 3 (or more)
	WordMul   int8
}

// Variant is a loaded, validated game variant.
type Variant struct {
	Name           string
	Note           string
	Size           int // board is Size×Size
	RackSize       int
	BingoBonus     int
	StartRow       int // 0-based
	StartCol       int
	Premiums       []Premium // Size*Size, row-major
	Alphabet       *alphabet.Alphabet
	Scores         []int // by tile code; Scores[0] is the blank's score
	Counts         []int // by tile code; Counts[0] is the number of blanks
	DefaultLexicon string
	// ScorelessTurns ends the game after this many consecutive scoreless
	// turns by all players together (0: rule not used).
	ScorelessTurns int
	// PassingRounds ends the game after this many consecutive rounds in
	// which every player passed (0: rule not used).
	PassingRounds int
	// ExchangeMinBag is the least number of tiles the bag must hold for an
	// exchange to be allowed.
	ExchangeMinBag int
}

// file is the JSON form of a variant.
type file struct {
	Name          string   `json:"name"`
	Note          string   `json:"note"`
	BoardSize     int      `json:"board_size"`
	RackSize      int      `json:"rack_size"`
	BingoBonus    *int     `json:"bingo_bonus"`
	StartSquare   string   `json:"start_square"`
	PremiumLayout []string `json:"premium_layout"`
	DefaultLex    string   `json:"default_lexicon"`
	Tiles         []struct {
		Tile  string `json:"tile"`
		Count int    `json:"count"`
		Score int    `json:"score"`
	} `json:"tiles"`
	GameEnd struct {
		ScorelessTurns int `json:"end_after_scoreless_turns"`
		PassingRounds  int `json:"end_after_passing_rounds"`
	} `json:"game_end"`
	ExchangeMin *int `json:"exchange_needs_bag_at_least"`
}

// Names lists the embedded variants.
func Names() []string {
	ents, _ := embedded.ReadDir(".")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".json"))
	}
	sort.Strings(out)
	return out
}

// Load returns an embedded variant by name ("english", "spanish",
// "czech"), or, if name names an existing file, the variant in that file.
func Load(name string) (*Variant, error) {
	if data, err := embedded.ReadFile(name + ".json"); err == nil {
		return Parse(data, name+".json")
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("variant %q: not embedded (have %s) and not a readable file: %w",
			name, strings.Join(Names(), ", "), err)
	}
	return Parse(data, name)
}

// MustLoad is Load for embedded variants known to exist; it panics on error.
func MustLoad(name string) *Variant {
	v, err := Load(name)
	if err != nil {
		panic(err)
	}
	return v
}

// Parse reads a variant from JSON; source names the data in errors.
func Parse(data []byte, source string) (*Variant, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("variant %s: %w", source, err)
	}
	bad := func(format string, args ...any) (*Variant, error) {
		return nil, fmt.Errorf("variant %s: "+format, append([]any{source}, args...)...)
	}
	v := &Variant{Name: f.Name, Note: f.Note, Size: f.BoardSize, RackSize: f.RackSize,
		DefaultLexicon: f.DefaultLex, ScorelessTurns: f.GameEnd.ScorelessTurns,
		PassingRounds: f.GameEnd.PassingRounds}
	if v.Name == "" {
		return bad("missing name")
	}
	if v.Size < 5 || v.Size > 25 {
		return bad("board_size %d out of range 5..25", v.Size)
	}
	if v.RackSize < 1 || v.RackSize > 15 {
		return bad("rack_size %d out of range 1..15", v.RackSize)
	}
	v.BingoBonus = 50
	if f.BingoBonus != nil {
		v.BingoBonus = *f.BingoBonus
	}
	if v.BingoBonus < 0 {
		return bad("bingo_bonus %d is negative", v.BingoBonus)
	}
	v.ExchangeMinBag = v.RackSize
	if f.ExchangeMin != nil {
		v.ExchangeMinBag = *f.ExchangeMin
	}
	if v.ExchangeMinBag < 1 {
		return bad("exchange_needs_bag_at_least %d must be at least 1", v.ExchangeMinBag)
	}
	if v.ScorelessTurns < 0 || v.PassingRounds < 0 {
		return bad("game_end values must not be negative")
	}
	if v.ScorelessTurns == 0 && v.PassingRounds == 0 {
		v.ScorelessTurns = 6
	}
	// Premiums.
	if len(f.PremiumLayout) == 0 {
		v.Premiums = make([]Premium, v.Size*v.Size)
		for i := range v.Premiums {
			v.Premiums[i] = Premium{1, 1}
		}
	} else {
		if len(f.PremiumLayout) != v.Size {
			return bad("premium_layout has %d rows, board_size is %d", len(f.PremiumLayout), v.Size)
		}
		for r, row := range f.PremiumLayout {
			if len(row) != v.Size {
				return bad("premium_layout row %d has %d squares, want %d", r+1, len(row), v.Size)
			}
			for c, ch := range row {
				p, ok := premiumOf(ch)
				if !ok {
					return bad("premium_layout row %d column %d: unknown square %q (use . d t q D T Q)", r+1, c+1, ch)
				}
				v.Premiums = append(v.Premiums, p)
			}
		}
	}
	// Start square.
	v.StartRow, v.StartCol = v.Size/2, v.Size/2
	if s := strings.TrimSpace(f.StartSquare); s != "" {
		tok := strings.Fields(s)[0]
		r, c, err := ParseSquare(tok)
		if err != nil {
			return bad("start_square %q: %v", f.StartSquare, err)
		}
		if r >= v.Size || c >= v.Size {
			return bad("start_square %q is off the %d×%d board", tok, v.Size, v.Size)
		}
		v.StartRow, v.StartCol = r, c
	}
	// Tiles.
	var letters []string
	blankCount, blankScore := 0, 0
	seenBlank := false
	type ls struct{ count, score int }
	var info []ls
	for i, t := range f.Tiles {
		if t.Count < 0 {
			return bad("tile %d (%q): negative count %d", i+1, t.Tile, t.Count)
		}
		if t.Score < 0 {
			return bad("tile %d (%q): negative score %d", i+1, t.Tile, t.Score)
		}
		if t.Tile == "?" {
			if seenBlank {
				return bad("blank listed twice")
			}
			seenBlank = true
			blankCount, blankScore = t.Count, t.Score
			continue
		}
		for _, r := range t.Tile {
			if !unicode.IsLetter(r) {
				return bad("tile %d: %q is not made of letters", i+1, t.Tile)
			}
		}
		letters = append(letters, t.Tile)
		info = append(info, ls{t.Count, t.Score})
	}
	a, err := alphabet.New(letters)
	if err != nil {
		return bad("%v", err)
	}
	v.Alphabet = a
	v.Scores = append(v.Scores, blankScore)
	v.Counts = append(v.Counts, blankCount)
	total := blankCount
	for _, x := range info {
		v.Scores = append(v.Scores, x.score)
		v.Counts = append(v.Counts, x.count)
		total += x.count
	}
	if total < v.RackSize*2 {
		return bad("only %d tiles in the set, too few for two racks of %d", total, v.RackSize)
	}
	return v, nil
}

func premiumOf(ch rune) (Premium, bool) {
	switch ch {
	case '.':
		return Premium{1, 1}, true
	case 'd':
		return Premium{2, 1}, true
	case 't':
		return Premium{3, 1}, true
	case 'q':
		return Premium{4, 1}, true
	case 'D':
		return Premium{1, 2}, true
	case 'T':
		return Premium{1, 3}, true
	case 'Q':
		return Premium{1, 4}, true
	}
	return Premium{}, false
}

// Premium returns the premium of square (row, col).
func (v *Variant) Premium(row, col int) Premium { return v.Premiums[row*v.Size+col] }

// Score returns the score of tile t; designated blanks score the blank's score.
func (v *Variant) Score(t alphabet.Tile) int {
	if t.IsBlanked() || t == alphabet.Blank {
		return v.Scores[0]
	}
	return v.Scores[t]
}

// TotalTiles is the number of tiles in the full set.
func (v *Variant) TotalTiles() int {
	n := 0
	for _, c := range v.Counts {
		n += c
	}
	return n
}

// InSet reports, for tiles r, the first tile of which r holds more than
// the full set does (nil when none).
func (v *Variant) InSet(r *alphabet.Rack) error {
	for i, c := range r {
		if c > 0 && (i >= len(v.Counts) || int(c) > v.Counts[i]) {
			n := 0
			if i < len(v.Counts) {
				n = v.Counts[i]
			}
			return fmt.Errorf("%d × %s, the set holds %d", c, v.Alphabet.String(alphabet.Tile(i)), n)
		}
	}
	return nil
}

// ColumnName returns the letter naming column c (0-based): A, B, ... Y.
func ColumnName(c int) string { return string(rune('A' + c)) }

// SquareName names a square as column letter and row number, "H8".
func SquareName(row, col int) string { return ColumnName(col) + strconv.Itoa(row+1) }

// ParseSquare reads a square given as column letter and row number in
// either order ("H8" or "8H") and returns 0-based row and column.
func ParseSquare(s string) (row, col int, err error) {
	if s == "" {
		return 0, 0, fmt.Errorf("empty square name")
	}
	var letters, digits string
	switch {
	case s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z':
		letters, digits = s[:1], s[1:]
	case s[len(s)-1] >= 'A' && s[len(s)-1] <= 'Z' || s[len(s)-1] >= 'a' && s[len(s)-1] <= 'z':
		letters, digits = s[len(s)-1:], s[:len(s)-1]
	default:
		return 0, 0, fmt.Errorf("square %q: want a column letter and a row number", s)
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > 26 {
		return 0, 0, fmt.Errorf("square %q: bad row number %q", s, digits)
	}
	col = int(unicode.ToUpper(rune(letters[0])) - 'A')
	return n - 1, col, nil
}
