package server

import (
	"os"
	"reflect"
	"regexp"
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
	want := Settings{Theme: "dark", Board: "felt", Tiles: "slate", RackOrder: "vowels", Sound: "off", Language: "cs", Coach: "on"}
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
		// Several bad settings: always the first in the struct's order.
		{Settings{Coach: "loud", Sound: "soft", Theme: "blue", Language: "de"}, 400, "setting theme:"},
		{Settings{Coach: "loud", Sound: "soft", Language: "de"}, 400, "setting sound:"},
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

// TestSettingsPageChoices checks that the page offers each setting the
// values the server takes (settings.js's SETTING_CHOICES), and that the
// page loads settings.js before it is drawn.
func TestSettingsPageChoices(t *testing.T) {
	data, err := os.ReadFile("../web/static/settings.js")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "const SETTING_CHOICES = {")
	end := strings.Index(text[max(start, 0):], "};")
	if start < 0 || end < 0 {
		t.Fatal("settings.js: no SETTING_CHOICES")
	}
	page := map[string][]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(\w+): \[(.*)\],$`).FindAllStringSubmatch(text[start:start+end], -1) {
		var vals []string
		for _, v := range strings.Split(m[2], ",") {
			vals = append(vals, strings.Trim(strings.TrimSpace(v), `"`))
		}
		if len(vals) == 0 || vals[0] != "" {
			t.Errorf("settings.js: %s's default is not first: %q", m[1], vals)
			continue
		}
		page[m[1]] = vals[1:]
	}
	if !reflect.DeepEqual(page, settingChoices) {
		t.Errorf("settings.js offers %v, the server takes %v", page, settingChoices)
	}
	html, err := os.ReadFile("../web/static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(html), "</head>")
	if !strings.Contains(head, `<script src="/static/settings.js"></script>`) {
		t.Error("index.html does not load settings.js in its head")
	}
}

// TestSettingsFieldsComplete checks that fields lists every field of
// Settings once, under its JSON name, so that none escapes the check.
func TestSettingsFieldsComplete(t *testing.T) {
	var st Settings
	typ := reflect.TypeOf(st)
	fields := st.fields()
	if len(fields) != typ.NumField() {
		t.Fatalf("fields lists %d settings, Settings has %d", len(fields), typ.NumField())
	}
	for i, f := range fields {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if f.name != name || f.value != reflect.ValueOf(&st).Elem().Field(i).Addr().Interface().(*string) {
			t.Errorf("field %d: %s, want %s in the struct's order", i, f.name, name)
		}
		if len(settingChoices[f.name]) == 0 {
			t.Errorf("setting %s has no choices", f.name)
		}
	}
}
