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
		return replaceOrdersCheck(ctx, tx, orderStatusCheck, orderStatusCheckRefunded)
	}},
	&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'refund' WHERE status = 'refunded'`); err != nil {
			return err
		}
		return replaceOrdersCheck(ctx, tx, orderStatusCheckRefunded, orderStatusCheck)
	}})

const (
	orderStatusCheck         = `CHECK (status IN ('pending', 'paid', 'expired', 'refund'))`
	orderStatusCheckRefunded = `CHECK (status IN ('pending', 'paid', 'expired', 'refund', 'refunded'))`
)

// replaceOrdersCheck replaces the text from with to in the schema of the orders table.
func replaceOrdersCheck(ctx context.Context, tx *sql.Tx, from, to string) error {
	var schema string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'orders'`).Scan(&schema); err != nil {
		return err
	}
	if strings.Count(schema, from) != 1 {
		return fmt.Errorf("orders schema: expected %q once", from)
	}
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA schema_version`).Scan(&version); err != nil {
		return err
	}
	for _, q := range []string{`PRAGMA writable_schema = ON`,
		`UPDATE sqlite_master SET sql = '` + strings.ReplaceAll(strings.Replace(schema, from, to, 1), `'`, `''`) + `' WHERE type = 'table' AND name = 'orders'`,
		fmt.Sprintf(`PRAGMA schema_version = %d`, version+1), `PRAGMA writable_schema = OFF`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
