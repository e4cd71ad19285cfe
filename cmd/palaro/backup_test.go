package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestBackupCommand(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	openDemoDBAt(t, live, now) // stays open, as a serving process would keep it

	t.Run("OK", func(t *testing.T) {
		var out bytes.Buffer
		require.NoError(t, runBackup(ctx, &out, live, []string{filepath.Join(dir, "copy.db")}))
		require.Contains(t, out.String(), "copy.db: ")
		require.Contains(t, out.String(), "integrity_check ok.")
		require.Regexp(t, `(?m)^  events +\d+$`, out.String())
		require.Regexp(t, fmt.Sprintf(`(?m)^  orders +%d$`, countRows(t, live, "orders")), out.String(), "the copy has the live database's orders")
	})
	t.Run("ErrExists", func(t *testing.T) {
		var out bytes.Buffer
		require.Error(t, runBackup(ctx, &out, live, []string{filepath.Join(dir, "copy.db")}))
		require.Empty(t, out.String())
	})
	t.Run("ErrNoDatabase", func(t *testing.T) {
		require.Error(t, runBackup(ctx, &bytes.Buffer{}, filepath.Join(dir, "missing.db"), []string{filepath.Join(dir, "x.db")}))
		require.NoFileExists(t, filepath.Join(dir, "missing.db"), "a backup never creates the database")
	})
	t.Run("ErrUsage", func(t *testing.T) {
		for _, args := range [][]string{nil, {"a.db", "b.db"}, {"--force"}} {
			require.Error(t, runBackup(ctx, &bytes.Buffer{}, live, args), "%q", args)
		}
	})
}

// countRows counts the rows of a table in the SQLite file at path, read on a connection of its own.
func countRows(t *testing.T, path, table string) int {
	t.Helper()
	conn, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer conn.Close()
	var n int
	require.NoError(t, conn.QueryRow("SELECT count(*) FROM "+table).Scan(&n))
	return n
}
