package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// TestOpen_WriterSyncsTheLog proves the writer's settings: its connection commits without waiting
// for the disk (synchronous=NORMAL, 1; the writer's syncer fsyncs the log before any answer, see
// TestWriter_AnswerWaitsForTheFsync) in WAL mode, and it has a sync for the log of a database on
// disk. The writer keeps its savepoint journals in memory (temp_store=MEMORY).
func TestOpen_WriterSyncsTheLog(t *testing.T) {
	sqliteOnly(t, "SQLite's synchronous and journal settings")
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	var writer, reader int
	var journal string
	require.NoError(t, db.write.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&writer))
	require.NoError(t, db.write.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&journal))
	require.NoError(t, db.read.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&reader))
	require.Equal(t, 1, writer, "writer: synchronous=NORMAL, the syncer fsyncs")
	require.Equal(t, "wal", journal)
	require.Equal(t, 1, reader, "readers: NORMAL")
	require.NotNil(t, db.writer.sync, "a database on disk has its log synced before answers")
	// the savepoints' journals stay in memory (2), not in a temporary file per transaction
	var temp int
	require.NoError(t, db.write.QueryRowContext(ctx, `PRAGMA temp_store`).Scan(&temp))
	require.Equal(t, 2, temp, "writer: temp_store=MEMORY")
}

// TestWriter_AnswerWaitsForTheFsync proves the power-cut ordering of the pipelined writer: a
// committed unit (its row visible to readers) is not answered while the fsync of the log that
// follows its commit has not returned, even when a later batch has committed meanwhile (the
// writer does not wait for the fsync: that is the pipelining); both are answered once the fsyncs
// return, and a failed fsync answers its units with an error, never with success.
func TestWriter_AnswerWaitsForTheFsync(t *testing.T) {
	sqliteOnly(t, "the fsync of SQLite's write-ahead log; PostgreSQL flushes its own commits")
	db := writerProbe(t)
	ctx := context.Background()
	realSync := db.writer.sync
	gate, entered := make(chan struct{}), make(chan struct{}, 8)
	var gateOnce sync.Once
	t.Cleanup(func() { gateOnce.Do(func() { close(gate) }) })
	db.writer.sync = func() error { // set before any unit is sent: the syncer reads it after one
		entered <- struct{}{}
		<-gate
		return realSync()
	}
	before := db.WriterStats()

	first, second := make(chan error, 1), make(chan error, 1)
	go func() { first <- db.inWrite(ctx, insertProbe("first")) }()
	<-entered // the first batch has committed and its fsync has begun
	require.Equal(t, []string{"first"}, probeNames(t, db), "committed: readers see it")
	go func() { second <- db.inWrite(ctx, insertProbe("second")) }()
	for !slices.Contains(probeNames(t, db), "second") {
		runtime.Gosched() // the writer commits the next batch while the first one's fsync runs
	}
	select {
	case err := <-first:
		t.Fatalf("answered (%v) before the fsync after its commit returned", err)
	case err := <-second:
		t.Fatalf("the later batch answered (%v) before any fsync returned", err)
	default:
	}
	gateOnce.Do(func() { close(gate) })
	require.NoError(t, <-first)
	require.NoError(t, <-second)
	after := db.WriterStats()
	require.Equal(t, int64(2), after.Commits-before.Commits)
	require.Equal(t, int64(2), after.Syncs-before.Syncs, "the second batch committed after the first fsync began: one more fsync")

	require.NoError(t, db.inWrite(ctx, insertProbe("control")), "control: a write with a working fsync")
	db.writer.sync = func() error { return errors.New("disk gone") } // the syncer is idle: every answer has been read
	err := db.inWrite(ctx, insertProbe("unsure"))
	require.ErrorContains(t, err, "outcome is unknown", "a failed fsync is never acknowledged")
	require.ErrorContains(t, err, "disk gone")
	// A failed fsync is final: a later fsync that succeeds would not bring back the log's pages the
	// kernel could not write, so no later write is committed or acknowledged, even with a working fsync.
	db.writer.sync = realSync
	syncs := db.WriterStats().Syncs
	err = db.inWrite(ctx, insertProbe("after"))
	require.ErrorContains(t, err, "disk gone", "a write after a failed fsync fails with its error")
	require.NotContains(t, probeNames(t, db), "after", "and is not committed")
	require.Equal(t, syncs, db.WriterStats().Syncs, "no fsync is tried again")
}

// TestWALFile_FollowsANewLog proves that the syncer's log file is kept open between fsyncs and
// that a new log under the same name (SQLite deletes the log when its last connection closes
// and makes another) is opened and synced, not the deleted one.
func TestWALFile_FollowsANewLog(t *testing.T) {
	path := t.TempDir() + "/x.db-wal"
	require.NoError(t, os.WriteFile(path, []byte("one"), 0o600))
	l := &walFile{path: path}
	t.Cleanup(l.close)
	require.NoError(t, l.sync())
	first := l.f
	require.NoError(t, l.sync())
	require.Same(t, first, l.f, "the same log: kept open")
	require.NoError(t, os.Remove(path))
	require.NoError(t, os.WriteFile(path, []byte("two"), 0o600))
	require.NoError(t, l.sync())
	require.NotSame(t, first, l.f, "a new log: opened")
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.True(t, os.SameFile(info, l.info), "the file synced is the one under the name now")
	require.NoError(t, os.Remove(path))
	require.Error(t, l.sync(), "no log under the name: an error, not a sync of the deleted one")
}

// writerProbe opens a fresh database with a probe table for the writer's tests.
func writerProbe(t *testing.T) *DB {
	t.Helper()
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	_, err = db.write.Exec(`CREATE TABLE probe (name TEXT NOT NULL UNIQUE)`)
	require.NoError(t, err)
	return db
}

// holdWriter queues a unit that keeps the writer busy until release is closed, so that the
// units queued meanwhile wait and are taken together as the next batch.
func holdWriter(t *testing.T, db *DB) (release func(), done <-chan error) {
	t.Helper()
	started, gate, out := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		out <- db.inWrite(context.Background(), func(ctx context.Context, tx *sql.Tx) error {
			close(started)
			<-gate
			return nil
		})
	}()
	<-started
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(release) // a failed test must not leave the writer held, or closing the database waits
	return release, out
}

// waitQueued waits until n units wait in the writer's queue.
func waitQueued(db *DB, n int) {
	for len(db.writer.queue) < n {
		runtime.Gosched()
	}
}

func insertProbe(name string) func(ctx context.Context, tx *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO probe (name) VALUES (?)`, name)
		return err
	}
}

func probeNames(t *testing.T, db *DB) []string {
	t.Helper()
	rows, err := db.read.Query(`SELECT name FROM probe ORDER BY name`)
	require.NoError(t, err)
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		names = append(names, n)
	}
	require.NoError(t, rows.Err())
	return names
}

// TestWriter_SavepointIsolation proves group commit with savepoints: units queued together
// are committed in one transaction, and a unit that fails after writing (a UNIQUE violation)
// or panics is rolled back alone while its caller gets its error and the others commit.
func TestWriter_SavepointIsolation(t *testing.T) {
	db := writerProbe(t)
	ctx := context.Background()
	release, held := holdWriter(t, db)
	before := db.WriterStats()

	units := map[string]func(ctx context.Context, tx *sql.Tx) error{
		"a": insertProbe("a"), "b": insertProbe("b"), "c": insertProbe("c"),
		"bad": func(ctx context.Context, tx *sql.Tx) error {
			if err := insertProbe("bad-wrote-this")(ctx, tx); err != nil {
				return err
			}
			return insertProbe("a")(ctx, tx) // a UNIQUE violation: "a" is written by another unit
		},
		"panics": func(ctx context.Context, tx *sql.Tx) error {
			if err := insertProbe("panic-wrote-this")(ctx, tx); err != nil {
				return err
			}
			panic("boom")
		},
	}
	// "a" goes first so that "bad" meets its row; the others in any order
	errs := map[string]error{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	submit := func(name string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.inWrite(ctx, units[name])
			mu.Lock()
			errs[name] = err
			mu.Unlock()
		}()
	}
	submit("a")
	waitQueued(db, 1)
	for i, name := range []string{"bad", "b", "panics", "c"} {
		submit(name)
		waitQueued(db, i+2)
	}
	release()
	require.NoError(t, <-held)
	wg.Wait()

	require.NoError(t, errs["a"])
	require.NoError(t, errs["b"])
	require.NoError(t, errs["c"])
	require.True(t, isUniqueViolation(errs["bad"]), "bad: %v", errs["bad"])
	require.ErrorContains(t, errs["panics"], "boom")
	require.Equal(t, []string{"a", "b", "c"}, probeNames(t, db), "the failed units' own writes are rolled back")
	after := db.WriterStats()
	require.Equal(t, int64(6), after.Units-before.Units, "the holding unit and five queued units")
	require.Equal(t, int64(2), after.Commits-before.Commits, "the holding unit's commit, then one for the five queued units")
}

// TestWriter_Cancellation proves that a caller's cancellation loses nothing and applies nothing
// by halves: a unit cancelled while it waits never runs; a unit whose caller is cancelled while
// it runs (control: the same statements, cancelled) is applied whole and its caller hears so.
func TestWriter_Cancellation(t *testing.T) {
	db := writerProbe(t)
	release, held := holdWriter(t, db)

	waiting, cancelWaiting := context.WithCancel(context.Background())
	out := make(chan error, 1)
	go func() { out <- db.inWrite(waiting, insertProbe("never")) }()
	waitQueued(db, 1)
	cancelWaiting()
	require.ErrorIs(t, <-out, context.Canceled)

	running, cancelRunning := context.WithCancel(context.Background())
	go func() {
		out <- db.inWrite(running, func(ctx context.Context, tx *sql.Tx) error {
			if err := insertProbe("first")(ctx, tx); err != nil {
				return err
			}
			cancelRunning() // the caller gives up half-way through the unit
			<-running.Done()
			return insertProbe("second")(ctx, tx)
		})
	}()
	waitQueued(db, 2) // the abandoned unit is still queued, then this one
	release()
	require.NoError(t, <-held)
	require.NoError(t, <-out, "taken before the cancellation arrived: the caller waits for the truth")
	require.Equal(t, []string{"first", "second"}, probeNames(t, db), "whole, and the cancelled waiting unit never ran")
}

// TestWriter_CloseCommitsQueuedWork proves Close finishes the queued units, then refuses new ones.
func TestWriter_CloseCommitsQueuedWork(t *testing.T) {
	db := writerProbe(t)
	release, held := holdWriter(t, db)
	out := make(chan error, 1)
	go func() { out <- db.inWrite(context.Background(), insertProbe("queued")) }()
	waitQueued(db, 1)
	closed := make(chan struct{})
	go func() { db.writer.close(); close(closed) }()
	release()
	require.NoError(t, <-held)
	require.NoError(t, <-out)
	<-closed
	require.ErrorIs(t, db.inWrite(context.Background(), insertProbe("late")), errWriterClosed)
	require.Equal(t, []string{"queued"}, probeNames(t, db))
}

// TestPurchaseService_ConfirmPaymentTwentyAtOnce proves that a gateway retrying one event in
// parallel fulfils the order once: 20 goroutines deliver the same paid event at the same time;
// every delivery is answered with the paid order, and there are exactly the order's tickets,
// one confirmation e-mail and one recorded event.
func TestPurchaseService_ConfirmPaymentTwentyAtOnce(t *testing.T) {
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "pay20", 20000, 10, 5)
	o := f.pendingOrder(t, code, 2, "cs_20")
	start := make(chan struct{})
	errs := make(chan error, 20)
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got, err := f.purchases.ConfirmPayment(context.Background(), "sandbox", false, paid("evt_20", "cs_20", 40000))
			if err == nil && (got.Status != palaro.OrderPaid || len(got.Tickets) != 2) {
				err = fmt.Errorf("answered %s with %d tickets", got.Status, len(got.Tickets))
			}
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 2, f.countRows(t, `SELECT COUNT(*) FROM tickets WHERE order_id = ?`, o.ID))
	require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM outbox WHERE recipient = 'payer@x.ph'`))
	require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM payment_events WHERE event_id = 'evt_20'`))
	sold, held, _ := f.counts(t, code)
	require.Equal(t, 2, sold)
	require.Zero(t, held)
}

// TestPurchaseService_SoldOutAtOnce proves a sold-out buyer is answered without the writer: with
// the writer held busy, a buyer of a sold-out type gets 'sold out' at once and nothing is queued.
// Control: the buyer whose own unpaid order would be replaced is not refused early; that order
// waits for the writer, then replaces the held one.
func TestPurchaseService_SoldOutAtOnce(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "one-left", 20000, 1, 1)
	mine := freeRequest(code, 1, "holder@x.ph")
	mine.SessionKey = "session-holder"
	first, err := f.purchases.CreateOrder(ctx, mine, f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPending, first.Status)

	release, held := holdWriter(t, f.db)
	before := f.db.WriterStats()
	other := freeRequest(code, 1, "late@x.ph")
	other.SessionKey = "session-late"
	out := make(chan error, 1)
	go func() {
		_, err := f.purchases.CreateOrder(ctx, other, f.now)
		out <- err
	}()
	for err = nil; err == nil; runtime.Gosched() {
		select {
		case err = <-out:
		default:
			require.Zero(t, len(f.db.writer.queue), "the sold-out buyer was queued for the writer")
		}
	}
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "%v", err)
	require.ErrorContains(t, err, "sold out")

	go func() {
		_, err := f.purchases.CreateOrder(ctx, mine, f.now) // replaces the buyer's own unpaid order
		out <- err
	}()
	waitQueued(f.db, 1)
	release()
	require.NoError(t, <-held)
	require.NoError(t, <-out)
	require.Equal(t, int64(2), f.db.WriterStats().Units-before.Units, "the holding unit and the replacing order")
	sold, heldCount, _ := f.counts(t, code)
	require.Zero(t, sold)
	require.Equal(t, 1, heldCount)
}

// TestOutbox_OrderEmailComposedWhenSent proves an order's confirmation is queued as a small row
// naming the order (nothing composed inside the order's transaction) and that the outbox, when it
// claims and lists it, composes exactly the e-mail composed from the order read back: a free order
// and a paid one, with add-ons given in reverse order. Once recorded as sent, the row stays small
// and is listed with the same content.
func TestOutbox_OrderEmailComposedWhenSent(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	composer := notify.NewComposer("https://palaro.test", "help@palaro.test")
	zebra, apple := f.addAddOn(t, "Zebra pin", 0), f.addAddOn(t, "Apple pin", 0)
	stored := func(o *palaro.Order) (text string, orderID sql.NullInt64) {
		require.NoError(t, f.db.read.QueryRow(`SELECT body_text, order_id FROM outbox WHERE dedupe_key = ?`,
			fmt.Sprintf("order-confirmation:%d", o.ID)).Scan(&text, &orderID))
		return text, orderID
	}
	check := func(o *palaro.Order) {
		t.Helper()
		text, orderID := stored(o)
		require.Empty(t, text, "nothing composed in the order's transaction")
		require.Equal(t, o.ID, orderID.Int64)
		again, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		want := composer.OrderConfirmation(again)
		require.Contains(t, want.Text, "Apple pin")
		listed, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: o.Email})
		require.NoError(t, err)
		require.Len(t, listed, 1)
		require.Equal(t, want, listed[0].Message)
		claimed, err := f.outbox.ClaimDue(ctx, f.now, 10, time.Minute)
		require.NoError(t, err)
		require.Len(t, claimed, 1)
		require.Equal(t, want, claimed[0].Message)
		require.NoError(t, f.outbox.Record(ctx, []palaro.OutboxOutcome{{ID: claimed[0].ID, Sent: true, SentAt: f.now}}))
		text, _ = stored(o)
		require.Empty(t, text, "the row stays small once sent")
		listed, err = f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: o.Email})
		require.NoError(t, err)
		require.Equal(t, palaro.MessageSent, listed[0].Status)
		require.Equal(t, want, listed[0].Message, "listed as it was sent")
	}

	free := f.addTicketType(t, "free-mem", 0, 10, 5)
	req := freeRequest(free, 1, "free@x.ph") // a free order is one ticket
	req.AddOnQuantities = []palaro.AddOnQuantity{{ID: zebra, Quantity: 1}, {ID: apple, Quantity: 1}}
	o, err := f.purchases.CreateOrder(ctx, req, f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, o.Status)
	check(o)

	priced := f.addTicketType(t, "paid-mem", 20000, 10, 5)
	req = freeRequest(priced, 2, "payer@x.ph")
	req.AddOnQuantities = []palaro.AddOnQuantity{{ID: zebra, Quantity: 2}, {ID: apple, Quantity: 1}}
	o, err = f.purchases.CreateOrder(ctx, req, f.now)
	require.NoError(t, err)
	require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_mem", URL: "https://pay.test/mem"}))
	_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_mem", "cs_mem", o.Total))
	require.NoError(t, err)
	check(o)
}

// TestOutbox_RecordUnknownID proves Record stores the known outcomes and names the unknown ids.
func TestOutbox_RecordUnknownID(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	require.NoError(t, f.outbox.Enqueue(ctx, palaro.Message{Kind: "note", To: "a@x.ph", Subject: "s", Text: "t"}, f.now))
	claimed, err := f.outbox.ClaimDue(ctx, f.now, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, claimed, 1)
	err = f.outbox.Record(ctx, []palaro.OutboxOutcome{{ID: 999999, Error: "x"}, {ID: claimed[0].ID, Error: "smtp down", RetryAt: f.now.Add(time.Hour)}})
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	require.ErrorContains(t, err, "999999")
	listed, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "a@x.ph"})
	require.NoError(t, err)
	require.Equal(t, "smtp down", listed[0].LastError)
	require.Equal(t, f.now.Add(time.Hour), listed[0].NextAttemptAt)
}

// TestPurchaseTicketType_SameAsFindTicketType proves the purchase path's lighter lookup returns
// what FindTicketType returns, but for the event's tags, links and other ticket types: for every
// demo ticket type, and not found for an unknown code and for an event in draft (control: found
// again once published).
func TestPurchaseTicketType_SameAsFindTicketType(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	rows, err := f.db.read.Query(`SELECT code FROM ticket_types ORDER BY id`)
	require.NoError(t, err)
	var codes []string
	for rows.Next() {
		var c string
		require.NoError(t, rows.Scan(&c))
		codes = append(codes, c)
	}
	require.NoError(t, rows.Err())
	require.NotEmpty(t, codes)
	events := NewEventService(f.db)
	for _, code := range codes {
		wantTT, wantEv, err := events.FindTicketType(ctx, code)
		gotTT, gotEv, gotErr := purchaseTicketType(ctx, f.db, code)
		if err != nil {
			require.Equal(t, palaro.ErrorCode(err), palaro.ErrorCode(gotErr), code)
			continue
		}
		require.NoError(t, gotErr, code)
		require.Equal(t, wantTT, gotTT, code)
		wantEv.TicketTypes, wantEv.Tags, wantEv.Links = nil, nil, nil
		require.Equal(t, wantEv, gotEv, code)
	}
	_, _, err = purchaseTicketType(ctx, f.db, "no-such-ticket")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))

	var status string
	require.NoError(t, f.db.read.QueryRow(`SELECT status FROM events WHERE id = (SELECT event_id FROM ticket_types WHERE code = ?)`,
		codes[0]).Scan(&status))
	_, err = f.db.write.Exec(`UPDATE events SET status = 'draft' WHERE id = (SELECT event_id FROM ticket_types WHERE code = ?)`, codes[0])
	require.NoError(t, err)
	_, _, err = purchaseTicketType(ctx, f.db, codes[0])
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "an event in draft sells nothing")
	_, err = f.db.write.Exec(`UPDATE events SET status = ? WHERE id = (SELECT event_id FROM ticket_types WHERE code = ?)`, status, codes[0])
	require.NoError(t, err)
	_, _, err = purchaseTicketType(ctx, f.db, codes[0])
	require.NoError(t, err, "control: found again with its status back (%s)", status)
}

// TestWriter_InvalidOrderFailsAlone proves one order that fails inside a batch is rolled back
// alone: three orders are queued together behind a held writer; the last finds the type sold out
// at the guarded UPDATE after its unit already counted a use of its promo code. It gets 'sold
// out', its promo use is undone, and the two others are committed, in the same single commit.
func TestWriter_InvalidOrderFailsAlone(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "batch", 20000, 2, 1)
	require.NoError(t, f.purchases.CreatePromoCode(ctx, &palaro.PromoCode{Code: "BATCH10", Kind: palaro.PromoPercent,
		Percent: 10, UsageLimit: 10}))
	release, held := holdWriter(t, f.db)
	before := f.db.WriterStats()
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i, email := range []string{"first@x.ph", "second@x.ph", "third@x.ph"} {
		req := freeRequest(code, 1, email)
		if i != 1 {
			req.Source = "BATCH10"
		}
		wg.Go(func() { _, errs[i] = f.purchases.CreateOrder(ctx, req, f.now) })
		waitQueued(f.db, i+1)
	}
	release()
	require.NoError(t, <-held)
	wg.Wait()

	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(errs[2]), "%v", errs[2])
	require.ErrorContains(t, errs[2], "sold out")
	require.Equal(t, 1, f.countRows(t, `SELECT used FROM promo_codes WHERE code = 'BATCH10'`), "the failed order's promo use is rolled back")
	require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM orders WHERE email = 'third@x.ph'`))
	require.Equal(t, 2, f.countRows(t, `SELECT COUNT(*) FROM orders WHERE email IN ('first@x.ph', 'second@x.ph')`))
	sold, heldCount, _ := f.counts(t, code)
	require.Equal(t, 2, sold+heldCount)
	after := f.db.WriterStats()
	require.Equal(t, int64(4), after.Units-before.Units, "the holding unit and three orders")
	require.Equal(t, int64(2), after.Commits-before.Commits, "the holding unit's commit, then one for the three orders")
}

// TestOutbox_OrderGoneFailsAlone proves a queued order e-mail whose order no longer exists fails
// for good, alone: the claim returns the other order's e-mail, composed, and marks the orphan
// failed instead of claiming it again and again.
func TestOutbox_OrderGoneFailsAlone(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	code := f.addTicketType(t, "orphan", 0, 10, 1)
	o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "kept@x.ph"), f.now)
	require.NoError(t, err)
	_, err = f.db.write.Exec(`INSERT INTO outbox (channel, kind, recipient, subject, body_text, body_html, dedupe_key,
		order_id, next_attempt_at, created_at) VALUES ('email', 'order_confirmation', 'orphan@x.ph', '', '', '',
		'order-confirmation:999999', 999999, ?, ?)`, formatTime(f.now), formatTime(f.now))
	require.NoError(t, err)

	claimed, err := f.outbox.ClaimDue(ctx, f.now, 10, time.Minute)
	require.NoError(t, err)
	require.Len(t, claimed, 1)
	require.Equal(t, o.Email, claimed[0].To)
	require.Contains(t, claimed[0].Text, o.PublicID)
	orphan, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "orphan@x.ph"})
	require.NoError(t, err)
	require.Len(t, orphan, 1)
	require.Equal(t, palaro.MessageFailed, orphan[0].Status)
	require.Equal(t, "its order no longer exists", orphan[0].LastError)
}

// TestWriter_RetriesLostRace: a unit that lost a deadlock or serialization race to another
// server's transaction (PostgreSQL's 40P01/40001) runs again from its savepoint, its first try's
// writes undone; one that keeps losing gets the error after maxUnitTries; any other error is
// final at once (control).
func TestWriter_RetriesLostRace(t *testing.T) {
	ctx := context.Background()
	db := writerProbe(t)
	tries := 0
	require.NoError(t, db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		tries++
		if err := insertProbe(fmt.Sprintf("try%d", tries))(ctx, tx); err != nil {
			return err
		}
		if tries == 1 {
			return &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}
		}
		return nil
	}))
	require.Equal(t, 2, tries)
	require.Equal(t, []string{"try2"}, probeNames(t, db), "the lost try's write is rolled back")

	tries = 0
	err := db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		tries++
		if err := insertProbe(fmt.Sprintf("always%d", tries))(ctx, tx); err != nil {
			return err
		}
		return &pgconn.PgError{Code: "40001", Message: "could not serialize access"}
	})
	require.True(t, isRetryable(err), "%v", err)
	require.Equal(t, maxUnitTries*(1+maxUnitTries), tries, "its tries in its batch, then as many in each of its batches alone")

	// losing every try in its batch, it wins in a batch of its own: applied once
	tries = 0
	require.NoError(t, db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		tries++
		if err := insertProbe(fmt.Sprintf("alone%d", tries))(ctx, tx); err != nil {
			return err
		}
		if tries <= maxUnitTries {
			return &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}
		}
		return nil
	}))
	require.Equal(t, maxUnitTries+1, tries)
	require.Equal(t, []string{fmt.Sprintf("alone%d", maxUnitTries+1), "try2"}, probeNames(t, db), "only the winning try's write is kept")

	tries = 0
	err = db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		tries++
		return insertProbe("try2")(ctx, tx) // taken: a unique violation is not retried
	})
	require.True(t, isUniqueViolation(err), "%v", err)
	require.Equal(t, 1, tries)
	require.Equal(t, []string{fmt.Sprintf("alone%d", maxUnitTries+1), "try2"}, probeNames(t, db))
}

// TestOutbox_Counts: the operator's metrics count the pending messages and the failed ones (given
// up on), and not the sent.
func TestOutbox_Counts(t *testing.T) {
	f := newPurchaseFixture(t)
	ctx := context.Background()
	pending0, failed0, err := f.outbox.OutboxCounts(ctx)
	require.NoError(t, err)
	for _, to := range []string{"a@x.ph", "b@x.ph", "c@x.ph"} {
		require.NoError(t, f.outbox.Enqueue(ctx, palaro.Message{Kind: "note", To: to, Subject: "s", Text: "t"}, f.now))
	}
	claimed, err := f.outbox.ClaimDue(ctx, f.now, 100, time.Minute)
	require.NoError(t, err)
	var outcomes []palaro.OutboxOutcome
	for _, m := range claimed {
		switch m.To {
		case "a@x.ph":
			outcomes = append(outcomes, palaro.OutboxOutcome{ID: m.ID, Sent: true, SentAt: f.now})
		case "b@x.ph":
			outcomes = append(outcomes, palaro.OutboxOutcome{ID: m.ID, Error: "mailbox gone"}) // given up
		}
	}
	require.Len(t, outcomes, 2)
	require.NoError(t, f.outbox.Record(ctx, outcomes))
	pending, failed, err := f.outbox.OutboxCounts(ctx)
	require.NoError(t, err)
	require.Equal(t, failed0+1, failed)
	require.Equal(t, pending0+1, pending, "c@x.ph is still pending; the sent and the failed are not")
}

// TestWriter_BusyInARush proves WriterBusy (what the outbox worker waits on): idle and after a
// batch of a few units it is not busy; with rushUnits units waiting it is, and a batch of that many
// marks a rush (busy for rushLasts after it); it is not once the rush is over.
func TestWriter_BusyInARush(t *testing.T) {
	db := writerProbe(t)
	ctx := context.Background()
	require.False(t, db.WriterBusy(), "idle")
	batch := func(n int, prefix string) {
		release, held := holdWriter(t, db)
		errs := make(chan error, n)
		for i := range n {
			go func() { errs <- db.inWrite(ctx, insertProbe(fmt.Sprintf("%s%d", prefix, i))) }()
		}
		waitQueued(db, n)
		require.Equal(t, n >= rushUnits, db.WriterBusy(), "%d units waiting", n)
		release()
		require.NoError(t, <-held)
		for range n {
			require.NoError(t, <-errs)
		}
	}
	batch(rushUnits-1, "few")
	require.False(t, db.WriterBusy(), "a batch of %d units is no rush", rushUnits-1)
	require.Zero(t, db.writer.rushAt.Load())
	batch(rushUnits, "rush")
	require.NotZero(t, db.writer.rushAt.Load(), "a batch of rushUnits is a rush (busy for rushLasts after it)")
	require.Eventually(t, func() bool { return !db.WriterBusy() }, 5*time.Second, 10*time.Millisecond, "the rush ends")
}
