package server

import (
	"strings"
	"testing"
	"time"
)

// TestSettings checks PUT /api/me/settings: kept with the account and
// shown by /api/me on every device, refused with a clear error for a
// value a setting cannot take (changing nothing), refused signed out,
// taken away by all defaults, and in the account's data.
func TestSettings(t *testing.T) {
	e := newEnv(t, newStore(t))
	ana, phone := browser(t), browser(t)
	e.signUp(ana, "Ana", "correct horse")
	var me Me
	if e.doWith(ana, "GET", "/api/me", "", nil, &me); me.Settings != nil {
		t.Errorf("settings before any: %+v", me.Settings)
	}
	want := Settings{Theme: "dark", Board: "felt", Tiles: "slate", RackOrder: "vowels", Sound: "off", Language: "cs"}
	var got Settings
	if code := e.doWith(ana, "PUT", "/api/me/settings", "", want, &got); code != 200 || got != want {
		t.Fatalf("Ana keeps her settings: %d %+v", code, got)
	}
	if code := e.doWith(phone, "POST", "/api/login", "", map[string]string{"name": "Ana", "password": "correct horse"}, nil); code != 200 {
		t.Fatalf("Ana signs in on her phone: %d", code)
	}
	me = Me{}
	if e.doWith(phone, "GET", "/api/me", "", nil, &me); me.Settings == nil || *me.Settings != want {
		t.Errorf("her phone's /api/me: settings %+v, want %+v", me.Settings, want)
	}
	for _, tc := range []struct {
		body any
		code int
		want string
	}{
		{Settings{Theme: "blue"}, 400, `setting theme: "blue" is not one of light, dark`},
		{Settings{Language: "de"}, 400, `setting language: "de" is not one of en, es, cs`},
		{Settings{RackOrder: "random"}, 400, "setting rack_order"},
		{map[string]string{"colour": "red"}, 400, `unknown field "colour"`},
		{map[string]int{"theme": 1}, 400, "bad JSON body"},
	} {
		var eb errorBody
		if code := e.doWith(ana, "PUT", "/api/me/settings", "", tc.body, &eb); code != tc.code || !strings.Contains(eb.Error, tc.want) {
			t.Errorf("settings %+v: %d %q, want %d %q", tc.body, code, eb.Error, tc.code, tc.want)
		}
	}
	if code := e.do("PUT", "/api/me/settings", "", Settings{Theme: "light"}, nil); code != 401 {
		t.Errorf("settings signed out: %d, want 401", code)
	}
	me = Me{}
	if e.doWith(ana, "GET", "/api/me", "", nil, &me); me.Settings == nil || *me.Settings != want {
		t.Errorf("settings after the refusals: %+v, want %+v", me.Settings, want)
	}
	var data AccountData
	if code := e.doWith(ana, "GET", "/api/me/data", "", nil, &data); code != 200 || data.Settings == nil || *data.Settings != want {
		t.Errorf("the account's data: %d, settings %+v", code, data.Settings)
	}
	// A value a later version stopped offering reads as its default.
	if err := e.st.SetSettings(t.Context(), AccountKey("Ana"), `{"theme":"sepia","board":"mono","future":1}`, time.Now()); err != nil {
		t.Fatal(err)
	}
	me = Me{}
	if e.doWith(ana, "GET", "/api/me", "", nil, &me); me.Settings == nil || *me.Settings != (Settings{Board: "mono"}) {
		t.Errorf("settings stored by another version: %+v, want the board alone", me.Settings)
	}
	var raw map[string]any
	if code := e.doWith(ana, "PUT", "/api/me/settings", "", Settings{}, &raw); code != 200 || raw == nil || len(raw) != 0 {
		t.Errorf("all defaults: %d %v, want {}", code, raw)
	}
	if text, err := e.st.Settings(t.Context(), AccountKey("Ana")); err != nil || text != "" {
		t.Errorf("the store after all defaults: %q, %v", text, err)
	}
	me = Me{}
	if e.doWith(ana, "GET", "/api/me", "", nil, &me); me.Settings != nil {
		t.Errorf("settings after all defaults: %+v", me.Settings)
	}
}
