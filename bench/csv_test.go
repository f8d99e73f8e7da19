package bench

import (
	"strings"
	"testing"
)

func TestReadCSVRejects(t *testing.T) {
	hdr := "game,seed,turn,moves,gaddag_ns,iwm_ns,iwm_intervals,iwm_instances,iwm_lookups,iwm_candidates\n"
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "header"},
		{"no turn column", "game,seed,moves,x_ns\n", `no "turn" column`},
		{"short row", hdr + "0,1,1,5,10\n", "wrong number of fields"},
		{"bad number", hdr + "0,1,1,5,10,x,1,1,1,1\n", "column iwm_ns"},
		{"turn zero", hdr + "0,1,0,5,10,10,1,1,1,1\n", "turn 0"},
	} {
		r := &MovegenResult{}
		err := r.ReadCSV(strings.NewReader(c.in), "f.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	// Files with other algorithms cannot be joined.
	r := &MovegenResult{}
	if err := r.ReadCSV(strings.NewReader(hdr+"0,1,1,5,10,20,1,1,1,1\n"), "a"); err != nil {
		t.Fatal(err)
	}
	if err := r.ReadCSV(strings.NewReader("game,seed,turn,moves,dawg_ns\n0,2,1,5,10\n"), "b"); err == nil {
		t.Error("joined files with different algorithms")
	}
	if r.Games != 1 || r.Turns[0].Time[1] != 20 || r.Turns[0].Instances[1] != 1 {
		t.Errorf("read %+v", r)
	}
}

// FuzzReadCSV checks that no input makes the CSV reader panic or build
// an inconsistent result.
func FuzzReadCSV(f *testing.F) {
	f.Add("game,seed,turn,moves,gaddag_ns,iwm_ns,iwm_intervals,iwm_instances,iwm_lookups,iwm_candidates\n0,1,1,5,10,20,1,1,1,1\n0,1,2,3,10,20,1,1,1,1\n")
	f.Add("game,seed,turn,moves,a_ns\n0,1,3,5,10\n")
	f.Fuzz(func(t *testing.T, in string) {
		r := &MovegenResult{}
		if err := r.ReadCSV(strings.NewReader(in), "fuzz"); err != nil {
			return
		}
		for i, row := range r.Turns {
			if row.Turn != i+1 || len(row.Time) != len(r.Algos) {
				t.Fatalf("row %d: %+v", i, row)
			}
		}
		if len(r.GameTurns) != r.Games {
			t.Fatalf("%d games, %d turn counts", r.Games, len(r.GameTurns))
		}
		var sb strings.Builder
		if err := r.WriteTable(&sb); err != nil {
			t.Fatal(err)
		}
		r.Targets()
	})
}
