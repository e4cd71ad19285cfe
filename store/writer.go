package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
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
	// alone counts the batches of its own the unit was moved to after losing a deadlock (commit).
	alone int
}

// WriterStats counts the work of the batching writer since the database was opened.
type WriterStats struct {
	Units   int64 // units of work run (committed or failed alone)
	Commits int64 // transactions committed, each on disk before any of its units is answered
	// Syncs counts the fsyncs of SQLite's write-ahead log that made the commits durable: one
	// covers every batch committed before it began, so there are at most as many as commits.
	// On PostgreSQL each commit is flushed by the server itself and Syncs stays 0.
	Syncs int64
}

// writer is the one goroutine that runs the units of work: it takes every unit waiting (up to
// maxBatch), runs each in its own SAVEPOINT of one transaction and commits them together, so
// one fsync covers the batch; each caller hears its outcome only after that commit is on disk.
//
// On SQLite the commit itself does not wait for the disk (synchronous=NORMAL): the writer hands
// the committed batch to its syncer goroutine and goes on with the next batch, while the syncer
// fsyncs the write-ahead log and only then answers the batch's callers. So the fsync of one batch
// overlaps the work of the next, and one fsync covers every batch committed while the previous
// one ran. The WAL is appended in commit order, so an fsync begun after a batch's commit holds
// that batch and every earlier one: nothing is acknowledged before it is on disk, and an answer
// never depends on a later batch. Readers can see a batch in the moments between its commit and
// its fsync (under synchronous=FULL they saw only what was on disk), so a page or a job may act on
// a change that a power cut in those moments loses; a write that acts on what it saw is itself
// answered only after a later fsync, which covers the batch it saw.
type writer struct {
	conn  *sql.DB
	stock *stockCounts // reloaded at the end of each batch, published once it commits; nil when off
	// sync makes every batch committed so far durable (fsync of SQLite's WAL); nil when a commit
	// is durable when it returns (PostgreSQL, or a database in memory that has nothing to sync).
	sync      func() error
	queue     chan *writeUnit
	committed chan committedBatch // batches committed, waiting for the syncer's fsync
	mu        sync.RWMutex        // held for reading while sending, for writing while closing
	closed    bool
	stop      chan struct{}
	stopped   chan struct{}
	units     atomic.Int64
	commits   atomic.Int64
	syncs     atomic.Int64
	// rushAt is when (since writerEpoch) the writer last took a batch of at least rushUnits units:
	// a rush is on (Busy).
	rushAt atomic.Int64
	// checkpoints is the database's checkpointer (nil on PostgreSQL and in memory): when it asks,
	// the writer copies the log's tail itself between two batches (checkpointTail).
	checkpoints *checkpointer
	// failed is the first failed sync's error: from then on nothing more is committed and no
	// batch is acknowledged (syncLoop).
	failed atomic.Pointer[error]
}

// committedBatch is a batch whose transaction has committed: its units and their outcomes,
// answered once an fsync has made it durable.
type committedBatch struct {
	units   []*writeUnit
	results []error
}

func newWriter(conn *sql.DB, stock *stockCounts, sync func() error, checkpoints *checkpointer) *writer {
	w := &writer{conn: conn, stock: stock, sync: sync, checkpoints: checkpoints, queue: make(chan *writeUnit, 4*maxBatch),
		committed: make(chan committedBatch, 4*maxBatch), stop: make(chan struct{}), stopped: make(chan struct{})}
	go w.run()
	return w
}

// walFile is SQLite's write-ahead log as the writer's syncer fsyncs it. The file stays open
// between fsyncs, so that an fsync reports every write-back error of the log since the file was
// opened, even one that SQLite's own fsync (before a checkpoint) saw first: a log opened afresh
// for each fsync would not hear of it. When the name leads to another file (SQLite deletes the
// log when its last connection closes and makes a new one), the new one is opened, and its
// folder is synced too, so that the log's name is on disk (as SQLite does for a new log itself
// under synchronous=FULL). Only the syncer goroutine calls sync; close after the writer ends.
type walFile struct {
	path string
	f    *os.File // the log last opened; nil before the first fsync
	info os.FileInfo
}

// sync fsyncs the log, and its folder when the log is a file not synced before.
func (l *walFile) sync() error {
	info, err := os.Stat(l.path)
	if err != nil {
		return err
	}
	if l.f == nil || !os.SameFile(l.info, info) {
		f, err := os.Open(l.path)
		if err != nil {
			return err
		}
		if info, err = f.Stat(); err != nil {
			f.Close()
			return err
		}
		if err := syncFile(l.path); err != nil { // the file and its folder
			f.Close()
			return err
		}
		l.close()
		l.f, l.info = f, info
	}
	return l.f.Sync()
}

// close closes the log's file, if open.
func (l *walFile) close() {
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
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

// rushUnits is the batch size from which the writer counts as busy with a rush: one request's
// writes come one or two units at a time, a crowd's by the dozen.
const rushUnits = 8

// rushLasts is how long after its last batch of rushUnits a rush counts as still on.
const rushLasts = 200 * time.Millisecond

// writerEpoch is the monotonic origin of writer.rushAt.
var writerEpoch = time.Now()

// WriterBusy reports whether the writer is in a rush: it took a batch of at least rushUnits units
// in the last rushLasts, or that many units wait for it now. Background work that can wait a
// little (the outbox worker composing e-mails) waits while it is (notify.Worker.Busy), leaving
// the CPUs to the buyers.
func (db *DB) WriterBusy() bool {
	w := db.writer
	if len(w.queue) >= rushUnits {
		return true
	}
	at := w.rushAt.Load()
	return at != 0 && time.Since(writerEpoch)-time.Duration(at) < rushLasts
}

// WriterStats returns how many units of work the writer ran and in how many commits.
func (db *DB) WriterStats() WriterStats {
	return WriterStats{Units: db.writer.units.Load(), Commits: db.writer.commits.Load(), Syncs: db.writer.syncs.Load()}
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
	synced := make(chan struct{})
	go w.syncLoop(synced)
	defer func() { close(w.committed); <-synced }() // the last batches are answered before Close returns
	for {
		select {
		case u := <-w.queue:
			w.checkpointTail()
			w.commit(w.fill([]*writeUnit{u}))
		case <-w.stop:
			for len(w.queue) > 0 { // closed: nothing new arrives; finish what waits
				w.commit(w.fill(nil))
			}
			return
		}
	}
}

// checkpointTail copies the write-ahead log's last pages into the database file when the
// checkpointer found the log long (restartFrames): its passes copied the rest, so this is short,
// and the writer's next transaction starts the log again from its beginning.
func (w *writer) checkpointTail() {
	if w.checkpoints == nil || !w.checkpoints.due.CompareAndSwap(true, false) {
		return
	}
	_, err := w.conn.ExecContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`)
	metrics.Checkpoints.WithLabelValues(checkpointOutcome(err, 0)).Inc()
}

// syncLoop is the syncer: it takes the committed batches waiting, makes them durable with one
// sync and answers their units, until the writer closes committed; then it closes synced.
//
// A failed sync is final. The units that succeeded get its error (their outcome is unknown: none
// of them is acknowledged), and so does every batch after it, without another sync and, once
// commit sees w.failed, without being committed: after a failed fsync the kernel may have dropped
// the log's pages it could not write, so a later fsync that succeeds would not make the log whole
// again, and an answer after it could acknowledge a commit that a power cut loses. Writes fail
// until the server is restarted (PostgreSQL stops for the same reason).
func (w *writer) syncLoop(synced chan<- struct{}) {
	defer close(synced)
	var failed error
	for b := range w.committed {
		pending := []committedBatch{b}
	more:
		for {
			select {
			case b, ok := <-w.committed:
				if !ok {
					break more
				}
				pending = append(pending, b)
			default:
				break more
			}
		}
		if failed == nil {
			if err := w.sync(); err != nil {
				metrics.WriterFailedBatches.Inc()
				failed = fmt.Errorf("store: fsync the write-ahead log after the commit (the outcome is unknown; "+
					"no write is taken until the server restarts): %w", err)
				w.failed.Store(&failed)
			}
			w.syncs.Add(1)
		}
		for _, b := range pending {
			answer(b.units, b.results, failed)
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
	if len(live) >= rushUnits {
		w.rushAt.Store(int64(time.Since(writerEpoch)))
	}
	results := make([]error, len(live))
	broken := func() error {
		if failed := w.failed.Load(); failed != nil {
			return *failed // an fsync failed: nothing more is committed (syncLoop)
		}
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
	metrics.WriterBatchUnits.Observe(float64(len(live)))
	// A unit that still loses a deadlock after its tries waits for a lock that another server's
	// transaction holds while it waits for one this batch's earlier units took: retrying it here
	// cannot win. It runs again in a batch of its own once this one has committed and let go.
	var again []*writeUnit
	if broken == nil {
		kept, keptResults := make([]*writeUnit, 0, len(live)), make([]error, 0, len(live))
		for i, u := range live {
			if isRetryable(results[i]) && u.alone < maxUnitTries {
				u.alone++
				u.state.Store(unitQueued)
				again = append(again, u)
				continue
			}
			kept, keptResults = append(kept, u), append(keptResults, results[i])
		}
		live, results = kept, keptResults
		defer func() {
			if len(again) > 0 {
				w.commit(again)
			}
		}()
	}
	if broken != nil {
		metrics.WriterFailedBatches.Inc()
		answer(live, results, broken) // nothing of the batch was applied: no fsync to wait for
		return
	}
	w.commits.Add(1)
	if w.sync == nil {
		answer(live, results, nil)
		return
	}
	w.committed <- committedBatch{units: live, results: results} // answered by syncLoop after the fsync
}

// answer sends each unit its outcome; failed, when not nil, replaces the outcome of the units
// that succeeded (their work is not applied, or not known to be durable).
func answer(units []*writeUnit, results []error, failed error) {
	done := time.Now()
	for i, u := range units {
		metrics.WriterWait.Observe(done.Sub(u.queued).Seconds())
		if failed != nil && results[i] == nil {
			results[i] = failed
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
