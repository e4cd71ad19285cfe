package store

import "log/slog"

// ChangeFeed carries "public event data changed" between the app servers of one database, so that
// a change made through one server drops the cached event reads and pages of every other server.
// The server that made the change drops its own caches itself, at once; the feed is for the others.
type ChangeFeed interface {
	// Publish tells the other servers that event data changed. It does not block: announcements
	// made while one is being sent are merged into the next one.
	Publish()
	// Subscribe registers fn, called whenever another server announces a change and whenever
	// announcements may have been missed (the feed lost its connection and got it back).
	Subscribe(fn func())
	// Close stops the feed.
	Close() error
}

// LocalChangeFeed is the feed of a single server (SQLite): there is nobody else to tell, so Publish
// does nothing and subscribers are never called.
type LocalChangeFeed struct{}

var _ ChangeFeed = LocalChangeFeed{}

// Publish does nothing: the server that made the change has dropped its caches already.
func (LocalChangeFeed) Publish() {}

// Subscribe does nothing: no other server writes to a SQLite database.
func (LocalChangeFeed) Subscribe(func()) {}

// Close does nothing.
func (LocalChangeFeed) Close() error { return nil }

// NewChangeFeed returns the change feed of the database PALARO_DB names: LISTEN/NOTIFY between
// the servers of a PostgreSQL database, nothing for a SQLite file (one server).
func NewChangeFeed(dbPath string, logger *slog.Logger) ChangeFeed {
	if IsPostgresURL(dbPath) {
		return NewPostgresChangeFeed(dbPath, logger)
	}
	return LocalChangeFeed{}
}

// ChangedElsewhere drops what the store keeps in memory about events (the catalog purchases read
// prices and add-ons from), after another app server announced a change on the change feed.
func (db *DB) ChangedElsewhere() {
	if db.catalog != nil {
		db.catalog.changed(false)
	}
}
