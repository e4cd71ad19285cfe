// Package store implements Palaro's domain services on SQLite (the default) or PostgreSQL.
//
// # Writing
//
// There is one way to write: write (store/writer.go) runs a function as one unit of the batching
// writer and returns its value once the batch that holds it is committed; db.inWrite is the same
// for a unit without a value. A unit uses only the ctx and tx it is given, never commits or rolls
// back, never calls write itself (a unit that needs another write's work calls that write's
// tx-taking inner function) and does nothing slow. The exceptions, each for its reason:
//   - DB.Write is inWrite exported, for adapters that keep their own tables in the same database
//     (the payment sandbox's sessions); it is still a unit of the writer.
//   - SeedDemo takes a transaction of its own (beginWrite): a one-off load of thousands of rows
//     before any request is served, with nothing to batch it with; as a unit it would hold up
//     every unit queued behind it.
//   - CopyData copies one database into another in one read transaction on the source and one
//     write transaction on the destination: an offline tool that runs with no writer serving.
//   - Tests use beginWrite to hold a write transaction open; tests and tools such as the bench
//     (cmd/bench) use DB.Writer for statements of their own.
//
// # Reading
//
// Reads use the read pool (db.read) directly and never wait for the writer. A read takes a read
// transaction (beginRead) only when it runs several statements that must agree on one snapshot,
// such as a page that reads an event and then its ticket types, or counts and rows that must
// match; a single statement, or statements that need not agree, use db.read.
// A query that returns rows scans them with queryRows (store/query.go).
package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"time"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"palaro"
)

//go:embed migrations/*.sql migrations_postgres/*.sql
var migrationFiles embed.FS

// timeFormat is how every timestamp is stored: UTC, second precision, sortable as text.
const timeFormat = "2006-01-02T15:04:05Z"

// DB is the database: one writer connection (immediate transactions on SQLite), plus a read pool.
type DB struct {
	path string
	// postgres is set when the database is PostgreSQL rather than a SQLite file.
	postgres bool
	write    *sql.DB
	read     *sql.DB
	// writer batches the units of work of inWrite into group commits on the write connection.
	writer *writer
	// wal is the SQLite write-ahead log the writer's syncer fsyncs; nil on PostgreSQL and in memory.
	wal *walFile
	// checkpoints copies the SQLite write-ahead log into the database file beside the writer;
	// nil on PostgreSQL and in memory.
	checkpoints *checkpointer
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
	// dateOff ends the offers of a cancelled or postponed date's waiting lists (set by NewWaitlistService).
	dateOff func(ctx context.Context, tx *sql.Tx, ev *palaro.Event, date *palaro.EventDate, now time.Time) error
	// returnsComposer writes the e-mail of a returned ticket sold again (set by NewReturnsService).
	returnsComposer palaro.ReturnsComposer
}

// Open opens (creating if needed) the SQLite database at path, or the PostgreSQL database when
// path is a postgres:// or postgresql:// URL. Use ":memory:" only in tests that need a throwaway
// SQLite database; it is shared between the writer and readers.
func Open(path string) (*DB, error) {
	if IsPostgresURL(path) {
		return openPostgresDB(path)
	}
	// Every commit of the writer is fsynced before its callers are answered: an acknowledged
	// write survives a power cut, not only a process crash. The commit itself does not wait for
	// the disk (synchronous=NORMAL): the writer's syncer fsyncs the write-ahead log while the
	// writer runs the next batch (writer.go). SQLite still syncs the log before each checkpoint
	// copies it into the database. Readers never commit, so NORMAL costs them nothing.
	writeDSN, readDSN := dsn(path, "immediate", "NORMAL"), dsn(path, "deferred", "NORMAL")
	db := &DB{path: path, Now: time.Now, stock: newStockCounts(), catalog: newCatalog()}
	var syncWAL func() error
	if path != ":memory:" {
		db.wal = &walFile{path: path + "-wal"}
		syncWAL = db.wal.sync
		ck, err := newCheckpointer(readDSN)
		if err != nil {
			return nil, fmt.Errorf("open the checkpointer: %w", err)
		}
		db.checkpoints = ck
	}
	write := sql.OpenDB(writerConnector{dsn: writeDSN, db: db})
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	read, err := sql.Open("sqlite3", readDSN)
	if err != nil {
		write.Close()
		db.closeCheckpointer()
		return nil, fmt.Errorf("open readers: %w", err)
	}
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	db.write, db.read = write, read
	if err := write.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.writer = newWriter(write, db.stock, syncWAL, db.checkpoints)
	return db, nil
}

// openPostgresDB opens the PostgreSQL database at url with the same shape as SQLite's: one writer
// connection for the batching writer and a read pool.
func openPostgresDB(url string) (*DB, error) {
	// No tickets-left counts in memory: other servers write too. The event catalog is dropped by
	// this server's writes (seen by the writer pool) and by the change feed (ChangedElsewhere).
	db := &DB{path: url, postgres: true, Now: time.Now, catalog: newCatalog()}
	write, err := openPostgres(url, &writeHooks{changed: func(table string) { db.rowChanged(table, 0, false) },
		ended: db.catalog.ended})
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	read, err := openPostgres(url, nil)
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(8)
	db.write, db.read = write, read
	if err := write.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	db.writer = newWriter(write, nil, nil, nil) // each commit is flushed by the server (synchronous_commit)
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
	if db.wal != nil {
		db.wal.close() // the syncer ended with the writer
	}
	db.closeCheckpointer()
	err1 := db.read.Close()
	err2 := db.write.Close()
	if err1 != nil {
		return err1
	}
	return err2
}

// closeCheckpointer stops the checkpointer, if any, once nothing more commits.
func (db *DB) closeCheckpointer() {
	if db.checkpoints != nil {
		db.checkpoints.close()
		db.checkpoints = nil
	}
}

// Writer returns the single writer connection pool, for tools (such as the bench) that write
// the database directly; the app's adapters write through Write.
func (db *DB) Writer() *sql.DB { return db.write }

// Write runs fn as one unit of work of the batching writer and returns its error once the batch
// that holds it is committed, for adapters (such as the payment sandbox) that keep their own
// tables in the same database. fn uses only the ctx and tx it is given, never commits or rolls
// back, never calls Write and does nothing slow (see write).
func (db *DB) Write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	return db.inWrite(ctx, fn)
}

// Reader returns the read pool, for the same adapters' reads.
func (db *DB) Reader() *sql.DB { return db.read }

// Migrate applies every embedded migration that has not been applied yet, then gives seated
// ticket types without seats their generated seat layout.
// Migrations of different areas use separate version ranges, so out-of-order ones are allowed.
// On PostgreSQL the migrations are those of migrations_postgres (same numbers, PostgreSQL form),
// run under goose's advisory lock so that servers starting together migrate once; the Go
// migrations edit SQLite's schema and have no PostgreSQL form (the baseline has their result).
func (db *DB) Migrate(ctx context.Context) error {
	conn, dir, dialect, opts := db.write, "migrations", goose.DialectSQLite3, []goose.ProviderOption{goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(sqliteGoMigrations...)}
	if db.postgres {
		// goose keeps booleans in its own table: it gets a connection without the store's rebinding.
		plain, err := openPostgresPlain(db.path)
		if err != nil {
			return err
		}
		defer plain.Close()
		conn = plain
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		dir, dialect, opts = "migrations_postgres", goose.DialectPostgres, []goose.ProviderOption{goose.WithAllowOutofOrder(true),
			goose.WithSessionLocker(locker)}
	}
	sub, err := fs.Sub(migrationFiles, dir)
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(dialect, conn, sub, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// Servers that start together each run this step: as a unit of the writer, one that loses a
	// deadlock to another on PostgreSQL runs again.
	return db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := ensureSeatLayouts(ctx, tx); err != nil {
			return fmt.Errorf("seat layouts: %w", err)
		}
		return nil
	})
}

// beginWrite starts a write transaction of its own (BEGIN IMMEDIATE on the single writer
// connection), outside the batching writer. Only SeedDemo (an offline, one-off load) and tests
// that must hold a transaction open use it; every request and job writes through write.
func (db *DB) beginWrite(ctx context.Context) (*sql.Tx, error) {
	return db.write.BeginTx(ctx, nil)
}

// beginRead starts a read-only transaction on the read pool, for a read of several statements
// that must agree on one snapshot (see the package comment).
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
