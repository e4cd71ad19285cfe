package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// BackupTables are the tables whose row counts a backup reports, in this order.
var BackupTables = []string{"events", "ticket_types", "orders", "tickets", "seat_assignments", "users", "outbox",
	"payment_events", "problem_reports"}

// TableCount is the number of rows of one table.
type TableCount struct {
	Table string
	Rows  int64
}

// BackupInfo describes a finished backup: its file, size and the row counts of the main tables.
type BackupInfo struct {
	Path   string
	Bytes  int64
	Tables []TableCount
}

// ErrBackupExists is returned by Backup when the target file already exists.
var ErrBackupExists = errors.New("backup: the file already exists; choose a new name")

// Backup writes a consistent copy of the database to path while it keeps serving: VACUUM INTO
// runs in one read transaction on a reader, so the copy is the database as of one instant and
// writers never wait for it. It refuses to overwrite an existing file, flushes the copy to disk,
// checks it with PRAGMA integrity_check and counts the rows of BackupTables in the copy.
// On PostgreSQL it refuses: the database server's own tools (pg_dump, base backups) do this.
func (db *DB) Backup(ctx context.Context, path string) (*BackupInfo, error) {
	if db.postgres {
		return nil, errors.New("backup: the database is PostgreSQL; back it up with pg_dump or the server's base backups")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil, ErrBackupExists
	} else if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	f.Close() // VACUUM INTO fills an existing empty file
	ok := false
	defer func() {
		if !ok {
			os.Remove(path)
		}
	}()
	conn, err := db.read.Conn(ctx)
	if err != nil {
		return nil, err
	}
	_, err = conn.ExecContext(ctx, `VACUUM INTO ?`, path)
	conn.Close()
	if err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(path); err != nil {
		return nil, fmt.Errorf("backup: %w", err)
	}
	info, err := CheckBackup(ctx, path)
	if err != nil {
		return nil, err
	}
	ok = true
	return info, nil
}

// CheckBackup opens the database file at path on its own, runs PRAGMA integrity_check and
// counts the rows of BackupTables; it fails when the check finds anything wrong.
func CheckBackup(ctx context.Context, path string) (*BackupInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	copyDB, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on&_busy_timeout=10000")
	if err != nil {
		return nil, err
	}
	defer copyDB.Close()
	copyDB.SetMaxOpenConns(1)
	rows, err := copyDB.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return nil, fmt.Errorf("check %s: %w", path, err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return nil, err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("check %s: integrity_check: %v", path, problems)
	}
	info := &BackupInfo{Path: path, Bytes: st.Size()}
	for _, table := range BackupTables {
		var n int64
		// table names come from BackupTables, never from input
		if err := copyDB.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
			return nil, fmt.Errorf("check %s: count %s: %w", path, table, err)
		}
		info.Tables = append(info.Tables, TableCount{Table: table, Rows: n})
	}
	return info, nil
}

// syncFile flushes a file's contents, and its entry in its folder, to disk.
func syncFile(path string) error {
	for _, name := range []string{path, filepath.Dir(path)} {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil && name == path {
			return err
		} // some file systems cannot sync a folder; the file itself is on disk
	}
	return nil
}
