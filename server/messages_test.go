package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"atril/store"
)

// TestMessages: two accounts write to each other; the conversation's
// pages, read marks and unread counts; what is refused (a guest, oneself,
// nobody, an empty or long text, blocked pairs, closed accounts); the
// messages in the account's data.
func TestMessages(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, bo, cy := browser(t), browser(t), browser(t)
	e.signUp(ana, "Ana", "anagrams1")
	e.signUp(bo, "Bo.B", "bobobobo1")
	e.signUp(cy, "Cy.C", "cycycycy1")
	send := func(client *http.Client, to, text string, want int) MessageInfo {
		t.Helper()
		var m MessageInfo
		if code := e.doWith(client, "POST", "/api/me/messages/"+to, "", map[string]string{"text": text}, &m); code != want {
			t.Fatalf("message to %s: %d, want %d", to, code, want)
		}
		return m
	}
	A, B, C := ana, bo, cy
	m1 := send(A, "bo.b", "Hi Bo, a game tonight?", 201)
	if !m1.Mine || m1.Text != "Hi Bo, a game tonight?" || m1.ID == 0 || m1.Read {
		t.Errorf("the message sent: %+v", m1)
	}
	send(B, "Ana", "Sure,   at nine.", 201)
	send(C, "ana", "Hello!", 201)
	var me Me
	if code := e.doWith(ana, "GET", "/api/me", "", nil, &me); code != 200 || me.UnreadMessages != 2 {
		t.Errorf("Ana's unread messages: %d %+v", code, me)
	}
	var lobby Lobby
	if code := e.doWith(ana, "GET", "/api/lobby", "", nil, &lobby); code != 200 || lobby.UnreadMessages != 2 {
		t.Errorf("Ana's lobby: %d, %d unread messages", code, lobby.UnreadMessages)
	}
	var list ConversationList
	if code := e.doWith(ana, "GET", "/api/me/messages", "", nil, &list); code != 200 || list.Unread != 2 || len(list.Conversations) != 2 ||
		list.Conversations[0].Name != "Cy.C" || list.Conversations[1].Name != "Bo.B" || list.Conversations[1].Last.Text != "Sure, at nine." ||
		list.Conversations[1].Last.Mine || list.Conversations[1].Unread != 1 {
		t.Errorf("Ana's conversations: %d %+v", code, list)
	}
	var page ConversationPage
	if code := e.doWith(ana, "GET", "/api/me/messages/bo.b", "", nil, &page); code != 200 || page.Name != "Bo.B" || len(page.Messages) != 2 ||
		!page.Messages[0].Mine || page.Messages[1].Mine || page.More || page.Closed != "" {
		t.Errorf("Ana's conversation with Bo: %d %+v", code, page)
	}
	// Read now: Bo sees his message read, Ana's count drops.
	page = ConversationPage{}
	if code := e.doWith(bo, "GET", "/api/me/messages/ana", "", nil, &page); code != 200 || len(page.Messages) != 2 || !page.Messages[1].Read || !page.Messages[1].Mine {
		t.Errorf("Bo's conversation with Ana: %d %+v", code, page)
	}
	me = Me{}
	if code := e.doWith(ana, "GET", "/api/me", "", nil, &me); code != 200 || me.UnreadMessages != 1 {
		t.Errorf("Ana's unread messages after reading Bo's: %d %+v", code, me)
	}
	// Pages: older ones with before.
	for k := range MessagesShown + 5 {
		send(B, "ana", fmt.Sprintf("line %d", k), 201) // (the tests' chat allowance has no bound)
	}
	page = ConversationPage{}
	if code := e.doWith(ana, "GET", "/api/me/messages/bo.b", "", nil, &page); code != 200 || len(page.Messages) != MessagesShown || !page.More ||
		page.Messages[MessagesShown-1].Text != fmt.Sprintf("line %d", MessagesShown+4) {
		t.Fatalf("the latest page: %d, %d messages, more %v", code, len(page.Messages), page.More)
	}
	var older ConversationPage
	if code := e.doWith(ana, "GET", fmt.Sprintf("/api/me/messages/bo.b?before=%d", page.Messages[0].ID), "", nil, &older); code != 200 || len(older.Messages) != 7 || older.More ||
		older.Messages[0].Text != "Hi Bo, a game tonight?" {
		t.Errorf("the older page: %d, %d messages, more %v", code, len(older.Messages), older.More)
	}
	// Refusals.
	if code := e.do("POST", "/api/me/messages/ana", "", map[string]string{"text": "hi"}, nil); code != 401 {
		t.Errorf("a guest writes: %d, want 401", code)
	}
	if code := e.do("GET", "/api/me/messages", "", nil, nil); code != 401 {
		t.Errorf("a guest reads: %d, want 401", code)
	}
	send(A, "ana", "me", 400)
	send(A, "nobody9", "hi", 404)
	send(A, "bo.b", "   ", 400)
	send(A, "bo.b", strings.Repeat("x", MaxMessageText+1), 400)
	for _, q := range []string{"?before=x", "?before=0"} {
		if code := e.doWith(ana, "GET", "/api/me/messages/bo.b"+q, "", nil, nil); code != 400 {
			t.Errorf("a page %s: %d, want 400", q, code)
		}
	}
	// Blocked either way: no message, and the conversation out of the list.
	if code := e.doWith(cy, "POST", "/api/me/blocks", "", map[string]string{"name": "Ana"}, nil); code != 200 {
		t.Fatalf("Cy blocks Ana: %d", code)
	}
	send(A, "cy.c", "why?", 403)
	send(C, "ana", "bye", 403)
	page = ConversationPage{}
	if code := e.doWith(ana, "GET", "/api/me/messages/cy.c", "", nil, &page); code != 200 || !strings.Contains(page.Closed, "blocks") {
		t.Errorf("a conversation with a blocker: %d %+v", code, page)
	}
	list = ConversationList{}
	if code := e.doWith(ana, "GET", "/api/me/messages", "", nil, &list); code != 200 || len(list.Conversations) != 1 || list.Conversations[0].Name != "Bo.B" {
		t.Errorf("Ana's conversations after Cy blocked her: %d %+v", code, list)
	}
	// The account's data holds them.
	var d AccountData
	if code := e.doWith(bo, "GET", "/api/me/data", "", nil, &d); code != 200 || len(d.Messages) != 1 || d.Messages[0].With != "Ana" || len(d.Messages[0].Messages) != MessagesShown+7 {
		t.Errorf("Bo's data: %d, %+v", code, len(d.Messages))
	}
	// A closed account: gone, and no one writes to it.
	a, err := e.st.Account(context.Background(), AccountKey("Ana"))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.CloseAccount(context.Background(), a.Key, time.Now()); err != nil {
		t.Fatal(err)
	}
	send(B, "ana", "still there?", 403)
	list = ConversationList{}
	if code := e.doWith(bo, "GET", "/api/me/messages", "", nil, &list); code != 200 || len(list.Conversations) != 0 {
		t.Errorf("Bo's conversations after Ana closed her account: %d %+v", code, list)
	}
}

// TestMessagesNewContacts: an account writes to at most NewContactsPerDay
// accounts a day that never wrote back; a reply frees it.
func TestMessagesNewContacts(t *testing.T) {
	e := newEnv(t, newStore(t))
	spam := browser(t)
	e.signUp(spam, "Spam", "spamspam1")
	ctx := context.Background()
	now := time.Now().UTC()
	for k := range NewContactsPerDay + 1 {
		name := fmt.Sprintf("Target%d", k)
		key := AccountKey(name)
		if err := e.st.CreateAccount(ctx, &store.Account{Key: key, Name: name, Password: "pbkdf2$x", Created: now}); err != nil {
			t.Fatal(err)
		}
		if k < NewContactsPerDay {
			if err := e.st.AddMessage(ctx, &store.Message{From: AccountKey("Spam"), To: key, Text: "buy", At: now}, MessagesKept, store.ContactLimit{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	last := fmt.Sprintf("target%d", NewContactsPerDay)
	if code := e.doWith(spam, "POST", "/api/me/messages/"+last, "", map[string]string{"text": "buy"}, nil); code != 429 {
		t.Errorf("a message to one more new contact: %d, want 429", code)
	}
	// Writing again to one already written to is not a new contact.
	if code := e.doWith(spam, "POST", "/api/me/messages/target0", "", map[string]string{"text": "again"}, nil); code != 201 {
		t.Errorf("a second message to the same account: %d, want 201", code)
	}
	// One answer frees a place.
	if err := e.st.AddMessage(ctx, &store.Message{From: AccountKey("Target1"), To: AccountKey("Spam"), Text: "no thanks", At: now}, MessagesKept, store.ContactLimit{}); err != nil {
		t.Fatal(err)
	}
	if code := e.doWith(spam, "POST", "/api/me/messages/"+last, "", map[string]string{"text": "buy"}, nil); code != 201 {
		t.Errorf("a new contact after an answer: %d, want 201", code)
	}
}
