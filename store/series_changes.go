package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"palaro"
)

// UpdateDate sets what in says on one date of a series, in one write: its name, start, end,
// venue (in.Venue stores one, else VenueID, 0 for the event's), sales window, status and the
// capacities it names (the date's own from then on; never below what is sold and held there). A
// change of time, venue or status is recorded with recordEventChange for the date: its SEQUENCE
// grows and every holder of its day tickets or of a pass covering it gets one e-mail, queued in
// this write. Cancelling the date also starts the refund of its day-ticket orders
// (RefundEventOrders writes them). Cancelling or postponing it ends the open offers of its
// waiting lists and tells the people on them (WaitlistService.dateOff). A cancelled date changes
// no more (MsgDateCancelledFinal).
func (s *SeriesService) UpdateDate(ctx context.Context, eventID int64, slug string, in palaro.DateInput, actor string, now time.Time) (_ *palaro.EventDate, err error) {
	defer wrapErr(&err, "store: UpdateDate(%d, %q)", eventID, slug)
	if err := in.Validate(); err != nil {
		return nil, err
	}
	in.Status = strings.TrimSpace(in.Status)
	if in.Status == "" {
		in.Status = palaro.DateScheduled
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.EventDate, error) {
		if err := s.db.lockRow(ctx, tx, "events", eventID); err != nil {
			return nil, err
		}
		before, err := findDate(ctx, tx, eventID, slug)
		if err != nil {
			return nil, err
		}
		if before.Status == palaro.DateCancelled {
			return nil, palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgDateCancelledFinal)
		}
		ev, err := eventByID(ctx, tx, eventID)
		if err != nil {
			return nil, err
		}
		var venue any
		if in.Venue != nil {
			current := int64(0)
			if before.Venue != nil {
				current = before.Venue.ID
			}
			id, err := saveVenue(ctx, tx, current, *in.Venue)
			if err != nil {
				return nil, err
			}
			venue = id
		} else if in.VenueID != 0 {
			venue = in.VenueID
		}
		if _, err := tx.ExecContext(ctx, `UPDATE event_dates SET name = ?, starts_at = ?, ends_at = ?, venue_id = ?, sales_start = ?,
			sales_end = ?, status = ?, updated_at = ? WHERE id = ?`, in.Name, formatTime(in.StartsAt), formatTime(in.EndsAt), venue,
			nullTime(in.SalesStart), nullTime(in.SalesEnd), in.Status, formatTime(now), before.ID); err != nil {
			return nil, err
		}
		after, err := findDate(ctx, tx, eventID, slug)
		if err != nil {
			return nil, err
		}
		old, cur := before.ScheduleOf(ev), after.ScheduleOf(ev)
		kind := ""
		if ev.Status != palaro.EventDraft && ev.Status != palaro.EventCancelled {
			kind = palaro.EventChangeKind(old, cur)
		}
		if kind != "" {
			if err := recordEventChange(ctx, tx, changeScope{ev: ev, date: before}, old, cur, kind, now); err != nil {
				return nil, err
			}
			after.Sequence++
		}
		if err := setDateCapacities(ctx, tx, eventID, before.ID, in.Capacities); err != nil {
			return nil, err // the whole change, its e-mails with it, is undone
		}
		if after.Status != before.Status && after.Status != palaro.DateScheduled {
			if err := s.db.waitlistDateOff(ctx, tx, ev, after, now); err != nil {
				return nil, err
			}
		}
		if after.Status == palaro.DateCancelled {
			if _, err := tx.ExecContext(ctx, `UPDATE event_dates SET refund_all_at = ?, refund_all_by = ? WHERE id = ?`,
				formatTime(now), actor, after.ID); err != nil {
				return nil, err
			}
		}
		orgID, err := eventOrg(ctx, tx, eventID)
		if err != nil {
			return nil, err
		}
		detail := slug
		if kind != "" {
			detail += " " + kind
		}
		return after, audit(ctx, tx, orgID, eventID, actor, "date updated", detail, now)
	})
}

// setDateCapacities sets the date's own capacity of each day ticket type named (by code): the
// stock row is made first where the type has none there, and a capacity below what is sold and
// held there is refused (ECONFLICT naming the field).
func setDateCapacities(ctx context.Context, tx *sql.Tx, eventID, dateID int64, capacities map[string]int) error {
	for code, n := range capacities {
		var typeID int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM ticket_types WHERE event_id = ? AND code = ? AND pass_kind = ''`, eventID, code).
			Scan(&typeID)
		field := palaro.FieldDateCapacity + "." + code
		if err == sql.ErrNoRows {
			return &palaro.Error{Code: palaro.EINVALID, Message: "Please check the date.",
				Fields: map[string]string{field: "No day ticket of this event has this code."}}
		} else if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO date_stock (date_id, ticket_type_id, capacity)
			SELECT ?, id, capacity FROM ticket_types WHERE id = ? ON CONFLICT DO NOTHING`, dateID, typeID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE date_stock SET capacity = ?, own_capacity = 1 WHERE date_id = ? AND ticket_type_id = ?
			AND sold + held <= ?`, n, dateID, typeID, n)
		if err != nil {
			return err
		}
		if got, err := res.RowsAffected(); err != nil {
			return err
		} else if got == 0 {
			msg := "More places than that are sold or held on this date already."
			return &palaro.Error{Code: palaro.ECONFLICT, Message: msg, Fields: map[string]string{field: msg}}
		}
	}
	return nil
}

// DeleteDate deletes a date of a series that nothing was sold or held on: no order, ticket or
// pass place there, nobody waiting or queued for it; else ECONFLICT (MsgDateHasSales). Its stock,
// seats (best-available holds on it too) and recorded changes go with it.
func (s *SeriesService) DeleteDate(ctx context.Context, eventID int64, slug string, actor string, now time.Time) (err error) {
	defer wrapErr(&err, "store: DeleteDate(%d, %q)", eventID, slug)
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.db.lockRow(ctx, tx, "events", eventID); err != nil {
			return err
		}
		d, err := findDate(ctx, tx, eventID, slug)
		if err != nil {
			return err
		}
		var used bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM orders WHERE date_id = ?)
			OR EXISTS (SELECT 1 FROM order_dates WHERE date_id = ?) OR EXISTS (SELECT 1 FROM tickets WHERE date_id = ?)
			OR EXISTS (SELECT 1 FROM pass_uses WHERE date_id = ?) OR EXISTS (SELECT 1 FROM waitlist_entries WHERE date_id = ?)
			OR EXISTS (SELECT 1 FROM queue_places WHERE date_id = ?) OR EXISTS (SELECT 1 FROM date_stock WHERE date_id = ?
			AND sold + held > 0)`, d.ID, d.ID, d.ID, d.ID, d.ID, d.ID, d.ID).Scan(&used); err != nil {
			return err
		}
		if used {
			return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgDateHasSales)
		}
		for _, q := range []string{`DELETE FROM event_changes WHERE date_id = ?`, `DELETE FROM seat_assignments WHERE date_id = ?`,
			`DELETE FROM seat_holds WHERE date_id = ?`, `DELETE FROM date_stock WHERE date_id = ?`, `DELETE FROM event_dates WHERE id = ?`} {
			if _, err := tx.ExecContext(ctx, q, d.ID); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		orgID, err := eventOrg(ctx, tx, eventID)
		if err != nil {
			return err
		}
		return audit(ctx, tx, orgID, eventID, actor, "date deleted", slug, now)
	})
}

// eventByID reads an event (any status) by id inside a transaction.
func eventByID(ctx context.Context, tx *sql.Tx, eventID int64) (*palaro.Event, error) {
	var code string
	if err := tx.QueryRowContext(ctx, `SELECT code FROM events WHERE id = ?`, eventID).Scan(&code); err == sql.ErrNoRows {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Event not found.")
	} else if err != nil {
		return nil, err
	}
	return findAnyEvent(ctx, tx, code)
}

// PreviewDateCancel says what cancelling date slug at now would do (palaro.SeriesService): the
// holders UpdateDate would e-mail, the orders RefundEventOrders would refund in full and the pass
// shares it would refund, as the job would decide them if the date were cancelled at now. One
// read snapshot; nothing is written.
func (s *SeriesService) PreviewDateCancel(ctx context.Context, eventID int64, slug string, now time.Time) (_ palaro.DateCancelPreview, err error) {
	defer wrapErr(&err, "store: PreviewDateCancel(%d, %q)", eventID, slug)

	var p palaro.DateCancelPreview
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return p, err
	}
	defer tx.Rollback()
	d, err := findDate(ctx, tx, eventID, slug)
	if err != nil {
		return p, err
	}
	where, args := changeScope{ev: &palaro.Event{ID: eventID}, date: d}.holders()
	if err := tx.QueryRowContext(ctx, `SELECT count(DISTINCT t.email) FROM tickets t WHERE `+where, args...).Scan(&p.Holders); err != nil {
		return p, err
	}
	orders, err := loadOrders(ctx, tx, dateOrdersOf(`?`)+` AND `+eventOrdersToRefund+` ORDER BY o.id`, d.ID, d.ID)
	if err != nil {
		return p, err
	}
	for _, o := range orders {
		left, err := refundLeft(ctx, tx, o)
		if err != nil {
			return p, err
		}
		p.DayOrders, p.DayAmount = p.DayOrders+1, p.DayAmount+left
	}
	cands, err := queryPassCandidates(ctx, tx, passCandidatesOf(`d.id = ?`, `?`), d.ID, formatTime(now))
	if err != nil {
		return p, err
	}
	date := refundDateRow{RefundDate: palaro.RefundDate{ID: d.ID, Slug: d.Slug, Name: d.Name, StartsAt: d.StartsAt},
		eventID: eventID, cancelledAt: now}
	err = passRuns(cands, func(_, orderID int64, tickets []int64) error {
		_, owed, _, err := passesOwed(ctx, tx, date, orderID, tickets)
		for _, o := range owed {
			p.Passes, p.PassAmount = p.Passes+1, p.PassAmount+o.amount
		}
		return err
	})
	return p, err
}
