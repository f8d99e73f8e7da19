package server

import (
	"fmt"
	"strings"

	"atril/alphabet"
	"atril/game"
	"atril/move"
)

// writeGCG renders a finished game in GCG: player lines, then one line
// per turn with the rack before it, the move, the points and the total;
// the end-of-game rack adjustments close it. Letters played through are
// written as ".".
func writeGCG(l *live) (string, error) {
	var b strings.Builder
	a := l.v.Alphabet
	b.WriteString("#character-encoding UTF-8\n")
	nick := make([]string, len(l.seat))
	for i, s := range l.seat {
		nick[i] = fmt.Sprintf("p%d", i+1)
		name := strings.Join(strings.Fields(s.name), " ")
		fmt.Fprintf(&b, "#player%d %s %s\n", i+1, nick[i], name)
	}
	fmt.Fprintf(&b, "#lexicon %s\n", l.hdr.Lexicon)
	fmt.Fprintf(&b, "#note atril game %s, variant %s, seed %d\n", l.hdr.ID, l.v.Name, l.hdr.Seed)
	for _, t := range l.g.History {
		rack := a.RackString(&t.Rack)
		switch t.Kind {
		case game.Played:
			var mv string
			switch t.Move.Kind {
			case move.Place:
				var w strings.Builder
				for _, tl := range t.Move.Tiles {
					if tl == move.PlayThrough {
						w.WriteByte('.')
					} else {
						w.WriteString(a.Bracketed([]alphabet.Tile{tl}))
					}
				}
				mv = t.Move.Position() + " " + w.String()
			case move.Exchange:
				mv = "-" + a.Bracketed(t.Move.Exchanged)
			default:
				mv = "-"
			}
			fmt.Fprintf(&b, ">%s: %s %s %+d %d\n", nick[t.Player], rack, mv, t.Points, t.Total)
		case game.OutBonus, game.RackPenalty:
			fmt.Fprintf(&b, ">%s: (%s) %+d %d\n", nick[t.Player], rack, t.Points, t.Total)
		}
	}
	return b.String(), nil
}
