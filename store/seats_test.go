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

// addSeatedTicketType adds a seated ticket type to a demo event, with its generated seat layout,
// and returns its code and id.
func (f *purchaseFixture) addSeatedTicketType(t *testing.T, code string, price palaro.Money, capacity, max int) (string, int64) {
	t.Helper()
	f.addTicketType(t, code, price, capacity, max)
	tx, err := f.db.beginWrite(context.Background())
	require.NoError(t, err)
	defer tx.Rollback()
	_, err = tx.Exec(`UPDATE ticket_types SET seated = 1 WHERE code = ?`, code)
	require.NoError(t, err)
	require.NoError(t, ensureSeatLayouts(context.Background(), tx))
	require.NoError(t, tx.Commit())
	var id int64
	require.NoError(t, f.db.read.QueryRow(`SELECT id FROM ticket_types WHERE code = ?`, code).Scan(&id))
	return code, id
}

func seatRequest(code, email string, seats ...string) palaro.PurchaseRequest {
	return palaro.PurchaseRequest{TicketCode: code, Email: email, Seats: seats}
}

// seatStates returns the state of each seat of a ticket type by label.
func (f *purchaseFixture) seatStates(t *testing.T, ticketTypeID int64) map[string]string {
	t.Helper()
	rows, err := NewSeatService(f.db).SeatMap(context.Background(), ticketTypeID)
	require.NoError(t, err)
	return labelStates(rows)
}

// labelStates returns the state of each seat of the rows by label.
func labelStates(rows []palaro.SeatRow) map[string]string {
	states := map[string]string{}
	for _, r := range rows {
		for _, s := range r.Seats {
			states[s.Label] = s.Status
		}
	}
	return states
}

func TestSeatService_SeatMap(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	tt, _, err := NewEventService(f.db).FindTicketType(ctx, "dota-2-visayas-major-lower")
	require.NoError(t, err)
	require.True(t, tt.Seated)

	t.Run("OK demo layout with its sold seats", func(t *testing.T) {
		rows, err := NewSeatService(f.db).SeatMap(ctx, tt.ID)
		require.NoError(t, err)
		require.Len(t, rows, palaro.SeatRows)
		require.Equal(t, "A", rows[0].Row)
		require.Equal(t, "H", rows[7].Row)
		require.Len(t, rows[0].Seats, tt.Capacity/palaro.SeatRows)
		require.Equal(t, "A1", rows[0].Seats[0].Label)
		sold := 0
		for _, state := range f.seatStates(t, tt.ID) {
			if state == palaro.SeatSold {
				sold++
			}
		}
		require.Equal(t, tt.Sold, sold, "every ticket sold before has a seat")
	})
	t.Run("OK migrating again changes nothing", func(t *testing.T) {
		before := f.seatStates(t, tt.ID)
		require.NoError(t, f.db.Migrate(ctx))
		require.Equal(t, before, f.seatStates(t, tt.ID))
	})
	t.Run("ErrNotFound unseated ticket type", func(t *testing.T) {
		gen, _, err := NewEventService(f.db).FindTicketType(ctx, "dota-2-visayas-major-gen")
		require.NoError(t, err)
		_, err = NewSeatService(f.db).SeatMap(ctx, gen.ID)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
}

// expiredSeatOrder creates a paid order for seats with a checkout session, then lets its hold expire.
func (f *purchaseFixture) expiredSeatOrder(t *testing.T, code, session string, seats ...string) *palaro.Order {
	t.Helper()
	ctx := context.Background()
	o, err := f.purchases.CreateOrder(ctx, seatRequest(code, "late@x.ph", seats...), f.now)
	require.NoError(t, err)
	require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: session, URL: "https://pay.test"}))
	n, err := f.purchases.ExpireHolds(ctx, f.now.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	return o
}

func TestPurchaseService_Seats(t *testing.T) {
	ctx := context.Background()
	t.Run("OK free seats go on the tickets", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "seated-free", 0, 16, 4)
		o, err := f.purchases.CreateOrder(ctx, seatRequest(code, "s@x.ph", "b2", "A1"), f.now)
		require.NoError(t, err)
		require.Equal(t, 2, o.Quantity, "the seat count is the quantity")
		require.Equal(t, []string{"B2", "A1"}, []string{o.Tickets[0].Seat, o.Tickets[1].Seat})
		states := f.seatStates(t, id)
		require.Equal(t, palaro.SeatSold, states["A1"])
		require.Equal(t, palaro.SeatSold, states["B2"])
		require.Equal(t, palaro.SeatAvailable, states["A2"])
	})
	t.Run("ErrConflict seat just taken", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "seated-paid", 10000, 64, 4)
		_, err := f.purchases.CreateOrder(ctx, seatRequest(code, "first@x.ph", "A3"), f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.SeatHeld, f.seatStates(t, id)["A3"], "a pending order holds its seat")
		_, err = f.purchases.CreateOrder(ctx, seatRequest(code, "second@x.ph", "A2", "A3"), f.now)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Equal(t, "Seat A3 was just taken. Please choose another seat.", palaro.ErrorMessage(err))
		require.Equal(t, palaro.SeatAvailable, f.seatStates(t, id)["A2"], "the refused order took nothing")
		require.Equal(t, "Seat A3 was just taken. Please choose another seat.",
			palaro.ErrorMessage(NewSeatService(f.db).CheckSeats(ctx, id, []string{"A3"})))
	})
	t.Run("ErrInvalid seats that do not fit the ticket type", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, _ := f.addSeatedTicketType(t, "seated-check", 10000, 64, 2)
		plain := f.addTicketType(t, "plain", 10000, 16, 2)
		for _, tc := range []struct {
			req     palaro.PurchaseRequest
			message string
		}{
			{seatRequest(code, "a@x.ph", "Z9"), "Seat Z9 does not exist. Please choose a seat on the map."},
			{seatRequest(code, "a@x.ph", "A1", "A2", "A3"), "Maximum ticket limit per user is 2."},
			{seatRequest(code, "a@x.ph", "A1;"), `"A1;" is not a seat.`},
			{seatRequest(code, "a@x.ph"), "Please choose your seats."},
			{seatRequest(plain, "a@x.ph", "A1"), "Test plain has no assigned seats."},
		} {
			_, err := f.purchases.CreateOrder(ctx, tc.req, f.now)
			require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), tc.message)
			require.Equal(t, tc.message, palaro.ErrorMessage(err))
		}
		require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM seat_assignments`+
			` WHERE ticket_type_id IN (SELECT id FROM ticket_types WHERE code IN (?, ?))`, code, plain))
	})
	t.Run("OK an expired hold frees its seats; a late payment for a seat resold is refunded", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "seated-late", 10000, 64, 4)
		late := f.expiredSeatOrder(t, code, "cs_seat", "C1", "C2")
		require.Equal(t, palaro.SeatAvailable, f.seatStates(t, id)["C2"])

		_, err := f.purchases.CreateOrder(ctx, seatRequest(code, "quick@x.ph", "C2"), f.now.Add(time.Hour))
		require.NoError(t, err)
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_seat", "cs_seat", late.Total))
		require.NoError(t, err)
		require.Equal(t, palaro.OrderRefund, got.Status, "C2 belongs to someone else now")
		require.Empty(t, got.Tickets)
		states := f.seatStates(t, id)
		require.Equal(t, palaro.SeatAvailable, states["C1"], "the refunded order keeps no seat")
		require.Equal(t, palaro.SeatHeld, states["C2"])
	})
	t.Run("OK a late payment keeps seats nobody took", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code, id := f.addSeatedTicketType(t, "seated-kept", 10000, 64, 4)
		late := f.expiredSeatOrder(t, code, "cs_kept", "D1")
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_kept", "cs_kept", late.Total))
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Equal(t, "D1", got.Tickets[0].Seat)
		require.Equal(t, palaro.SeatSold, f.seatStates(t, id)["D1"])
	})
}

// seatStorm sends buyers after the same few seats: buyer i asks for two neighbouring seats of
// a pool of six, so every seat is wanted by many buyers at once. It returns the seats each
// successful buyer was promised, and how many buyers were told a seat was just taken.
func seatStorm(buyers int, buy func(i int, seats []string) bool) (promised []string, refused int64) {
	pool := []string{"A1", "A2", "A3", "A4", "A5", "A6"}
	got := make([][]string, buyers)
	var taken atomic.Int64
	storm(buyers, func(i int) int {
		seats := []string{pool[i%len(pool)], pool[(i+1)%len(pool)]}
		if buy(i, seats) {
			got[i] = seats
			return len(seats)
		}
		taken.Add(1)
		return 0
	})
	for _, g := range got {
		promised = append(promised, g...)
	}
	return promised, taken.Load()
}

func TestPurchaseService_SeatsUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	for _, price := range []palaro.Money{0, 15000} {
		t.Run(fmt.Sprintf("OK each seat goes to one order (price %d)", price), func(t *testing.T) {
			f := newPurchaseFixture(t)
			code, id := f.addSeatedTicketType(t, fmt.Sprintf("seat-storm-%d", price), price, 64, 4)
			promised, refused := seatStorm(60, func(i int, seats []string) bool {
				_, err := f.purchases.CreateOrder(ctx, seatRequest(code, fmt.Sprintf("b%d@x.ph", i), seats...), f.now)
				if err != nil && palaro.ErrorCode(err) != palaro.ECONFLICT {
					t.Errorf("buyer %d: %v", i, err)
				}
				return err == nil
			})
			require.Positive(t, refused, "buyers raced for the same seats")
			require.Zero(t, doubles(promised), "no seat was promised twice")
			require.Equal(t, len(promised), f.countRows(t, `SELECT COUNT(*) FROM seat_assignments WHERE ticket_type_id = ?`, id))
			require.Equal(t, len(promised), f.countRows(t, `SELECT coalesce(sum(quantity), 0) FROM orders WHERE ticket_type_id = ?`, id))
			if price == 0 {
				require.Equal(t, len(promised), f.countRows(t, `SELECT COUNT(DISTINCT seat) FROM tickets WHERE ticket_type_id = ?`, id))
				require.Equal(t, len(promised), f.countRows(t, `SELECT COUNT(*) FROM tickets WHERE ticket_type_id = ?`, id))
			}
		})
	}
}

// doubles is how many promises went to a seat promised before.
func doubles(promised []string) int {
	seen := map[string]bool{}
	for _, s := range promised {
		seen[s] = true
	}
	return len(promised) - len(seen)
}

// naiveTakeSeats is the check-then-write path the store must NOT use: it looks for the seats in
// one statement and records them in another, in a table without the primary key. Kept only here,
// as the control.
func naiveTakeSeats(ctx context.Context, db *DB, ticketTypeID int64, buyer int, seats []string) (bool, error) {
	for _, s := range seats {
		var n int
		if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM naive_seats WHERE ticket_type_id = ? AND seat = ?`,
			ticketTypeID, s).Scan(&n); err != nil {
			return false, err
		}
		if n > 0 {
			return false, nil
		}
	}
	time.Sleep(time.Millisecond) // the work between the check and the write (pricing, promo, …)
	for _, s := range seats {
		if _, err := db.write.ExecContext(ctx, `INSERT INTO naive_seats (ticket_type_id, seat, buyer) VALUES (?, ?, ?)`,
			ticketTypeID, s, buyer); err != nil {
			return false, err
		}
	}
	return true, nil
}

// TestNaiveSeats_DoubleSell is the control: the same storm against a check-then-write path
// promises seats twice, so the storm above would catch a store that took seats that way.
func TestNaiveSeats_DoubleSell(t *testing.T) {
	f := newPurchaseFixture(t)
	_, id := f.addSeatedTicketType(t, "naive-seats", 0, 64, 4)
	_, err := f.db.write.Exec(`CREATE TABLE naive_seats (ticket_type_id INTEGER, seat TEXT, buyer INTEGER)`)
	require.NoError(t, err)
	promised, _ := seatStorm(60, func(i int, seats []string) bool {
		ok, err := naiveTakeSeats(context.Background(), f.db, id, i, seats)
		if err != nil {
			t.Errorf("buyer %d: %v", i, err)
		}
		return ok
	})
	require.Positive(t, doubles(promised), "some seat was promised to two buyers")
	require.Greater(t, f.countRows(t, `SELECT COUNT(*) FROM naive_seats`),
		f.countRows(t, `SELECT COUNT(DISTINCT seat) FROM naive_seats`), "and recorded twice")
}
