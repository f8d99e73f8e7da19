package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"atril/store"
)

// Blocks: a signed-in player may block another player's account
// (GET, POST /api/me/blocks; DELETE /api/me/blocks/{name}). Between two
// accounts of which one blocks the other, the server makes no game: the
// one cannot invite the other, join a game in which the other holds a
// seat (its seat in a rematch included), and neither sees the other's
// games in the lobby. The page also hides what a blocked account writes
// in the chats. A block is not told to the account blocked, though the
// refusals above let it guess. Tournaments pair their players whatever
// they block: registering is choosing the field.

// maxBlocks is the most accounts one account may block.
const maxBlocks = 500

// BlockInfo is an account one blocks: its name and since when.
type BlockInfo struct {
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
}

// BlockList is the answer of GET, POST and DELETE /api/me/blocks: the
// accounts the signed-in player blocks, by name.
type BlockList struct {
	Blocks []BlockInfo `json:"blocks"`
}

// blockRequest is the body of POST /api/me/blocks and /api/me/follows.
type blockRequest struct {
	Name string `json:"name"`
}

// blocking is the set of the keys of the accounts that block the account
// of key or that it blocks ("" key: none).
type blocking map[string]bool

// blockingOf returns the accounts that key blocks or that block key.
func (s *Server) blockingOf(ctx context.Context, key string) (blocking, error) {
	if key == "" {
		return nil, nil
	}
	keys, err := s.store.Blocking(ctx, key)
	if err != nil {
		return nil, err
	}
	b := make(blocking, len(keys))
	for _, k := range keys {
		b[k] = true
	}
	return b, nil
}

// errBlocked is the refusal of a game between accounts that block one
// another; name is the other account's.
func errBlocked(name string) error {
	return &apiError{403, fmt.Sprintf("you and %s cannot play each other: one of you blocks the other", name)}
}

// blockList answers the blocks of the account of key.
func (s *Server) blockList(ctx context.Context, key string) (*BlockList, error) {
	bs, err := s.store.Blocks(ctx, key)
	if err != nil {
		return nil, err
	}
	out := &BlockList{Blocks: []BlockInfo{}}
	for _, b := range bs {
		out.Blocks = append(out.Blocks, BlockInfo{Name: b.Name, Since: b.Since})
	}
	return out, nil
}

func (s *Server) handleBlocks(w http.ResponseWriter, r *http.Request) {
	a, err := s.requireSignIn(r, "sign in to see the players you block")
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writeBlocks(w, r, a.Key)
}

// blockLists is the list of the players one blocks, for accountList.
func (s *Server) blockLists() *accountList {
	return &accountList{verb: "block", max: maxBlocks, add: s.store.Block, remove: s.store.Unblock, write: s.writeBlocks}
}

func (s *Server) handleBlock(w http.ResponseWriter, r *http.Request) {
	s.changeList(w, r, s.blockLists(), true)
}

func (s *Server) handleUnblock(w http.ResponseWriter, r *http.Request) {
	s.changeList(w, r, s.blockLists(), false)
}

// accountNamed returns the account of a name to block, unblock, report
// or write to (404 if there is none).
func (s *Server) accountNamed(ctx context.Context, name string) (*store.Account, error) {
	_, key, err := accountName(name)
	if err != nil {
		return nil, err
	}
	a, err := s.store.Account(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &apiError{404, fmt.Sprintf("no player is named %q", short(name, 40))}
	}
	return a, err
}

// writeBlocks answers the blocks of the account of key.
func (s *Server) writeBlocks(w http.ResponseWriter, r *http.Request, key string) {
	list, err := s.blockList(r.Context(), key)
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, list)
}

// blockedWith refuses a game with l's players for the account of key
// when it blocks the account of another seat or is blocked by it.
// Caller holds mu.
func (l *live) blockedWith(ctx context.Context, key string) error {
	b, err := l.srv.blockingOf(ctx, key)
	if err != nil {
		return err
	}
	return l.blockedSeat(b)
}

// blockedSeat refuses a game with l's players to an account whose
// blocking set is b when a seat's account is in it. Caller holds mu.
func (l *live) blockedSeat(b blocking) error {
	for _, st := range l.seat {
		if st.account != "" && b[st.account] {
			return errBlocked(st.name)
		}
	}
	return nil
}
