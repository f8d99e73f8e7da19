package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// BackupReport says what a backup copied: the copy's size in bytes and
// how many games and accounts it holds.
type BackupReport struct {
	Bytes    int64
	Games    int
	Accounts int
}

// BackupSQLite writes a copy of the SQLite store in the file src into the
// new file dst (SQLite's VACUUM INTO), while a server may go on writing
// to src: the copy holds every transaction committed before it began and
// none after, so it is consistent as a whole (a game's log is never cut
// inside a write). dst must not exist; a copy that fails is removed. The
// copy is checked (PRAGMA quick_check) and counted before BackupSQLite
// returns, and gets src's file permissions.
func BackupSQLite(ctx context.Context, src, dst string) (*BackupReport, error) {
	info, err := os.Stat(src)
	if err != nil {
		return nil, fmt.Errorf("store: back up %s: %w", src, err)
	}
	if _, err := os.Lstat(dst); err == nil {
		return nil, fmt.Errorf("store: back up %s: %s exists; a backup never overwrites a file", src, dst)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("store: back up %s: %w", src, err)
	}
	abs, err := filepath.Abs(dst)
	if err != nil {
		return nil, fmt.Errorf("store: back up %s: %w", src, err)
	}
	db, err := openSQLiteDB(src)
	if err != nil {
		return nil, err
	}
	_, err = db.ExecContext(ctx, `VACUUM INTO ?`, abs)
	db.Close()
	if err != nil {
		os.Remove(abs)
		return nil, corruptOr(src, fmt.Errorf("store: back up %s into %s: %w", src, dst, err))
	}
	rep, err := checkBackup(ctx, abs, info.Mode().Perm())
	if err != nil {
		os.Remove(abs)
		return nil, fmt.Errorf("store: back up %s: the copy %s: %w", src, dst, err)
	}
	return rep, nil
}

// checkBackup checks and counts the copy at path, and gives it the file
// permissions perm.
func checkBackup(ctx context.Context, path string, perm os.FileMode) (*BackupReport, error) {
	if err := os.Chmod(path, perm); err != nil {
		return nil, err
	}
	db, err := openSQLiteDB(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if err := quickCheck(db, path); err != nil {
		return nil, err
	}
	rep := &BackupReport{}
	for _, c := range []struct {
		n     *int
		table string
	}{{&rep.Games, "games"}, {&rep.Accounts, "accounts"}} {
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+c.table).Scan(c.n); err != nil {
			return nil, fmt.Errorf("count its %s: %w", c.table, err)
		}
	}
	// The copy is in WAL mode as opened: fold the log into the file, so
	// that the backup is one file.
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	rep.Bytes = st.Size()
	return rep, nil
}
