package store

import (
	"context"
	"database/sql"
	"strings"
)

// querier is what reads need: the read pool, a read transaction or a unit's write transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queryRows runs query on q and returns every row as scan reads it, in order; nil when there are
// none. It closes the rows before it returns.
func queryRows[T any](ctx context.Context, q querier, query string, args []any, scan func(rowScanner) (T, error)) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// queryStrings returns the first column of a query's rows.
func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	return queryRows(ctx, q, query, args, func(r rowScanner) (s string, err error) {
		err = r.Scan(&s)
		return s, err
	})
}

type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// placeholders returns n comma-separated placeholders, for an IN list.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// pendingFailed counts the rows of table (a constant: outbox, webhook_deliveries, refunds) whose
// status is 'pending' and 'failed', for the metrics.
func pendingFailed(ctx context.Context, q querier, table string) (pending, failed int, err error) {
	err = q.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM `+table+` WHERE status = 'pending'),
		(SELECT COUNT(*) FROM `+table+` WHERE status = 'failed')`).Scan(&pending, &failed)
	return pending, failed, err
}
