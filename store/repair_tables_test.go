package store

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestRepairKnowsEveryTable checks that RepairSQLite copies every table
// a new file holds, or leaves it out for a reason written here: a table
// added to the schema and forgotten by the repair would be lost, without
// a word, by the first repair of a damaged file.
func TestRepairKnowsEveryTable(t *testing.T) {
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "tables.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	notCopied := map[string]string{
		"games":               "read game by game, the damaged ones left out",
		"events":              "read game by game with their games",
		"sqlite_sequence":     "SQLite's own",
		"game_watchers":       "who watched in the last minutes: nothing to keep",
		"webauthn_challenges": "challenges handed out for the next five minutes: a ceremony begins again",
	}
	var copied []string
	for _, tb := range slices.Concat(accountTables, tournamentTables) {
		copied = append(copied, tb.name)
	}
	rows, err := s.db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		n++
		if _, ok := notCopied[name]; !ok && !slices.Contains(copied, name) {
			t.Errorf("table %s: the repair neither copies it nor says why not", name)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n < len(copied) {
		t.Errorf("a new file holds %d tables, fewer than the %d the repair copies", n, len(copied))
	}
}
