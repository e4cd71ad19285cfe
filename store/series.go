package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"palaro"
)

// SeriesService implements palaro.SeriesService: the dates of event series and their stock.
type SeriesService struct{ db *DB }

// NewSeriesService returns the series service backed by db.
func NewSeriesService(db *DB) *SeriesService { return &SeriesService{db: db} }

var _ palaro.SeriesService = (*SeriesService)(nil)

// dateColumns lists the event_dates columns (alias d, its own venue v) in the order scanDate reads them.
const dateColumns = `d.id, d.event_id, d.slug, d.name, d.starts_at, d.ends_at, d.sales_start, d.sales_end, d.status, d.sequence,
	d.created_at, d.updated_at, coalesce(v.id, 0), coalesce(v.name, ''), coalesce(v.address, ''), coalesce(v.city, ''),
	coalesce(v.region, ''), coalesce(v.latitude, 0), coalesce(v.longitude, 0)`

// dateFrom is the FROM clause dateColumns reads.
const dateFrom = ` FROM event_dates d LEFT JOIN venues v ON v.id = d.venue_id `

func scanDate(r rowScanner) (d palaro.EventDate, err error) {
	var starts, ends, salesStart, salesEnd, created, updated sql.NullString
	var v palaro.Venue
	if err = r.Scan(&d.ID, &d.EventID, &d.Slug, &d.Name, &starts, &ends, &salesStart, &salesEnd, &d.Status, &d.Sequence,
		&created, &updated, &v.ID, &v.Name, &v.Address, &v.City, &v.Region, &v.Latitude, &v.Longitude); err != nil {
		return d, err
	}
	for _, t := range []struct {
		dst *time.Time
		src sql.NullString
	}{{&d.StartsAt, starts}, {&d.EndsAt, ends}, {&d.SalesStart, salesStart}, {&d.SalesEnd, salesEnd},
		{&d.CreatedAt, created}, {&d.UpdatedAt, updated}} {
		if *t.dst, err = parseTime(t.src); err != nil {
			return d, err
		}
	}
	if v.ID != 0 {
		d.Venue = &v
	}
	return d, nil
}

// eventDates returns an event's dates by start.
func eventDates(ctx context.Context, q querier, eventID int64) ([]palaro.EventDate, error) {
	return queryRows(ctx, q, `SELECT `+dateColumns+dateFrom+`WHERE d.event_id = ? ORDER BY d.starts_at, d.id`,
		[]any{eventID}, scanDate)
}

// findDate returns the event's date with that slug; ENOTFOUND when it has none.
func findDate(ctx context.Context, q querier, eventID int64, slug string) (*palaro.EventDate, error) {
	d, err := scanDate(q.QueryRowContext(ctx, `SELECT `+dateColumns+dateFrom+`WHERE d.event_id = ? AND d.slug = ?`, eventID, slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "%s", palaro.MsgDateUnknown)
	}
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// ListEventDates returns an event's dates by start; none for a single-date event.
func (s *SeriesService) ListEventDates(ctx context.Context, eventID int64) (_ []palaro.EventDate, err error) {
	defer wrapErr(&err, "store: ListEventDates(%d)", eventID)
	return eventDates(ctx, s.db.read, eventID)
}

// FindEventDate returns the event's date with that slug; ENOTFOUND when it has none.
func (s *SeriesService) FindEventDate(ctx context.Context, eventID int64, slug string) (_ *palaro.EventDate, err error) {
	defer wrapErr(&err, "store: FindEventDate(%d, %q)", eventID, slug)
	return findDate(ctx, s.db.read, eventID, slug)
}

// ListDateAvailability returns each date of the event with the places left there of each ticket
// type: a type's date_stock row, or its own capacity untouched when the date has none yet; a pass
// shows the places of the type it is a pass of.
func (s *SeriesService) ListDateAvailability(ctx context.Context, eventID int64) (_ []palaro.DateAvailability, err error) {
	defer wrapErr(&err, "store: ListDateAvailability(%d)", eventID)
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return dateAvailability(ctx, tx, eventID)
}

func dateAvailability(ctx context.Context, q querier, eventID int64) ([]palaro.DateAvailability, error) {
	dates, err := eventDates(ctx, q, eventID)
	if err != nil || len(dates) == 0 {
		return nil, err
	}
	type typeRow struct {
		id, passOf int64
		capacity   int
	}
	types, err := queryRows(ctx, q, `SELECT id, coalesce(pass_of, 0), capacity FROM ticket_types WHERE event_id = ? AND tournament_id IS NULL
		ORDER BY position, id`, []any{eventID}, func(r rowScanner) (t typeRow, err error) {
		err = r.Scan(&t.id, &t.passOf, &t.capacity)
		return t, err
	})
	if err != nil {
		return nil, err
	}
	capacityOf := map[int64]int{}
	for _, t := range types {
		capacityOf[t.id] = t.capacity
	}
	type key struct{ date, tt int64 }
	stock := map[key]palaro.DateStock{}
	rows, err := queryRows(ctx, q, `SELECT s.date_id, s.ticket_type_id, s.capacity, s.own_capacity, s.sold, s.held
		FROM date_stock s JOIN event_dates d ON d.id = s.date_id WHERE d.event_id = ?`, []any{eventID},
		func(r rowScanner) (st palaro.DateStock, err error) {
			err = r.Scan(&st.DateID, &st.TicketTypeID, &st.Capacity, &st.OwnCapacity, &st.Sold, &st.Held)
			return st, err
		})
	if err != nil {
		return nil, err
	}
	for _, st := range rows {
		stock[key{st.DateID, st.TicketTypeID}] = st
	}
	out := make([]palaro.DateAvailability, len(dates))
	for i, d := range dates {
		out[i].Date = d
		for _, t := range types {
			from := t.id
			if t.passOf != 0 {
				from = t.passOf
			}
			st, ok := stock[key{d.ID, from}]
			if !ok {
				st = palaro.DateStock{DateID: d.ID, Capacity: capacityOf[from]}
			}
			st.TicketTypeID = t.id
			out[i].Stock = append(out[i].Stock, st)
		}
	}
	return out, nil
}

// CreateDates adds dates to an event (one, or a bulk rule's), each with its slug (SlugDates
// beside the event's existing dates) and, for every day ticket type of the event, its stock on
// the date: the date's own capacity where the input sets one, else the type's. Passes valid on
// every date already sold take their place (and seat) on each new date in the same write.
// Returns the dates created, by start; EINVALID names the failing field (of the first failing
// date) and ECONFLICT says when the event would exceed MaxSeriesDates.
func (s *SeriesService) CreateDates(ctx context.Context, eventID int64, inputs []palaro.DateInput, now time.Time) (_ []palaro.EventDate, err error) {
	defer wrapErr(&err, "store: CreateDates(%d)", eventID)
	if len(inputs) == 0 {
		return nil, palaro.Errorf(palaro.EINVALID, "Add at least one date.")
	}
	for _, in := range inputs {
		if err := in.Validate(); err != nil {
			return nil, err
		}
	}
	var created []palaro.EventDate
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.db.lockRow(ctx, tx, "events", eventID); err != nil {
			return err
		}
		var err error
		created, err = insertDates(ctx, tx, eventID, inputs, now)
		return err
	})
	return created, err
}

// insertDates adds inputs (checked) as dates of the event inside tx, as CreateDates describes, and
// returns them by start; the caller holds the event's row lock (or, seeding, the only transaction).
func insertDates(ctx context.Context, tx *sql.Tx, eventID int64, inputs []palaro.DateInput, now time.Time) ([]palaro.EventDate, error) {
	var created []palaro.EventDate
	existing, err := eventDates(ctx, tx, eventID)
	if err != nil {
		return nil, err
	}
	if len(existing)+len(inputs) > palaro.MaxSeriesDates {
		return nil, palaro.Errorf(palaro.ECONFLICT, "An event has at most %d dates; this one has %d.", palaro.MaxSeriesDates, len(existing))
	}
	added := make([]palaro.EventDate, len(inputs))
	for i, in := range inputs {
		added[i] = palaro.EventDate{EventID: eventID, Name: in.Name, StartsAt: in.StartsAt, EndsAt: in.EndsAt,
			SalesStart: in.SalesStart, SalesEnd: in.SalesEnd, Status: cmp.Or(in.Status, palaro.DateScheduled)}
	}
	added = palaro.SlugDates(existing, added)
	types, err := dayTypes(ctx, tx, eventID)
	if err != nil {
		return nil, err
	}
	for i, d := range added {
		var venue any
		if inputs[i].VenueID != 0 {
			venue = inputs[i].VenueID
		}
		d.ID, err = insertID(ctx, tx, `INSERT INTO event_dates (event_id, slug, name, starts_at, ends_at, venue_id,
			sales_start, sales_end, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			eventID, d.Slug, d.Name, formatTime(d.StartsAt), formatTime(d.EndsAt), venue, nullTime(d.SalesStart),
			nullTime(d.SalesEnd), d.Status, formatTime(now), formatTime(now))
		if err != nil {
			return nil, err
		}
		d.CreatedAt, d.UpdatedAt = now, now
		for _, t := range types {
			capacity, own := t.capacity, 0
			if n, ok := inputs[i].Capacities[t.code]; ok {
				capacity, own = n, 1
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO date_stock (date_id, ticket_type_id, capacity, own_capacity)
				VALUES (?, ?, ?, ?)`, d.ID, t.id, capacity, own); err != nil {
				return nil, err
			}
		}
		if err := passesJoinDate(ctx, tx, eventID, d, now); err != nil {
			return nil, err
		}
		created = append(created, d)
	}
	slices.SortFunc(created, func(a, b palaro.EventDate) int { return a.StartsAt.Compare(b.StartsAt) })
	return created, nil
}

// dayType is a ticket type that has stock on each date (not a pass).
type dayType struct {
	id       int64
	code     string
	capacity int
}

func dayTypes(ctx context.Context, q querier, eventID int64) ([]dayType, error) {
	return queryRows(ctx, q, `SELECT id, code, capacity FROM ticket_types WHERE event_id = ? AND pass_kind = '' AND tournament_id IS NULL
		ORDER BY position, id`, []any{eventID}, func(r rowScanner) (t dayType, err error) {
		err = r.Scan(&t.id, &t.code, &t.capacity)
		return t, err
	})
}

// passesJoinDate gives a new date to the event's passes valid on every date: each live pass
// ticket takes a place (sold) and keeps its seat there, each pending pass order holds its places
// there, all with the guarded counters; ECONFLICT when the date has too little room for them.
func passesJoinDate(ctx context.Context, tx *sql.Tx, eventID int64, d palaro.EventDate, now time.Time) error {
	type passTicket struct {
		id, orderID, passOf int64
		seat                string
	}
	tickets, err := queryRows(ctx, tx, `SELECT t.id, t.order_id, tt.pass_of, t.seat FROM tickets t
		JOIN ticket_types tt ON tt.id = t.ticket_type_id JOIN orders o ON o.id = t.order_id
		WHERE tt.event_id = ? AND tt.pass_kind = 'every' AND t.status != 'cancelled' AND o.status = 'paid'
		ORDER BY t.id`, []any{eventID}, func(r rowScanner) (p passTicket, err error) {
		err = r.Scan(&p.id, &p.orderID, &p.passOf, &p.seat)
		return p, err
	})
	if err != nil {
		return err
	}
	for _, p := range tickets {
		if err := takeDatePlaces(ctx, tx, d.ID, p.passOf, 1, true); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO pass_uses (ticket_id, date_id, seat, created_at) VALUES (?, ?, ?, ?)`,
			p.id, d.ID, p.seat, formatTime(now)); err != nil {
			return err
		}
		if p.seat != "" {
			if err := takeSeatsOn(ctx, tx, p.passOf, []int64{d.ID}, p.orderID, []string{p.seat}); err != nil {
				return err
			}
		}
	}
	type pending struct {
		id, passOf int64
		quantity   int
		seats      string
	}
	orders, err := queryRows(ctx, tx, `SELECT o.id, tt.pass_of, o.quantity, o.seats FROM orders o
		JOIN ticket_types tt ON tt.id = o.ticket_type_id
		WHERE tt.event_id = ? AND tt.pass_kind = 'every' AND o.status = 'pending' AND o.kind = 'tickets'
		ORDER BY o.id`, []any{eventID}, func(r rowScanner) (p pending, err error) {
		err = r.Scan(&p.id, &p.passOf, &p.quantity, &p.seats)
		return p, err
	})
	if err != nil {
		return err
	}
	for _, o := range orders {
		plan := datePlan{dates: []int64{d.ID}, stockType: o.passOf}
		if err := plan.take(ctx, tx, o.quantity, false); err != nil {
			return err
		}
		if err := plan.record(ctx, tx, o.id, o.quantity); err != nil {
			return err
		}
		var seats []string
		if err := json.Unmarshal([]byte(o.seats), &seats); err != nil {
			return err
		}
		if err := takeSeatsOn(ctx, tx, o.passOf, []int64{d.ID}, o.id, seats); err != nil {
			return err
		}
	}
	return nil
}

// takeDatePlaces takes n places of a ticket type on a date (sold, or held for a pending order)
// with one guarded UPDATE, sold + held + n <= capacity, as reserve does for a single-date event;
// the date's stock row is made first when the type has none there yet (its capacity the type's).
// ECONFLICT (soldOut) when the places are not there.
func takeDatePlaces(ctx context.Context, tx *sql.Tx, dateID, ticketTypeID int64, n int, sell bool) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO date_stock (date_id, ticket_type_id, capacity)
		SELECT ?, id, capacity FROM ticket_types WHERE id = ? ON CONFLICT DO NOTHING`, dateID, ticketTypeID); err != nil {
		return err
	}
	column := "held"
	if sell {
		column = "sold"
	}
	res, err := tx.ExecContext(ctx, `UPDATE date_stock SET `+column+` = `+column+` + ?
		WHERE date_id = ? AND ticket_type_id = ? AND sold + held + ? <= capacity`, n, dateID, ticketTypeID, n)
	if err != nil {
		return err
	}
	if got, err := res.RowsAffected(); err != nil {
		return err
	} else if got == 1 {
		return nil
	}
	var name, day string
	var left int
	if err := tx.QueryRowContext(ctx, `SELECT tt.name, d.slug, CASE WHEN s.capacity - s.sold - s.held > 0
		THEN s.capacity - s.sold - s.held ELSE 0 END FROM date_stock s JOIN ticket_types tt ON tt.id = s.ticket_type_id
		JOIN event_dates d ON d.id = s.date_id WHERE s.date_id = ? AND s.ticket_type_id = ?`, dateID, ticketTypeID).
		Scan(&name, &day, &left); err != nil {
		return err
	}
	return soldOut(name+" on "+palaro.DateSlugLabel(day), left)
}

// datePlan is where a ticket order takes its places: nothing more than today for a single-date
// event; one date for a day ticket of a series; every coming date for a pass valid on every date
// (a pass for some dates takes its places as they are picked).
type datePlan struct {
	date      *palaro.EventDate // a day ticket's date
	dates     []int64           // the dates places are taken on (the day ticket's, or a pass's)
	stockType int64             // the ticket type whose places (and seats) are taken on those dates
	// freeOn are the coming dates of a pass for some dates: it takes no place at purchase but
	// keeps its seat on every date (taken on date 0), so its seats must be free on all of them
	freeOn []int64
}

// seatsFreeOn are the dates the order's seats must be free on: its dates, or a pass for some
// dates' coming ones.
func (p datePlan) seatsFreeOn() []int64 {
	if len(p.dates) == 0 {
		return p.freeOn
	}
	return p.dates
}

// dateID is the id of a day ticket's date, 0 for none (the event itself, or a pass): the date a
// best-available hold the order names is on (seat_holds.date_id).
func (p datePlan) dateID() int64 {
	if p.date == nil {
		return 0
	}
	return p.date.ID
}

// dateFieldError is the buy body's field error for its date.
func dateFieldError(msg string) error {
	return &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{palaro.FieldDate: msg}}
}

// slugDate is the date of dates with that slug, or the buy body's field error naming an unknown date.
func slugDate(dates []palaro.EventDate, slug string) (*palaro.EventDate, error) {
	i := slices.IndexFunc(dates, func(d palaro.EventDate) bool { return d.Slug == slug })
	if i < 0 {
		return nil, dateFieldError(palaro.MsgDateUnknown)
	}
	return &dates[i], nil
}

// purchaseDates returns the event's dates as a purchase plans them (planDates), from the catalog:
// read once, kept until an event_dates or venues row changes on the writer connection (or
// catalogTTL for another process's change), like the ticket type lookup beside it. So a rush on a
// single-date event reads nothing per order for its dates. The slice is shared: never modified.
func (db *DB) purchaseDates(ctx context.Context, eventID int64) ([]palaro.EventDate, error) {
	v, err := db.cached(catalogDates+strconv.FormatInt(eventID, 10), func() (any, error) {
		return eventDates(context.WithoutCancel(ctx), db.read, eventID)
	})
	if err != nil {
		return nil, err
	}
	return v.([]palaro.EventDate), nil
}

// planDates decides an order's dates from the buy body's date slug and the event's dates (read
// only, not modified): a series' day ticket needs one of its dates, open for sale at now (a field
// error names a missing or unknown date); a single-date event and a pass take none.
func planDates(dates []palaro.EventDate, ev *palaro.Event, tt *palaro.TicketType, slug string, now time.Time) (datePlan, error) {
	slug = strings.TrimSpace(slug)
	plan := datePlan{stockType: tt.ID}
	switch {
	case len(dates) == 0 && slug != "":
		return plan, dateFieldError(palaro.MsgDateNotForSingle)
	case len(dates) == 0:
		return plan, nil
	case tt.IsPass() && slug != "":
		return plan, dateFieldError(palaro.MsgPassNoDateChoice)
	case tt.IsPass():
		plan.stockType = tt.PassOf
		coming := palaro.PassDates(dates, now)
		if tt.PassKind != palaro.PassEvery {
			plan.freeOn = coming
			return plan, nil
		}
		plan.dates = coming
		if len(plan.dates) == 0 {
			return plan, palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgPassNoDates)
		}
		return plan, nil
	case slug == "":
		return plan, dateFieldError(palaro.MsgDateRequired)
	}
	on, err := slugDate(dates, slug)
	if err != nil {
		return plan, err
	}
	d := *on
	switch d.SaleState(*tt, ev, 1, now) { // sold out is decided by the guarded UPDATE, under the write lock
	case palaro.SaleNotStarted:
		return plan, palaro.Errorf(palaro.ECONFLICT, "Ticket sales for %s on %s have not started yet.", tt.Name, palaro.DateSlugLabel(d.Slug))
	case palaro.SaleEnded:
		switch d.Status {
		case palaro.DateCancelled:
			return plan, palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgDateCancelled)
		case palaro.DatePostponed:
			return plan, palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgDatePostponed)
		}
		return plan, palaro.Errorf(palaro.ECONFLICT, "Ticket sales for %s on %s have ended.", tt.Name, palaro.DateSlugLabel(d.Slug))
	}
	plan.date, plan.dates = &d, []int64{d.ID}
	return plan, nil
}

// stillOn checks, inside the order's write, that the plan's dates are still on: the plan was made
// from the dates kept in the catalog (purchaseDates), which another app server's cancellation
// reaches only through the change feed, so a date cancelled (or, for a day ticket, postponed)
// meanwhile is refused here, as planDates refuses it, and no order takes places on it.
func (p datePlan) stillOn(ctx context.Context, tx *sql.Tx) error {
	for _, d := range p.dates {
		var status string
		err := tx.QueryRowContext(ctx, `SELECT status FROM event_dates WHERE id = ?`, d).Scan(&status)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return dateFieldError(palaro.MsgDateUnknown)
		case err != nil:
			return err
		case status == palaro.DateCancelled:
			return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgDateCancelled)
		case status == palaro.DatePostponed && p.date != nil:
			return palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgDatePostponed)
		}
	}
	return nil
}

// take takes the plan's places on its dates (held, or sold for a free order), inside the order's
// write transaction, before the order is saved.
func (p datePlan) take(ctx context.Context, tx *sql.Tx, quantity int, sell bool) error {
	for _, d := range p.dates {
		if err := takeDatePlaces(ctx, tx, d, p.stockType, quantity, sell); err != nil {
			return err
		}
	}
	return nil
}

// record writes the order's places on its dates (order_dates), once the order is saved.
func (p datePlan) record(ctx context.Context, tx *sql.Tx, orderID int64, quantity int) error {
	for _, d := range p.dates {
		if _, err := tx.ExecContext(ctx, `INSERT INTO order_dates (order_id, date_id, ticket_type_id, quantity)
			VALUES (?, ?, ?, ?)`, orderID, d, p.stockType, quantity); err != nil {
			return err
		}
	}
	return nil
}

// orderPlan reads back the places an order took on dates (order_dates), by date: an empty plan
// (stock type the order's own) for an order of a single-date event or a pass for picked dates.
func orderPlan(ctx context.Context, q querier, orderID, ticketTypeID int64) (datePlan, error) {
	plan := datePlan{stockType: ticketTypeID}
	type row struct{ date, tt int64 }
	rows, err := queryRows(ctx, q, `SELECT date_id, ticket_type_id FROM order_dates WHERE order_id = ? ORDER BY date_id`,
		[]any{orderID}, func(r rowScanner) (x row, err error) {
			err = r.Scan(&x.date, &x.tt)
			return x, err
		})
	if err != nil {
		return plan, err
	}
	for _, r := range rows {
		plan.dates, plan.stockType = append(plan.dates, r.date), r.tt
	}
	return plan, nil
}

// release gives back the places a pending order held on its dates.
func (p datePlan) release(ctx context.Context, tx *sql.Tx, quantity int) error {
	for _, d := range p.dates {
		if _, err := tx.ExecContext(ctx, `UPDATE date_stock SET held = held - ? WHERE date_id = ? AND ticket_type_id = ?
			AND held >= ?`, quantity, d, p.stockType, quantity); err != nil {
			return err
		}
	}
	return nil
}

// sell turns the places a paid order held on its dates into sold ones; after its hold expired
// (held false) it takes them again from what is left on each date, all or none: false when a
// date has no room left (the caller refunds the order).
func (p datePlan) sell(ctx context.Context, tx *sql.Tx, quantity int, held bool) (bool, error) {
	for i, d := range p.dates {
		query := `UPDATE date_stock SET held = held - ?, sold = sold + ? WHERE date_id = ? AND ticket_type_id = ?`
		args := []any{quantity, quantity, d, p.stockType}
		if !held {
			query = `UPDATE date_stock SET sold = sold + ? WHERE date_id = ? AND ticket_type_id = ? AND sold + held + ? <= capacity`
			args = []any{quantity, d, p.stockType, quantity}
		}
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return false, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return false, err
		} else if n == 0 {
			undo := datePlan{dates: p.dates[:i], stockType: p.stockType}
			return false, undo.unsell(ctx, tx, quantity)
		}
	}
	return true, nil
}

// unsell gives back sold places on the plan's dates (a cancelled ticket's, or an undone sale's).
func (p datePlan) unsell(ctx context.Context, tx *sql.Tx, quantity int) error {
	for _, d := range p.dates {
		if _, err := tx.ExecContext(ctx, `UPDATE date_stock SET sold = CASE WHEN sold > ? THEN sold - ? ELSE 0 END
			WHERE date_id = ? AND ticket_type_id = ?`, quantity, quantity, d, p.stockType); err != nil {
			return err
		}
	}
	return nil
}

// ticketPlaces returns the places a ticket holds on dates: its date's for a series' day ticket,
// each of its dates' (pass_uses) for a pass, none for a ticket of a single-date event; dated is
// true for a day ticket, whose type's own counters it never touched.
func ticketPlaces(ctx context.Context, q querier, ticketID int64) (plan datePlan, dated bool, err error) {
	var dateID, typeID, passOf int64
	if err := q.QueryRowContext(ctx, `SELECT coalesce(t.date_id, 0), t.ticket_type_id, coalesce(tt.pass_of, 0)
		FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE t.id = ?`, ticketID).
		Scan(&dateID, &typeID, &passOf); err != nil {
		return plan, false, err
	}
	plan.stockType = typeID
	switch {
	case dateID != 0:
		plan.dates = []int64{dateID}
		return plan, true, nil
	case passOf != 0:
		plan.stockType = passOf
		plan.dates, err = queryRows(ctx, q, `SELECT date_id FROM pass_uses WHERE ticket_id = ? ORDER BY date_id`,
			[]any{ticketID}, func(r rowScanner) (id int64, err error) {
				err = r.Scan(&id)
				return id, err
			})
	}
	return plan, false, err
}

// seriesScan is what a scan of a series' ticket decided before the ticket's own check-in: the
// date it is for, and, when it is already answered (a pass, another date's ticket), the answer.
type seriesScan struct {
	dateID int64
	result *palaro.CheckInResult
}

// scanSeries decides a scan of a ticket of a series: the gate's date (req.Date, or the date
// falling on the scan's day in Manila); a day ticket of another date is refused (wrong_date); a
// pass is admitted once per date, through its pass_uses row there (a pass for some dates takes
// one of its dates, and a place on it, at its first scan there; a scan synced from offline takes
// it even past the date's capacity), and the answer lists the dates it was admitted on; claimed is an offline scan's corrected phone time (nil when none). A day
// ticket of the date returns no result: the caller checks it in as any ticket.
func scanSeries(ctx context.Context, tx *sql.Tx, dates []palaro.EventDate, req palaro.CheckInRequest, id int64,
	t palaro.GateTicket, at, now time.Time, offline bool, claimed any) (seriesScan, error) {
	var date *palaro.EventDate
	if req.Date != "" {
		i := slices.IndexFunc(dates, func(d palaro.EventDate) bool { return d.Slug == req.Date })
		if i < 0 {
			return seriesScan{}, palaro.Errorf(palaro.EINVALID, "%s", palaro.MsgDateUnknown)
		}
		date = &dates[i]
	} else if date = palaro.DateOn(dates, at); date == nil {
		return seriesScan{}, palaro.Errorf(palaro.ECONFLICT, "%s", palaro.MsgNoDateToday)
	}
	var dateID, passOf int64
	var kind string
	var passDates int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(t.date_id, 0), tt.pass_kind, tt.pass_dates, coalesce(tt.pass_of, 0)
		FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE t.id = ?`, id).
		Scan(&dateID, &kind, &passDates, &passOf); err != nil {
		return seriesScan{}, err
	}
	scan := seriesScan{dateID: date.ID}
	if kind == "" {
		if dateID != 0 && dateID != date.ID {
			i := slices.IndexFunc(dates, func(d palaro.EventDate) bool { return d.ID == dateID })
			if i >= 0 {
				t.Date = dates[i].Slug
			}
			scan.result = palaro.NewCheckInResult(palaro.CheckInWrongDate, t)
		}
		return scan, nil
	}
	t.Date, t.Pass = date.Slug, palaro.TicketType{PassKind: kind, PassDates: passDates}.PassLabel()
	var has int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pass_uses WHERE ticket_id = ? AND date_id = ?`, id, date.ID).
		Scan(&has); err != nil {
		return scan, err
	}
	if has == 0 { // a pass for some dates picks this one as it goes, if it has one left and the date a place
		var used int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pass_uses WHERE ticket_id = ?`, id).Scan(&used); err != nil {
			return scan, err
		}
		if kind != palaro.PassCount || used >= passDates {
			scan.result = palaro.NewCheckInResult(palaro.CheckInUsedUp, t)
			return scan, nil
		}
		if err := takeDatePlaces(ctx, tx, date.ID, passOf, 1, true); err != nil {
			if !offline || palaro.ErrorCode(err) != palaro.ECONFLICT {
				return scan, err
			}
			// the phone let the holder in offline, not knowing the date's places: the admission is
			// recorded, its place counted over the capacity (a refused sync would hold back the
			// phone's every other scan)
			if _, err := tx.ExecContext(ctx, `UPDATE date_stock SET sold = sold + 1 WHERE date_id = ? AND ticket_type_id = ?`,
				date.ID, passOf); err != nil {
				return scan, err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO pass_uses (ticket_id, date_id, created_at) VALUES (?, ?, ?)`,
			id, date.ID, formatTime(now)); err != nil {
			return scan, err
		}
	}
	gate := palaro.NormalizeGate(req.Gate)
	res, err := tx.ExecContext(ctx, `UPDATE pass_uses SET checked_in_at = ?, gate = ? WHERE ticket_id = ? AND date_id = ?
		AND checked_in_at IS NULL`, formatTime(at), gate, id, date.ID)
	if err != nil {
		return scan, err
	}
	outcome := scanOutcome(res, offline)
	var checked sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT checked_in_at, gate FROM pass_uses WHERE ticket_id = ? AND date_id = ?`, id, date.ID).
		Scan(&checked, &t.Gate); err != nil {
		return scan, err
	}
	t.CheckedInAt, _ = parseTime(checked)
	t.Status = palaro.TicketCheckedIn
	if t.UsedDates, err = queryStrings(ctx, tx, `SELECT d.slug FROM pass_uses u JOIN event_dates d ON d.id = u.date_id
		WHERE u.ticket_id = ? AND u.checked_in_at IS NOT NULL ORDER BY d.starts_at`, id); err != nil {
		return scan, err
	}
	if err := logScan(ctx, tx, req, id, gate, outcome, at, now, claimed, date.ID); err != nil {
		return scan, err
	}
	scan.result = palaro.NewCheckInResult(outcome, t)
	return scan, nil
}

// DateSales counts each date of the event for the console (palaro.DateSales), from the dates'
// stock rows and a few grouped counts over the event's passes and tickets (never row by row):
// a day ticket's places on each date (passes' among them), each pass's holders there, and the
// tickets valid and admitted there.
func (s *SeriesService) DateSales(ctx context.Context, eventID int64) (_ []palaro.DateSales, err error) {
	defer wrapErr(&err, "store: DateSales(%d)", eventID)
	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	avail, err := dateAvailability(ctx, tx, eventID)
	if err != nil || len(avail) == 0 {
		return nil, err
	}
	type typeRow struct {
		id, passOf int64
		name, kind string
	}
	types, err := queryRows(ctx, tx, `SELECT id, coalesce(pass_of, 0), name, pass_kind FROM ticket_types WHERE event_id = ?
		AND tournament_id IS NULL ORDER BY position, id`, []any{eventID}, func(r rowScanner) (t typeRow, err error) {
		err = r.Scan(&t.id, &t.passOf, &t.name, &t.kind)
		return t, err
	})
	if err != nil {
		return nil, err
	}
	type key struct{ date, tt int64 }
	counts := func(query string) (map[key]int, error) {
		type row struct {
			k key
			n int
		}
		rows, err := queryRows(ctx, tx, query, []any{eventID}, func(r rowScanner) (x row, err error) {
			err = r.Scan(&x.k.date, &x.k.tt, &x.n)
			return x, err
		})
		out := map[key]int{}
		for _, r := range rows {
			out[r.k] += r.n
		}
		return out, err
	}
	// each pass type's live tickets holding a place on each date, and those admitted there
	passes, err := counts(`SELECT u.date_id, t.ticket_type_id, count(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id
		WHERE t.event_id = ? AND t.status != 'cancelled' GROUP BY u.date_id, t.ticket_type_id`)
	if err != nil {
		return nil, err
	}
	passIn, err := counts(`SELECT u.date_id, 0, count(*) FROM pass_uses u JOIN tickets t ON t.id = u.ticket_id
		WHERE t.event_id = ? AND t.status != 'cancelled' AND u.checked_in_at IS NOT NULL GROUP BY u.date_id`)
	if err != nil {
		return nil, err
	}
	// the day tickets of each date: live (0) and admitted (1)
	day, err := counts(`SELECT date_id, CASE WHEN status = 'checked_in' THEN 1 ELSE 0 END AS admitted, count(*) FROM tickets
		WHERE event_id = ? AND date_id IS NOT NULL AND status != 'cancelled' GROUP BY date_id, admitted`)
	if err != nil {
		return nil, err
	}
	out := make([]palaro.DateSales, len(avail))
	for i, a := range avail {
		ds := palaro.DateSales{Date: a.Date}
		for _, t := range types {
			row := palaro.DateTypeSales{TicketTypeID: t.id, Name: t.name, PassKind: t.kind}
			if t.kind != "" {
				row.Sold = passes[key{a.Date.ID, t.id}]
				ds.Admits += row.Sold
			} else if st, ok := a.Of(t.id); ok {
				row.Sold, row.Held, row.Capacity = st.Sold, st.Held, st.Capacity
				for _, p := range types {
					if p.passOf == t.id {
						row.Passes += passes[key{a.Date.ID, p.id}]
					}
				}
			}
			ds.Types = append(ds.Types, row)
		}
		ds.Admits += day[key{a.Date.ID, 0}] + day[key{a.Date.ID, 1}]
		ds.CheckedIn = day[key{a.Date.ID, 1}] + passIn[key{a.Date.ID, 0}]
		out[i] = ds
	}
	return out, nil
}
