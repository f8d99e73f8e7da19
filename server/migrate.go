package server

import (
	"context"
	"encoding/json"
	"fmt"

	"atril/alphabet"
	"atril/move"
	"atril/store"
	"atril/variant"
)

// logFormat is the version of the event data this server writes, kept as
// the store's data version:
//
//	0  moves hold tile codes: a letter's position in the variant file's
//	   list of tiles, 0 for the blank, 0x40 added for a designated blank,
//	   0x80 for a square played through
//	1  moves hold letters as text (see moveEvent)
const logFormat = 1

// migrateLog brings the event log of a store written by an earlier
// version up to logFormat, in one transaction, before any game is
// rebuilt.
func migrateLog(ctx context.Context, st store.Store, logf func(string, ...any)) error {
	from, err := st.DataVersion(ctx)
	if err != nil {
		return err
	}
	n, err := st.Migrate(ctx, logFormat, lettersAsText)
	if err != nil {
		return err
	}
	if from < logFormat {
		logf("server: event log brought from format %d to %d: %d moves rewritten with letters as text", from, logFormat, n)
	}
	return nil
}

// codedMoveEvent is a move as format 0 logged it.
type codedMoveEvent struct {
	Seat      int    `json:"seat"`
	Kind      string `json:"kind"`
	Row       int    `json:"row,omitempty"`
	Col       int    `json:"col,omitempty"`
	Down      bool   `json:"down,omitempty"`
	Tiles     []int  `json:"tiles,omitempty"`
	Exchanged []int  `json:"exchanged,omitempty"`
	Score     int    `json:"score"`
	Notation  string `json:"notation"`
}

// lettersAsText rewrites a move of format 0 with its letters as text.
//
// Format 0 numbered the letters in the order the variant file listed them.
// For the embedded variants, the only ones a server offers, that order is
// alphabet.Collated (game's TestBagOrder checks it against the lists as
// they were), so the codes are read by that order and not by the file's
// current order: a log is read right even if the file was reordered
// before the migration.
func lettersAsText(g *store.Game, e store.Event) (string, error) {
	if e.Kind != "move" {
		return e.Data, nil
	}
	var old codedMoveEvent
	if err := json.Unmarshal([]byte(e.Data), &old); err != nil {
		return "", fmt.Errorf("read move: %w", err)
	}
	v, err := variant.Load(g.Variant)
	if err != nil {
		return "", err
	}
	a := v.Alphabet
	letters := a.Collated()
	text := func(code int) (string, error) {
		switch {
		case code == int(move.PlayThrough):
			return playedThrough, nil
		case code == 0:
			return "?", nil
		}
		l := code &^ int(alphabet.BlankBit)
		if l < 1 || l > len(letters) || code&^0x7f != 0 {
			return "", fmt.Errorf("tile code %d is not a tile of %s", code, v.Name)
		}
		return a.String(letters[l-1] | alphabet.Tile(code&int(alphabet.BlankBit))), nil
	}
	ev := moveEvent{Seat: old.Seat, Kind: old.Kind, Row: old.Row, Col: old.Col, Down: old.Down, Score: old.Score, Notation: old.Notation}
	for _, c := range old.Tiles {
		s, err := text(c)
		if err != nil {
			return "", err
		}
		ev.Tiles = append(ev.Tiles, s)
	}
	for _, c := range old.Exchanged {
		s, err := text(c)
		if err != nil {
			return "", err
		}
		ev.Exchanged = append(ev.Exchanged, s)
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return "", err
	}
	return string(data), nil
}
