package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"atril/store"
)

func init() {
	register("backup", "copy the server's SQLite database into a new file, while the server runs", runBackup)
}

// backupUsage is the usage of atril backup.
const backupUsage = `usage: atril backup [--db FILE] --out FILE

Copies the SQLite database (by default atril.db in the user's data
directory) into the new file --out, which must not exist. A server using
the database may go on playing meanwhile: the copy holds every write
acknowledged before it began and none after, so every game in it is whole
up to some move. The copy is checked before the command ends. To restore,
stop the server and put the copy in the database's place (or give it to
atril serve --db). PostgreSQL is backed up with its own tools (pg_dump).`

func runBackup(args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	db := fs.String("db", "", "SQLite database file (default: atril.db in the user's data directory)")
	out := fs.String("out", "", "the new file to write the copy into (required; never overwritten)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), backupUsage)
		fmt.Fprintln(fs.Output(), "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("give the copy's file with --out, and nothing else")
	}
	src, err := sqlitePath(*db)
	if err != nil {
		return err
	}
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("no database at %s: %w", src, err)
	}
	start := time.Now()
	rep, err := store.BackupSQLite(context.Background(), src, *out)
	if err != nil {
		return err
	}
	fmt.Printf("backed up %s into %s (games %d, accounts %d; %.1f MiB, in %s)\n", src, *out, rep.Games, rep.Accounts,
		float64(rep.Bytes)/(1<<20), time.Since(start).Round(time.Millisecond))
	return nil
}
