package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// seriesFixture is a purchase fixture whose event (tekken-tuesdays-cubao) gets dates.
type seriesFixture struct {
	*purchaseFixture
	series  *SeriesService
	eventID int64
}

func newSeriesFixture(t *testing.T) *seriesFixture {
	t.Helper()
	f := newPurchaseFixture(t)
	s := &seriesFixture{purchaseFixture: f, series: NewSeriesService(f.db)}
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM events WHERE code = 'tekken-tuesdays-cubao'`).Scan(&s.eventID))
	return s
}

// weekly adds n weekly dates to the event, 7 PM to 11 PM Manila, from the 9th of January 2027.
func (f *seriesFixture) weekly(t *testing.T, n int, capacities map[string]int) []palaro.EventDate {
	t.Helper()
	dates, err := palaro.DateRule{Weekdays: []time.Weekday{time.Saturday}, StartTime: "19:00", EndTime: "23:00",
		From: "2027-01-09", Weeks: n}.Dates()
	require.NoError(t, err)
	inputs := make([]palaro.DateInput, len(dates))
	for i, d := range dates {
		inputs[i] = palaro.DateInput{StartsAt: d.StartsAt, EndsAt: d.EndsAt, Capacities: capacities}
	}
	created, err := f.series.CreateDates(context.Background(), f.eventID, inputs, f.now)
	require.NoError(t, err)
	return created
}

func TestSeries_CreateListFindDates(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	code := f.addTicketType(t, "day", 50000, 30, 4)
	got, err := f.series.ListEventDates(ctx, f.eventID)
	require.NoError(t, err)
	require.Empty(t, got, "an event without dates is a single-date event")

	created := f.weekly(t, 3, map[string]int{code: 10})
	require.Len(t, created, 3)
	require.Equal(t, []string{"2027-01-09", "2027-01-16", "2027-01-23"},
		[]string{created[0].Slug, created[1].Slug, created[2].Slug})

	// a second session on the 16th, in the afternoon, and one at midnight in Manila on the 17th
	afternoon := time.Date(2027, 1, 16, 14, 0, 0, 0, palaro.Manila)
	midnight := time.Date(2027, 1, 17, 0, 0, 0, 0, palaro.Manila)
	more, err := f.series.CreateDates(ctx, f.eventID, []palaro.DateInput{
		{StartsAt: afternoon, EndsAt: afternoon.Add(2 * time.Hour), Name: "Qualifiers"},
		{StartsAt: midnight, EndsAt: midnight.Add(time.Hour)},
	}, f.now)
	require.NoError(t, err)
	require.Equal(t, "2027-01-16-2", more[0].Slug)
	require.Equal(t, "2027-01-17", more[1].Slug)

	all, err := f.series.ListEventDates(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, all, 5)
	require.Equal(t, "2027-01-16-2", all[1].Slug, "dates list by start")

	d, err := f.series.FindEventDate(ctx, f.eventID, "2027-01-16-2")
	require.NoError(t, err)
	require.Equal(t, "Qualifiers", d.Name)
	require.True(t, afternoon.Equal(d.StartsAt))
	require.Nil(t, d.Venue, "the date takes the event's venue")
	require.Equal(t, palaro.DateScheduled, d.Status)
	_, err = f.series.FindEventDate(ctx, f.eventID, "2027-01-10")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))

	avail, err := f.series.ListDateAvailability(ctx, f.eventID)
	require.NoError(t, err)
	require.Len(t, avail, 5)
	var dayID int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM ticket_types WHERE code = ?`, code).Scan(&dayID))
	st, ok := avail[0].Of(dayID)
	require.True(t, ok)
	require.Equal(t, 10, st.Capacity, "the date's own capacity")
	require.True(t, st.OwnCapacity)
	st, ok = avail[1].Of(dayID)
	require.True(t, ok)
	require.Equal(t, 30, st.Capacity, "a date without its own capacity has the type's")
	require.False(t, st.OwnCapacity)
	require.Equal(t, 30, st.Available())

	_, err = f.series.CreateDates(ctx, f.eventID, []palaro.DateInput{{StartsAt: midnight, EndsAt: midnight}}, f.now)
	var e *palaro.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, "The date must end after it starts.", e.Fields[palaro.FieldDateEndsAt])
}

// addPass adds a pass ticket type of the given kind that takes places of day type dayCode.
func (f *seriesFixture) addPass(t *testing.T, code, kind, dayCode string, price palaro.Money, capacity int, seated bool) string {
	t.Helper()
	_, err := f.db.write.Exec(`INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity,
		payment_types, pass_kind, pass_dates, pass_of, seated) SELECT event_id, ?, 'Pass ' || ?, ?, 4, ?, '["QR","CARD"]', ?, ?, id, ?
		FROM ticket_types WHERE code = ?`, code, code, price, capacity, kind, map[bool]int{true: 5}[kind == palaro.PassCount],
		seated, dayCode)
	require.NoError(t, err)
	return code
}

// seatRow gives a day type n seats, A1 to An, and makes it seated.
func (f *seriesFixture) seatRow(t *testing.T, code string, n int) {
	t.Helper()
	_, err := f.db.write.Exec(`UPDATE ticket_types SET seated = 1 WHERE code = ?`, code)
	require.NoError(t, err)
	for i := 1; i <= n; i++ {
		_, err := f.db.write.Exec(`INSERT INTO seats (ticket_type_id, label, row_index, row_label, number)
			SELECT id, ?, 0, 'A', ? FROM ticket_types WHERE code = ?`, fmt.Sprintf("A%d", i), i, code)
		require.NoError(t, err)
	}
}

// stock returns a type's counters on a date (zero when it has no row there yet).
func (f *seriesFixture) stock(t *testing.T, dateID int64, code string) (sold, held, capacity int) {
	t.Helper()
	err := f.db.read.QueryRow(`SELECT s.sold, s.held, s.capacity FROM date_stock s JOIN ticket_types tt ON tt.id = s.ticket_type_id
		WHERE s.date_id = ? AND tt.code = ?`, dateID, code).Scan(&sold, &held, &capacity)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, 0
	}
	require.NoError(t, err)
	return
}

// pay confirms the payment of an order whose checkout is "cs_" + its public id.
func (f *seriesFixture) pay(t *testing.T, o *palaro.Order) *palaro.Order {
	t.Helper()
	got, err := f.purchases.ConfirmPayment(context.Background(), "sandbox", false, paid("evt_"+o.PublicID, "cs_"+o.PublicID, o.Total))
	require.NoError(t, err)
	return got
}

func dated(code, date string, quantity int, email string) palaro.PurchaseRequest {
	return palaro.PurchaseRequest{TicketCode: code, Date: date, Quantity: quantity, Email: email}
}

func TestSeries_BuyPerDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	single := f.addTicketType(t, "single", 50000, 5, 4) // bought before the event had dates
	o, err := f.purchases.CreateOrder(ctx, freeRequest(single, 1, "early@x.ph"), f.now)
	require.NoError(t, err)
	require.Nil(t, o.Date)

	day := f.addTicketType(t, "day", 50000, 3, 4)
	dates := f.weekly(t, 3, nil)
	first, second := dates[0], dates[1]

	fieldError := func(err error) string {
		var e *palaro.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, palaro.EINVALID, e.Code)
		return e.Fields[palaro.FieldDate]
	}
	_, err = f.purchases.CreateOrder(ctx, dated(day, "", 1, "a@x.ph"), f.now)
	require.Equal(t, palaro.MsgDateRequired, fieldError(err))
	_, err = f.purchases.CreateOrder(ctx, dated(day, "2027-01-10", 1, "a@x.ph"), f.now)
	require.Equal(t, palaro.MsgDateUnknown, fieldError(err))

	o, err = f.purchases.CreateOrder(ctx, dated(day, first.Slug, 3, "a@x.ph"), f.now)
	require.NoError(t, err)
	require.Equal(t, first.ID, o.Date.ID)
	_, err = f.purchases.CreateOrder(ctx, dated(day, first.Slug, 1, "b@x.ph"), f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Contains(t, palaro.ErrorMessage(err), "is sold out")
	require.Contains(t, palaro.ErrorMessage(err), "Sat 9 Jan 2027")
	o2, err := f.purchases.CreateOrder(ctx, dated(day, second.Slug, 2, "b@x.ph"), f.now)
	require.NoError(t, err, "the second date has its own places")
	require.NoError(t, f.purchases.AttachCheckout(ctx, o2.ID, "sandbox", palaro.CheckoutSession{ID: "cs_" + o2.PublicID, URL: "https://pay.test"}))

	sold, held, capacity := f.stock(t, first.ID, day)
	require.Equal(t, [3]int{0, 3, 3}, [3]int{sold, held, capacity})
	tSold, tHeld, _ := f.counts(t, day)
	require.Equal(t, [2]int{0, 0}, [2]int{tSold, tHeld}, "a day ticket's places are its date's, not its type's")

	// the hold ends: the first date's places are free again; the second's order and the early one expire too
	n, err := f.purchases.ExpireHolds(ctx, f.now.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, 3, n)
	sold, held, _ = f.stock(t, first.ID, day)
	require.Equal(t, [2]int{0, 0}, [2]int{sold, held})

	// paid late after expiry: it takes its places again, the tickets know their date
	settled := f.pay(t, o2)
	require.Equal(t, palaro.OrderPaid, settled.Status)
	require.Len(t, settled.Tickets, 2)
	require.Equal(t, second.Slug, settled.Tickets[0].Date.Slug)
	sold, held, _ = f.stock(t, second.ID, day)
	require.Equal(t, [2]int{2, 0}, [2]int{sold, held})
	var ticketDate int64
	require.NoError(t, f.db.read.QueryRow(`SELECT date_id FROM tickets WHERE id = ?`, settled.Tickets[0].ID).Scan(&ticketDate))
	require.Equal(t, second.ID, ticketDate)

	_, err = f.purchases.CreateOrder(ctx, dated(single, first.Slug, 1, "c@x.ph"), f.now)
	require.NoError(t, err, "a type added before the dates sells on each date too")
}

func TestSeries_SeatsPerDateAndPass(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "box", 0, 4, 4)
	f.seatRow(t, day, 4)
	dates := f.weekly(t, 3, nil)
	pass := f.addPass(t, "season", palaro.PassEvery, day, 0, 2, true)

	buy := func(code, date, seat, email string) (*palaro.Order, error) {
		r := dated(code, date, 1, email)
		r.Seats = []string{seat}
		return f.purchases.CreateOrder(ctx, r, f.now)
	}
	_, err := buy(day, dates[0].Slug, "A1", "w1@x.ph")
	require.NoError(t, err)
	_, err = buy(day, dates[0].Slug, "A1", "w1b@x.ph")
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "A1 is taken for week 1")
	_, err = buy(day, dates[1].Slug, "A1", "w2@x.ph")
	require.NoError(t, err, "a seat sold for week 1 is free for week 2")

	// a pass keeps one seat on every date: A1 is taken on two dates, A2 is free on all
	_, err = buy(pass, "", "A1", "p1@x.ph")
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	p, err := buy(pass, "", "A2", "p2@x.ph")
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, p.Status)
	for _, d := range dates {
		sold, _, _ := f.stock(t, d.ID, day)
		require.GreaterOrEqual(t, sold, 1, d.Slug)
		_, err = buy(day, d.Slug, "A2", "d-"+d.Slug+"@x.ph")
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "the pass holds A2 on %s", d.Slug)
	}
	var uses int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM pass_uses WHERE ticket_id = ? AND seat = 'A2'`,
		p.Tickets[0].ID).Scan(&uses))
	require.Equal(t, 3, uses, "the pass holds a place and its seat on every date")
	sold, held, _ := f.counts(t, pass)
	require.Equal(t, [2]int{1, 0}, [2]int{sold, held}, "the pass's own capacity counts it")

	// a date added later: the pass takes its place and seat there too
	later, err := f.series.CreateDates(ctx, f.eventID, []palaro.DateInput{{
		StartsAt: dates[2].StartsAt.AddDate(0, 0, 7), EndsAt: dates[2].EndsAt.AddDate(0, 0, 7)}}, f.now)
	require.NoError(t, err)
	_, err = buy(day, later[0].Slug, "A2", "later@x.ph")
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	sold, _, _ = f.stock(t, later[0].ID, day)
	require.Equal(t, 1, sold)
}

// TestSeries_PassesAndDayTicketsRushOneDate: season passes (their own capacity 8, a place on
// every date) and day tickets for one date (10 places; 30 asked for) bought at once never
// oversell that date: each granted order holds exactly its places there. Run on both engines
// (scripts/pgtest.sh for PostgreSQL).
func TestSeries_PassesAndDayTicketsRushOneDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "rush-day", 30000, 10, 2)
	dates := f.weekly(t, 3, nil)
	pass := f.addPass(t, "rush-pass", palaro.PassEvery, day, 120000, 8, false)
	target := dates[1]

	var passes, days atomic.Int64
	granted := storm(40, func(i int) int {
		req := dated(day, target.Slug, 1+(i/2)%2, fmt.Sprintf("day%d@x.ph", i))
		if i%2 == 0 {
			req = dated(pass, "", 1, fmt.Sprintf("pass%d@x.ph", i))
		}
		o, err := f.purchases.CreateOrder(ctx, req, f.now)
		if err != nil {
			if palaro.ErrorCode(err) != palaro.ECONFLICT {
				t.Errorf("buyer %d: %v", i, err)
			}
			return 0
		}
		if i%2 == 0 {
			passes.Add(int64(o.Quantity))
		} else {
			days.Add(int64(o.Quantity))
		}
		return o.Quantity
	})
	sold, held, capacity := f.stock(t, target.ID, day)
	require.Equal(t, 10, capacity)
	require.Equal(t, int(granted), sold+held, "the date's counters are exactly what was granted on it")
	require.LessOrEqual(t, sold+held, capacity, "never oversold")
	require.GreaterOrEqual(t, sold+held, 9, "the rush all but fills the date (one place may stay for want of a buyer of one)")
	pSold, pHeld, _ := f.counts(t, pass)
	require.Equal(t, int(passes.Load()), pSold+pHeld, "the passes' own capacity counts each pass")
	require.LessOrEqual(t, pSold+pHeld, 8)
	require.Equal(t, int(granted), int(passes.Load()+days.Load()))
	for _, d := range []palaro.EventDate{dates[0], dates[2]} {
		s, h, _ := f.stock(t, d.ID, day)
		require.Equal(t, int(passes.Load()), s+h, "the passes hold a place on %s too", d.Slug)
	}
	var rows int
	require.NoError(t, f.db.read.QueryRow(`SELECT coalesce(sum(od.quantity), 0) FROM order_dates od JOIN orders o ON o.id = od.order_id
		WHERE od.date_id = ? AND o.status = 'pending'`, target.ID).Scan(&rows))
	require.Equal(t, int(granted), rows, "each granted order recorded its places on the date")
}

// gateSeries gives the fixture's event a free day ticket (gate-day), three weekly dates, a pass
// for every date (gate-season) and one for 2 dates (gate-five), and returns the dates and the
// codes of a ticket of each pass and of a day ticket of the second date, all paid.
func (f *seriesFixture) gateSeries(t *testing.T) (dates []palaro.EventDate, pass, two, dayTicket string) {
	t.Helper()
	day := f.addTicketType(t, "gate-day", 0, 10, 4)
	dates = f.weekly(t, 3, nil)
	every := f.addPass(t, "gate-season", palaro.PassEvery, day, 0, 5, false)
	some := f.addPass(t, "gate-five", palaro.PassCount, day, 0, 5, false)
	_, err := f.db.write.Exec(`UPDATE ticket_types SET pass_dates = 2 WHERE code = ?`, some)
	require.NoError(t, err)
	buy := func(req palaro.PurchaseRequest) string {
		o, err := f.purchases.CreateOrder(context.Background(), req, f.now)
		require.NoError(t, err)
		return o.Tickets[0].Code
	}
	return dates, buy(dated(every, "", 1, "holder@x.ph")), buy(dated(some, "", 1, "two@x.ph")), buy(dated(day, dates[1].Slug, 1, "day@x.ph"))
}

func TestSeries_GateAdmitsPassOncePerDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	dates, passCode, twoCode, dayCode := f.gateSeries(t)
	day := "gate-day"
	gate := NewCheckInService(f.db)

	scan := func(code, date string) *palaro.CheckInResult {
		r, err := gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID, Code: code, Gate: "North", Date: date})
		require.NoError(t, err)
		return r
	}
	r := scan(passCode, dates[0].Slug)
	require.Equal(t, palaro.CheckInOK, r.Outcome)
	require.Equal(t, "Every date", r.Ticket.Pass)
	require.Equal(t, []string{dates[0].Slug}, r.Ticket.UsedDates)
	r = scan(passCode, dates[1].Slug)
	require.Equal(t, palaro.CheckInOK, r.Outcome, "a pass is admitted on another date")
	require.Equal(t, []string{dates[0].Slug, dates[1].Slug}, r.Ticket.UsedDates)
	r = scan(passCode, dates[1].Slug)
	require.Equal(t, palaro.CheckInAlready, r.Outcome, "but once per date")
	require.Equal(t, []string{dates[0].Slug, dates[1].Slug}, r.Ticket.UsedDates)

	// a day ticket is for its date only
	r = scan(dayCode, dates[0].Slug)
	require.Equal(t, palaro.CheckInWrongDate, r.Outcome)
	require.Equal(t, "This ticket is for Sat 16 Jan 2027", r.Message)
	require.Equal(t, palaro.CheckInOK, scan(dayCode, dates[1].Slug).Outcome)

	// a pass for 2 dates takes a place on each date it is used on, and no third
	sold0, _, _ := f.stock(t, dates[0].ID, day)
	require.Equal(t, palaro.CheckInOK, scan(twoCode, dates[0].Slug).Outcome)
	sold1, _, _ := f.stock(t, dates[0].ID, day)
	require.Equal(t, sold0+1, sold1, "the pass took a place on the date it picked")
	require.Equal(t, palaro.CheckInOK, scan(twoCode, dates[2].Slug).Outcome)
	r = scan(twoCode, dates[1].Slug)
	require.Equal(t, palaro.CheckInUsedUp, r.Outcome)
	require.Equal(t, "This pass has no dates left", r.Message)

	// without a date the gate admits to the date falling on the scan's day in Manila: 00:30 on the
	// 23rd is still the 22nd in UTC
	f.db.Now = func() time.Time { return time.Date(2027, 1, 22, 16, 30, 0, 0, time.UTC) }
	r = scan(passCode, "")
	require.Equal(t, palaro.CheckInOK, r.Outcome)
	require.Equal(t, dates[2].Slug, r.Ticket.Date)
	f.db.Now = func() time.Time { return time.Date(2027, 1, 22, 15, 59, 0, 0, time.UTC) } // 23:59 on the 22nd
	_, err := gate.CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID, Code: passCode})
	require.Equal(t, palaro.MsgNoDateToday, palaro.ErrorMessage(err))
	var logged int
	require.NoError(t, f.db.read.QueryRow(`SELECT count(*) FROM check_ins WHERE event_id = ? AND date_id IS NOT NULL`,
		f.eventID).Scan(&logged))
	require.Equal(t, 6, logged, "each admission is logged with its date")
}

// TestSeries_SeriesEditReachesDatesWithoutTheirOwn: a ticket type's new capacity reaches every date
// that kept the series' capacity; a date that set its own keeps it.
func TestSeries_SeriesEditReachesDatesWithoutTheirOwn(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	code := f.addTicketType(t, "shared", 0, 30, 4)
	dates := f.weekly(t, 2, nil)
	own, err := f.series.CreateDates(ctx, f.eventID, []palaro.DateInput{{StartsAt: dates[1].StartsAt.AddDate(0, 0, 7),
		EndsAt: dates[1].EndsAt.AddDate(0, 0, 7), Capacities: map[string]int{code: 12}}}, f.now)
	require.NoError(t, err)
	org := NewOrganizerService(f.db, nil)
	ev, err := org.FindEvent(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	for _, tt := range ev.TicketTypes {
		if tt.Code == code {
			in := palaro.TicketTypeInputOf(tt)
			in.Capacity = 50
			_, err = org.UpdateTicketType(ctx, ev.ID, code, "owner@x.ph", in)
			require.NoError(t, err)
		}
	}
	for _, d := range dates {
		_, _, capacity := f.stock(t, d.ID, code)
		require.Equal(t, 50, capacity, d.Slug)
	}
	_, _, capacity := f.stock(t, own[0].ID, code)
	require.Equal(t, 12, capacity, "the date keeps what was set on it")
}

// TestSeries_ListedByDates: lists take a series by its dates, not by the span from its first date
// to its last. In the demo data at the golden clock (Wednesday 18 March, 10:00 in Manila) the
// league's next match day is Saturday the 21st: it is not among today's events, it is among this
// week's, and the whole list places it by that Saturday (after what starts before), not by its
// first date, which is over. A window holding one of its dates finds it; one between two does not.
func TestSeries_ListedByDates(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	require.NoError(t, db.SeedDemo(ctx, demoGoldenNow))
	events := NewEventService(db)
	codes := func(list []*palaro.Event) []string {
		var out []string
		for _, ev := range list {
			out = append(out, ev.Code)
		}
		return out
	}
	const league = "palaro-league-season-1"
	list := func(when string) []string {
		page, err := events.ListEvents(ctx, palaro.EventFilter{When: when, Now: demoGoldenNow, Limit: 100})
		require.NoError(t, err)
		return codes(page.Events)
	}
	require.NotContains(t, list(palaro.WhenToday), league, "no match day today")
	require.Contains(t, list(palaro.WhenWeek), league, "Saturday's match day is this week")

	all, err := events.ListEvents(ctx, palaro.EventFilter{Now: demoGoldenNow, Limit: 100})
	require.NoError(t, err)
	saturday := time.Date(2026, 3, 21, 19, 0, 0, 0, palaro.Manila)
	seen := false
	for _, ev := range all.Events {
		if ev.Code == league {
			seen = true
			continue
		}
		if seen {
			require.False(t, ev.StartsAt.Before(saturday), "%s starts before the league's next date but is listed after it", ev.Code)
		} else {
			require.True(t, ev.StartsAt.Before(saturday) || ev.StartsAt.Equal(saturday), "%s is listed before the league's next date", ev.Code)
		}
	}
	require.True(t, seen)

	between := func(from, to time.Time) []string {
		got, err := events.ListEventsBetween(ctx, from, to)
		require.NoError(t, err)
		return codes(got)
	}
	require.Contains(t, between(saturday, saturday.Add(time.Hour)), league)
	require.Contains(t, between(time.Date(2026, 3, 7, 0, 0, 0, 0, palaro.Manila), time.Date(2026, 3, 8, 0, 0, 0, 0, palaro.Manila)), league,
		"a date over is still the league's (the calendar shows it)")
	require.NotContains(t, between(time.Date(2026, 3, 22, 0, 0, 0, 0, palaro.Manila), time.Date(2026, 3, 28, 0, 0, 0, 0, palaro.Manila)), league,
		"Sunday to Friday between two match days")
}

// TestSeries_CountPassSeatFreeOnEveryDate: a seated pass for some dates keeps its seat on every
// date (taken on date 0), so its order refuses a seat sold for the third date only, which its
// check on date 0 alone let through (the seat was then its and the day ticket's on that date).
func TestSeries_CountPassSeatFreeOnEveryDate(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "cbox", 0, 4, 4)
	f.seatRow(t, day, 4)
	dates := f.weekly(t, 3, nil)
	pass := f.addPass(t, "cpass", palaro.PassCount, day, 0, 2, true)
	r := dated(day, dates[2].Slug, 1, "d3@x.ph")
	r.Seats = []string{"A3"}
	_, err := f.purchases.CreateOrder(ctx, r, f.now)
	require.NoError(t, err)

	r = dated(pass, "", 1, "p@x.ph")
	r.Seats = []string{"A3"}
	_, err = f.purchases.CreateOrder(ctx, r, f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "A3 is taken on the third date: %v", err)
	r.Seats = []string{"A4"}
	_, err = f.purchases.CreateOrder(ctx, r, f.now)
	require.NoError(t, err)
	for _, d := range dates {
		r := dated(day, d.Slug, 1, "d-"+d.Slug+"@x.ph")
		r.Seats = []string{"A4"}
		_, err = f.purchases.CreateOrder(ctx, r, f.now)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "the pass keeps A4 on %s", d.Slug)
	}
}

// TestSeries_PurchaseDatesKeptUntilChanged proves the purchase path's dates (purchaseDates, kept
// in the catalog) are read again once an event_dates row changes through the writer: a date
// cancelled, or added, after buyers were served from memory counts for the very next buyer.
func TestSeries_PurchaseDatesKeptUntilChanged(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "dayk", 0, 10, 4)
	dates := f.weekly(t, 2, nil)
	_, err := f.purchases.CreateOrder(ctx, dated(day, dates[0].Slug, 1, "a@x.ph"), f.now)
	require.NoError(t, err)
	_, err = f.purchases.CreateOrder(ctx, dated(day, dates[0].Slug, 1, "b@x.ph"), f.now)
	require.NoError(t, err, "the dates come from memory now")

	require.NoError(t, f.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE event_dates SET status = 'cancelled' WHERE id = ?`, dates[0].ID)
		return err
	}))
	_, err = f.purchases.CreateOrder(ctx, dated(day, dates[0].Slug, 1, "c@x.ph"), f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Equal(t, palaro.MsgDateCancelled, palaro.ErrorMessage(err))

	later, err := f.series.CreateDates(ctx, f.eventID, []palaro.DateInput{{StartsAt: dates[1].StartsAt.AddDate(0, 0, 7),
		EndsAt: dates[1].EndsAt.AddDate(0, 0, 7)}}, f.now)
	require.NoError(t, err)
	_, err = f.purchases.CreateOrder(ctx, dated(day, later[0].Slug, 1, "c@x.ph"), f.now)
	require.NoError(t, err, "a date added after the dates were kept sells at once")
}

// TestSeries_DateCancelledOnAnotherServer: a date cancelled through another app server (whose
// change this server's catalog has not heard of yet) is refused inside the order's write: no
// order takes places on it, for a day ticket or a pass for every date.
func TestSeries_DateCancelledOnAnotherServer(t *testing.T) {
	ctx := context.Background()
	f := newSeriesFixture(t)
	day := f.addTicketType(t, "dayo", 0, 10, 4)
	dates := f.weekly(t, 2, nil)
	pass := f.addPass(t, "passo", palaro.PassEvery, day, 0, 10, false)
	_, err := f.purchases.CreateOrder(ctx, dated(day, dates[0].Slug, 1, "a@x.ph"), f.now)
	require.NoError(t, err, "the dates are kept in this server's catalog")

	other, err := Open(f.db.path)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	require.NoError(t, other.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE event_dates SET status = 'cancelled' WHERE id = ?`, dates[0].ID)
		return err
	}))
	_, err = f.purchases.CreateOrder(ctx, dated(day, dates[0].Slug, 1, "b@x.ph"), f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "%v", err)
	require.Equal(t, palaro.MsgDateCancelled, palaro.ErrorMessage(err))
	_, err = f.purchases.CreateOrder(ctx, dated(pass, "", 1, "c@x.ph"), f.now)
	require.Equal(t, palaro.MsgDateCancelled, palaro.ErrorMessage(err), "a pass planned on the cancelled date")
	var sold int
	require.NoError(t, f.db.read.QueryRow(`SELECT coalesce(sum(sold + held), 0) FROM date_stock WHERE date_id = ?`, dates[0].ID).Scan(&sold))
	require.Equal(t, 1, sold, "only the order placed before the cancellation holds a place there")
}
