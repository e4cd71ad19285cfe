package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpen_WriterSynchronousFull proves every commit of the writer is fsynced: the writer
// connection runs synchronous=FULL (2). Control: the read pool, which never commits, reads
// NORMAL (1) from the same file, so the check can tell the two settings apart.
func TestOpen_WriterSynchronousFull(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "palaro.db"))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	var writer, reader int
	var journal string
	require.NoError(t, db.write.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&writer))
	require.NoError(t, db.write.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&journal))
	require.NoError(t, db.read.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&reader))
	require.Equal(t, 2, writer, "writer: synchronous=FULL")
	require.Equal(t, "wal", journal)
	require.Equal(t, 1, reader, "control: readers stay NORMAL")
}
