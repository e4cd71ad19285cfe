package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"palaro"
)

// maxGateDelta is how many changed tickets a delta carries at most; beyond it the phone gets the
// whole list again.
const maxGateDelta = 2000

// GateChangesKept is how long the gate's changes are kept: a phone whose list is older than that
// gets the whole list again instead of a delta.
const GateChangesKept = 6 * time.Hour

// gateVersionSQL reads the gate list's version: the largest gate_changes id on SQLite (one writer
// at a time: ids are taken in commit order, and a read sees every id up to its snapshot's
// largest); on PostgreSQL the xmin of the statement's snapshot (every transaction below it had
// ended, so every change a list read in that snapshot could not see has an xid at least this).
func (db *DB) gateVersionSQL() string {
	if db.postgres {
		return `SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint`
	}
	return `SELECT COALESCE(MAX(id), 0) FROM gate_changes`
}

// gateAfter is the condition "gate_changes row c came after version ?" (see gateVersionSQL): its
// id is larger on SQLite; on PostgreSQL its transaction had not ended when the version was read.
// A PostgreSQL delta may repeat a change the list already had (a transaction that committed
// between the version and the list); a phone puts the same ticket in place twice.
func (db *DB) gateAfter() string {
	if db.postgres {
		return `c.xid >= ?`
	}
	return `c.id > ?`
}

// GateChanges returns the event's gate list, collecting the tickets (see StreamGateChanges).
func (s *CheckInService) GateChanges(ctx context.Context, eventID, since int64) (*palaro.GateChanges, error) {
	var tickets []palaro.GateTicket
	out, err := s.StreamGateChanges(ctx, eventID, since, func(t palaro.GateTicket) error {
		tickets = append(tickets, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Tickets = append([]palaro.GateTicket{}, tickets...)
	return out, nil
}

// StreamGateChanges reads the event's gate list in one read transaction and hands each ticket to
// each as it is read, so that no list is ever held in memory: the whole list when since is
// negative, older than the oldest version kept (PruneGateChanges), never given, or when too much
// changed; else the tickets changed after version since, and the codes transfers replaced. The
// version is read first, so a change that lands meanwhile is in the list and again in the next
// delta. The answer's Tickets is empty; Voided holds the replaced codes.
func (s *CheckInService) StreamGateChanges(ctx context.Context, eventID, since int64, each func(palaro.GateTicket) error) (_ *palaro.GateChanges, err error) {
	defer wrapErr(&err, "store: GateChanges(%d)", eventID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	out := &palaro.GateChanges{Voided: []string{}}
	if err := tx.QueryRowContext(ctx, s.db.gateVersionSQL()).Scan(&out.Version); err != nil {
		return nil, err
	}
	if since > out.Version {
		since = -1 // a version this database never gave (restored from a backup): start again
	}
	if since >= 0 {
		var horizon int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MIN(version), 0) FROM gate_change_marks`).Scan(&horizon); err != nil {
			return nil, err
		}
		if since < horizon {
			since = -1 // its changes are pruned
		}
	}
	if since >= 0 {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(DISTINCT c.ticket_id) FROM gate_changes c WHERE c.event_id = ? AND `+s.db.gateAfter(),
			eventID, since).Scan(&n); err != nil {
			return nil, err
		}
		if n > maxGateDelta {
			since = -1
		}
	}
	out.Since, out.Delta = since, since >= 0
	query, args := `SELECT `+gateTicketColumns+` WHERE t.event_id = ? ORDER BY t.id`, []any{eventID}
	if out.Delta {
		// driven by the changes (their index), not by the event's tickets: a delta's cost follows
		// what changed, not the event's size
		query = `SELECT ` + gateTicketColumns + ` WHERE t.id IN (SELECT c.ticket_id FROM gate_changes c
			WHERE c.event_id = ? AND ` + s.db.gateAfter() + `) ORDER BY t.id`
		args = []any{eventID, since}
	}
	if err := eachGateTicket(ctx, tx, query, args, each); err != nil {
		return nil, err
	}
	if !out.Delta {
		return out, nil
	}
	out.Voided, err = queryRows(ctx, tx, `SELECT DISTINCT c.old_code FROM gate_changes c WHERE c.event_id = ? AND `+s.db.gateAfter()+`
		AND c.old_code IS NOT NULL`, []any{eventID, since}, func(r rowScanner) (code string, err error) {
		err = r.Scan(&code)
		return code, err
	})
	if out.Voided == nil {
		out.Voided = []string{}
	}
	return out, err
}

// eachGateTicket hands each ticket the query reads to fn, one row at a time.
func eachGateTicket(ctx context.Context, tx *sql.Tx, query string, args []any, fn func(palaro.GateTicket) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		_, _, t, err := scanGateTicket(rows)
		if err != nil {
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return rows.Err()
}

// PruneGateChanges keeps gate_changes from growing for ever: it marks the list's current version
// with now, then deletes the changes before the newest mark at least keep old (GateChangesKept
// in the job loop) and the marks before that one. A phone whose version is older than the oldest
// mark left gets the whole list (StreamGateChanges), so no delta misses a pruned change. On
// SQLite the row with the largest id is never deleted, so ids (and versions) keep growing. It
// returns how many changes it deleted.
func (db *DB) PruneGateChanges(ctx context.Context, now time.Time, keep time.Duration) (_ int64, err error) {
	defer wrapErr(&err, "store: PruneGateChanges")

	return write(ctx, db, func(ctx context.Context, tx *sql.Tx) (int64, error) {
		var version int64
		if err := tx.QueryRowContext(ctx, db.gateVersionSQL()).Scan(&version); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO gate_change_marks (version, at) VALUES (?, ?)`, version, formatTime(now)); err != nil {
			return 0, err
		}
		var horizon sql.NullInt64
		var at sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT version, at FROM gate_change_marks WHERE at <= ? ORDER BY at DESC, version DESC LIMIT 1`,
			formatTime(now.Add(-keep))).Scan(&horizon, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		} else if err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM gate_change_marks WHERE at < ? OR (at = ? AND version < ?)`,
			at.String, at.String, horizon.Int64); err != nil {
			return 0, err
		}
		cursor, keepTop := "id < ?", ` AND id < (SELECT MAX(id) FROM gate_changes)`
		if db.postgres {
			cursor, keepTop = "xid < ?", ""
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM gate_changes WHERE `+cursor+keepTop, horizon.Int64)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
}

// IssueGateTickets issues n paid tickets of a new free ticket type typeCode ("Gate test") of the
// event in one write, many rows per INSERT, and returns their codes (typeCode's first letters, the
// type's id, X and a number): the many-ticket fixture of the gate's tests and of the bench, not a way to sell.
func (db *DB) IssueGateTickets(ctx context.Context, eventCode, typeCode string, n int, now time.Time) (_ []string, err error) {
	defer wrapErr(&err, "store: IssueGateTickets(%s)", eventCode)

	prefix := strings.ToUpper(typeCode[:min(len(typeCode), 4)])
	return write(ctx, db, func(ctx context.Context, tx *sql.Tx) ([]string, error) {
		var eventID int64
		if err := tx.QueryRowContext(ctx, `SELECT id FROM events WHERE code = ?`, eventCode).Scan(&eventID); err != nil {
			return nil, err
		}
		at := formatTime(now)
		typeID, err := insertID(ctx, tx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, sold)
			VALUES (?, ?, 'Gate test', 0, 1, ?, ?)`, eventID, typeCode, n, n)
		if err != nil {
			return nil, err
		}
		orderID, err := insertID(ctx, tx, `INSERT INTO orders (public_id, event_id, ticket_type_id, quantity, email, unit_price, total,
			status, paid_at, created_at) VALUES (?, ?, ?, ?, 'gate-test@palaro.test', 0, 0, 'paid', ?, ?)`, newPublicID(), eventID, typeID, n, at, at)
		if err != nil {
			return nil, err
		}
		codes := make([]string, n)
		const perInsert = 500
		for start := 0; start < n; start += perInsert {
			rows := min(perInsert, n-start)
			args := make([]any, 0, rows*7)
			for i := start; i < start+rows; i++ {
				codes[i] = fmt.Sprintf("%s%dX%06d", prefix, typeID, i)
				args = append(args, newPublicID(), codes[i], orderID, eventID, typeID, fmt.Sprintf("Holder %d", i), at)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, holder_name,
				email, created_at) VALUES `+valuesList(rows, `(?, ?, ?, ?, ?, ?, 'gate-test@palaro.test', ?)`), args...); err != nil {
				return nil, err
			}
		}
		return codes, nil
	})
}
