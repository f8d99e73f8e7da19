package movegen

import (
	"sort"
	"strings"
	"testing"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/internal/testvariant"
	"atril/move"
	"atril/variant"
)

// list renders moves as "POS WORD SCORE" strings, sorted.
func list(b *board.Board, ms []move.Move) []string {
	var out []string
	for i := range ms {
		out = append(out, ms[i].String(b)+" "+itoa(ms[i].Score))
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string {
	s := ""
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	if neg {
		s = "-" + s
	}
	return s
}

func play(t *testing.T, b *board.Board, s string) {
	t.Helper()
	m, err := move.Parse(b, s)
	if err != nil {
		t.Fatal(err)
	}
	sq, ts := m.Placed()
	b.Place(sq, ts, 0)
}

// TestBruteHandPositions checks complete move lists worked out by hand on
// a 5×5 board (start square C3, no premiums; A=1, B=3, T=1).
func TestBruteHandPositions(t *testing.T) {
	v := testvariant.Small(t, 5, 3, 10, "?:2:0", "A:5:1", "B:2:3", "T:5:1")
	lex := testvariant.Lexicon(t, v, "AT", "TA", "BAT", "TAB", "AB", "BA")
	tests := []struct {
		name  string
		moves []string
		rack  string
		want  []string
	}{
		{
			// Every word through C3 in both directions; three-tile plays
			// use the whole rack and earn the bonus of 10.
			name: "empty board", rack: "ABT",
			want: []string{
				"3A BAT 15", "3A TAB 15", "3B BAT 15", "3B TAB 15", "3C BAT 15", "3C TAB 15",
				"3B AB 4", "3B BA 4", "3C AB 4", "3C BA 4", "3B AT 2", "3B TA 2", "3C AT 2", "3C TA 2",
				"C1 BAT 15", "C1 TAB 15", "C2 BAT 15", "C2 TAB 15", "C3 BAT 15", "C3 TAB 15",
				"C2 AB 4", "C2 BA 4", "C3 AB 4", "C3 BA 4", "C2 AT 2", "C2 TA 2", "C3 AT 2", "C3 TA 2",
			},
		},
		{
			// A blank can stand for T only (there is one A on the rack).
			name: "blank on empty board", rack: "A?",
			want: []string{"3B At 1", "3C At 1", "3B tA 1", "3C tA 1", "3B Ab 1", "3C Ab 1", "3B bA 1", "3C bA 1",
				"C2 At 1", "C3 At 1", "C2 tA 1", "C3 tA 1", "C2 Ab 1", "C3 Ab 1", "C2 bA 1", "C3 bA 1"},
		},
		{
			// With AT on C3-D3: BAT in front; B above A makes BA down, B
			// below A makes AB down (one tile, listed down only because
			// it forms no across word).
			name: "hooks", moves: []string{"3C AT"}, rack: "B",
			want: []string{"3B BAT 5", "C2 BA 4", "C3 AB 4"},
		},
		{
			// With A on C3, T on D3, A on D4: B on C4 makes BA across and
			// AB down and is listed once, across, scoring both words.
			name: "one tile both ways", moves: []string{"3C AT", "D3 TA"}, rack: "B",
			want: []string{"3B BAT 5", "C2 BA 4", "4C BA 8", "D3 TAB 5", "4D AB 4"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := board.New(v, lex)
			for _, m := range tc.moves {
				play(t, b, m)
			}
			r, err := v.Alphabet.ParseRack(tc.rack)
			if err != nil {
				t.Fatal(err)
			}
			got := list(b, All(NewBrute(lex), b, &r))
			want := append([]string(nil), tc.want...)
			sort.Strings(want)
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("moves:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestBruteAgreesWithRules checks, on positions of real games in three
// languages, that every move the oracle lists passes move.Validate with the
// same score, and that no move is listed twice.
func TestBruteAgreesWithRules(t *testing.T) {
	for _, tc := range []struct{ variant, list string }{
		{"english", "en-sowpods"}, {"spanish", "es-fise"}, {"czech", "cs-hunspell-2to9"},
	} {
		v := variant.MustLoad(tc.variant)
		lex := testvariant.Sample(t, v, tc.list, 12)
		g, err := game.New(v, lex, []string{"a", "b"}, 5)
		if err != nil {
			t.Fatal(err)
		}
		gen := NewBrute(lex)
		checked := 0
		for turn := 0; turn < 10 && !g.Over(); turn++ {
			rack := g.Seats[g.Current()].Rack
			if turn%3 == 2 && rack[alphabet.Blank] == 0 {
				// Put a blank on the rack in place of its first tile.
				for i := 1; i < len(rack); i++ {
					if rack[i] > 0 {
						rack[i]--
						rack[alphabet.Blank]++
						break
					}
				}
				if g.SetRack(g.Current(), rack) != nil {
					rack = g.Seats[g.Current()].Rack // no blank left to take
				}
			}
			ms := All(gen, g.Board, &rack)
			seen := map[string]bool{}
			for i := range ms {
				m := ms[i]
				if seen[m.Key()] {
					t.Fatalf("%s: %s listed twice", tc.variant, m.String(g.Board))
				}
				seen[m.Key()] = true
				want := m.Score
				if err := move.Validate(g.Board, &rack, &m, g.BagLen()); err != nil {
					t.Fatalf("%s: oracle move %s rejected: %v", tc.variant, m.String(g.Board), err)
				}
				if m.Score != want {
					t.Fatalf("%s: %s oracle score %d, rules score %d", tc.variant, m.String(g.Board), want, m.Score)
				}
				checked++
			}
			if len(ms) == 0 {
				g.Play(move.Move{Kind: move.Pass})
				continue
			}
			if err := g.Play(ms[len(ms)/4]); err != nil {
				t.Fatal(err)
			}
		}
		if checked < 100 {
			t.Errorf("%s: only %d moves checked", tc.variant, checked)
		}
	}
}
