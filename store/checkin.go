package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"palaro"
	"palaro/internal/metrics"
)

// CheckInService implements palaro.CheckInService on SQLite.
type CheckInService struct {
	db *DB
}

var _ palaro.CheckInService = (*CheckInService)(nil)

// NewCheckInService returns the gate's service.
func NewCheckInService(db *DB) *CheckInService { return &CheckInService{db: db} }

// gateTicketColumns reads a ticket for the gate; a ticket of an order that is no longer paid
// (refunded) reads as cancelled.
const gateTicketColumns = `t.id, t.event_id, t.code, t.holder_name, ` + gateTypeName + `, t.seat,
	CASE WHEN o.status = 'paid' THEN t.status ELSE 'cancelled' END, t.checked_in_at, t.checked_in_gate,
	t.discount_type, t.discount_holder, t.discount_id_number
	FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id JOIN orders o ON o.id = t.order_id`

// gateTypeName is the type the gate shows for ticket t of type tt: a competitor pass names its
// team ("Competitor pass · Team"), so the players' entrance tells it from a spectator's ticket.
const gateTypeName = `coalesce((SELECT 'Competitor pass · ' || cm.name FROM competitor_passes cp JOIN teams cm ON cm.id = cp.team_id
	WHERE cp.ticket_id = t.id), tt.name)`

// prefixScanner scans a row whose first column goes to first and the rest as the row scanner
// it wraps is asked: a query that reads one column before a shared column list.
type prefixScanner struct {
	r     rowScanner
	first any
}

// Scan scans the first column into first and the others into dest.
func (p prefixScanner) Scan(dest ...any) error { return p.r.Scan(append([]any{p.first}, dest...)...) }

func scanGateTicket(r rowScanner) (id, eventID int64, t palaro.GateTicket, err error) {
	var at sql.NullString
	var idNumber string
	if err = r.Scan(&id, &eventID, &t.Code, &t.HolderName, &t.TicketType, &t.Seat, &t.Status, &at, &t.Gate,
		&t.Discount, &t.DiscountHolder, &idNumber); err != nil {
		return
	}
	t.DiscountID = palaro.MaskIDNumber(idNumber) // the gate sees the last 4 only
	t.CheckedInAt, err = parseTime(at)
	return
}

// CheckIn checks a ticket in; a scan that names itself (ClientID) and was recorded before
// answers as it did then. It is one unit of the batching writer (many gates' scans share a
// commit), and the ticket changes only through `UPDATE … WHERE status = 'valid'`: of any number
// of concurrent scans, one changes the row and every other finds it checked in.
func (s *CheckInService) CheckIn(ctx context.Context, req palaro.CheckInRequest) (_ *palaro.CheckInResult, err error) {
	defer wrapErr(&err, "store: CheckIn")

	var res *palaro.CheckInResult
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if res, err = syncedBefore(ctx, tx, req); err == nil && res == nil {
			res, err = checkInTx(ctx, tx, req, s.db.Now(), false)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// SyncCheckIns records offline scans in one transaction, in the order given.
func (s *CheckInService) SyncCheckIns(ctx context.Context, reqs []palaro.CheckInRequest) (_ []palaro.CheckInResult, err error) {
	defer wrapErr(&err, "store: SyncCheckIns")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) ([]palaro.CheckInResult, error) {
		now := s.db.Now()
		out := make([]palaro.CheckInResult, 0, len(reqs))
		for _, req := range reqs {
			res, err := syncedBefore(ctx, tx, req)
			if err == nil && res == nil {
				res, err = checkInTx(ctx, tx, req, now, true)
			}
			if err != nil {
				return nil, err
			}
			out = append(out, *res)
		}
		return out, nil
	})
}

// syncedBefore returns the result of an offline scan recorded before under the same client id.
func syncedBefore(ctx context.Context, tx *sql.Tx, req palaro.CheckInRequest) (*palaro.CheckInResult, error) {
	if req.ClientID == "" {
		return nil, nil
	}
	var outcome string
	var ticketID int64
	var claimed sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT outcome, ticket_id, claimed_at FROM check_ins WHERE client_id = ?`, req.ClientID).Scan(&outcome, &ticketID, &claimed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	_, _, t, err := scanGateTicket(tx.QueryRowContext(ctx, `SELECT `+gateTicketColumns+` WHERE t.id = ?`, ticketID))
	if err != nil {
		return nil, err
	}
	r := palaro.NewCheckInResult(outcome, t)
	r.TimeCorrected = claimed.Valid
	return r, nil
}

// checkInTx is one scan inside a write transaction. An offline scan (offline true) of a ticket
// already checked in is kept as a conflict.
func checkInTx(ctx context.Context, tx *sql.Tx, req palaro.CheckInRequest, now time.Time, offline bool) (*palaro.CheckInResult, error) {
	// whether the event is a series comes with the ticket: most events have no dates, and each
	// statement in the writer's transaction delays every gate's scan
	var series bool
	id, eventID, t, err := scanGateTicket(prefixScanner{tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM event_dates d
		WHERE d.event_id = t.event_id), `+gateTicketColumns+` WHERE t.code = ?`, req.Code), &series})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return palaro.NewCheckInResult(palaro.CheckInUnknown, palaro.GateTicket{Code: req.Code}), nil
	case err != nil:
		return nil, err
	case eventID != req.EventID:
		return palaro.NewCheckInResult(palaro.CheckInWrongEvt, palaro.GateTicket{Code: t.Code}), nil
	case t.Status == palaro.TicketCancelled:
		return palaro.NewCheckInResult(palaro.CheckInCancelled, t), nil
	}
	at, corrected := now, false
	if offline {
		at, corrected = palaro.ClampScanTime(req.At, req.NotBefore, now)
	}
	var claimed any
	if corrected {
		claimed = formatTime(req.At)
	}
	var dateID any
	if series { // the gate admits to one date
		dates, err := eventDates(ctx, tx, eventID)
		if err != nil {
			return nil, err
		}
		scan, err := scanSeries(ctx, tx, dates, req, id, t, at, now, offline, claimed)
		if err != nil {
			return nil, err
		}
		if scan.result != nil {
			scan.result.TimeCorrected = corrected
			return scan.result, nil
		}
		dateID = scan.dateID
	}
	gate := palaro.NormalizeGate(req.Gate)
	res, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'checked_in', checked_in_at = ?, checked_in_gate = ?
		WHERE id = ? AND status = 'valid'`, formatTime(at), gate, id)
	if err != nil {
		return nil, err
	}
	outcome := scanOutcome(res, offline)
	if outcome == palaro.CheckInOK {
		t.Status, t.CheckedInAt, t.Gate = palaro.TicketCheckedIn, at.UTC().Truncate(time.Second), gate
	}
	if err := logScan(ctx, tx, req, id, gate, outcome, at, now, claimed, dateID); err != nil {
		return nil, err
	}
	r := palaro.NewCheckInResult(outcome, t)
	r.TimeCorrected = corrected
	return r, nil
}

// scanOutcome is a scan's outcome from its conditional UPDATE (of the ticket, or of a pass's date):
// checked in when it changed the row, else already checked in (a conflict offline).
func scanOutcome(res sql.Result, offline bool) string {
	if n, _ := res.RowsAffected(); n > 0 {
		return palaro.CheckInOK
	} else if offline {
		return palaro.CheckInConflict
	}
	return palaro.CheckInAlready
}

// logScan records a scan that let someone in (with its webhook) or was a conflict offline;
// dateID is the series date admitted to (nil for a single-date event).
func logScan(ctx context.Context, tx *sql.Tx, req palaro.CheckInRequest, ticketID int64, gate, outcome string,
	at, now time.Time, claimed, dateID any) error {
	if outcome == palaro.CheckInOK {
		if err := enqueueWebhook(ctx, tx, palaro.WebhookTicketCheckedIn, ticketID, now); err != nil {
			return err
		}
	}
	if outcome == palaro.CheckInAlready {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO check_ins (ticket_id, event_id, gate, actor, scanned_at, recorded_at,
		client_id, outcome, claimed_at, date_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, ticketID, req.EventID, gate, req.Actor,
		formatTime(at), formatTime(now), nullString(req.ClientID), outcome, claimed, dateID)
	return err
}

// nullString stores "" as NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// UndoCheckIn makes a checked-in ticket valid again and notes it in the audit log. For a series
// the undo is of one date (a slug; a field error when missing or unknown): a day ticket of that
// date is undone as any ticket; a pass's admission there is undone through its pass_uses row
// (undoPassUse). Each change goes through a guarded statement, so of concurrent undos one wins.
func (s *CheckInService) UndoCheckIn(ctx context.Context, eventID int64, code, date, actor string, now time.Time) (err error) {
	defer wrapErr(&err, "store: UndoCheckIn(%d, %q)", eventID, date)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id, dayID int64
		var kind string
		err := tx.QueryRowContext(ctx, `SELECT t.id, coalesce(t.date_id, 0), tt.pass_kind FROM tickets t
			JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE t.code = ? AND t.event_id = ?`, code, eventID).Scan(&id, &dayID, &kind)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "Unknown ticket")
		} else if err != nil {
			return err
		}
		on, err := seriesDate(ctx, tx, eventID, date)
		if err != nil {
			return err
		}
		detail := map[string]string{"ticket": code}
		if on != nil {
			detail["date"] = on.Slug
		}
		switch {
		case on != nil && kind != "":
			err = undoPassUse(ctx, tx, id, *on, kind)
		case on != nil && dayID != on.ID:
			err = notCheckedInOn(*on)
		default:
			var res sql.Result
			if res, err = tx.ExecContext(ctx, `UPDATE tickets SET status = 'valid', checked_in_at = NULL, checked_in_gate = ''
				WHERE id = ? AND status = 'checked_in'`, id); err == nil {
				if n, _ := res.RowsAffected(); n == 0 && on != nil {
					err = notCheckedInOn(*on)
				} else if n == 0 {
					err = palaro.Errorf(palaro.ECONFLICT, "This ticket is not checked in.")
				}
			}
		}
		if err != nil {
			return err
		}
		query, args := `UPDATE check_ins SET undone_at = ?, undone_by = ?
			WHERE ticket_id = ? AND outcome = 'checked_in' AND undone_at IS NULL`, []any{formatTime(now), actor, id}
		if on != nil { // only the date's check-in: the pass's others stand
			query, args = query+` AND date_id = ?`, append(args, on.ID)
		}
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return err
		}
		return auditOn(ctx, tx, eventID, actor, "check_in.undo", palaro.AuditDetail(detail), now)
	})
}

// seriesDate is the date an undo or a door sale is of: nil for a single-date event (a date named
// there is a field error), the series' date of that slug, or a field error naming a missing or
// unknown date.
func seriesDate(ctx context.Context, tx *sql.Tx, eventID int64, slug string) (*palaro.EventDate, error) {
	slug = strings.TrimSpace(slug)
	dates, err := eventDates(ctx, tx, eventID)
	switch {
	case err != nil:
		return nil, err
	case len(dates) == 0 && slug != "":
		return nil, dateFieldError(palaro.MsgDateNotForSingle)
	case len(dates) == 0:
		return nil, nil
	case slug == "":
		return nil, dateFieldError(palaro.MsgDateRequired)
	}
	return slugDate(dates, slug)
}

// notCheckedInOn is the conflict of an undo of a ticket not checked in on a series' date.
func notCheckedInOn(d palaro.EventDate) error {
	return palaro.Errorf(palaro.ECONFLICT, "This ticket is not checked in on %s.", palaro.GateDateLabel(d))
}

// undoPassUse undoes a pass's admission on a date. A pass valid on every date keeps its place
// there (its pass_uses row, taken when it was bought) and is only no longer checked in; a pass
// for a number of dates took the date at its scan, so its row goes and the date's place with it:
// the pass has that use again. The pass_uses triggers (migration 01650) put the change in the
// gate list's deltas. ECONFLICT when the pass was not admitted on the date.
func undoPassUse(ctx context.Context, tx *sql.Tx, ticketID int64, d palaro.EventDate, kind string) error {
	query := `UPDATE pass_uses SET checked_in_at = NULL, gate = '' WHERE ticket_id = ? AND date_id = ? AND checked_in_at IS NOT NULL`
	if kind == palaro.PassCount {
		query = `DELETE FROM pass_uses WHERE ticket_id = ? AND date_id = ? AND checked_in_at IS NOT NULL`
	}
	res, err := tx.ExecContext(ctx, query, ticketID, d.ID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return notCheckedInOn(d)
	}
	if kind != palaro.PassCount {
		return nil
	}
	plan, _, err := ticketPlaces(ctx, tx, ticketID)
	if err != nil {
		return err
	}
	plan.dates = []int64{d.ID}
	return plan.unsell(ctx, tx, 1)
}

// GateTickets returns the event's issued tickets for the gate's offline list.
func (s *CheckInService) GateTickets(ctx context.Context, eventID int64) (_ []palaro.GateTicket, err error) {
	defer wrapErr(&err, "store: GateTickets(%d)", eventID)

	rows, err := s.db.read.QueryContext(ctx, `SELECT `+gateTicketColumns+` WHERE t.event_id = ? ORDER BY t.id`, eventID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []palaro.GateTicket{}
	for rows.Next() {
		_, _, t, err := scanGateTicket(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// CheckInCounts counts checked-in tickets against sold ones in one read transaction; for a
// series' date, those of that date (checkInCountsOn).
func (s *CheckInService) CheckInCounts(ctx context.Context, eventID int64, date string) (_ *palaro.CheckInCounts, err error) {
	defer wrapErr(&err, "store: CheckInCounts(%d, %q)", eventID, date)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	on, err := gateDateOf(ctx, tx, eventID, date)
	if err != nil {
		return nil, err
	}
	if on != nil {
		return checkInCountsOn(ctx, tx, eventID, on.ID)
	}
	var c palaro.CheckInCounts
	// Both counts come from the index tickets_event_counts alone (event, status, type, gate): one
	// pass over the event's checked-in tickets, not a count per ticket type.
	if c.ByType, err = gateCounts(ctx, tx, `SELECT tt.name, tt.sold, coalesce(n.checked, 0)
		FROM ticket_types tt LEFT JOIN (SELECT ticket_type_id, COUNT(*) AS checked FROM tickets
			WHERE event_id = ? AND status = 'checked_in' GROUP BY ticket_type_id) n ON n.ticket_type_id = tt.id
		WHERE tt.event_id = ? AND tt.tournament_id IS NULL ORDER BY tt.id`, eventID, eventID); err != nil {
		return nil, err
	}
	if c.ByGate, err = gateCounts(ctx, tx, `SELECT checked_in_gate, 0, COUNT(*) FROM tickets
		WHERE event_id = ? AND status = 'checked_in' GROUP BY checked_in_gate ORDER BY checked_in_gate`, eventID); err != nil {
		return nil, err
	}
	err = tx.QueryRowContext(ctx, `SELECT COUNT(CASE WHEN outcome = 'conflict' THEN 1 END), COUNT(claimed_at) FROM check_ins
		WHERE event_id = ?`, eventID).Scan(&c.Conflicts, &c.TimeCorrected)
	return c.Sum(), err
}

// checkInCountsOn counts one date of a series: per type, a day type's paid tickets for the date
// against those checked in; a pass type's paid passes that can be used on the date (those holding
// it, and a pass for some dates with dates left: as the gate list, no pass_used_up) against its
// admissions there (pass_uses); per gate, the
// date's check-ins not undone; the conflicts and corrected times of the date's scans.
func checkInCountsOn(ctx context.Context, tx *sql.Tx, eventID, dateID int64) (_ *palaro.CheckInCounts, err error) {
	var c palaro.CheckInCounts
	if c.ByType, err = gateCounts(ctx, tx, `SELECT tt.name,
		(SELECT COUNT(*) FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.ticket_type_id = tt.id AND o.status = 'paid'
			AND t.status IN ('valid', 'checked_in') AND CASE WHEN tt.pass_kind = '' THEN t.date_id = ?
				ELSE EXISTS (SELECT 1 FROM pass_uses u WHERE u.ticket_id = t.id AND u.date_id = ?)
					OR (tt.pass_kind = 'count' AND (SELECT count(*) FROM pass_uses u WHERE u.ticket_id = t.id) < tt.pass_dates) END),
		CASE WHEN tt.pass_kind = '' THEN (SELECT COUNT(*) FROM tickets t WHERE t.ticket_type_id = tt.id AND t.date_id = ?
				AND t.status = 'checked_in')
			ELSE (SELECT COUNT(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id WHERE t.ticket_type_id = tt.id
				AND u.date_id = ? AND u.checked_in_at IS NOT NULL) END
		FROM ticket_types tt WHERE tt.event_id = ? AND tt.tournament_id IS NULL ORDER BY tt.id`, dateID, dateID, dateID, dateID, eventID); err != nil {
		return nil, err
	}
	if c.ByGate, err = gateCounts(ctx, tx, `SELECT gate, 0, COUNT(*) FROM check_ins WHERE event_id = ? AND date_id = ?
		AND outcome = 'checked_in' AND undone_at IS NULL GROUP BY gate ORDER BY gate`, eventID, dateID); err != nil {
		return nil, err
	}
	err = tx.QueryRowContext(ctx, `SELECT COUNT(CASE WHEN outcome = 'conflict' THEN 1 END), COUNT(claimed_at) FROM check_ins
		WHERE event_id = ? AND date_id = ?`, eventID, dateID).Scan(&c.Conflicts, &c.TimeCorrected)
	return c.Sum(), err
}

// gateCounts reads rows of (name, sold, checked in).
func gateCounts(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]palaro.GateCount, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []palaro.GateCount
	for rows.Next() {
		var g palaro.GateCount
		if err := rows.Scan(&g.Name, &g.Sold, &g.CheckedIn); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// CheckInConflicts lists the offline scans that found their ticket already checked in, with the
// check-in that counted.
func (s *CheckInService) CheckInConflicts(ctx context.Context, eventID int64) (_ []palaro.CheckInConflictRow, err error) {
	defer wrapErr(&err, "store: CheckInConflicts(%d)", eventID)

	rows, err := s.db.read.QueryContext(ctx, `SELECT t.code, t.holder_name, tt.name, t.checked_in_gate, t.checked_in_at,
		c.gate, c.scanned_at, c.recorded_at
		FROM check_ins c JOIN tickets t ON t.id = c.ticket_id JOIN ticket_types tt ON tt.id = t.ticket_type_id
		WHERE c.event_id = ? AND c.outcome = 'conflict' ORDER BY c.id DESC LIMIT 200`, eventID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []palaro.CheckInConflictRow
	for rows.Next() {
		var r palaro.CheckInConflictRow
		var first, second, synced sql.NullString
		if err := rows.Scan(&r.Code, &r.HolderName, &r.TicketType, &r.FirstGate, &first, &r.SecondGate, &second, &synced); err != nil {
			return nil, err
		}
		r.FirstAt, _ = parseTime(first)
		r.SecondAt, _ = parseTime(second)
		r.SyncedAt, _ = parseTime(synced)
		out = append(out, r)
	}
	return out, rows.Err()
}

// SellAtDoor sells tickets at the gate: capacity is taken with the same guarded update as an
// online sale, one order is recorded paid with its payment method and every ticket checked in.
func (s *CheckInService) SellAtDoor(ctx context.Context, sale palaro.DoorSale) (_ []palaro.GateTicket, err error) {
	defer wrapErr(&err, "store: SellAtDoor")

	sale.HolderName = strings.TrimSpace(sale.HolderName)
	sale.Email = palaro.NormalizeEmail(sale.Email)
	if sale.Quantity == 0 {
		sale.Quantity = 1
	}
	f := map[string]string{}
	if sale.HolderName == "" || len(sale.HolderName) > 200 {
		f["holderName"] = "Enter the holder's name."
	} else if !palaro.ValidText(palaro.TextName, sale.HolderName) {
		f["holderName"] = palaro.MsgNameInvalid
	}
	if sale.Email != "" && !palaro.ValidEmail(sale.Email) {
		f[palaro.FieldEmail] = "Enter a valid e-mail address, or leave it empty."
	}
	if sale.PaymentMethod != palaro.PaymentCash && sale.PaymentMethod != palaro.PaymentCardTerminal {
		f["paymentMethod"] = "Choose cash or card terminal."
	}
	if sale.Quantity < 1 {
		f[palaro.FieldQuantity] = "Sell at least 1 ticket."
	}
	if len(f) > 0 {
		return nil, &palaro.Error{Code: palaro.EINVALID, Message: "Please correct the highlighted fields.", Fields: f}
	}
	sold, err := write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) ([]palaro.GateTicket, error) {
		tt, err := findTicketTypeTx(ctx, tx, sale.EventID, sale.TicketType)
		if err != nil {
			return nil, err
		}
		if tt.Seated {
			return nil, palaro.Errorf(palaro.EINVALID, "Sell seated tickets through the seat map.")
		}
		n := sale.Quantity
		if tt.MaxPurchasable > 0 && n > tt.MaxPurchasable {
			msg := "At most " + palaro.Plural(tt.MaxPurchasable, "ticket", "tickets") + " of " + tt.Name + " per sale."
			return nil, &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{palaro.FieldQuantity: msg}}
		}
		now := sale.At
		plan, err := doorDates(ctx, tx, sale.EventID, tt, sale.Date, now)
		if err != nil {
			return nil, err
		}
		if plan.date == nil { // a series' day ticket has no stock but its date's
			res, err := tx.ExecContext(ctx, `UPDATE ticket_types SET sold = sold + ? WHERE id = ? AND sold + held + ? <= capacity`, n, tt.ID, n)
			if err != nil {
				return nil, err
			}
			if c, _ := res.RowsAffected(); c == 0 {
				left := max(tt.Capacity-tt.Sold-tt.Held, 0)
				if left == 0 {
					return nil, palaro.Errorf(palaro.ECONFLICT, "%s is sold out.", tt.Name)
				}
				return nil, palaro.Errorf(palaro.ECONFLICT, "Only %s of %s left.", palaro.Plural(left, "ticket", "tickets"), tt.Name)
			}
		}
		if err := plan.take(ctx, tx, n, true); err != nil {
			return nil, err
		}
		price := tt.FinalPrice()
		total := price * palaro.Money(n)
		buyer, _ := json.Marshal(palaro.Buyer{FullName: sale.HolderName})
		var dateID any
		if plan.date != nil {
			dateID = plan.date.ID
		}
		orderID, err := insertID(ctx, tx, `INSERT INTO orders (public_id, kind, event_id, ticket_type_id, quantity, email, buyer,
		source, payment_type, unit_price, total, status, provider, paid_at, created_at, date_id)
		VALUES (?, 'tickets', ?, ?, ?, ?, ?, 'box_office', ?, ?, ?, 'paid', 'box_office', ?, ?, ?)`,
			newPublicID(), sale.EventID, tt.ID, n, sale.Email, string(buyer), sale.PaymentMethod, int64(price), int64(total),
			formatTime(now), formatTime(now), dateID)
		if err != nil {
			return nil, err
		}
		if err := plan.record(ctx, tx, orderID, n); err != nil {
			return nil, err
		}
		codes := make([]string, 0, n)
		for range n {
			t := palaro.Ticket{OrderID: orderID, EventID: sale.EventID, HolderName: sale.HolderName, Email: sale.Email,
				Status: palaro.TicketValid, CreatedAt: now, Date: plan.date}
			if err := insertTicket(ctx, tx, &t, tt.ID); err != nil {
				return nil, err
			}
			codes = append(codes, t.Code)
		}
		if plan.date == nil && len(plan.dates) > 0 { // a pass valid on every date holds its places there
			if err := insertPassUses(ctx, tx, orderID, now); err != nil {
				return nil, err
			}
		}
		out := make([]palaro.GateTicket, 0, n)
		for _, code := range codes {
			r, err := checkInTx(ctx, tx, palaro.CheckInRequest{EventID: sale.EventID, Code: code, Gate: sale.Gate, Actor: sale.Actor,
				Date: sale.Date}, now, false)
			if err != nil {
				return nil, err
			}
			out = append(out, r.Ticket)
		}
		sold := &palaro.Order{ID: orderID, Kind: palaro.OrderKindTickets, EventID: sale.EventID, TicketTypeID: tt.ID,
			Quantity: n, Email: sale.Email, Buyer: palaro.Buyer{FullName: sale.HolderName}, UnitPrice: price, Total: total, Date: plan.date}
		if err := issueInvoice(ctx, tx, sold, now); err != nil {
			return nil, err
		}
		if strings.TrimSpace(sale.Date) == "" { // a single-date event's: a series' returns are not sold at the door
			if err := sellReturns(ctx, tx, s.db, orderID, tt.ID, n, now); err != nil {
				return nil, err // tickets returned at face value are sold before the rest
			}
		}
		orgID, err := eventOrg(ctx, tx, sale.EventID)
		if err != nil {
			return nil, err
		}
		detail := map[string]any{"tickets": codes, "type": tt.Code, "payment": sale.PaymentMethod, "amount": int64(total)}
		if plan.date != nil || len(plan.dates) > 0 {
			detail["date"] = strings.TrimSpace(sale.Date)
		}
		if err := audit(ctx, tx, orgID, sale.EventID, sale.Actor, "box_office.sale", palaro.AuditDetail(detail), now); err != nil {
			return nil, err
		}
		return out, nil
	})
	if err == nil {
		metrics.OrdersBoxOffice.Inc()
	}
	return sold, err
}

// doorDates decides where a box-office sale takes its places: nothing beyond its type's for a
// single-date event; on a series, the gate's date (slug: required, not cancelled, postponed or
// over at now, each a field error), whose places a day ticket takes, while a pass takes those an
// online sale of it would (planDates) and is then admitted on the date.
func doorDates(ctx context.Context, tx *sql.Tx, eventID int64, tt *palaro.TicketType, slug string, now time.Time) (datePlan, error) {
	plan := datePlan{stockType: tt.ID}
	d, err := seriesDate(ctx, tx, eventID, slug)
	switch {
	case err != nil || d == nil:
		return plan, err
	case d.Status == palaro.DateCancelled:
		return plan, dateFieldError(palaro.MsgDateCancelled)
	case d.Status == palaro.DatePostponed:
		return plan, dateFieldError(palaro.MsgDatePostponed)
	case d.Past(now):
		return plan, dateFieldError(palaro.MsgDateOver)
	case tt.IsPass():
		dates, err := eventDates(ctx, tx, eventID)
		if err != nil {
			return plan, err
		}
		return planDates(dates, &palaro.Event{ID: eventID}, tt, "", now)
	}
	plan.date, plan.dates = d, []int64{d.ID}
	return plan, nil
}
