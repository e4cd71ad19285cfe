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
func (s *CheckInService) GateChanges(ctx context.Context, eventID int64, date string, since int64) (*palaro.GateChanges, error) {
	var tickets []palaro.GateTicket
	out, err := s.StreamGateChanges(ctx, eventID, date, since, func(t palaro.GateTicket) error {
		tickets = append(tickets, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Tickets = append([]palaro.GateTicket{}, tickets...)
	return out, nil
}

// StreamGateChanges reads the event's gate list in one read transaction and hands each ticket of
// a whole list to each as it is read, so that no whole list is ever held in memory (a delta, at
// most maxGateDelta tickets, is handed on once read, its read ended): the whole list when since is
// negative, older than the oldest version kept (PruneGateChanges), never given, or when too much
// changed; else the tickets changed after version since, and the codes transfers replaced. The
// version is read first, so a change that lands meanwhile is in the list and again in the next
// delta. The answer's Tickets is empty; Voided holds the replaced codes. For a series' date, each
// ticket is read in its state on that date (gateOnDate); the version and the changes are the
// event's, so a delta holds every ticket whose state changed on any date (a pass's dates too:
// migration 01650).
func (s *CheckInService) StreamGateChanges(ctx context.Context, eventID int64, date string, since int64, each func(palaro.GateTicket) error) (_ *palaro.GateChanges, err error) {
	defer wrapErr(&err, "store: GateChanges(%d, %q)", eventID, date)

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
	on, err := gateDateOf(ctx, tx, eventID, date)
	if err != nil {
		return nil, err
	}
	columns, args := gateTicketColumns, []any{}
	if on != nil {
		columns, args = gateOnDateColumns, []any{on.ID}
	}
	query, args := `SELECT `+columns+` WHERE t.event_id = ? ORDER BY t.id`, append(args, eventID)
	if out.Delta {
		// driven by the changes (their index), not by the event's tickets: a delta's cost follows
		// what changed, not the event's size
		query = `SELECT ` + columns + ` WHERE t.id IN (SELECT c.ticket_id FROM gate_changes c
			WHERE c.event_id = ? AND ` + s.db.gateAfter() + `) ORDER BY t.id`
		args = append(args, since)
	}
	if !out.Delta {
		return out, eachGateTicket(ctx, tx, query, args, on, each)
	}
	// A delta (maxGateDelta tickets at most) is read whole before it is handed on, so that its
	// read connection is free again before the answer goes out to a slow phone: 60 gates fetch
	// changes every 3 s, and scans and other reads share the pool.
	var tickets []palaro.GateTicket
	if err := eachGateTicket(ctx, tx, query, args, on, func(t palaro.GateTicket) error {
		tickets = append(tickets, t)
		return nil
	}); err != nil {
		return nil, err
	}
	out.Voided, err = queryRows(ctx, tx, `SELECT DISTINCT c.old_code FROM gate_changes c WHERE c.event_id = ? AND `+s.db.gateAfter()+`
		AND c.old_code IS NOT NULL`, []any{eventID, since}, func(r rowScanner) (code string, err error) {
		err = r.Scan(&code)
		return code, err
	})
	if err != nil {
		return nil, err
	}
	if out.Voided == nil {
		out.Voided = []string{}
	}
	_ = tx.Rollback() // a read: nothing to keep
	for _, t := range tickets {
		if err := each(t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// eachGateTicket hands each ticket the query reads to fn, one row at a time; on is the series
// date the query reads the tickets on (gateOnDateColumns), nil for none.
func eachGateTicket(ctx context.Context, tx *sql.Tx, query string, args []any, on *palaro.EventDate, fn func(palaro.GateTicket) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t palaro.GateTicket
		var err error
		if on != nil {
			t, err = scanGateTicketOn(rows, on.Slug)
		} else {
			_, _, t, err = scanGateTicket(rows)
		}
		if err != nil {
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return rows.Err()
}

// gateDateOf returns the series date named by slug for the gate list of an event: nil for ""
// or a single-date event (whose list has no dates), EINVALID for a slug the series does not have.
func gateDateOf(ctx context.Context, q querier, eventID int64, slug string) (*palaro.EventDate, error) {
	if slug == "" {
		return nil, nil
	}
	d, err := findDate(ctx, q, eventID, slug)
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		var dated int
		if err := q.QueryRowContext(ctx, `SELECT count(*) FROM event_dates WHERE event_id = ?`, eventID).Scan(&dated); err != nil {
			return nil, err
		}
		if dated == 0 {
			return nil, nil
		}
		return nil, dateFieldError(palaro.MsgDateUnknown)
	}
	return d, err
}

// gateOnDateColumns read a ticket for the gate on one date of its series (the first ? is the
// date's id): gateTicketColumns, then the day ticket's date, the pass's kind and number of dates,
// its pass_uses row on the date (taken, checked in at, gate, seat), how many dates it took and the
// dates it was admitted on, by start.
const gateOnDateColumns = `t.id, t.event_id, t.code, t.holder_name, ` + gateTypeName + `, t.seat,
	CASE WHEN o.status = 'paid' THEN t.status ELSE 'cancelled' END, t.checked_in_at, t.checked_in_gate,
	t.discount_type, t.discount_holder, t.discount_id_number,
	coalesce(td.slug, ''), tt.pass_kind, tt.pass_dates, CASE WHEN u.ticket_id IS NULL THEN 0 ELSE 1 END, u.checked_in_at,
	coalesce(u.gate, ''), coalesce(u.seat, ''),
	CASE WHEN tt.pass_kind = '' THEN 0 ELSE (SELECT count(*) FROM pass_uses x WHERE x.ticket_id = t.id) END,
	CASE WHEN tt.pass_kind = '' THEN '' ELSE coalesce((SELECT string_agg(xd.slug, ',' ORDER BY xd.starts_at, xd.id)
		FROM pass_uses x JOIN event_dates xd ON xd.id = x.date_id WHERE x.ticket_id = t.id AND x.checked_in_at IS NOT NULL), '') END
	FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id JOIN orders o ON o.id = t.order_id
	LEFT JOIN pass_uses u ON u.ticket_id = t.id AND u.date_id = ?
	LEFT JOIN event_dates td ON td.id = t.date_id`

// scanGateTicketOn reads a ticket of gateOnDateColumns in its state on the date slug: a day
// ticket of another date is palaro.GateWrongDate (Date naming its own); a pass is checked in or
// valid there by its pass_uses row (Date the list's date, UsedDates its admissions), or
// palaro.GateUsedUp when it holds no place there and cannot take one. Cancelled stays cancelled.
func scanGateTicketOn(r rowScanner, slug string) (t palaro.GateTicket, err error) {
	var at, useAt sql.NullString
	var idNumber, kind, useGate, useSeat, used string
	var passDates, taken, uses int
	if err = r.Scan(new(int64), new(int64), &t.Code, &t.HolderName, &t.TicketType, &t.Seat, &t.Status, &at, &t.Gate,
		&t.Discount, &t.DiscountHolder, &idNumber, &t.Date, &kind, &passDates, &taken, &useAt, &useGate, &useSeat, &uses, &used); err != nil {
		return
	}
	t.DiscountID = palaro.MaskIDNumber(idNumber)
	if t.CheckedInAt, err = parseTime(at); err != nil {
		return
	}
	if kind == "" {
		if t.Date != "" && t.Date != slug && t.Status != palaro.TicketCancelled {
			t.Status, t.CheckedInAt, t.Gate = palaro.GateWrongDate, time.Time{}, ""
		}
		return
	}
	t.Date, t.Pass = slug, palaro.TicketType{PassKind: kind, PassDates: passDates}.PassLabel()
	if used != "" {
		t.UsedDates = strings.Split(used, ",")
	}
	if useSeat != "" {
		t.Seat = useSeat
	}
	if t.CheckedInAt, err = parseTime(useAt); err != nil {
		return
	}
	t.Gate = useGate
	switch {
	case t.Status == palaro.TicketCancelled:
	case !t.CheckedInAt.IsZero():
		t.Status = palaro.TicketCheckedIn
	case taken == 1 || (kind == palaro.PassCount && uses < passDates):
		t.Status = palaro.TicketValid
	default:
		t.Status = palaro.GateUsedUp
	}
	return
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
