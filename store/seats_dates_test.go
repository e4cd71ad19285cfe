package store

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// sectionedSeries makes the series fixture's event a series of n weekly dates with a sectioned
// (stadium) price zone: sections 101 (nearer the stage) and 102, each rows × width seats, seat
// 102-A1 blocked. It returns the zone's code and id and the dates.
func sectionedSeries(t *testing.T, rows, width, n int) (f *seriesFixture, code string, id int64, dates []palaro.EventDate) {
	t.Helper()
	f = newSeriesFixture(t)
	code = f.addTicketType(t, "bowl", 50000, 1, 8)
	_, err := f.db.write.Exec(`UPDATE ticket_types SET seated = 1 WHERE code = ?`, code)
	require.NoError(t, err)
	plan := palaro.SeatPlan{AisleAfter: []int{}, GapAfterRows: []string{}, Blocked: []string{"102-A1"}, Sections: []palaro.SeatSection{
		{Name: "101", Rows: rows, SeatsPerRow: width, AisleAfter: []int{}, Ring: 1, From: 45, To: 180, Distance: 10},
		{Name: "102", Rows: rows, SeatsPerRow: width, AisleAfter: []int{}, Ring: 1, From: 180, To: 315, Distance: 20},
	}}
	require.NoError(t, NewOrganizerService(f.db, nil).SetSeatPlan(context.Background(), f.eventID, code, "test", plan))
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM ticket_types WHERE code = ?`, code).Scan(&id))
	return f, code, id, f.weekly(t, n, nil)
}

// sectionFree returns the free seats of each section of a ticket type on the given dates.
func sectionFree(t *testing.T, db *DB, id int64, dateIDs ...int64) map[string]int {
	t.Helper()
	counts, err := NewSeatService(db).SectionCounts(context.Background(), id, dateIDs)
	require.NoError(t, err)
	out := map[string]int{}
	for _, c := range counts {
		out[c.Section] = c.Free
	}
	return out
}

// sectionStates returns the state of each seat of a section on the given dates, by label.
func sectionStates(t *testing.T, db *DB, id int64, section string, dateIDs ...int64) map[string]string {
	t.Helper()
	rows, err := NewSeatService(db).SectionSeats(context.Background(), id, dateIDs, section)
	require.NoError(t, err)
	return labelStates(rows)
}

// TestSeatService_SectionsPerDate: a sectioned zone of a series is sold per date. A seat ordered
// for date 1 is taken there and free on date 3 (counts, section seats, best available); the
// blocked seat is taken on every date; best available holds on its date only (seat_holds and
// seat_assignments carry it), the buy page of another date does not see the hold, an order of
// another date naming it leaves it alone, the order of its date takes its seats there, and expiry
// and deleting a date give a date's holds back. A seated season pass keeps its seat on every date.
func TestSeatService_SectionsPerDate(t *testing.T) {
	ctx := context.Background()
	f, code, id, dates := sectionedSeries(t, 2, 6, 4)
	seats := NewSeatService(f.db)
	d1, d2, d3, d4 := dates[0].ID, dates[1].ID, dates[2].ID, dates[3].ID

	require.Equal(t, map[string]int{"101": 12, "102": 11}, sectionFree(t, f.db, id, d1), "the blocked seat is taken on every date")
	first := arenaRequest(code, "first@x.ph", "101-A3")
	first.Date = dates[0].Slug
	o1, err := f.purchases.CreateOrder(ctx, first, f.now)
	require.NoError(t, err)
	require.Equal(t, map[string]int{"101": 11, "102": 11}, sectionFree(t, f.db, id, d1))
	require.Equal(t, map[string]int{"101": 12, "102": 11}, sectionFree(t, f.db, id, d3), "a seat ordered for date 1 is free on date 3")
	require.Equal(t, palaro.SeatHeld, sectionStates(t, f.db, id, "101", d1)["101-A3"])
	require.Equal(t, palaro.SeatAvailable, sectionStates(t, f.db, id, "101", d3)["101-A3"])
	require.Equal(t, palaro.SeatSold, sectionStates(t, f.db, id, "102", d3)["102-A1"], "blocked on date 3 too")
	require.NoError(t, f.purchases.AttachCheckout(ctx, o1.ID, "sandbox", palaro.CheckoutSession{ID: "cs_" + o1.PublicID, URL: "https://pay.test"}))
	f.pay(t, o1)
	require.Equal(t, palaro.SeatSold, sectionStates(t, f.db, id, "101", d1)["101-A3"])

	// best available needs a date on a series, one of the event's
	for _, bad := range []int64{0, d1 + 1000} {
		_, err = seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, DateID: bad, Quantity: 2}, f.now)
		var e *palaro.Error
		require.ErrorAs(t, err, &e, "date %d", bad)
		require.Equal(t, palaro.EINVALID, e.Code)
		require.NotEmpty(t, e.Fields[palaro.FieldDate])
	}
	// on date 1 the centre of row A is taken; on date 3 best available takes it
	on1, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, DateID: d1, Quantity: 2}, f.now)
	require.NoError(t, err)
	require.Equal(t, []string{"101-A4", "101-A5"}, on1.Seats)
	on3, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, DateID: d3, Quantity: 2}, f.now)
	require.NoError(t, err)
	require.Equal(t, []string{"101-A3", "101-A4"}, on3.Seats, "101-A3, sold for date 1, is the best on date 3")
	require.Equal(t, d3, on3.DateID)
	require.Equal(t, 2, f.countRows(t, `SELECT COUNT(*) FROM seat_assignments a JOIN seat_holds h ON h.id = a.hold_id
		WHERE h.public_id = ? AND a.date_id = ? AND h.date_id = ?`, on3.ID, d3, d3))
	require.Equal(t, map[string]int{"101": 10, "102": 11}, sectionFree(t, f.db, id, d3))
	require.Equal(t, map[string]int{"101": 9, "102": 11}, sectionFree(t, f.db, id, d1))
	require.Equal(t, map[string]int{"101": 12, "102": 11}, sectionFree(t, f.db, id, d2), "date 2 is untouched")

	held, err := seats.HeldSeats(ctx, id, d3, on3.ID)
	require.NoError(t, err)
	require.Equal(t, on3.Seats, held)
	held, err = seats.HeldSeats(ctx, id, d2, on3.ID)
	require.NoError(t, err)
	require.Nil(t, held, "the hold is date 3's, not date 2's")

	// an order for date 2 naming date 3's hold leaves the hold alone; date 3's order takes its seats
	other := arenaRequest(code, "holder@x.ph", on3.Seats...)
	other.Date, other.SeatHold = dates[1].Slug, on3.ID
	_, err = f.purchases.CreateOrder(ctx, other, f.now)
	require.NoError(t, err, "the seats are free on date 2")
	held, _ = seats.HeldSeats(ctx, id, d3, on3.ID)
	require.Equal(t, on3.Seats, held, "date 3's hold is still there")
	someone := arenaRequest(code, "someone@x.ph", "101-A3")
	someone.Date = dates[2].Slug
	_, err = f.purchases.CreateOrder(ctx, someone, f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "held for its buyer on date 3")
	mine := arenaRequest(code, "holder3@x.ph", "101-A3")
	mine.Date, mine.SeatHold = dates[2].Slug, on3.ID
	o3, err := f.purchases.CreateOrder(ctx, mine, f.now)
	require.NoError(t, err, "the buyer keeps one of the two held seats")
	require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE order_id = ? AND date_id = ?`, o3.ID, d3))
	require.Equal(t, palaro.SeatAvailable, sectionStates(t, f.db, id, "101", d3)["101-A4"], "the hold's other seat is given back")

	// expiry gives date 1's hold back; deleting a date gives its holds back
	_, err = f.purchases.ExpireHolds(ctx, on1.ExpiresAt)
	require.NoError(t, err)
	require.Equal(t, palaro.SeatAvailable, sectionStates(t, f.db, id, "101", d1)["101-A4"])
	on4, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, DateID: d4, Quantity: 1}, f.now)
	require.NoError(t, err)
	require.NoError(t, f.series.DeleteDate(ctx, f.eventID, dates[3].Slug, "test", f.now))
	require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM seat_holds WHERE public_id = ?`, on4.ID))
	require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE date_id = ?`, d4))

	// a seated season pass of the zone keeps its seat on every date
	pass := f.addPass(t, "bowl-season", palaro.PassEvery, code, 0, 5, true)
	bought, err := f.purchases.CreateOrder(ctx, seatRequest(pass, "season@x.ph", "102-B6"), f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, bought.Status)
	for _, d := range []int64{d1, d2, d3} {
		require.Equal(t, palaro.SeatSold, sectionStates(t, f.db, id, "102", d)["102-B6"], "date %d", d)
		require.Equal(t, 10, sectionFree(t, f.db, id, d)["102"], "date %d", d)
	}
	_, err = f.purchases.CreateOrder(ctx, seatRequest(pass, "season2@x.ph", "101-A3"), f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "a pass needs its seat free on every date (101-A3 is sold on dates 1 and 3)")
}

// TestSeatService_BestSeatsPerDateUnderConcurrency: on a series with a sectioned zone, a storm of
// best-available buyers on date 2, beside hand-picked orders on date 2 and on date 1 of the very
// seats best available chooses first. On each date no seat is held or sold twice; date 1's orders
// get their seats whatever happens on date 2, date 2's holds and orders are exactly its rows, and
// date 3 stays untouched. Run on both engines (scripts/pgtest.sh for PostgreSQL).
func TestSeatService_BestSeatsPerDateUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	f, code, id, dates := sectionedSeries(t, 3, 8, 3)
	seats := NewSeatService(f.db)
	d1, d2, d3 := dates[0].ID, dates[1].ID, dates[2].ID
	free := 2*3*8 - 1
	best := palaro.BestSeats(mustPlan(t, f.db, id), nil, 3, "", false)
	require.Equal(t, []string{"101-A3", "101-A4", "101-A5"}, best)

	const buyers = 40
	type promise struct {
		date  int64
		seats []string
	}
	got := make([]promise, buyers)
	var refused atomic.Int64
	storm(buyers, func(i int) int {
		if i%5 < 2 { // by hand, the best seats: on date 1 (i%5 == 0) or date 2
			day := dates[i%5]
			req := arenaRequest(code, fmt.Sprintf("hand%d@x.ph", i), best[i/5%3])
			req.Date = day.Slug
			if _, err := f.purchases.CreateOrder(ctx, req, f.now); err != nil {
				return refusedSeats(t, i, err, &refused)
			}
			got[i] = promise{day.ID, req.Seats}
			return 1
		}
		hold, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, DateID: d2, Quantity: 3, AcrossAisle: i%2 == 1},
			f.now.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			return refusedSeats(t, i, err, &refused)
		}
		got[i] = promise{d2, hold.Seats}
		return len(hold.Seats)
	})
	byDate := map[int64][]string{}
	for _, g := range got {
		byDate[g.date] = append(byDate[g.date], g.seats...)
	}
	require.Positive(t, refused.Load(), "more seats were wanted on date 2 than are free")
	for d, promised := range byDate {
		require.Zero(t, doubles(promised), "no seat was held or sold twice on date %d", d)
	}
	require.ElementsMatch(t, best, byDate[d1], "date 1's buyers got the three seats, whatever date 2's did")
	require.LessOrEqual(t, len(byDate[d2]), free)
	require.Equal(t, len(byDate[d2]), f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE ticket_type_id = ? AND date_id = ?
		AND (hold_id IS NOT NULL OR order_id IN (SELECT id FROM orders WHERE status = 'pending'))`, id, d2))
	for _, l := range best {
		require.Contains(t, byDate[d2], l, "the best seats, sold on date 1, went to someone on date 2 too")
	}
	require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE hold_id IS NOT NULL AND date_id != ?`, d2),
		"best available held on date 2 only")
	require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM seat_holds WHERE date_id != ?`, d2))
	require.Equal(t, map[string]int{"101": 24, "102": 23}, sectionFree(t, f.db, id, d3), "date 3 is untouched")
	sum := 0
	for _, n := range sectionFree(t, f.db, id, d2) {
		sum += n
	}
	require.Equal(t, free-len(byDate[d2]), sum, "date 2's counts are its own")
}
