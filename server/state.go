package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"atril/alphabet"
	"atril/board"
	"atril/game"
	"atril/move"
	"atril/variant"
)

// The state of a game as the JSON API shows it, rendered for one seat
// (or for anyone).

// State is the answer of GET /api/games/{id}: what anyone may see, and,
// for the holder of a seat's token, that seat's rack and unseen tiles.
type State struct {
	ID       string       `json:"id"`
	Variant  string       `json:"variant"`
	Lexicon  string       `json:"lexicon"`
	Size     int          `json:"size"`
	RackSize int          `json:"rack_size"`
	Start    [2]int       `json:"start"`
	Premiums []string     `json:"premiums"`
	Letters  []LetterInfo `json:"letters"`
	Seats    []SeatInfo   `json:"seats"`
	Started  bool         `json:"started"`
	Over     bool         `json:"over"`
	Turn     int          `json:"turn"`
	Bag      int          `json:"bag"`
	Board    []Tile       `json:"board"`
	History  []HistEntry  `json:"history"`
	Winners  []int        `json:"winners,omitempty"`
	// Abandoned is set for a game ended because nobody played it.
	Abandoned bool `json:"abandoned,omitempty"`
	// Resigned is the seat that resigned; Aborted is set for a game
	// called off before its first move; Listed for a game offered in the
	// lobby.
	Resigned *int `json:"resigned,omitempty"`
	// TimedOut is the seat that lost on time.
	TimedOut *int `json:"timed_out,omitempty"`
	// Clock is the game's clock (none for an untimed game).
	Clock   *ClockState `json:"clock,omitempty"`
	Aborted bool        `json:"aborted,omitempty"`
	Listed  bool        `json:"listed,omitempty"`
	// Challenge is the game's challenge rule (single, double, 5pt,
	// 10pt; none: void). Challengeable is the entry of History that the
	// seat on turn may challenge; AwaitingChallenge says that it went
	// out, and waits to be challenged or accepted.
	Challenge         string `json:"challenge,omitempty"`
	Challengeable     *int   `json:"challengeable,omitempty"`
	AwaitingChallenge bool   `json:"awaiting_challenge,omitempty"`
	// Rated is set for a rated game, Pace its pace (blitz, rapid,
	// regular, correspondence: which of its players' ratings it moves);
	// RatingChanges gives each seat's rating before and after it, once
	// it is over and rated.
	Rated         bool           `json:"rated,omitempty"`
	Pace          string         `json:"pace,omitempty"`
	RatingChanges []RatingChange `json:"rating_changes,omitempty"`
	// Tournament is the game's place in a tournament.
	Tournament *TournamentRef `json:"tournament,omitempty"`
	// Imported is set for a game played elsewhere, read from its GCG
	// file (POST /api/games/import): a record to review, over even if
	// the file stops before the end.
	Imported bool `json:"imported,omitempty"`
	// Takebacks counts the moves taken back in a casual game against
	// the computer alone (POST /api/games/{id}/takeback).
	Takebacks int `json:"takebacks,omitempty"`
	Moves     int `json:"moves"`
	Expected  int `json:"expected_clients"`
	Connected int `json:"connected_clients"`
	// Watching counts the people watching the game being played (readers
	// of its state without a seat, seen in the last 20 s by any process).
	Watching int `json:"watching,omitempty"`
	// WatchingNames are the names of the signed-in accounts among them,
	// in order.
	WatchingNames []string `json:"watching_names,omitempty"`
	// Seq is the number of the game's latest notification: reading the
	// notifications after it continues from this state.
	Seq int `json:"seq"`
	// Kibitz is the watchers' chat's latest lines (at most ChatShown):
	// for a reader without a seat's token, and for everyone once the
	// game is over.
	Kibitz []KibitzLine `json:"kibitz,omitempty"`
	// Notes are the players' notes on the entries of a finished game's
	// history, by entry and seat.
	Notes []GameNote `json:"notes,omitempty"`
	You   *You       `json:"you,omitempty"`
}

// LetterInfo is one tile kind of the variant.
type LetterInfo struct {
	Letter string `json:"letter"`
	Score  int    `json:"score"`
	Count  int    `json:"count"`
}

// SeatInfo is a seat as anyone sees it.
type SeatInfo struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Level string `json:"level,omitempty"`
	Taken bool   `json:"taken"`
	Score int    `json:"score"`
	Tiles int    `json:"tiles"`
	// Account is set for a seat held by a signed-in account (whose name
	// it shows), Rating that account's rating in the game's word list
	// when it took the seat (none before its first rated game).
	Account bool `json:"account,omitempty"`
	Rating  int  `json:"rating,omitempty"`
	// Provisional is set when that rating was provisional (its
	// deviation above rating.ProvisionalRD).
	Provisional bool `json:"provisional,omitempty"`
	// Invited is set for a free seat kept for an invited player account,
	// whose name it shows; InvitedBy names the account that invited it.
	Invited   bool   `json:"invited,omitempty"`
	InvitedBy string `json:"invited_by,omitempty"`
	// RatingMin and RatingMax are the rating range of a free seat kept
	// for the accounts rated within it (0: no bound).
	RatingMin int `json:"rating_min,omitempty"`
	RatingMax int `json:"rating_max,omitempty"`
}

// HistEntry is one line of the move list. Exchanged tiles are never shown,
// only their number.
type HistEntry struct {
	Seat   int    `json:"seat"`
	Kind   string `json:"kind"`
	Move   string `json:"move,omitempty"`
	Count  int    `json:"count,omitempty"`
	Points int    `json:"points"`
	Total  int    `json:"total"`
	Rack   string `json:"rack,omitempty"`
	// Words are the words missing from the list of a withdrawn play.
	Words []string `json:"words,omitempty"`
}

// You is the private part of a state.
type You struct {
	Seat   int          `json:"seat"`
	Rack   []Tile       `json:"rack"`
	Unseen []LetterInfo `json:"unseen"`
	// Rematch is the id of the finished game's rematch, once a seat
	// asked for it (POST .../rematch takes one's seat in it).
	Rematch string `json:"rematch,omitempty"`
	// Chat is the chat's latest lines (at most ChatShown).
	Chat []ChatLine `json:"chat,omitempty"`
}

var premiumCode = map[variant.Premium]string{
	{LetterMul: 2, WordMul: 1}: "dl", {LetterMul: 3, WordMul: 1}: "tl",
	{LetterMul: 1, WordMul: 2}: "dw", {LetterMul: 1, WordMul: 3}: "tw",
	{LetterMul: 4, WordMul: 1}: "ql", {LetterMul: 1, WordMul: 4}: "qw",
}

// variantStatic is the part of a state that every game of a variant
// shares, built once: as values, and as JSON for writeState.
type variantStatic struct {
	premiums                  []string
	letters                   []LetterInfo
	premiumsJSON, lettersJSON json.RawMessage
}

var statics sync.Map // variant name → *variantStatic

func staticOf(v *variant.Variant) *variantStatic {
	if vs, ok := statics.Load(v.Name); ok {
		return vs.(*variantStatic)
	}
	vs := &variantStatic{}
	for r := 0; r < v.Size; r++ {
		var row strings.Builder
		for c := 0; c < v.Size; c++ {
			code := premiumCode[v.Premium(r, c)]
			if code == "" {
				code = ".."
			}
			row.WriteString(code)
		}
		vs.premiums = append(vs.premiums, row.String())
	}
	vs.letters = append(vs.letters, LetterInfo{Letter: "?", Score: v.Scores[0], Count: v.Counts[0]})
	for i, name := range v.Alphabet.Letters() {
		vs.letters = append(vs.letters, LetterInfo{Letter: name, Score: v.Scores[i+1], Count: v.Counts[i+1]})
	}
	vs.premiumsJSON, _ = json.Marshal(vs.premiums)
	vs.lettersJSON, _ = json.Marshal(vs.letters)
	got, _ := statics.LoadOrStore(v.Name, vs)
	return got.(*variantStatic)
}

// stateWire is a State as written: the variant's premiums and letters
// go out as JSON made once (these fields hide the State's own).
type stateWire struct {
	*State
	Premiums json.RawMessage `json:"premiums"`
	Letters  json.RawMessage `json:"letters"`
}

// writeState answers a state.
func writeState(w http.ResponseWriter, st *State) {
	vs, ok := statics.Load(st.Variant)
	if !ok {
		writeJSON(w, 200, st)
		return
	}
	p := stateBufs.Get().(*[]byte)
	b := st.appendJSON((*p)[:0], vs.(*variantStatic).premiumsJSON, vs.(*variantStatic).lettersJSON)
	writeBody(w, 200, append(b, '\n'))
	if cap(b) <= 64<<10 {
		*p = b[:0]
		stateBufs.Put(p)
	}
}

// stateBufs holds the buffers of writeState.
var stateBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// state renders the game for seat me (-1: a spectator). Caller holds mu.
func (l *live) state(me int) *State {
	v, g := l.v, l.g
	st := &State{ID: l.hdr.ID, Variant: v.Name, Lexicon: l.hdr.Lexicon, Size: v.Size, RackSize: v.RackSize,
		Start: [2]int{v.StartRow, v.StartCol}, Started: l.started(), Over: l.over(), Turn: g.Current(),
		Bag: g.BagLen(), History: []HistEntry{}, Moves: g.MovesPlayed(), Takebacks: l.takebacks,
		Expected: len(l.seat), Connected: l.connected(), Seq: l.log.latest}
	vs := staticOf(v)
	st.Premiums, st.Letters = vs.premiums, vs.letters
	n := 0
	for r := 0; r < v.Size; r++ {
		for c := 0; c < v.Size; c++ {
			if g.Board.At(r, c) != board.Empty {
				n++
			}
		}
	}
	st.Board = make([]Tile, 0, n)
	rc := make([]int, 0, 3*n) // the tiles' rows, columns and turns, one allocation
	for r := 0; r < v.Size; r++ {
		for c := 0; c < v.Size; c++ {
			if t := g.Board.At(r, c); t != board.Empty {
				tl := l.tile(t)
				rc = append(rc, r, c, g.Board.TurnAt(r, c))
				tl.Row, tl.Col, tl.Move = &rc[len(rc)-3], &rc[len(rc)-2], &rc[len(rc)-1]
				st.Board = append(st.Board, tl)
			}
		}
	}
	for i := range l.seat {
		st.Seats = append(st.Seats, l.seatInfo(i))
	}
	// The history only grows: its entries are rendered once.
	for _, h := range g.History[len(l.hist):] {
		e := HistEntry{Seat: h.Player, Points: h.Points, Total: h.Total}
		switch h.Kind {
		case game.Played:
			e.Kind = kindNames[h.Move.Kind]
			switch h.Move.Kind {
			case move.Place:
				e.Move = h.Notation
			case move.Exchange:
				e.Count = len(h.Move.Exchanged)
			}
		case game.OutBonus:
			e.Kind, e.Rack = "out_bonus", v.Alphabet.RackString(&h.Rack)
		case game.RackPenalty:
			e.Kind, e.Rack = "rack_penalty", v.Alphabet.RackString(&h.Rack)
		case game.TimePenalty:
			e.Kind = "time_penalty"
		case game.Withdrawn:
			e.Kind, e.Move, e.Words = "withdrawn", h.Notation, h.Phonies
		case game.ChallengeBonus:
			e.Kind = "challenge_bonus"
		case game.LostTurn:
			e.Kind = "lost_turn"
		}
		l.hist = append(l.hist, e)
	}
	st.History = l.hist[:len(l.hist):len(l.hist)]
	if st.History == nil {
		st.History = []HistEntry{}
	}
	if g.Over() {
		st.Winners = g.Winners()
	}
	st.Abandoned = l.abandoned
	if rs := g.Resigned(); rs >= 0 {
		st.Resigned = intp(rs)
	}
	if to := g.TimedOut(); to >= 0 {
		st.TimedOut = intp(to)
	}
	st.Clock = l.clockState(time.Now())
	st.Aborted, st.Listed = g.Aborted(), l.listed
	if r := g.ChallengeRule(); r != game.Void {
		st.Challenge = r.String()
		if k, ok := g.Challengeable(); ok && !l.over() {
			st.Challengeable, st.AwaitingChallenge = intp(k), g.AwaitingChallenge()
		}
	}
	st.Rated, st.RatingChanges = l.hdr.Rated, l.ratingChanges
	if l.hdr.Rated {
		st.Pace = gamePace(l.hdr.Seats, true)
	}
	st.Tournament, st.Imported = l.tournament, l.imported
	st.Kibitz = l.kibitzShown(me)
	st.Notes = l.notes.list()
	if me >= 0 {
		you := &You{Seat: me, Rack: l.rackTiles(&g.Seats[me].Rack), Unseen: []LetterInfo{}}
		un := g.Unseen(me)
		for t := 0; t <= v.Alphabet.Size(); t++ {
			if un[t] > 0 {
				li := LetterInfo{Letter: "?", Count: int(un[t]), Score: v.Scores[t]}
				if t > 0 {
					li.Letter = v.Alphabet.String(alphabet.Tile(t))
				}
				you.Unseen = append(you.Unseen, li)
			}
		}
		you.Rematch, you.Chat = l.rematch, l.chat.latest()
		st.You = you
	}
	return st
}

// seatInfo is seat i as a state and the lobby show it. Caller holds mu.
func (l *live) seatInfo(i int) SeatInfo {
	s := l.seat[i]
	si := SeatInfo{Name: s.name, Kind: "human", Level: s.level, Taken: s.taken, Score: l.g.Seats[i].Score,
		Tiles: l.g.Seats[i].Rack.Len(), Account: s.account != "", Rating: s.rating, Provisional: s.provisional}
	if !s.taken && l.hdr.Seats[i].Invited != "" {
		si.Invited, si.InvitedBy = true, l.hdr.Seats[i].InvitedBy
	}
	if !s.taken {
		si.RatingMin, si.RatingMax = l.hdr.Seats[i].RatingMin, l.hdr.Seats[i].RatingMax
	}
	if s.level != "" {
		si.Kind = "computer"
		if l.hdr.Rated {
			// The rating the level plays rated games at.
			si.Rating = roundInt(levelRatings[s.level])
		}
	}
	return si
}
