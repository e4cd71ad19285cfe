package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"

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
	gen     uint64             // bumped by every drop, so a reload older than a drop is not published
	left    map[int64]int      // ticket type id → tickets left, as committed
	touched map[int64]struct{} // ticket types dropped since the writer last reloaded them
}

func newStockCounts() *stockCounts {
	return &stockCounts{left: map[int64]int{}, touched: map[int64]struct{}{}}
}

// remaining returns the tickets left of a ticket type, when known.
func (s *stockCounts) remaining(ticketTypeID int64) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.left[ticketTypeID]
	return n, ok
}

// drop forgets a ticket type's count (its row is changing) until the writer reloads it.
func (s *stockCounts) drop(ticketTypeID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.left, ticketTypeID)
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
	values := make(map[int64]int, len(ids))
	rows, err := tx.QueryContext(ctx, `SELECT id, capacity - sold - held FROM ticket_types WHERE id IN (?`+
		strings.Repeat(", ?", len(ids)-1)+`)`, ids...)
	if err != nil {
		again()
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var left int
		if err := rows.Scan(&id, &left); err != nil {
			again()
			return nil, err
		}
		values[id] = max(left, 0)
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
		for id, left := range values {
			s.left[id] = left
		}
	}, nil
}

// catalogTTL bounds how long an event read for purchases is reused, for the rare change the
// update hook cannot see in time (another process, or a read racing the change's commit).
const catalogTTL = time.Second

// catalog keeps the events (with their add-ons) that purchases read, by event id, until one of
// the tables they come from changes on the writer connection (rowChanged) or catalogTTL passes.
type catalog struct {
	mu     sync.Mutex
	gen    uint64
	events map[int64]catalogEntry
}

type catalogEntry struct {
	ev     *palaro.Event
	loaded time.Time
}

// maxCatalogEvents bounds the catalog; it starts again empty when full.
const maxCatalogEvents = 1000

func newCatalog() *catalog { return &catalog{events: map[int64]catalogEntry{}} }

// event returns a copy of the event with the given id, from memory or loaded by load.
func (c *catalog) event(id int64, load func() (*palaro.Event, error)) (*palaro.Event, error) {
	c.mu.Lock()
	e, ok := c.events[id]
	gen := c.gen
	c.mu.Unlock()
	if !ok || time.Since(e.loaded) >= catalogTTL {
		started := time.Now()
		ev, err := load()
		if err != nil {
			return nil, err
		}
		e = catalogEntry{ev: ev, loaded: started}
		c.mu.Lock()
		if c.gen == gen { // nothing changed while it loaded
			if len(c.events) >= maxCatalogEvents {
				clear(c.events)
			}
			c.events[id] = e
		}
		c.mu.Unlock()
	}
	ev := *e.ev // callers own their copy; the slices inside are shared and never modified
	return &ev, nil
}

// changed forgets every event.
func (c *catalog) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.events)
}

// rowChanged is the writer connection's update hook: SQLite calls it for every row inserted,
// updated or deleted there, before the change commits.
func (db *DB) rowChanged(_ int, _ string, table string, rowid int64) {
	switch table {
	case "ticket_types":
		if db.stock != nil {
			db.stock.drop(rowid)
		}
	case "events", "venues", "organizers", "add_ons":
		db.catalog.changed()
	}
}

// writerConnector opens the writer's connections with rowChanged installed on each, so that a
// connection the pool opens again still reports its changes.
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
	conn.(*sqlite3.SQLiteConn).RegisterUpdateHook(c.db.rowChanged)
	return conn, nil
}

// Driver returns the SQLite driver.
func (writerConnector) Driver() driver.Driver { return &sqlite3.SQLiteDriver{} }
