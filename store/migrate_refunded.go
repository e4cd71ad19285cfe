package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/pressly/goose/v3"
)

// Migration 00307 lets an order have the status 'refunded'. SQLite cannot alter a CHECK
// constraint, and rebuilding `orders` would cascade into the tables that reference it, so it
// edits the constraint's text in the schema, the procedure SQLite documents for changes that leave
// the stored rows valid (lang_altertable.html, "other kinds of table schema changes"), and bumps the
// schema version so every connection reads the new schema.
var migrationOrderRefunded = goose.NewGoMigration(307,
	&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		return replaceTableCheck(ctx, tx, "orders", orderStatusCheck, orderStatusCheckRefunded)
	}},
	&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'refund' WHERE status = 'refunded'`); err != nil {
			return err
		}
		return replaceTableCheck(ctx, tx, "orders", orderStatusCheckRefunded, orderStatusCheck)
	}})

// Migration 01600 lets a refund have the reason 'date_cancelled' (a cancelled date of a series),
// editing the CHECK of `refunds` as 00307 does that of `orders` (rebuilding `refunds` would
// cascade into refund_tickets, ticket_returns and invoices); PostgreSQL's form is
// migrations_postgres/01600_refund_date_reason.sql.
var migrationRefundDateReason = goose.NewGoMigration(1600,
	&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		return replaceTableCheck(ctx, tx, "refunds", refundReasonCheck, refundReasonCheckDate)
	}},
	&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE refunds SET reason = 'organizer' WHERE reason = 'date_cancelled'`); err != nil {
			return err
		}
		return replaceTableCheck(ctx, tx, "refunds", refundReasonCheckDate, refundReasonCheck)
	}})

// sqliteGoMigrations are the Go migrations of SQLite's schema, run with its SQL files.
var sqliteGoMigrations = []*goose.Migration{migrationOrderRefunded, migrationRefundDateReason}

const (
	refundReasonCheck        = `CHECK (reason IN ('organizer', 'event_cancelled', 'buyer_cancelled', 'returned'))`
	refundReasonCheckDate    = `CHECK (reason IN ('organizer', 'event_cancelled', 'buyer_cancelled', 'returned', 'date_cancelled'))`
	orderStatusCheck         = `CHECK (status IN ('pending', 'paid', 'expired', 'refund'))`
	orderStatusCheckRefunded = `CHECK (status IN ('pending', 'paid', 'expired', 'refund', 'refunded'))`
)

// replaceTableCheck replaces the text from with to in the schema of the table.
func replaceTableCheck(ctx context.Context, tx *sql.Tx, table, from, to string) error {
	var schema string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&schema); err != nil {
		return err
	}
	if strings.Count(schema, from) != 1 {
		return fmt.Errorf("%s schema: expected %q once", table, from)
	}
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return err
	}
	for _, q := range []string{`PRAGMA writable_schema = ON`,
		`UPDATE sqlite_master SET sql = '` + strings.ReplaceAll(strings.Replace(schema, from, to, 1), `'`, `''`) + `' WHERE type = 'table' AND name = '` + table + `'`,
		fmt.Sprintf(`PRAGMA schema_version = %d`, version+1), `PRAGMA writable_schema = OFF`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
