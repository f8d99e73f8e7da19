package server

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"atril/store"
)

// A player's data (GET /api/me/data): everything the server keeps for the
// signed-in account, in one JSON file to download: the account, its
// ratings, the games it held a seat of (with their results), its seats,
// its cardboxes, its puzzle answers, the players it follows and blocks,
// and its lines in the lobby's chat. The games' moves are in each
// game's own record (GET /api/games/{id}/review, or the GCG file).

// exportMost bounds each list of the export (games, seats, puzzle
// answers): far more than a player makes.
const exportMost = 100000

// ExportConversation is a conversation as an account's data holds it:
// the other account's name and the messages either way.
type ExportConversation struct {
	With     string        `json:"with"`
	Messages []MessageInfo `json:"messages"`
}

// AccountData is the answer of GET /api/me/data.
type AccountData struct {
	Name     string             `json:"name"`
	Created  time.Time          `json:"created"`
	Exported time.Time          `json:"exported"`
	Ratings  []RatingInfo       `json:"ratings"`
	Games    []RatedInfo        `json:"games"`
	Seats    []AccountGameInfo  `json:"seats"`
	Cardbox  []Cardbox          `json:"cardboxes"`
	Puzzles  []PuzzleRecordInfo `json:"puzzles"`
	// PuzzleRatings are the account's puzzle ratings, by word list.
	PuzzleRatings []PuzzleRatingInfo `json:"puzzle_ratings"`
	// Endgames are the account's first answers to endgame puzzles, and
	// EndgameRatings its endgame ratings, by word list.
	Endgames       []EndgameResult    `json:"endgames"`
	EndgameRatings []PuzzleRatingInfo `json:"endgame_ratings"`
	Follows        []FollowInfo       `json:"follows"`
	Blocks         []BlockInfo        `json:"blocks"`
	Chat           []LobbyChatLine    `json:"lobby_chat"`
	// Messages are the account's conversations, each with its messages
	// oldest first (both ways).
	Messages []ExportConversation `json:"messages"`
	// Rushes are the account's puzzle rushes, newest first.
	Rushes []RushRunInfo `json:"rushes"`
	// Bio is what the account says about itself (absent for nothing).
	Bio *BioRequest `json:"bio,omitempty"`
	// Settings are the account's settings (absent for the defaults).
	Settings *Settings `json:"settings,omitempty"`
	// Push are the browsers that get the account's push messages: the
	// push service's host and when each subscribed (the address itself
	// is the browser's secret with the service).
	Push []PushDevice `json:"push,omitempty"`
	// Passkeys are the account's passkeys (their keys are public, and
	// not given).
	Passkeys []PasskeyInfo `json:"passkeys,omitempty"`
}

// PushDevice is a browser that gets an account's push messages.
type PushDevice struct {
	Service    string    `json:"service"`
	Subscribed time.Time `json:"subscribed"`
}

// PuzzleRecordInfo is a player's first answer to a puzzle.
type PuzzleRecordInfo struct {
	Lexicon  string    `json:"lexicon"`
	Number   int       `json:"number"`
	Correct  bool      `json:"correct"`
	Score    int       `json:"score"`
	Answered time.Time `json:"answered"`
	// RatingBefore and RatingAfter are the puzzle rating before and
	// after the answer (absent for an answer not rated).
	RatingBefore float64 `json:"rating_before,omitempty"`
	RatingAfter  float64 `json:"rating_after,omitempty"`
}

func (s *Server) handleAccountData(w http.ResponseWriter, r *http.Request) {
	if ok, retry := s.lookLim.take(s.clientKey(r), time.Now()); !ok {
		s.fail(w, tooMany("requests", retry))
		return
	}
	a, err := s.requireSignIn(r, "sign in to download your data")
	if err != nil {
		s.fail(w, err)
		return
	}
	d, err := s.accountData(r, a)
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="atril-%s.json"`, a.Key))
	writeJSON(w, 200, d)
}

// accountData gathers what the server keeps for account a.
func (s *Server) accountData(r *http.Request, a *store.Account) (*AccountData, error) {
	ctx := r.Context()
	d := &AccountData{Name: a.Name, Created: a.Created, Exported: time.Now().UTC(), Games: []RatedInfo{}, Seats: []AccountGameInfo{},
		Cardbox: []Cardbox{}, Puzzles: []PuzzleRecordInfo{}, PuzzleRatings: []PuzzleRatingInfo{}, Endgames: []EndgameResult{}, EndgameRatings: []PuzzleRatingInfo{}, Rushes: []RushRunInfo{}, Messages: []ExportConversation{}, Blocks: []BlockInfo{}, Chat: []LobbyChatLine{}}
	rs, err := s.store.Ratings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	d.Ratings = ownRatings(rs)
	bio, err := s.store.Bio(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	if bio != (store.Bio{}) {
		d.Bio = &BioRequest{About: bio.About, Country: bio.Country}
	}
	st, err := s.storedSettings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	d.Settings = settingsOrNil(st)
	subs, err := s.store.PushSubscriptions(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	for _, sub := range subs {
		host := "?"
		if u, err := url.Parse(sub.Endpoint); err == nil {
			host = u.Host
		}
		d.Push = append(d.Push, PushDevice{Service: host, Subscribed: sub.Created})
	}
	pks, err := s.store.Passkeys(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	d.Passkeys = passkeyList(pks).Passkeys
	games, err := s.store.RatedGames(ctx, a.Key, store.RatedFilter{}, exportMost)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		d.Games = append(d.Games, ratedInfo(&g))
	}
	seats, err := s.store.AccountGames(ctx, a.Key, exportMost)
	if err != nil {
		return nil, err
	}
	for _, g := range seats {
		d.Seats = append(d.Seats, AccountGameInfo{ID: g.Game, Seat: g.Seat, Joined: g.Joined})
	}
	// A word list that several variants offer is read once.
	read := map[string]bool{}
	for _, v := range s.info().Variants {
		for _, lex := range v.Lexicons {
			if read[lex] {
				continue
			}
			read[lex] = true
			cs, err := s.store.Cards(ctx, a.Key, lex)
			if err != nil {
				return nil, err
			}
			if len(cs) > 0 {
				d.Cardbox = append(d.Cardbox, cardbox(lex, cs))
			}
		}
	}
	ps, err := s.store.PuzzleRecords(ctx, a.Key, exportMost)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		d.Puzzles = append(d.Puzzles, PuzzleRecordInfo{Lexicon: p.Lexicon, Number: p.Number, Correct: p.Correct, Score: p.Score, Answered: p.Answered,
			RatingBefore: p.RBefore, RatingAfter: p.RAfter})
	}
	egs, err := s.store.EndgameRecords(ctx, a.Key, exportMost)
	if err != nil {
		return nil, err
	}
	for i := range egs {
		d.Endgames = append(d.Endgames, *endgameResult(&egs[i]))
	}
	prs, err := s.store.PuzzleRatings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	d.PuzzleRatings = append(d.PuzzleRatings, ratingInfos(prs)...)
	ers, err := s.store.EndgameRatings(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	d.EndgameRatings = append(d.EndgameRatings, ratingInfos(ers)...)
	cs, err := s.store.Conversations(ctx, a.Key, exportMost)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		ms, err := s.store.Messages(ctx, a.Key, c.Other, 0, MessagesKept)
		if err != nil {
			return nil, err
		}
		ec := ExportConversation{With: c.Name, Messages: []MessageInfo{}}
		for i := range ms {
			ec.Messages = append(ec.Messages, messageInfo(&ms[i], a.Key))
		}
		d.Messages = append(d.Messages, ec)
	}
	runs, err := s.store.RushRuns(ctx, a.Key, rushExport)
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		d.Rushes = append(d.Rushes, RushRunInfo{Lexicon: r.Lexicon, Mode: r.Mode, Started: r.Started, Ended: r.Ended, Solved: r.Solved, Misses: r.Misses})
	}
	b, err := s.blockingOf(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	if d.Follows, err = s.follows(ctx, a.Key, b, time.Now(), nil, nil); err != nil {
		return nil, err
	}
	bl, err := s.blockList(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	d.Blocks = bl.Blocks
	lines, err := s.store.LobbyLines(ctx, LobbyChatKept)
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		if l.Account == a.Key {
			d.Chat = append(d.Chat, LobbyChatLine{ID: l.ID, Name: l.Name, Text: l.Text, At: l.At})
		}
	}
	return d, nil
}
