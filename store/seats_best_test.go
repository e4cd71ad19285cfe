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

// stadiumFixture is the purchase fixture with the stadium seed at 1,000 places, and the id and
// code of its lower box.
func stadiumFixture(t *testing.T) (f *purchaseFixture, lowerID int64, lowerCode string) {
	t.Helper()
	f = newPurchaseFixture(t)
	seed, err := f.db.SeedStadium(context.Background(), f.now, StadiumOptions{Places: 1000})
	require.NoError(t, err)
	lowerCode = seed.TicketTypes[0]
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM ticket_types WHERE code = ?`, lowerCode).Scan(&lowerID))
	return f, lowerID, lowerCode
}

func TestSeatService_HoldBestSeats(t *testing.T) {
	ctx := context.Background()
	f, id, code := stadiumFixture(t)
	seats := NewSeatService(f.db)

	counts, err := seats.SectionCounts(ctx, id, nil)
	require.NoError(t, err)
	require.Len(t, counts, 16)
	freeBefore := 0
	for _, c := range counts {
		freeBefore += c.Free
	}

	hold, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, Quantity: 2}, f.now)
	require.NoError(t, err)
	require.Len(t, hold.Seats, 2)
	require.Equal(t, f.now.Add(palaro.SeatHoldTime), hold.ExpiresAt)
	states := f.seatStates(t, id)
	for _, l := range hold.Seats {
		require.Equal(t, palaro.SeatHeld, states[l], "%s is held", l)
	}
	held, err := seats.HeldSeats(ctx, id, 0, hold.ID)
	require.NoError(t, err)
	require.Equal(t, hold.Seats, held)
	counts, _ = seats.SectionCounts(ctx, id, nil)
	freeAfter := 0
	for _, c := range counts {
		freeAfter += c.Free
	}
	require.Equal(t, freeBefore-2, freeAfter)

	// asking again with the first hold replaced gives the same best seats back
	again, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, Quantity: 2, Replace: hold.ID}, f.now)
	require.NoError(t, err)
	require.Equal(t, hold.Seats, again.Seats)
	held, _ = seats.HeldSeats(ctx, id, 0, hold.ID)
	require.Nil(t, held, "the replaced hold is gone")

	// the buyer buys the held seats with the hold; nobody else can
	_, err = f.purchases.CreateOrder(ctx, arenaRequest(code, "other@x.ph", again.Seats...), f.now)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "held for someone else")
	req := arenaRequest(code, "holder@x.ph", again.Seats...)
	req.SeatHold = again.ID
	order, err := f.purchases.CreateOrder(ctx, req, f.now)
	require.NoError(t, err)
	require.Equal(t, again.Seats, order.Seats)
	require.Equal(t, len(again.Seats), f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE order_id = ?`, order.ID))
	require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM seat_holds`))

	// an ended hold gives its seats back
	late, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, Quantity: 3}, f.now)
	require.NoError(t, err)
	held, err = seats.HeldSeats(ctx, id, 0, late.ID)
	require.NoError(t, err)
	require.Equal(t, late.Seats, held, "past its end, until the job gives them back, the seats are still its buyer's")
	_, err = f.purchases.ExpireHolds(ctx, late.ExpiresAt)
	require.NoError(t, err)
	held, err = seats.HeldSeats(ctx, id, 0, late.ID)
	require.NoError(t, err)
	require.Nil(t, held, "given back")
	for _, l := range late.Seats {
		require.Equal(t, palaro.SeatAvailable, f.seatStates(t, id)[l])
	}

	// a section the plan lacks, a quantity beyond the limit
	_, err = seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, Quantity: 2, Section: "999"}, f.now)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	_, err = seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, Quantity: 9}, f.now)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
}

// TestSeatService_BestSeatsUnderConcurrency: a storm of buyers asking best available for three
// seats of the stadium's lower box at once, beside buyers ordering by hand the very seats best
// available would choose first; more seats are wanted than are free. No seat is held or sold
// twice, every hold's seats are its own in seat_assignments, and once the seats run out buyers are
// told so (ECONFLICT), never given a taken seat.
func TestSeatService_BestSeatsUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	f, id, code := stadiumFixture(t)
	seats := NewSeatService(f.db)
	counts, err := seats.SectionCounts(ctx, id, nil)
	require.NoError(t, err)
	free := 0
	for _, c := range counts {
		free += c.Free
	}
	first := palaro.BestSeats(mustPlan(t, f.db, id), f.takenSeats(t, id), 3, "", false)
	require.Len(t, first, 3)

	buyers := free/3 + 30
	got := make([][]string, buyers)
	var refused atomic.Int64
	storm(buyers, func(i int) int {
		if i%10 == 0 { // by hand, after the best seats
			_, err := f.purchases.CreateOrder(ctx, arenaRequest(code, fmt.Sprintf("hand%d@x.ph", i), first[i/10%3]), f.now)
			if err == nil {
				got[i] = []string{first[i/10%3]}
				return 1
			}
			return refusedSeats(t, i, err, &refused)
		}
		hold, err := seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: id, Quantity: 3, AcrossAisle: i%2 == 1},
			f.now.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			return refusedSeats(t, i, err, &refused)
		}
		got[i] = hold.Seats
		return len(hold.Seats)
	})
	var promised []string
	for _, g := range got {
		promised = append(promised, g...)
	}
	require.Positive(t, refused.Load(), "more seats were wanted than are free")
	require.Zero(t, doubles(promised), "no seat was held or sold twice")
	require.LessOrEqual(t, len(promised), free)
	require.Equal(t, len(promised), f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE ticket_type_id = ?
		AND (hold_id IS NOT NULL OR order_id IN (SELECT id FROM orders WHERE status = 'pending'))`, id))
	require.Equal(t, f.countRows(t, `SELECT COUNT(*) FROM seat_holds`)*3,
		f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE hold_id IS NOT NULL`))
}

// refusedSeats counts a storm buyer's refusal and returns the seats granted, none: ECONFLICT is
// what a buyer told the seats are gone gets, anything else fails the test.
func refusedSeats(t *testing.T, i int, err error, refused *atomic.Int64) int {
	if palaro.ErrorCode(err) != palaro.ECONFLICT {
		t.Errorf("buyer %d: %v", i, err)
	}
	refused.Add(1)
	return 0
}

// mustPlan reads a ticket type's seat plan.
func mustPlan(t *testing.T, db *DB, id int64) palaro.SeatPlan {
	t.Helper()
	p, err := NewSeatService(db).SeatPlan(context.Background(), id)
	require.NoError(t, err)
	return p
}

// takenSeats returns the seats of a ticket type someone holds, owns or blocked.
func (f *purchaseFixture) takenSeats(t *testing.T, id int64) map[string]bool {
	t.Helper()
	labels, err := queryStrings(context.Background(), f.db.read, `SELECT seat FROM seat_assignments WHERE ticket_type_id = ?`, id)
	require.NoError(t, err)
	out := map[string]bool{}
	for _, l := range labels {
		out[l] = true
	}
	return out
}

// arenaRequest is a purchase of seats of the stadium, whose event asks for the buyer's name and number.
func arenaRequest(code, email string, seats ...string) palaro.PurchaseRequest {
	r := seatRequest(code, email, seats...)
	r.FirstName, r.LastName, r.MobileNumber = "Ana", "Reyes", "0917 123 4567"
	return r
}
