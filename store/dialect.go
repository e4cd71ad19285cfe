package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/mattn/go-sqlite3"
)

// This file is the one place where SQLite and PostgreSQL differ for the store. The queries are
// written once, in the SQL both engines accept: `?` placeholders, `RETURNING id`, `ON CONFLICT`
// upserts, lower() for case-insensitive comparisons, times as TEXT computed in Go, booleans as
// INTEGER 0/1. On PostgreSQL every statement goes through rebind, which numbers the placeholders
// ($1, $2, …) and turns the forUpdate marker into a row lock; SQLite reads the marker as a comment
// and needs no lock, since it has a single writer.

// forUpdate is appended to a SELECT inside a write transaction whose rows are then changed on
// the strength of what was read: PostgreSQL locks the rows (FOR UPDATE), SQLite ignores it.
const forUpdate = " /*FOR UPDATE*/"

// forUpdateSkipLocked is appended to a SELECT that claims rows of a queue (the outbox) while other
// servers claim from it too: PostgreSQL locks the rows it returns and skips those another
// transaction has locked (FOR UPDATE SKIP LOCKED), so claimers do not wait for each other; SQLite
// ignores it. The claim itself stays a conditional UPDATE, which alone decides who has a row.
const forUpdateSkipLocked = " /*FOR UPDATE SKIP LOCKED*/"

// IsPostgresURL reports whether PALARO_DB names a PostgreSQL database rather than a SQLite file.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// DisplayName is PALARO_DB as it may be logged: a PostgreSQL URL without its password.
func DisplayName(db string) string {
	if !IsPostgresURL(db) {
		return db
	}
	u, err := url.Parse(db)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}

// writeHooks hear the writes of a pool: PostgreSQL's stand-in for the update hook and transaction
// ends that SQLite's writer connection reports (rowChanged, writerConn).
type writeHooks struct {
	changed func(table string) // the table of each INSERT, UPDATE or DELETE, before it commits
	ended   func()             // a transaction, or a statement outside one, ended
}

// openPostgres opens a connection pool to the PostgreSQL database at url, every statement of
// which is rebound from the store's SQL; hooks, when set, hear its writes.
func openPostgres(url string, hooks *writeHooks) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(rebindConnector{Connector: stdlib.GetConnector(*cfg), hooks: hooks}), nil
}

// writtenTable matches the table a data-changing statement writes to.
var writtenTable = regexp.MustCompile(`(?is)^\s*(?:insert\s+into|update|delete\s+from)\s+([a-z_]+)`)

// openPostgresPlain opens a connection pool to url with pgx as it is, for goose.
func openPostgresPlain(url string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	return stdlib.OpenDB(*cfg), nil
}

// rebind turns the store's SQL into PostgreSQL's: `?` placeholders outside quotes and comments
// become $1, $2, …, and the forUpdate and forUpdateSkipLocked markers become their clauses.
func rebind(query string) string {
	if !strings.ContainsAny(query, "?/") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		case c == '\'' || c == '"': // a string or quoted name, doubled quotes included
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+2])
			i += end + 1
			continue
		case c == '-' && strings.HasPrefix(query[i:], "--"):
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				end = len(query) - i
			}
			b.WriteString(query[i : i+end])
			i += end - 1
			continue
		case c == '/' && strings.HasPrefix(query[i:], "/*"):
			end := strings.Index(query[i:], "*/")
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			switch comment := query[i : i+end+2]; comment {
			case strings.TrimSpace(forUpdate):
				b.WriteString("FOR UPDATE")
			case strings.TrimSpace(forUpdateSkipLocked):
				b.WriteString("FOR UPDATE SKIP LOCKED")
			default:
				b.WriteString(comment)
			}
			i += end + 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isUniqueViolation reports whether err is a UNIQUE or PRIMARY KEY constraint failure.
func isUniqueViolation(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// isRetryable reports whether err is a PostgreSQL serialization failure or deadlock: the
// transaction lost a race and running it again is safe and right.
func isRetryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// rebindConnector opens pgx connections that rebind every statement.
type rebindConnector struct {
	driver.Connector
	hooks *writeHooks
}

func (c rebindConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rebindConn{Conn: conn.(*stdlib.Conn), hooks: c.hooks}, nil
}

// rebindConn is a pgx connection whose statements are rebound; everything else is pgx's.
type rebindConn struct {
	*stdlib.Conn
	hooks *writeHooks
	inTx  bool
}

// wrote tells the hooks which table query writes to, if it writes.
func (c *rebindConn) wrote(query string) {
	if c.hooks == nil {
		return
	}
	if m := writtenTable.FindStringSubmatch(query); m != nil {
		c.hooks.changed(strings.ToLower(m[1]))
	}
}

// done tells the hooks that a statement run outside a transaction has ended.
func (c *rebindConn) done() {
	if c.hooks != nil && !c.inTx {
		c.hooks.ended()
	}
}

func (c *rebindConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(rebind(query))
}

func (c *rebindConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(query))
}

func (c *rebindConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.wrote(query)
	defer c.done()
	return c.Conn.ExecContext(ctx, rebind(query), args)
}

func (c *rebindConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.wrote(query) // INSERT … RETURNING
	defer c.done()
	return c.Conn.QueryContext(ctx, rebind(query), args)
}

// BeginTx begins a transaction whose end the hooks hear of.
func (c *rebindConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil || c.hooks == nil {
		return tx, err
	}
	c.inTx = true
	return hookedTx{Tx: tx, conn: c}, nil
}

// Begin begins a transaction whose end the hooks hear of.
func (c *rebindConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// hookedTx is a transaction that tells its connection's hooks when it ends.
type hookedTx struct {
	driver.Tx
	conn *rebindConn
}

func (t hookedTx) Commit() error {
	defer t.end()
	return t.Tx.Commit()
}

func (t hookedTx) Rollback() error {
	defer t.end()
	return t.Tx.Rollback()
}

func (t hookedTx) end() {
	t.conn.inTx = false
	t.conn.hooks.ended()
}

// lockRow locks the row of table with id until the transaction ends, on PostgreSQL, for a unit that
// reads rows and then writes on the strength of what it read; SQLite's single writer needs none.
func (db *DB) lockRow(ctx context.Context, tx *sql.Tx, table string, id int64) error {
	if !db.postgres {
		return nil
	}
	var got int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM `+table+` WHERE id = ?`+forUpdate, id).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // gone: the unit's own statements say so
	}
	return err
}

// syncIDSequences moves PostgreSQL's identity sequences past the ids in their tables, after rows
// were inserted with ids of their own (the demo data); SQLite takes the next id from the table.
func (db *DB) syncIDSequences(ctx context.Context, tx *sql.Tx) error {
	if !db.postgres {
		return nil
	}
	tables, err := queryStrings(ctx, tx, `SELECT table_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND column_name = 'id' AND is_identity = 'YES' ORDER BY table_name`)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', 'id'),
			(SELECT coalesce(max(id), 0) + 1 FROM `+t+`), false)`); err != nil {
			return fmt.Errorf("sequence of %s: %w", t, err)
		}
	}
	return nil
}

// insertID runs an INSERT and returns the id of the row it added (RETURNING id, on both engines).
func insertID(ctx context.Context, q queryRower, insert string, args ...any) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, insert+" RETURNING id", args...).Scan(&id)
	return id, err
}

// manilaDate is the SQL for the Manila date (YYYY-MM-DD) of a stored UTC time column: Manila is
// UTC+8 without daylight saving, so the time shifted by 8 hours falls on its Manila date.
func (db *DB) manilaDate(column string) string {
	if db.postgres {
		return "to_char(CAST(" + column + " AS timestamp) + interval '8 hours', 'YYYY-MM-DD')"
	}
	return "date(" + column + ", '+8 hours')"
}

// CheckNamedValue stores a Go bool as 1 or 0, as SQLite's driver does: the store keeps booleans
// in integer columns on both engines.
func (c *rebindConn) CheckNamedValue(nv *driver.NamedValue) error {
	if v := reflect.ValueOf(nv.Value); v.Kind() == reflect.Bool {
		nv.Value = int64(0)
		if v.Bool() {
			nv.Value = int64(1)
		}
		return nil
	}
	return c.Conn.CheckNamedValue(nv)
}
