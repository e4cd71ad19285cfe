package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
	"golang.org/x/sync/singleflight"

	"palaro"
)

// stockCounts is the number of tickets left (capacity - sold - held) of each ticket type, as last
// committed, kept in memory so that a sold-out buyer is answered without queuing for the writer.
// It is exact because on SQLite every change goes through the one writer connection: each change
// of a ticket_types row there (an order, a released hold, a payment, a cancellation, an
// organizer's capacity edit, whichever path made it) drops that type's entry at once (rowChanged),
// and the next batch of the writer reads it again inside its transaction and publishes it once
// committed. A type without an entry is simply unknown: the buyer then goes the normal way, and the
// conditional UPDATE under the write lock decides. Changes made by another process are seen when
// the type is next changed by this one.
type stockCounts struct {
	mu      sync.Mutex
	gen     uint64               // bumped by every drop, so a reload older than a drop is not published
	counts  map[int64]stockCount // ticket type id → its counts, as committed
	touched map[int64]struct{}   // ticket types dropped since the writer last reloaded them
}

// stockCount is a ticket type's capacity and its sold and held counters.
type stockCount struct{ capacity, sold, held int }

func newStockCounts() *stockCounts {
	return &stockCounts{counts: map[int64]stockCount{}, touched: map[int64]struct{}{}}
}

// remaining returns the tickets left of a ticket type, when known.
func (s *stockCounts) remaining(ticketTypeID int64) (int, bool) {
	c, ok := s.count(ticketTypeID)
	return max(c.capacity-c.sold-c.held, 0), ok
}

// count returns a ticket type's counts as committed, when known.
func (s *stockCounts) count(ticketTypeID int64) (stockCount, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.counts[ticketTypeID]
	return c, ok
}

// drop forgets a ticket type's count (its row is changing) until the writer reloads it.
func (s *stockCounts) drop(ticketTypeID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.counts, ticketTypeID)
	s.touched[ticketTypeID] = struct{}{}
	s.gen++
}

// reload reads, inside the writer's transaction, the counts of the ticket types changed since
// the last reload, and returns how to publish them: publish(true) once the transaction committed,
// publish(false) when it did not (they are then reloaded by a later batch).
func (s *stockCounts) reload(ctx context.Context, tx *sql.Tx) (publish func(committed bool), err error) {
	s.mu.Lock()
	ids := make([]any, 0, len(s.touched))
	for id := range s.touched {
		ids = append(ids, id)
	}
	clear(s.touched)
	gen := s.gen
	s.mu.Unlock()
	again := func() {
		s.mu.Lock()
		for _, id := range ids {
			s.touched[id.(int64)] = struct{}{}
		}
		s.mu.Unlock()
	}
	if len(ids) == 0 {
		return func(bool) {}, nil
	}
	values := make(map[int64]stockCount, len(ids))
	rows, err := tx.QueryContext(ctx, `SELECT id, capacity, sold, held FROM ticket_types WHERE id IN (?`+
		strings.Repeat(", ?", len(ids)-1)+`)`, ids...)
	if err != nil {
		again()
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var c stockCount
		if err := rows.Scan(&id, &c.capacity, &c.sold, &c.held); err != nil {
			again()
			return nil, err
		}
		values[id] = c
	}
	if err := rows.Err(); err != nil {
		again()
		return nil, err
	}
	return func(committed bool) {
		if !committed {
			again()
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.gen != gen {
			return // a row changed after the read: the entries stay unknown until the next reload
		}
		for id, c := range values {
			s.counts[id] = c
		}
	}, nil
}

// catalogTTL bounds how long a lookup of the catalog is reused, for a change the writer connection
// cannot see (another process writing to the file, another server of a PostgreSQL database).
const catalogTTL = time.Second

// catalog keeps lookups that many requests make and few changes touch: the purchase path's (a
// ticket type by code, with its event and add-ons), the gate's event (catalogEvent) and API tokens
// (catalogToken). They are kept until one of the tables they come from changes on the writer
// connection: rowChanged drops them all as soon as a statement changes a row there, and again once
// that transaction ends (writerTx), so that a lookup read between the change and its commit is not
// kept either. A statement that changes only a ticket type's sold and held counters (every order,
// expiry and payment) keeps them: it only marks the counters the entries carry as old
// (counterGen), and purchaseTicketType then takes them from the writer's exact counts or reads
// them alone.
type catalog struct {
	mu            sync.Mutex
	gen           uint64
	dirty         bool   // a row changed in the writer's open transaction
	counterGen    uint64 // bumped by every change of sold or held counters, and when its transaction ends
	countersDirty bool   // counters changed in the writer's open transaction
	entries       map[string]catalogEntry
	group         singleflight.Group
}

type catalogEntry struct {
	v          any       // what the load returned; shared by every caller, never modified
	loaded     time.Time // by the store's clock
	counterGen uint64    // counterGen when the load began
}

// Key prefixes of the catalog's lookups other than the purchase path's (whose keys are ticket
// type codes, which never hold a colon).
const (
	catalogEvent = "event:" // + event code: the event as FindEvent reads it (GateEvent)
	catalogToken = "token:" // + token hash: the token's caller (AuthenticateToken)
	catalogDates = "dates:" // + event id: the event's dates as a purchase plans them (purchaseDates)
)

// maxCatalogEntries bounds the catalog; it starts again empty when full.
const maxCatalogEntries = 2000

func newCatalog() *catalog { return &catalog{entries: map[string]catalogEntry{}} }

// cached returns the catalog's value under key, or the one load returns (see catalog.get); with
// the catalog off, load's.
func (db *DB) cached(key string, load func() (any, error)) (any, error) {
	if db.catalog == nil {
		return load()
	}
	v, _, err := db.catalog.get(key, db.Now(), load)
	return v, err
}

// purchaseEntry is a purchase lookup as the catalog keeps it.
type purchaseEntry struct {
	tt palaro.TicketType
	ev *palaro.Event
}

// lookup returns copies of the ticket type with the given code and its event, from memory or
// loaded by load (once for concurrent callers); now is the store's clock, for the TTL. counted
// says the ticket type's sold and held counters are as loaded since the last change of any
// counters; when false they may be older and the caller takes them from elsewhere. Errors are not
// kept.
func (c *catalog) lookup(code string, now time.Time, load func() (*palaro.TicketType, *palaro.Event, error)) (tt *palaro.TicketType, ev *palaro.Event, counted bool, err error) {
	v, counted, err := c.get(code, now, func() (any, error) {
		tt, ev, err := load()
		if err != nil {
			return nil, err
		}
		return purchaseEntry{tt: *tt, ev: ev}, nil
	})
	if err != nil {
		return nil, nil, false, err
	}
	e := v.(purchaseEntry)
	t, event := e.tt, *e.ev // callers own their copies; the slices inside are shared and never modified
	return &t, &event, counted, nil
}

// get returns the value kept under key, or the one load returns (loaded once for concurrent
// callers, and kept unless something changed while it loaded), for at most catalogTTL by now (the
// store's clock); counted is as in lookup. The value is shared: callers copy before changing it.
// Errors are not kept.
func (c *catalog) get(key string, now time.Time, load func() (any, error)) (_ any, counted bool, err error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	gen, counterGen := c.gen, c.counterGen
	c.mu.Unlock()
	if !ok || now.Sub(e.loaded) >= catalogTTL || now.Before(e.loaded) {
		// concurrent callers share one load, but not with a load begun before the last change
		v, err, _ := c.group.Do(strconv.FormatUint(gen, 10)+":"+key, func() (any, error) {
			e := catalogEntry{loaded: now, counterGen: counterGen}
			v, err := load()
			if err != nil {
				return nil, err
			}
			e.v = v
			c.mu.Lock()
			if c.gen == gen { // nothing changed while it loaded
				if len(c.entries) >= maxCatalogEntries {
					clear(c.entries)
				}
				c.entries[key] = e
			}
			c.mu.Unlock()
			return e, nil
		})
		if err != nil {
			return nil, false, err
		}
		e = v.(catalogEntry)
	}
	c.mu.Lock()
	counted = e.counterGen == c.counterGen
	c.mu.Unlock()
	return e.v, counted, nil
}

// changed drops every lookup; during a writer transaction, it is dropped again when it ends.
func (c *catalog) changed(inTx bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.dirty = c.dirty || inTx
	clear(c.entries)
}

// countersChanged marks the sold and held counters of the lookups as old, again when the writer's
// transaction ends: a lookup loaded before that end does not carry the committed counters.
func (c *catalog) countersChanged(inTx bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counterGen++
	c.countersDirty = c.countersDirty || inTx
}

// ended is told that the writer's transaction (or autocommit statement) ended.
func (c *catalog) ended() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dirty {
		c.dirty = false
		c.gen++
		clear(c.entries)
	}
	if c.countersDirty {
		c.countersDirty = false
		c.counterGen++
	}
}

// rowChanged hears every row inserted, updated or deleted on the writer connection (SQLite's
// update hook, before the change commits; on PostgreSQL each writing statement, with rowid 0).
// countersOnly says the statement changed nothing but a ticket type's sold and held counters.
func (db *DB) rowChanged(table string, rowid int64, countersOnly bool) {
	switch table {
	case "ticket_types":
		if db.stock != nil {
			db.stock.drop(rowid)
		}
		if countersOnly {
			if db.catalog != nil {
				db.catalog.countersChanged(true)
			}
			return
		}
		fallthrough
	case "events", "event_dates", "venues", "organizers", "add_ons", "api_tokens", "organizer_members":
		if db.catalog != nil {
			db.catalog.changed(true)
		}
	}
}

// countersOnly reports whether query is one UPDATE of ticket_types that sets nothing but its sold
// and held counters (`UPDATE ticket_types SET sold = …, held = … WHERE …`): such a change leaves
// the catalog's lookups as they are. Any other statement, or one it cannot read plainly, is not.
func countersOnly(query string) bool {
	const prefix = "UPDATE TICKET_TYPES SET "
	q := strings.TrimSpace(query)
	if len(q) < len(prefix) || !strings.EqualFold(q[:len("UPDATE")], "UPDATE") {
		return false // most statements: told apart without allocating
	}
	if table := strings.TrimLeft(q[len("UPDATE"):], " \t\r\n"); len(table) < len("ticket_types ") ||
		!strings.EqualFold(table[:len("ticket_types")], "ticket_types") || strings.ContainsAny(q, ";(") {
		return false
	}
	q = strings.ToUpper(strings.Join(strings.Fields(q), " "))
	set, ok := strings.CutPrefix(q, prefix)
	if !ok {
		return false
	}
	set, _, _ = strings.Cut(set, " WHERE ")
	for _, a := range strings.Split(set, ",") {
		column, _, ok := strings.Cut(a, "=")
		if column = strings.TrimSpace(column); !ok || column != "SOLD" && column != "HELD" {
			return false
		}
	}
	return true
}

// writerConnector opens the writer's connections with rowChanged installed on each, so that a
// connection the pool opens again still reports its changes, and tells the catalog when each
// transaction ends. Savepoint journals stay in memory there (temp_store=MEMORY).
type writerConnector struct {
	dsn string
	db  *DB
}

// Connect opens one writer connection and installs the update hook on it.
func (c writerConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.Driver().Open(c.dsn)
	if err != nil {
		return nil, err
	}
	sc := conn.(*sqlite3.SQLiteConn)
	// Each unit's SAVEPOINT keeps the pages it changes in a sub-journal until the transaction
	// ends, to roll that unit back alone. Kept in memory, not spilled to a temporary file (one
	// write syscall per page, dozens per order): crash safety does not depend on it, the WAL's does.
	if _, err := sc.Exec(`PRAGMA temp_store = MEMORY`, nil); err != nil {
		sc.Close()
		return nil, err
	}
	if ck := c.db.checkpoints; ck != nil {
		// The checkpointer copies the log after commits; the writer does not (checkpoint.go).
		if _, err := sc.Exec(`PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = `+strconv.Itoa(walSizeLimit), nil); err != nil {
			sc.Close()
			return nil, err
		}
		sc.RegisterCommitHook(func() int { ck.committed(); return 0 })
	}
	wc := &writerConn{SQLiteConn: sc, db: c.db}
	sc.RegisterUpdateHook(func(_ int, _ string, table string, rowid int64) {
		c.db.rowChanged(table, rowid, wc.countersOnly) // the hook runs inside wc's statement
	})
	return wc, nil
}

// Driver returns the SQLite driver.
func (writerConnector) Driver() driver.Driver { return &sqlite3.SQLiteDriver{} }

// writerConn is a writer connection that tells the catalog when a write has committed (or
// rolled back): at the end of each transaction, and after a statement run outside one.
type writerConn struct {
	*sqlite3.SQLiteConn
	db           *DB
	countersOnly bool // the statement running changes only ticket types' sold and held counters
}

// BeginTx begins a transaction whose end the catalog hears of.
func (c *writerConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.SQLiteConn.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return writerTx{Tx: tx, db: c.db}, nil
}

// Begin begins a transaction whose end the catalog hears of.
func (c *writerConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// ExecContext runs a statement; outside a transaction, it has committed when it returns.
func (c *writerConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.countersOnly = countersOnly(query)
	res, err := c.SQLiteConn.ExecContext(ctx, query, args)
	c.countersOnly = false
	if c.AutoCommit() && c.db.catalog != nil {
		c.db.catalog.ended()
	}
	return res, err
}

// writerTx is a writer transaction that tells the catalog when it ends.
type writerTx struct {
	driver.Tx
	db *DB
}

// Commit commits, then tells the catalog.
func (t writerTx) Commit() error {
	err := t.Tx.Commit()
	if t.db.catalog != nil {
		t.db.catalog.ended()
	}
	return err
}

// Rollback rolls back, then tells the catalog.
func (t writerTx) Rollback() error {
	err := t.Tx.Rollback()
	if t.db.catalog != nil {
		t.db.catalog.ended()
	}
	return err
}
