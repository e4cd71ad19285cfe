package store

import (
	"context"
	"database/sql"
	"time"
)

// TryLease takes or renews the lease of the periodic job name for holder until now+ttl, and
// reports whether holder has it: a job's lease is held by one server at a time, and passes to
// another only once it has run out (its holder stopped renewing it: it died or lost the
// database). A conditional upsert, the same on SQLite and PostgreSQL, with no lock held
// between runs and no advisory lock (distributed PostgreSQL-compatible engines lack them).
func (db *DB) TryLease(ctx context.Context, name, holder string, now time.Time, ttl time.Duration) (_ bool, err error) {
	defer wrapErr(&err, "store: TryLease(%q)", name)

	var held bool
	err = db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO job_leases (name, holder, expires_at) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
			WHERE job_leases.holder = excluded.holder OR job_leases.expires_at <= ?`,
			name, holder, formatTime(now.Add(ttl)), formatTime(now))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		held = n == 1
		return err
	})
	return held, err
}
