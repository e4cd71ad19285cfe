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

// WaitlistService implements palaro.WaitlistService.
type WaitlistService struct {
	db       *DB
	composer palaro.WaitlistComposer
}

var _ palaro.WaitlistService = (*WaitlistService)(nil)

// NewWaitlistService returns the waiting lists backed by db; composer writes their e-mails. It
// registers itself with db, so the writes that give tickets back (expired or cancelled holds,
// refunds, cancelled tickets) offer them to the waiting lists in the same transaction.
func NewWaitlistService(db *DB, composer palaro.WaitlistComposer) *WaitlistService {
	s := &WaitlistService{db: db, composer: composer}
	db.returned = s.offerFree
	db.dateOff = s.dateOff
	return s
}

// ticketsReturned offers the tickets free at now to the waiting lists, inside tx, when a waiting
// list service is registered. Callers are the writes that give tickets back.
func (db *DB) ticketsReturned(ctx context.Context, tx *sql.Tx, now time.Time) error {
	if db.returned == nil {
		return nil
	}
	return db.returned(ctx, tx, now)
}

// waitlistDateOff ends the waiting lists' offers of a series date that was just cancelled or
// postponed (dateOff), inside tx, when a waiting list service is registered.
func (db *DB) waitlistDateOff(ctx context.Context, tx *sql.Tx, ev *palaro.Event, date *palaro.EventDate, now time.Time) error {
	if db.dateOff == nil {
		return nil
	}
	return db.dateOff(ctx, tx, ev, date, now)
}

// dateOff, inside the unit that cancelled or postponed a series date (date as it is now), closes
// the open offers of the date's waiting lists (their places and seats given back), ends a
// cancelled date's entries (passed) or puts a postponed date's back to waiting in their places,
// and tells each address that was waiting or offered there by e-mail.
func (s *WaitlistService) dateOff(ctx context.Context, tx *sql.Tx, ev *palaro.Event, date *palaro.EventDate, now time.Time) error {
	entries, err := queryEntries(ctx, tx, `w.date_id = ? AND w.status IN ('waiting', 'offered') ORDER BY w.joined_at, w.id`, date.ID)
	if err != nil {
		return err
	}
	next := palaro.WaitlistWaiting
	if date.Status == palaro.DateCancelled {
		next = palaro.WaitlistPassed
	}
	refs := newRefCache()
	for _, e := range entries {
		open, err := queryRows(ctx, tx, `SELECT id, quantity FROM waitlist_offers WHERE entry_id = ? AND status = 'open'`,
			[]any{e.ID}, func(r rowScanner) (o [2]int64, err error) {
				err = r.Scan(&o[0], &o[1])
				return o, err
			})
		if err != nil {
			return err
		}
		released := 0
		for _, o := range open {
			if ok, err := closeOffer(ctx, tx, o[0], palaro.OfferExpired, "", now); err != nil {
				return err
			} else if !ok {
				continue
			}
			if err := unhold(ctx, tx, e.TicketTypeID, e.DateID, int(o[1])); err != nil {
				return err
			}
			if err := releaseOfferSeats(ctx, tx, o[0]); err != nil {
				return err
			}
			released += int(o[1])
		}
		if _, err := tx.ExecContext(ctx, `UPDATE waitlist_entries SET status = ?, updated_at = ? WHERE id = ? AND status = ?`,
			next, formatTime(now), e.ID, e.Status); err != nil {
			return err
		}
		_, tt, err := refs.get(ctx, tx, e.EventID, e.TicketTypeID)
		if err != nil {
			return err
		}
		w := palaro.WaitlistDateOff{Entry: e, Date: date, Released: released, TicketType: tt, Event: ev}
		if err := enqueue(ctx, tx, s.composer.WaitlistDateOff(w), "", now); err != nil {
			return err
		}
	}
	return nil
}

// Join puts an address on a sold-out ticket type's waiting list, with its confirmation e-mail.
func (s *WaitlistService) Join(ctx context.Context, req palaro.WaitlistJoin, now time.Time) (_ *palaro.WaitlistJoined, err error) {
	defer wrapErr(&err, "store: Join")

	tt, ev, err := purchaseTicketType(ctx, s.db, strings.TrimSpace(req.TicketCode))
	if err != nil {
		return nil, err
	}
	if req, err = palaro.CheckWaitlistJoin(req, *tt); err != nil {
		return nil, err
	}
	// a series' day ticket waits for one of its dates, open for sale (planDates names a missing,
	// unknown or closed date); an event of one date and a pass wait for their type's places
	dates, err := s.db.purchaseDates(ctx, ev.ID)
	if err != nil {
		return nil, err
	}
	plan, err := planDates(dates, ev, tt, req.Date, now)
	if err != nil {
		return nil, err
	}
	var dateID int64
	if plan.date != nil {
		dateID = plan.date.ID
	} else if err := palaro.WaitlistRefusal(*tt, ev, now); err != nil {
		return nil, err
	}
	j := &palaro.WaitlistJoined{TicketType: tt, Event: ev}
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		j.Updated = false
		left, err := placesLeft(ctx, tx, tt.ID, dateID)
		if err != nil {
			return err
		}
		if left >= req.Quantity {
			return stillOnSale(tt.Name, left)
		}
		id, updated, err := joinEntry(ctx, tx, ev.ID, tt.ID, dateID, req, now)
		if err != nil {
			return err
		}
		j.Updated = updated
		e, err := loadEntry(ctx, tx, id)
		if err != nil {
			return err
		}
		j.Entry = *e
		return enqueue(ctx, tx, s.composer.WaitlistJoined(*j), "", now)
	})
	if err != nil {
		return nil, err
	}
	return j, nil
}

// joinEntry inserts the address's entry, or updates the one it has, without a read-then-write
// race (two joins at once on two servers): the insert gives way to the unique key, and each
// update is conditional on the status it read. updated says the entry was waiting already.
func joinEntry(ctx context.Context, tx *sql.Tx, eventID, typeID, dateID int64, req palaro.WaitlistJoin, now time.Time) (id int64, updated bool, err error) {
	// the only unique key an insert can hit is waitlist_entries_email: (type, date, e-mail)
	err = tx.QueryRowContext(ctx, `INSERT INTO waitlist_entries (event_id, ticket_type_id, date_id, email, quantity, status,
		joined_at, updated_at) VALUES (?, ?, ?, ?, ?, 'waiting', ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
		eventID, typeID, nullDate(dateID), req.Email, req.Quantity, formatTime(now), formatTime(now)).Scan(&id)
	if !errors.Is(err, sql.ErrNoRows) {
		return id, false, err
	}
	var status string
	if err := tx.QueryRowContext(ctx, `SELECT id, status FROM waitlist_entries WHERE ticket_type_id = ? AND coalesce(date_id, 0) = ?
		AND email = ?`, typeID, dateID, req.Email).Scan(&id, &status); err != nil {
		return 0, false, err
	}
	var res sql.Result
	switch status {
	case palaro.WaitlistOffered:
		return 0, false, palaro.Errorf(palaro.ECONFLICT, "Tickets are already held for %s: open the link in the e-mail we sent.", req.Email)
	case palaro.WaitlistWaiting: // keeps its place
		res, err = tx.ExecContext(ctx, `UPDATE waitlist_entries SET quantity = ?, updated_at = ? WHERE id = ? AND status = 'waiting'`,
			req.Quantity, formatTime(now), id)
	default: // claimed or passed: back in the queue, at its end
		res, err = tx.ExecContext(ctx, `UPDATE waitlist_entries SET quantity = ?, status = 'waiting', joined_at = ?,
			updated_at = ? WHERE id = ? AND status = ?`, req.Quantity, formatTime(now), formatTime(now), id, status)
	}
	if err != nil {
		return 0, false, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, false, err
	} else if n == 0 {
		return 0, false, palaro.Errorf(palaro.ECONFLICT, "The waiting list changed for %s meanwhile: please try again.", req.Email)
	}
	return id, status == palaro.WaitlistWaiting, nil
}

// nullDate is a date id as stored: NULL for none (an event of one date, a pass).
func nullDate(dateID int64) any {
	if dateID == 0 {
		return nil
	}
	return dateID
}

// placesLeft is what is free of a ticket type: on a date of its series (dateID; the type's
// capacity while the date has no stock row yet), else of the type itself.
func placesLeft(ctx context.Context, q querier, typeID, dateID int64) (int, error) {
	var left int
	if dateID == 0 {
		err := q.QueryRowContext(ctx, `SELECT capacity - sold - held FROM ticket_types WHERE id = ?`, typeID).Scan(&left)
		return left, err
	}
	err := q.QueryRowContext(ctx, `SELECT coalesce((SELECT s.capacity - s.sold - s.held FROM date_stock s
		WHERE s.date_id = ? AND s.ticket_type_id = tt.id), tt.capacity) FROM ticket_types tt WHERE tt.id = ?`, dateID, typeID).Scan(&left)
	return left, err
}

// holdPlaces holds n places of a ticket type for an offer, on a date of its series (dateID) or of
// the type itself, with the guarded UPDATE an order's hold uses; false when they are not free.
func holdPlaces(ctx context.Context, tx *sql.Tx, typeID, dateID int64, n int) (bool, error) {
	if dateID != 0 {
		err := takeDatePlaces(ctx, tx, dateID, typeID, n, false)
		if palaro.ErrorCode(err) == palaro.ECONFLICT {
			return false, nil
		}
		return err == nil, err
	}
	res, err := tx.ExecContext(ctx, `UPDATE ticket_types SET held = held + ? WHERE id = ? AND sold + held + ? <= capacity`,
		n, typeID, n)
	if err != nil {
		return false, err
	}
	got, err := res.RowsAffected()
	return got == 1, err
}

func stillOnSale(name string, left int) error {
	return palaro.Errorf(palaro.ECONFLICT, "%s of %s can be bought now: no need to wait.", palaro.Tickets(left), name)
}

const entryColumns = `w.id, w.event_id, w.ticket_type_id, coalesce(w.date_id, 0), coalesce(d.slug, ''), tt.code, tt.name,
	w.email, w.quantity, w.status, w.joined_at,
	CASE WHEN w.status = 'waiting' THEN (SELECT count(*) FROM waitlist_entries o WHERE o.ticket_type_id = w.ticket_type_id
		AND coalesce(o.date_id, 0) = coalesce(w.date_id, 0)
		AND o.status = 'waiting' AND (o.joined_at < w.joined_at OR (o.joined_at = w.joined_at AND o.id <= w.id))) ELSE 0 END`

// entryFrom is the FROM clause entryColumns reads.
const entryFrom = ` FROM waitlist_entries w JOIN ticket_types tt ON tt.id = w.ticket_type_id
	LEFT JOIN event_dates d ON d.id = w.date_id `

func scanEntry(r rowScanner) (*palaro.WaitlistEntry, error) {
	var e palaro.WaitlistEntry
	var joined sql.NullString
	if err := r.Scan(&e.ID, &e.EventID, &e.TicketTypeID, &e.DateID, &e.DateSlug, &e.TicketTypeCode, &e.TicketTypeName, &e.Email, &e.Quantity,
		&e.Status, &joined, &e.Position); err != nil {
		return nil, err
	}
	e.JoinedAt, _ = parseTime(joined)
	return &e, nil
}

func loadEntry(ctx context.Context, q querier, id int64) (*palaro.WaitlistEntry, error) {
	e, err := scanEntry(q.QueryRowContext(ctx, `SELECT `+entryColumns+entryFrom+`WHERE w.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "No such entry on the waiting list.")
	}
	return e, err
}

// offerTime is how long the event's offers hold their tickets.
func offerTime(ctx context.Context, q querier, eventID int64) (time.Duration, error) {
	var minutes int
	err := q.QueryRowContext(ctx, `SELECT offer_minutes FROM waitlist_settings WHERE event_id = ?`, eventID).Scan(&minutes)
	if errors.Is(err, sql.ErrNoRows) {
		return palaro.DefaultOfferTime, nil
	}
	return time.Duration(minutes) * time.Minute, err
}

// offerFree offers the free tickets of every ticket type with waiting entries, in list order:
// each waiting entry, oldest first, whose quantity fits in what is still free gets an offer that
// holds its tickets; an entry that does not fit keeps its place for the next return.
func (s *WaitlistService) offerFree(ctx context.Context, tx *sql.Tx, now time.Time) error {
	_, err := s.offerFreeCount(ctx, tx, now)
	return err
}

func (s *WaitlistService) offerFreeCount(ctx context.Context, tx *sql.Tx, now time.Time) (int, error) {
	type list struct{ typeID, dateID int64 } // a type's list, on one date of its series (0: none)
	lists, err := queryRows(ctx, tx, `SELECT DISTINCT ticket_type_id, coalesce(date_id, 0) FROM waitlist_entries
		WHERE status = 'waiting' ORDER BY 1, 2`, nil, func(r rowScanner) (l list, err error) {
		err = r.Scan(&l.typeID, &l.dateID)
		return l, err
	})
	if err != nil {
		return 0, err
	}
	offered := 0
	refs := newRefCache()
	for _, l := range lists {
		typeID := l.typeID
		free, err := placesLeft(ctx, tx, typeID, l.dateID)
		if err != nil {
			return offered, err
		}
		if free <= 0 {
			continue
		}
		var eventID int64
		if err := tx.QueryRowContext(ctx, `SELECT event_id FROM ticket_types WHERE id = ?`, typeID).Scan(&eventID); err != nil {
			return offered, err
		}
		ev, tt, err := refs.get(ctx, tx, eventID, typeID)
		if err != nil {
			return offered, err
		}
		if open, err := waitlistOpen(ctx, tx, tt, ev, l.dateID, now); err != nil {
			return offered, err
		} else if !open {
			continue // sales closed: nothing to offer
		}
		entries, err := waitingEntries(ctx, tx, typeID, l.dateID)
		if err != nil {
			return offered, err
		}
		for _, e := range entries {
			if e.Quantity > free {
				continue
			}
			if _, err := s.makeOffer(ctx, tx, e, e.Quantity, nil, false, now); palaro.ErrorCode(err) == palaro.ECONFLICT {
				continue // offered meanwhile, or the tickets went meanwhile: the write that gave them back still stands
			} else if err != nil {
				return offered, err
			}
			offered++
			if free -= e.Quantity; free == 0 {
				break
			}
		}
	}
	return offered, nil
}

// waitlistOpen reports whether a list can be offered from at now: its type's sales (on its date of
// a series, dateID, the date's own window and status) are open and the event (the date) not over.
func waitlistOpen(ctx context.Context, q querier, tt *palaro.TicketType, ev *palaro.Event, dateID int64, now time.Time) (bool, error) {
	if dateID == 0 {
		return palaro.WaitlistRefusal(*tt, ev, now) == nil, nil
	}
	d, err := scanDate(q.QueryRowContext(ctx, `SELECT `+dateColumns+dateFrom+`WHERE d.id = ?`, dateID))
	if err != nil {
		return false, err
	}
	switch d.SaleState(*tt, ev, 1, now) {
	case palaro.SaleEnded, palaro.SaleNotStarted:
		return false, nil
	}
	return true, nil
}

// waitingEntries returns the waiting entries of a ticket type (on a date of its series, dateID;
// 0 for none) in list order.
func waitingEntries(ctx context.Context, q querier, typeID, dateID int64) ([]*palaro.WaitlistEntry, error) {
	return queryEntries(ctx, q, `w.ticket_type_id = ? AND coalesce(w.date_id, 0) = ? AND w.status = 'waiting'
		ORDER BY w.joined_at, w.id`, typeID, dateID)
}

func queryEntries(ctx context.Context, q querier, where string, args ...any) ([]*palaro.WaitlistEntry, error) {
	return queryRows(ctx, q, `SELECT `+entryColumns+entryFrom+`WHERE `+where, args, scanEntry)
}

// makeOffer holds quantity tickets for an entry, with the same guarded UPDATE as an order's hold,
// records the offer and queues its e-mail. For a seated type it holds seats too: the ones named,
// or those PickSeats chooses among the free ones. Returns ECONFLICT when too few tickets (or the
// named seats) are free; the entry then keeps its status.
func (s *WaitlistService) makeOffer(ctx context.Context, tx *sql.Tx, e *palaro.WaitlistEntry, quantity int, seats []string, byHand bool, now time.Time) (*palaro.WaitlistOffer, error) {
	// the entry moves from the status it was read in, or not at all: two offers made at once (by
	// hand and by a return, or on two servers) cannot both go to it
	res, err := tx.ExecContext(ctx, `UPDATE waitlist_entries SET status = 'offered', updated_at = ? WHERE id = ? AND status = ?
		AND status != 'offered'`, formatTime(now), e.ID, e.Status)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, err
	} else if n == 0 {
		return nil, palaro.Errorf(palaro.ECONFLICT, "%s already has an open offer.", e.Email)
	}
	keepStatus := func() error { // no offer after all: the entry keeps its status
		_, err := tx.ExecContext(ctx, `UPDATE waitlist_entries SET status = ? WHERE id = ?`, e.Status, e.ID)
		return err
	}
	if e.DateID != 0 { // a date's places are not on the type's row: lock it as an order of the type does
		if err := s.db.lockRow(ctx, tx, "ticket_types", e.TicketTypeID); err != nil {
			return nil, err
		}
	}
	if ok, err := holdPlaces(ctx, tx, e.TicketTypeID, e.DateID, quantity); err != nil {
		return nil, err
	} else if !ok {
		if err := keepStatus(); err != nil {
			return nil, err
		}
		left, err := placesLeft(ctx, tx, e.TicketTypeID, e.DateID)
		if err != nil {
			return nil, err
		}
		return nil, palaro.Errorf(palaro.ECONFLICT, "Only %s of %s free to offer: raise its capacity or wait for tickets to come back.",
			palaro.Tickets(max(left, 0)), e.TicketTypeName)
	}
	// the seats are chosen under the type's row lock: an order of the type takes its seats after
	// locking the same row (CreateOrder), so the free seats read here stay free until the insert
	seats, err = offerSeats(ctx, tx, e.TicketTypeID, e.DateID, quantity, seats)
	if err != nil {
		if palaro.ErrorCode(err) == palaro.EINTERNAL {
			return nil, err
		}
		if err := unhold(ctx, tx, e.TicketTypeID, e.DateID, quantity); err != nil {
			return nil, err
		}
		if err := keepStatus(); err != nil {
			return nil, err
		}
		return nil, err
	}
	d, err := offerTime(ctx, tx, e.EventID)
	if err != nil {
		return nil, err
	}
	token, hash := newToken()
	o := &palaro.WaitlistOffer{EntryID: e.ID, Email: e.Email, Quantity: quantity, Status: palaro.OfferOpen,
		ByHand: byHand, OfferedAt: now, ExpiresAt: now.Add(d), Seats: seats, DateID: e.DateID, DateSlug: e.DateSlug}
	if err := tx.QueryRowContext(ctx, `INSERT INTO waitlist_offers (entry_id, ticket_type_id, date_id, quantity, token_hash,
		status, by_hand, offered_at, expires_at, seats) VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?) RETURNING id`, e.ID, e.TicketTypeID,
		nullDate(e.DateID), quantity, hash, boolInt(byHand), formatTime(now), formatTime(o.ExpiresAt), seatsJSON(seats)).Scan(&o.ID); err != nil {
		return nil, err
	}
	if err := holdSeats(ctx, tx, e.TicketTypeID, e.DateID, o.ID, seats); err != nil {
		return nil, err
	}
	if err := enqueueWebhook(ctx, tx, palaro.WebhookWaitlistOffered, o.ID, now); err != nil {
		return nil, err
	}
	if o.Event, o.TicketType, err = newRefCache().get(ctx, tx, e.EventID, e.TicketTypeID); err != nil {
		return nil, err
	}
	return o, enqueue(ctx, tx, s.composer.WaitlistOffer(o, token), "", now)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Advance expires unclaimed offers and offers the free tickets, in one unit of the writer.
func (s *WaitlistService) Advance(ctx context.Context, now time.Time) (expired, offered int, err error) {
	defer wrapErr(&err, "store: Advance")

	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if expired, err = s.expireOffers(ctx, tx, now); err != nil {
			return err
		}
		offered, err = s.offerFreeCount(ctx, tx, now)
		return err
	})
	return expired, offered, err
}

// expireOffers closes the open offers whose time ended at or before now, gives their tickets back,
// marks their entries passed and tells each person by e-mail.
func (s *WaitlistService) expireOffers(ctx context.Context, tx *sql.Tx, now time.Time) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, entry_id, ticket_type_id, coalesce(date_id, 0), quantity FROM waitlist_offers
		WHERE status = 'open' AND expires_at <= ? ORDER BY id`, formatTime(now))
	if err != nil {
		return 0, err
	}
	type lapsed struct {
		id, entry, typeID, dateID int64
		quantity                  int
	}
	var offers []lapsed
	for rows.Next() {
		var l lapsed
		if err := rows.Scan(&l.id, &l.entry, &l.typeID, &l.dateID, &l.quantity); err != nil {
			rows.Close()
			return 0, err
		}
		offers = append(offers, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	refs := newRefCache()
	for _, l := range offers {
		ok, err := passOffer(ctx, tx, l.id, l.entry, l.typeID, l.dateID, l.quantity, now)
		if err != nil {
			return n, err
		}
		if !ok {
			continue
		}
		e, err := loadEntry(ctx, tx, l.entry)
		if err != nil {
			return n, err
		}
		o := &palaro.WaitlistOffer{ID: l.id, EntryID: l.entry, Email: e.Email, Quantity: l.quantity, Status: palaro.OfferExpired,
			DateID: e.DateID, DateSlug: e.DateSlug}
		if o.Event, o.TicketType, err = refs.get(ctx, tx, e.EventID, l.typeID); err != nil {
			return n, err
		}
		if err := enqueue(ctx, tx, s.composer.WaitlistOfferExpired(o), "", now); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// passOffer closes an open offer as expired, gives its tickets and seats back and marks its entry
// passed; false (nothing done) when it was not open any more.
func passOffer(ctx context.Context, tx *sql.Tx, id, entryID, typeID, dateID int64, quantity int, now time.Time) (bool, error) {
	ok, err := closeOffer(ctx, tx, id, palaro.OfferExpired, "", now)
	if err != nil || !ok {
		return false, err
	}
	if err := unhold(ctx, tx, typeID, dateID, quantity); err != nil {
		return false, err
	}
	if err := releaseOfferSeats(ctx, tx, id); err != nil {
		return false, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE waitlist_entries SET status = 'passed', updated_at = ? WHERE id = ? AND status = 'offered'`,
		formatTime(now), entryID)
	return err == nil, err
}

// Decline gives up the offer of a link token before its end: its tickets (and seats) go to the
// next people on the list at once, or back on sale.
func (s *WaitlistService) Decline(ctx context.Context, token string, now time.Time) (err error) {
	defer wrapErr(&err, "store: Decline")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var id, entryID, typeID, dateID int64
		var quantity int
		var status string
		var expires sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT id, entry_id, ticket_type_id, coalesce(date_id, 0), quantity, status, expires_at
			FROM waitlist_offers WHERE token_hash = ?`, hashToken(strings.TrimSpace(token))).Scan(&id, &entryID, &typeID, &dateID,
			&quantity, &status, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			return palaro.Errorf(palaro.ENOTFOUND, "This waiting-list offer was not found.")
		} else if err != nil {
			return err
		}
		if until, _ := parseTime(expires); status != palaro.OfferOpen || !now.Before(until) {
			return palaro.Errorf(palaro.ECONFLICT, "This waiting-list offer is no longer open.")
		}
		if ok, err := passOffer(ctx, tx, id, entryID, typeID, dateID, quantity, now); err != nil {
			return err
		} else if !ok {
			return palaro.Errorf(palaro.ECONFLICT, "This waiting-list offer is no longer open.")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE waitlist_offers SET declined = 1 WHERE id = ?`, id); err != nil {
			return err
		}
		return s.offerFree(ctx, tx, now)
	})
}

// closeOffer moves an open offer to status; false when it was not open any more.
func closeOffer(ctx context.Context, tx *sql.Tx, id int64, status, orderPublicID string, now time.Time) (bool, error) {
	res, err := tx.ExecContext(ctx, `UPDATE waitlist_offers SET status = ?, closed_at = ?, order_public_id = ?
		WHERE id = ? AND status = 'open'`, status, formatTime(now), orderPublicID, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// unhold gives back tickets an offer held: on its date of a series (dateID), else of its type.
func unhold(ctx context.Context, tx *sql.Tx, typeID, dateID int64, quantity int) error {
	res, err := tx.ExecContext(ctx, `UPDATE ticket_types SET held = held - ? WHERE id = ? AND held >= ?`, quantity, typeID, quantity)
	if dateID != 0 {
		res, err = tx.ExecContext(ctx, `UPDATE date_stock SET held = held - ? WHERE date_id = ? AND ticket_type_id = ? AND held >= ?`,
			quantity, dateID, typeID, quantity)
	}
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("ticket type %d holds fewer than the %d tickets of an offer", typeID, quantity)
	}
	return nil
}

// claimOffer lets order o buy the tickets of the offer with token, inside the order's unit: the
// offer must be open, unexpired, for o's ticket type, e-mail address, exact quantity and, for a
// seated type, exactly its seats. Its hold (and its seats) are given back here so that the
// order's own guarded hold and seats, right after in the same unit, take them.
func claimOffer(ctx context.Context, tx *sql.Tx, token string, o *palaro.Order, now time.Time) error {
	var id, entryID, typeID, dateID int64
	var quantity int
	var status, email, seatList, slug string
	var expires sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT f.id, f.entry_id, f.ticket_type_id, coalesce(f.date_id, 0), coalesce(d.slug, ''),
		f.quantity, f.status, f.expires_at, w.email, f.seats
		FROM waitlist_offers f JOIN waitlist_entries w ON w.id = f.entry_id LEFT JOIN event_dates d ON d.id = f.date_id
		WHERE f.token_hash = ?`, hashToken(strings.TrimSpace(token))).Scan(&id, &entryID, &typeID, &dateID, &slug, &quantity,
		&status, &expires, &email, &seatList)
	if errors.Is(err, sql.ErrNoRows) {
		return palaro.Errorf(palaro.ENOTFOUND, "This waiting-list offer was not found.")
	} else if err != nil {
		return err
	}
	until, _ := parseTime(expires)
	switch {
	case status == palaro.OfferClaimed:
		return palaro.Errorf(palaro.ECONFLICT, "This waiting-list offer was already used.")
	case status != palaro.OfferOpen || !now.Before(until):
		return palaro.Errorf(palaro.ECONFLICT, "This waiting-list offer has expired: the tickets went to the next person on the list.")
	case typeID != o.TicketTypeID:
		return palaro.Errorf(palaro.EINVALID, "This waiting-list offer is for another ticket.")
	case dateID != orderDate(o):
		return palaro.Errorf(palaro.EINVALID, "This waiting-list offer is for %s.", palaro.DateSlugLabel(slug))
	case email != o.Email:
		return palaro.Errorf(palaro.EINVALID, "This waiting-list offer is for %s: please buy with that e-mail address.", email)
	case quantity != o.Quantity:
		return palaro.Errorf(palaro.EINVALID, "This waiting-list offer is for exactly %s.", palaro.Tickets(quantity))
	}
	if seats := parseSeatList(seatList); len(seats) > 0 && !sameSeats(seats, o.Seats) {
		return palaro.Errorf(palaro.EINVALID, "This waiting-list offer is for seats %s.", strings.Join(seats, ", "))
	}
	if ok, err := closeOffer(ctx, tx, id, palaro.OfferClaimed, o.PublicID, now); err != nil {
		return err
	} else if !ok {
		return palaro.Errorf(palaro.ECONFLICT, "This waiting-list offer was already used.")
	}
	if err := unhold(ctx, tx, typeID, dateID, quantity); err != nil {
		return err
	}
	if err := releaseOfferSeats(ctx, tx, id); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE waitlist_entries SET status = 'claimed', updated_at = ? WHERE id = ?`, formatTime(now), entryID)
	return err
}

// orderDate is the id of the series date an order is for; 0 for none.
func orderDate(o *palaro.Order) int64 {
	if o.Date == nil {
		return 0
	}
	return o.Date.ID
}

// FindOffer returns the offer of a link token with its event and ticket type.
func (s *WaitlistService) FindOffer(ctx context.Context, token string) (_ *palaro.WaitlistOffer, err error) {
	defer wrapErr(&err, "store: FindOffer")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	offers, err := queryOffers(ctx, tx, `f.token_hash = ?`, hashToken(strings.TrimSpace(token)))
	if err != nil {
		return nil, err
	}
	if len(offers) == 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "This waiting-list offer was not found.")
	}
	o := offers[0]
	var eventID int64
	if err := tx.QueryRowContext(ctx, `SELECT event_id FROM waitlist_entries WHERE id = ?`, o.EntryID).Scan(&eventID); err != nil {
		return nil, err
	}
	if o.Event, o.TicketType, err = newRefCache().get(ctx, tx, eventID, typeOfOffer(ctx, tx, o.ID)); err != nil {
		return nil, err
	}
	return o, nil
}

func typeOfOffer(ctx context.Context, q querier, id int64) int64 {
	var t int64
	_ = q.QueryRowContext(ctx, `SELECT ticket_type_id FROM waitlist_offers WHERE id = ?`, id).Scan(&t)
	return t
}

func queryOffers(ctx context.Context, q querier, where string, args ...any) ([]*palaro.WaitlistOffer, error) {
	rows, err := q.QueryContext(ctx, `SELECT f.id, f.entry_id, w.email, f.quantity, f.status, f.by_hand, f.offered_at,
		f.expires_at, f.closed_at, f.order_public_id, f.seats, f.declined, coalesce(f.date_id, 0), coalesce(fd.slug, '')
		FROM waitlist_offers f JOIN waitlist_entries w ON w.id = f.entry_id LEFT JOIN event_dates fd ON fd.id = f.date_id
		WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*palaro.WaitlistOffer
	for rows.Next() {
		var o palaro.WaitlistOffer
		var byHand, declined int
		var offered, expires, closed sql.NullString
		var seats string
		if err := rows.Scan(&o.ID, &o.EntryID, &o.Email, &o.Quantity, &o.Status, &byHand, &offered, &expires, &closed,
			&o.OrderPublicID, &seats, &declined, &o.DateID, &o.DateSlug); err != nil {
			return nil, err
		}
		o.Declined = declined == 1
		o.Seats = parseSeatList(seats)
		o.ByHand = byHand == 1
		o.OfferedAt, _ = parseTime(offered)
		o.ExpiresAt, _ = parseTime(expires)
		o.ClosedAt, _ = parseTime(closed)
		out = append(out, &o)
	}
	return out, rows.Err()
}

// Board returns an event's waiting lists in order, each entry with its offers.
func (s *WaitlistService) Board(ctx context.Context, eventID int64) (_ *palaro.WaitlistBoard, err error) {
	defer wrapErr(&err, "store: Board(%d)", eventID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	b := &palaro.WaitlistBoard{}
	if b.OfferTime, err = offerTime(ctx, tx, eventID); err != nil {
		return nil, err
	}
	// waiting entries first (in list order), then the others by when they last changed
	entries, err := queryEntries(ctx, tx, `w.event_id = ? ORDER BY tt.position, tt.id, coalesce(d.starts_at, ''), coalesce(d.id, 0),
		CASE WHEN w.status = 'waiting' THEN 0 ELSE 1 END, w.joined_at, w.id LIMIT 2000`, eventID)
	if err != nil {
		return nil, err
	}
	offers, err := queryOffers(ctx, tx, `w.event_id = ? ORDER BY f.id`, eventID)
	if err != nil {
		return nil, err
	}
	byEntry := map[int64][]palaro.WaitlistOffer{}
	for _, o := range offers {
		byEntry[o.EntryID] = append(byEntry[o.EntryID], *o)
	}
	for _, e := range entries {
		e.Offers = byEntry[e.ID]
		b.Entries = append(b.Entries, *e)
	}
	return b, nil
}

// SetOfferTime sets how long the event's offers hold their tickets.
func (s *WaitlistService) SetOfferTime(ctx context.Context, eventID int64, hours int, actor string) (err error) {
	defer wrapErr(&err, "store: SetOfferTime(%d)", eventID)

	if err := palaro.CheckOfferHours(hours); err != nil {
		return err
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO waitlist_settings (event_id, offer_minutes) VALUES (?, ?)
			ON CONFLICT (event_id) DO UPDATE SET offer_minutes = excluded.offer_minutes`, eventID, hours*60); err != nil {
			return err
		}
		return auditOn(ctx, tx, eventID, actor, "waiting-list offer time set to "+palaro.Plural(hours, "hour", "hours"), "", s.db.Now())
	})
}

// auditOn appends to an event's audit log inside tx.
func auditOn(ctx context.Context, tx *sql.Tx, eventID int64, actor, action, detail string, now time.Time) error {
	orgID, err := eventOrg(ctx, tx, eventID)
	if err != nil {
		return err
	}
	return audit(ctx, tx, orgID, eventID, actor, action, detail, now)
}

// OfferByHand offers tickets to one entry of the event's list, out of order; for a seated type,
// the seats named (quantity is then their number) or those the list would pick.
func (s *WaitlistService) OfferByHand(ctx context.Context, eventID, entryID int64, quantity int, seats []string, actor string, now time.Time) (_ *palaro.WaitlistOffer, err error) {
	defer wrapErr(&err, "store: OfferByHand(%d)", eventID)

	seats, err = palaro.ParseSeats(seats)
	if err != nil {
		return nil, err
	}
	if len(seats) > 0 {
		quantity = len(seats)
	}
	var o *palaro.WaitlistOffer
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		e, err := loadEntry(ctx, tx, entryID)
		if err != nil {
			return err
		}
		if e.EventID != eventID {
			return palaro.Errorf(palaro.ENOTFOUND, "No such entry on the waiting list.")
		}
		if e.Status == palaro.WaitlistOffered {
			return palaro.Errorf(palaro.ECONFLICT, "%s already has an open offer.", e.Email)
		}
		if quantity < 1 || quantity > e.Quantity {
			return palaro.Errorf(palaro.EINVALID, "Offer between 1 and %s to %s.", palaro.Tickets(e.Quantity), e.Email)
		}
		if o, err = s.makeOffer(ctx, tx, e, quantity, seats, true, now); err != nil {
			return err
		}
		what := palaro.Tickets(quantity)
		if len(o.Seats) > 0 {
			what += " (seats " + strings.Join(o.Seats, ", ") + ")"
		}
		return auditOn(ctx, tx, eventID, actor, fmt.Sprintf("waiting list: %s offered by hand to %s", what, e.Email), "", now)
	})
	return o, err
}
