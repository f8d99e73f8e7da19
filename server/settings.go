package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Settings: how a player likes the page to look and behave. A guest's
// browser keeps them; a signed-in player's account keeps them too, so
// that every device it signs in on follows them.

// Settings is the body of PUT /api/me/settings and the settings of GET
// /api/me: each field one of its settingChoices, "" for the default.
type Settings struct {
	// Theme is light or dark ("": as the device is set).
	Theme string `json:"theme,omitempty"`
	// Board is the colours of the board's squares: felt or mono (""
	// the classic ones).
	Board string `json:"board,omitempty"`
	// Tiles is the colour of the tiles: ivory or slate ("" amber).
	Tiles string `json:"tiles,omitempty"`
	// RackOrder is how a new rack is laid out: alphabet (the
	// alphabet's order, blanks last) or vowels (vowels first, then the
	// alphabet's order); "" keeps the tiles as the player left them, the
	// ones drawn after them.
	RackOrder string `json:"rack_order,omitempty"`
	// Sound is off for no sound when the turn comes ("" on).
	Sound string `json:"sound,omitempty"`
	// Language is the page's language, en, es or cs ("" the
	// browser's).
	Language string `json:"language,omitempty"`
	// Coach is on for a verdict on each of the player's moves in a
	// casual game against the computer ("" off).
	Coach string `json:"coach,omitempty"`
}

// settingChoices are the values each setting may take besides "", by
// its JSON name.
var settingChoices = map[string][]string{
	"theme":      {"light", "dark"},
	"board":      {"felt", "mono"},
	"tiles":      {"ivory", "slate"},
	"rack_order": {"alphabet", "vowels"},
	"sound":      {"off"},
	"language":   {"en", "es", "cs"},
	"coach":      {"on"},
}

// settingField is one of a Settings' fields and its JSON name.
type settingField struct {
	name  string
	value *string
}

// fields lists s's settings with their JSON names, in the struct's
// order, to check or clear: a body with several bad settings is always
// refused for the same one.
func (s *Settings) fields() []settingField {
	return []settingField{{"theme", &s.Theme}, {"board", &s.Board}, {"tiles", &s.Tiles},
		{"rack_order", &s.RackOrder}, {"sound", &s.Sound}, {"language", &s.Language}, {"coach", &s.Coach}}
}

// check refuses a setting of a value it cannot take, naming the setting
// and the values it can.
func (s *Settings) check() error {
	for _, f := range s.fields() {
		if v := *f.value; v != "" && !slices.Contains(settingChoices[f.name], v) {
			return &apiError{400, fmt.Sprintf("setting %s: %q is not one of %s (or empty for the default)",
				f.name, short(v, 20), strings.Join(settingChoices[f.name], ", "))}
		}
	}
	return nil
}

// storedSettings reads the settings an account keeps.
func (s *Server) storedSettings(ctx context.Context, key string) (Settings, error) {
	text, err := s.store.Settings(ctx, key)
	if err != nil {
		return Settings{}, err
	}
	return parseStored(text), nil
}

// parseStored reads settings as the store keeps them. They were checked
// when written; a setting a later version no longer offers reads as its
// default instead of failing the page, and so does a text that is not
// settings at all.
func parseStored(text string) Settings {
	var st Settings
	if text == "" || json.Unmarshal([]byte(text), &st) != nil {
		return Settings{}
	}
	for _, f := range st.fields() {
		if !slices.Contains(settingChoices[f.name], *f.value) {
			*f.value = ""
		}
	}
	return st
}

// decodeSettings reads the body of PUT /api/me/settings: the settings,
// checked, and the text the store keeps ("" for all defaults).
func decodeSettings(data []byte) (Settings, string, error) {
	var st Settings
	if err := decodeJSON(data, &st); err != nil {
		return Settings{}, "", err
	}
	if err := st.check(); err != nil {
		return Settings{}, "", err
	}
	if st == (Settings{}) {
		return st, "", nil
	}
	b, err := json.Marshal(st)
	return st, string(b), err
}

func (s *Server) handleSettings(w http.ResponseWriter, r *http.Request) {
	data, ok := s.limitedBody(w, r, s.joinLim, "changes to your settings")
	if !ok {
		return
	}
	a, err := s.requireSignIn(r, "sign in to keep your settings with your account")
	if err != nil {
		s.fail(w, err)
		return
	}
	st, text, err := decodeSettings(data)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := s.store.SetSettings(r.Context(), a.Key, text, time.Now()); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, 200, st)
}

// settingsOrNil is st, nil for all defaults (left out of an answer).
func settingsOrNil(st Settings) *Settings {
	if st == (Settings{}) {
		return nil
	}
	return &st
}
