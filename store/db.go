// Package store implements Palaro's domain services on SQLite.
package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/pressly/goose/v3"

	"palaro"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// timeFormat is how every timestamp is stored: UTC, second precision, sortable as text.
const timeFormat = "2006-01-02T15:04:05Z"

// DB is the SQLite database: one writer connection with immediate transactions, plus a read pool.
type DB struct {
	path  string
	write *sql.DB
	read  *sql.DB
	// writer batches the units of work of inWrite into group commits on the write connection.
	writer *writer
	// stock is the tickets left of each ticket type, kept by the writer, that answers sold-out
	// buyers at once; nil turns it off (a store where other servers write too, such as
	// PostgreSQL, cannot keep it exact in one process).
	stock *stockCounts
	// catalog keeps the purchase path's ticket type lookups until they change; nil reads each
	// time (as a store with several writing servers must).
	catalog *catalog
	// composer writes order e-mails when the outbox sends them (set by NewPurchaseService).
	composer palaro.Composer
	// Now returns the current time; tests replace it.
	Now func() time.Time
	// returned offers tickets given back to the waiting lists (set by NewWaitlistService).
	returned func(ctx context.Context, tx *sql.Tx, now time.Time) error
}

// Open opens (creating if needed) the SQLite database at path. Use ":memory:" only in tests
// that need a throwaway database; it is shared between the writer and readers.
func Open(path string) (*DB, error) {
	// The writer fsyncs every commit (synchronous=FULL): an acknowledged write survives a power
	// cut, not only a process crash. Readers never commit, so NORMAL costs them nothing.
	writeDSN, readDSN := dsn(path, "immediate", "FULL"), dsn(path, "deferred", "NORMAL")
	db := &DB{path: path, Now: time.Now, stock: newStockCounts(), catalog: newCatalog()}
	write := sql.OpenDB(writerConnector{dsn: writeDSN, db: db})
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	read, err := sql.Open("sqlite3", readDSN)
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open readers: %w", err)
	}
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	db.write, db.read = write, read
	if err := write.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.writer = newWriter(write, db.stock)
	return db, nil
}

func dsn(path, txlock, synchronous string) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "10000")
	q.Set("_synchronous", synchronous)
	q.Set("_txlock", txlock)
	q.Set("_stmt_cache_size", "128") // prepared statements kept per connection: the same SQL is not compiled again
	if path == ":memory:" {
		q.Set("cache", "shared")
		q.Set("mode", "memory")
		return "file:palaro-memory?" + q.Encode()
	}
	return "file:" + path + "?" + q.Encode()
}

// Close lets the writer commit the work already queued, then closes both connection pools.
func (db *DB) Close() error {
	if db.writer != nil {
		db.writer.close()
	}
	err1 := db.read.Close()
	err2 := db.write.Close()
	if err1 != nil {
		return err1
	}
	return err2
}

// Writer returns the single writer connection pool, for adapters (such as the payment sandbox)
// that keep their own tables in the same database.
func (db *DB) Writer() *sql.DB { return db.write }

// Migrate applies every embedded migration that has not been applied yet, then gives seated
// ticket types without seats their generated seat layout.
// Migrations of different areas use separate version ranges, so out-of-order ones are allowed.
func (db *DB) Migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db.write, sub, goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(migrationOrderRefunded))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	tx, err := db.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := ensureSeatLayouts(ctx, tx); err != nil {
		return fmt.Errorf("seat layouts: %w", err)
	}
	return tx.Commit()
}

// beginWrite starts a write transaction (BEGIN IMMEDIATE on the single writer connection).
func (db *DB) beginWrite(ctx context.Context) (*sql.Tx, error) {
	return db.write.BeginTx(ctx, nil)
}

// beginRead starts a read-only transaction on the read pool.
func (db *DB) beginRead(ctx context.Context) (*sql.Tx, error) {
	return db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
}

// formatTime renders t for storage.
func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

// parseTime reads a stored timestamp; an empty or NULL value is the zero time.
func parseTime(s sql.NullString) (time.Time, error) {
	if !s.Valid || s.String == "" {
		return time.Time{}, nil
	}
	return time.Parse(timeFormat, s.String)
}

// nullTime renders t for storage, with the zero time stored as NULL.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

// isUniqueViolation reports whether err is a SQLite UNIQUE or PRIMARY KEY constraint failure.
func isUniqueViolation(err error) bool {
	if e, ok := err.(sqlite3.Error); ok {
		return e.ExtendedCode == sqlite3.ErrConstraintUnique || e.ExtendedCode == sqlite3.ErrConstraintPrimaryKey
	}
	return false
}
