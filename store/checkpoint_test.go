package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"io"
	"os"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/require"

	"palaro/internal/metrics"
)

// The writer's connection never checkpoints on its own; the checkpointer copies the log into the
// database file after commits, so the file holds the data before the database is closed.
func TestCheckpointer_CopiesTheLogAfterCommits(t *testing.T) {
	path := t.TempDir() + "/palaro.db"
	db, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })

	var auto int
	require.NoError(t, db.write.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&auto))
	require.Zero(t, auto, "the writer's connection leaves checkpoints to the checkpointer")

	require.NoError(t, db.Migrate(context.Background())) // thousands of pages into the log
	require.Eventually(t, func() bool {
		info, err := os.Stat(path)
		return err == nil && info.Size() > 256<<10
	}, 10*time.Second, 10*time.Millisecond, "the database file gets the migrated schema while open")
	require.Positive(t, testutil.ToFloat64(metrics.Checkpoints.WithLabelValues("done")))
}

// When a pass finds the log long, the writer copies its tail before its next batch, and the batch
// after that starts the log again from its beginning: the log does not grow without end under a
// steady stream of commits.
func TestCheckpointer_WriterCopiesTheTailWhenTheLogIsLong(t *testing.T) {
	path := t.TempDir() + "/palaro.db"
	db, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	require.NoError(t, db.Migrate(ctx))
	// restarts reads the log header's checkpoint sequence number, which SQLite increments each
	// time the log starts again from its beginning.
	restarts := func() uint32 {
		header := make([]byte, 32)
		f, err := os.Open(path + "-wal")
		require.NoError(t, err)
		defer f.Close()
		_, err = io.ReadFull(f, header)
		require.NoError(t, err)
		return binary.BigEndian.Uint32(header[12:16])
	}
	write := func() {
		require.NoError(t, db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO job_leases (name, holder, expires_at) VALUES ('checkpoint-test', 'test', '2026-01-01')
				ON CONFLICT (name) DO UPDATE SET holder = holder || '.'`)
			return err
		}))
	}
	db.checkpoints.close() // no more passes: only the writer checkpoints from here on
	write()
	before := restarts()
	write()
	write()
	require.Equal(t, before, restarts(), "without a checkpoint the log does not start again")

	db.checkpoints.due.Store(true) // as a pass that found restartFrames
	write()
	require.False(t, db.checkpoints.due.Load(), "the writer took the tail")
	write()
	require.Greater(t, restarts(), before, "the log started again from its beginning")
}
