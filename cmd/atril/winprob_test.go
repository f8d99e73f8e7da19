package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"atril/winprob"
)

func TestReportWinprob(t *testing.T) {
	// Games whose leader at the end of the bag won: a model with a lead
	// worth something fits them.
	var per [][]winprob.Sample
	for k := range 40 {
		var g []winprob.Sample
		for left := 90; left > 0; left -= 10 {
			spread := (k%7 - 3) * (100 - left) / 3
			res := 0.0
			if spread+k%3 > 0 {
				res = 1
			}
			g = append(g, winprob.Sample{Spread: spread, Left: left, Result: res})
		}
		per = append(per, g)
	}
	var out bytes.Buffer
	if err := reportWinprob(&out, "english", per); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"english: 40 games, 360 positions\n", "checked on the odd games (180 positions): log loss ", "calibration on the odd games:", "fitted to all: scale "} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	if !regexp.MustCompile(`embed: "english": \{Scale: [0-9.]+, Power: [0-9.]+, Turn: -?[0-9.]+\},\n$`).MatchString(text) {
		t.Errorf("the report's last line:\n%s", text)
	}
}

func TestWinprobFlags(t *testing.T) {
	for _, args := range [][]string{{"--games", "1"}, {"--threads", "0"}, {"extra"}} {
		if err := runWinprob(args); err == nil {
			t.Errorf("winprob %v: no error", args)
		}
	}
}
