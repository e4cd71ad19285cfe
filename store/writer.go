package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"palaro/internal/metrics"
)

// maxBatch is the most units of work one group commit takes.
const maxBatch = 256

// maxUnitTries is how many times a unit that lost a deadlock or serialization race runs.
const maxUnitTries = 4

// errWriterClosed answers work sent after the database was closed.
var errWriterClosed = errors.New("store: the database is closed")

// Unit states: queued until the writer takes it, or abandoned by a caller who stopped waiting first.
const (
	unitQueued int32 = iota
	unitTaken
	unitAbandoned
)

// writeUnit is one caller's piece of write work waiting for the writer.
type writeUnit struct {
	ctx   context.Context // the caller's values without its cancellation
	fn    func(ctx context.Context, tx *sql.Tx) error
	state atomic.Int32
	// queued is when the unit was sent, for the writer's wait metric (a duration, not logic).
	queued time.Time
	done   chan error // receives the unit's outcome once its batch has committed (or failed)
}

// WriterStats counts the work of the batching writer since the database was opened.
type WriterStats struct {
	Units   int64 // units of work run (committed or failed alone)
	Commits int64 // transactions committed, one fsync each (synchronous=FULL)
}

// writer is the one goroutine that runs the units of work: it takes every unit waiting (up to
// maxBatch), runs each in its own SAVEPOINT of one transaction and commits them together, so
// one fsync covers the batch; each caller hears its outcome only after that commit.
type writer struct {
	conn    *sql.DB
	stock   *stockCounts // reloaded at the end of each batch, published once it commits; nil when off
	queue   chan *writeUnit
	mu      sync.RWMutex // held for reading while sending, for writing while closing
	closed  bool
	stop    chan struct{}
	stopped chan struct{}
	units   atomic.Int64
	commits atomic.Int64
}

func newWriter(conn *sql.DB, stock *stockCounts) *writer {
	w := &writer{conn: conn, stock: stock, queue: make(chan *writeUnit, 4*maxBatch), stop: make(chan struct{}), stopped: make(chan struct{})}
	go w.run()
	return w
}

// write runs fn as one unit of work of the batching writer and returns the value of its last run
// after the batch that holds it is committed (on disk): the whole of fn's work is applied or none
// of it, and on an error the value is T's zero. It is the store's one way to write (db.go).
// fn runs on the writer's goroutine inside a shared transaction, so it must use the ctx and tx it
// is given, must not Commit or Rollback, and should do nothing slow; it may run again (PostgreSQL
// retries), so it sets what it returns afresh on each run. A caller whose ctx ends while its unit
// still waits gets ctx.Err() and the unit never runs; once the writer has taken the unit, the
// caller waits for its true outcome.
func write[T any](ctx context.Context, db *DB, fn func(ctx context.Context, tx *sql.Tx) (T, error)) (T, error) {
	var zero, out T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	// A cancelled statement would interrupt the shared transaction (sqlite3_interrupt rolls it
	// back whole), so units run detached from the caller's cancellation.
	u := &writeUnit{ctx: context.WithoutCancel(ctx), done: make(chan error, 1), queued: time.Now()}
	u.fn = func(ctx context.Context, tx *sql.Tx) error {
		v, err := fn(ctx, tx)
		if err != nil {
			return err
		}
		out = v
		return nil
	}
	if err := db.writer.send(ctx, u); err != nil {
		return zero, err
	}
	return out, nil
}

// inWrite is write for a unit that returns no value.
func (db *DB) inWrite(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	_, err := write(ctx, db, func(ctx context.Context, tx *sql.Tx) (struct{}, error) { return struct{}{}, fn(ctx, tx) })
	return err
}

// send queues u and returns its outcome once its batch is committed (see write).
func (w *writer) send(ctx context.Context, u *writeUnit) error {
	w.mu.RLock()
	if w.closed {
		w.mu.RUnlock()
		return errWriterClosed
	}
	select {
	case w.queue <- u:
	case <-ctx.Done():
		w.mu.RUnlock()
		return ctx.Err()
	}
	w.mu.RUnlock()
	select {
	case err := <-u.done:
		return err
	case <-ctx.Done():
		if u.state.CompareAndSwap(unitQueued, unitAbandoned) {
			return ctx.Err() // the writer will skip it: nothing of it is applied
		}
		return <-u.done // taken: its batch decides, and the caller hears the truth
	}
}

// WriterStats returns how many units of work the writer ran and in how many commits.
func (db *DB) WriterStats() WriterStats {
	return WriterStats{Units: db.writer.units.Load(), Commits: db.writer.commits.Load()}
}

// close stops taking work, commits what is queued and waits for the writer to end.
func (w *writer) close() {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.stop)
	}
	w.mu.Unlock()
	<-w.stopped
}

func (w *writer) run() {
	defer close(w.stopped)
	for {
		select {
		case u := <-w.queue:
			w.commit(w.fill([]*writeUnit{u}))
		case <-w.stop:
			for len(w.queue) > 0 { // closed: nothing new arrives; finish what waits
				w.commit(w.fill(nil))
			}
			return
		}
	}
}

// fill adds the units waiting in the queue to batch, up to maxBatch, without waiting for more.
func (w *writer) fill(batch []*writeUnit) []*writeUnit {
	for len(batch) < maxBatch {
		select {
		case u := <-w.queue:
			batch = append(batch, u)
		default:
			return batch
		}
	}
	return batch
}

// commit runs the batch's live units, each in its own savepoint, commits once and answers each.
// A unit that fails is rolled back to its savepoint alone. Only when the transaction itself
// breaks (it cannot begin, roll back to a savepoint or commit) does every unit of the batch get
// the error, and then none of them is applied.
func (w *writer) commit(batch []*writeUnit) {
	live := batch[:0]
	for _, u := range batch {
		if u.state.CompareAndSwap(unitQueued, unitTaken) {
			live = append(live, u)
		}
	}
	if len(live) == 0 {
		return
	}
	results := make([]error, len(live))
	broken := func() error {
		ctx := context.Background()
		tx, err := w.conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock=immediate)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for i, u := range live {
			if _, err := tx.ExecContext(ctx, `SAVEPOINT unit`); err != nil {
				return err
			}
			results[i] = runUnit(u, tx)
			// On PostgreSQL a unit can lose a deadlock to another server's transaction: its own
			// writes are rolled back to the savepoint and it runs again, a few times at most.
			for try := 1; try < maxUnitTries && isRetryable(results[i]); try++ {
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO unit`); err != nil {
					return fmt.Errorf("roll back a unit to retry it (%v): %w", results[i], err)
				}
				results[i] = runUnit(u, tx)
			}
			if results[i] != nil {
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO unit`); err != nil {
					return fmt.Errorf("roll back a failed unit (%v): %w", results[i], err)
				}
			}
			if _, err := tx.ExecContext(ctx, `RELEASE unit`); err != nil {
				return err
			}
		}
		if w.stock == nil {
			return tx.Commit()
		}
		publish, err := w.stock.reload(ctx, tx)
		if err != nil {
			return err
		}
		err = tx.Commit()
		publish(err == nil)
		return err
	}()
	w.units.Add(int64(len(live)))
	if broken == nil {
		w.commits.Add(1)
	} else {
		metrics.WriterFailedBatches.Inc()
	}
	metrics.WriterBatchUnits.Observe(float64(len(live)))
	done := time.Now()
	for i, u := range live {
		metrics.WriterWait.Observe(done.Sub(u.queued).Seconds())
		if broken != nil && results[i] == nil {
			results[i] = broken
		}
		u.done <- results[i]
	}
}

// runUnit runs one unit, turning a panic into its error so that the batch goes on.
func runUnit(u *writeUnit, tx *sql.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write unit panicked: %v", r)
		}
	}()
	return u.fn(u.ctx, tx)
}
