package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"time"

	"palaro/internal/metrics"
)

// checkpointPause is the least time between two of the checkpointer's passes: while commits keep
// coming, each pass copies what the log gained since the last one, a page changed many times in
// that while once (a storm's free orders: 50 ms passes 0.221 ms per order, 300 ms 0.211 ms, the
// writer's own checkpoints 0.235 ms; BenchmarkCreateOrder_FreeStorm, docs/BENCHMARKS.md).
const checkpointPause = 250 * time.Millisecond

// restartFrames is the size of the write-ahead log (in pages) from which the writer copies the
// log's last pages itself, between two batches, so that its next transaction starts the log
// again from its beginning: under a steady stream of commits the checkpointer's passes never end
// with the whole log copied, and the log would otherwise grow until the stream stops.
const restartFrames = 16384

// walSizeLimit is the size (bytes) a write-ahead log grown beyond it is truncated to when it starts
// again (PRAGMA journal_size_limit).
const walSizeLimit = 64 << 20

// checkpointer copies SQLite's write-ahead log into the database file on a connection of its own
// (PRAGMA wal_checkpoint(PASSIVE)) after commits, instead of the writer doing it inside the
// commit that crosses SQLite's automatic threshold (wal_autocheckpoint is off on the writer's
// connection). A passive checkpoint never blocks the writer or the readers, and SQLite makes it
// crash-safe itself: it syncs the log before copying and the database file after. So the writer
// runs the next batch while the log is copied, and copies only the log's tail itself, rarely
// (restartFrames).
type checkpointer struct {
	conn *sql.DB       // a connection of its own (the read settings: synchronous=NORMAL)
	wake chan struct{} // holds one signal: something committed since the last pass began
	stop chan struct{}
	done chan struct{}
	once sync.Once
	// due is set when a pass left the log at restartFrames or more: the writer checkpoints the
	// tail before its next batch (writer.checkpointTail).
	due atomic.Bool
}

// newCheckpointer starts the checkpointer of the SQLite database file reached by dsn.
func newCheckpointer(dsn string) (*checkpointer, error) {
	conn, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	conn.SetMaxOpenConns(1)
	conn.SetConnMaxIdleTime(0)
	c := &checkpointer{conn: conn, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// committed tells the checkpointer that a transaction committed (the writer connection's commit
// hook); it never waits.
func (c *checkpointer) committed() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.wake:
		case <-c.stop:
			return
		}
		var busy, logged, copied int
		err := c.conn.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &copied)
		metrics.Checkpoints.WithLabelValues(checkpointOutcome(err, busy)).Inc()
		if err != nil || logged >= restartFrames {
			c.due.Store(true) // the writer copies the rest, as SQLite's automatic checkpoint did
		}
		select {
		case <-time.After(checkpointPause):
		case <-c.stop:
			return
		}
	}
}

// checkpointOutcome names a pass's outcome for the metric: done, busy (another checkpoint ran)
// or failed.
func checkpointOutcome(err error, busy int) string {
	switch {
	case err != nil:
		return "failed"
	case busy != 0:
		return "busy"
	}
	return "done"
}

// close stops the checkpointer and closes its connection, once.
func (c *checkpointer) close() {
	c.once.Do(func() {
		close(c.stop)
		<-c.done
		c.conn.Close()
	})
}
