package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"atril/store"
)

// Messages between players: a signed-in account writes to another, as
// it chats (lines cleaned the same way, at most ChatPerMinute a minute),
// except between accounts blocked either way and to closed or suspended
// ones; kept in the store, so every process shows the same
// conversations.

// Bounds of the messages.
const (
	// MessagesShown is how many messages a page of a conversation
	// gives.
	MessagesShown = 50
	// MessagesKept is how many of its latest messages a conversation
	// keeps.
	MessagesKept = 1000
	// MaxMessageText bounds a message's characters.
	MaxMessageText = 1000
	// ConversationsShown is how many conversations GET /api/me/messages
	// lists.
	ConversationsShown = 100
	// NewContactsPerDay bounds the accounts an account writes to in a
	// day that have never written to it: what a spammer would need.
	NewContactsPerDay = 20
)

// MessageInfo is a message as the API shows it: its number, whether the
// signed-in account wrote it, the text, when, and whether the recipient
// read it.
type MessageInfo struct {
	ID   int64     `json:"id"`
	Mine bool      `json:"mine"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
	Read bool      `json:"read"`
}

// ConversationInfo is a conversation as GET /api/me/messages lists it:
// the other account's name, the latest message and how many of theirs
// are unread.
type ConversationInfo struct {
	Name   string      `json:"name"`
	Last   MessageInfo `json:"last"`
	Unread int         `json:"unread"`
}

// ConversationList is the answer of GET /api/me/messages: the
// conversations, the latest first, and the unread messages in all.
type ConversationList struct {
	Conversations []ConversationInfo `json:"conversations"`
	Unread        int                `json:"unread"`
}

// ConversationPage is the answer of GET /api/me/messages/{name}: the
// other account's name, a page of messages (oldest first), whether older
// ones follow, and why no message can be written now ("" when one can).
type ConversationPage struct {
	Name     string        `json:"name"`
	Messages []MessageInfo `json:"messages"`
	More     bool          `json:"more"`
	Closed   string        `json:"closed,omitempty"`
}

// messageInfo is a stored message as the account of key sees it.
func messageInfo(m *store.Message, key string) MessageInfo {
	return MessageInfo{ID: m.ID, Mine: m.From == key, Text: m.Text, At: m.At, Read: !m.Read.IsZero()}
}

// correspondent finds the account named in the request's path for the
// signed-in account me to read or write to.
func (s *Server) correspondent(r *http.Request, me *store.Account) (*store.Account, error) {
	a, err := s.accountNamed(r.Context(), r.PathValue("name"))
	if err == nil && a.Key == me.Key {
		err = &apiError{400, "you cannot write to yourself"}
	}
	return a, err
}

// cannotWrite says why me cannot write to a now ("" when it can).
func (s *Server) cannotWrite(ctx context.Context, me, a *store.Account) (string, error) {
	switch {
	case a.Closed():
		return fmt.Sprintf("%s closed their account", a.Name), nil
	case a.Suspended != "":
		return fmt.Sprintf("%s's account is suspended", a.Name), nil
	}
	b, err := s.blockingOf(ctx, me.Key)
	if err != nil {
		return "", err
	}
	if b[a.Key] {
		return fmt.Sprintf("you and %s cannot write to each other: one of you blocks the other", a.Name), nil
	}
	return "", nil
}

func (s *Server) handleConversations(w http.ResponseWriter, r *http.Request) {
	me, err := s.requireSignIn(r, "sign in to read your messages")
	var cs []store.Conversation
	if err == nil {
		cs, err = s.store.Conversations(r.Context(), me.Key, ConversationsShown)
	}
	var b blocking
	if err == nil {
		b, err = s.blockingOf(r.Context(), me.Key)
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	out := ConversationList{Conversations: []ConversationInfo{}}
	for i := range cs {
		c := &cs[i]
		if b[c.Other] { // blocked either way: out of sight
			continue
		}
		out.Conversations = append(out.Conversations, ConversationInfo{Name: c.Name, Last: messageInfo(&c.Last, me.Key), Unread: c.Unread})
		out.Unread += c.Unread
	}
	writeJSON(w, 200, out)
}

func (s *Server) handleConversation(w http.ResponseWriter, r *http.Request) {
	me, err := s.requireSignIn(r, "sign in to read your messages")
	var other *store.Account
	if err == nil {
		other, err = s.correspondent(r, me)
	}
	var before int64
	if err == nil {
		if v := r.URL.Query().Get("before"); v != "" {
			if before, err = strconv.ParseInt(v, 10, 64); err != nil || before < 1 {
				err = &apiError{400, fmt.Sprintf("before: %q is not a message's number", short(v, 20))}
			}
		}
	}
	out := ConversationPage{Messages: []MessageInfo{}}
	if err == nil {
		out.Name = other.Name
		out.Closed, err = s.cannotWrite(r.Context(), me, other)
	}
	var ms []store.Message
	if err == nil {
		ms, err = s.store.Messages(r.Context(), me.Key, other.Key, before, MessagesShown+1)
	}
	if err == nil && before == 0 {
		// The latest page read: the other's messages are read now.
		_, err = s.store.MarkRead(r.Context(), me.Key, other.Key, time.Now().UTC())
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	if len(ms) > MessagesShown {
		ms, out.More = ms[1:], true
	}
	for i := range ms {
		out.Messages = append(out.Messages, messageInfo(&ms[i], me.Key))
	}
	writeJSON(w, 200, out)
}

// messageRequest is the body of POST /api/me/messages/{name}.
type messageRequest struct {
	Text string `json:"text"`
}

// decodeMessage reads and cleans the text of a message.
func decodeMessage(data []byte) (string, error) {
	var req messageRequest
	if err := decodeJSON(data, &req); err != nil {
		return "", err
	}
	text, err := cleanText(req.Text, "message", MaxMessageText)
	if err == nil && text == "" {
		err = &apiError{400, "empty message"}
	}
	return text, err
}

func (s *Server) handleSendMessage(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.chatLim, "messages")
	if !ok {
		return
	}
	me, err := s.requireSignIn(r, "sign in to write to a player")
	if err == nil {
		if ok, retry := s.chatLim.take("account "+me.Key, time.Now()); !ok {
			err = tooMany("messages", retry)
		}
	}
	var text string
	if err == nil {
		text, err = decodeMessage(data)
	}
	var other *store.Account
	if err == nil {
		other, err = s.correspondent(r, me)
	}
	var why string
	if err == nil {
		why, err = s.cannotWrite(r.Context(), me, other)
		if err == nil && why != "" {
			err = &apiError{403, why}
		}
	}
	now := time.Now().UTC()
	var m store.Message
	if err == nil {
		// A first message to other counts against the new contacts of
		// the last day: at most NewContactsPerDay accounts written to
		// that never wrote back.
		m = store.Message{From: me.Key, To: other.Key, Text: text, At: now}
		err = s.store.AddMessage(r.Context(), &m, MessagesKept, store.ContactLimit{Since: now.Add(-24 * time.Hour), Max: NewContactsPerDay})
		var le *store.LimitError
		if errors.As(err, &le) {
			err = &apiError{429, fmt.Sprintf("you wrote to %d players who have not answered in the last day: wait for an answer, or for tomorrow", le.Have)}
		}
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	s.pushMessage(me, &m)
	writeJSON(w, 201, messageInfo(&m, me.Key))
}
