package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// seatedSoldOut adds a seated type of 16 seats (8 rows of 2, max 2 per buyer) and sells every
// seat in pending orders of two seats, one per row; it returns the code, the id and the orders.
func (f *waitlistFixture) seatedSoldOut(t *testing.T, code string) (string, int64, []*palaro.Order) {
	t.Helper()
	code, id := f.addSeatedTicketType(t, code, 50000, 16, 2)
	var orders []*palaro.Order
	for i, row := range []string{"A", "B", "C", "D", "E", "F", "G", "H"} {
		req := seatRequest(code, fmt.Sprintf("buyer%d@x.ph", i), row+"1", row+"2")
		req.Quantity, req.PaymentType = 2, palaro.PaymentQR
		o, err := f.purchases.CreateOrder(context.Background(), req, f.clock)
		require.NoError(t, err)
		orders = append(orders, o)
	}
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, capacity, sold+held, "sold out")
	return code, id, orders
}

// offerSeatsOf returns the seats an open offer of an address holds, from seat_assignments.
func (f *waitlistFixture) offerSeatsOf(t *testing.T, email string) []string {
	t.Helper()
	seats, err := queryStrings(context.Background(), f.db.read, `SELECT a.seat FROM seat_assignments a
		JOIN waitlist_offers o ON o.id = a.offer_id JOIN waitlist_entries w ON w.id = o.entry_id
		WHERE w.email = ? AND o.status = 'open' ORDER BY a.seat`, email)
	require.NoError(t, err)
	return seats
}

// TestWaitlist_SeatedOfferChain: a seated type's returned seats are offered as named seats, pass
// to the next person when the offer expires (injected clock), and are bought exactly by the claim.
func TestWaitlist_SeatedOfferChain(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code, typeID, orders := f.seatedSoldOut(t, "wl-seated")

	one := f.join(t, code, "one@x.ph", 2)
	require.Equal(t, 1, one.Entry.Position, "a sold-out seated type has a waiting list")
	f.join(t, code, "two@x.ph", 2)

	// an order of row C is cancelled: its two seats are held for #1, as seats on the map
	require.NoError(t, f.purchases.CancelOrder(ctx, orders[2].ID))
	require.Equal(t, []string{"C1", "C2"}, f.offerSeatsOf(t, "one@x.ph"))
	states := f.seatStates(t, typeID)
	require.Equal(t, palaro.SeatHeld, states["C1"])
	require.Equal(t, palaro.SeatHeld, states["C2"])
	tokenOne := f.offerToken(t, "one@x.ph")
	offer, err := f.lists.FindOffer(ctx, tokenOne)
	require.NoError(t, err)
	require.Equal(t, []string{"C1", "C2"}, offer.Seats)
	require.Equal(t, f.clock.Add(palaro.DefaultOfferTime).UTC(), offer.ExpiresAt)
	var body string
	require.NoError(t, f.db.read.QueryRow(`SELECT body_text FROM outbox WHERE recipient = 'one@x.ph' AND kind = ?`,
		palaro.MessageWaitlistOffer).Scan(&body))
	require.Contains(t, body, "C1, C2", "the e-mail names the seats")

	// nobody else can take them
	req := seatRequest(code, "someone@x.ph", "C1")
	req.Quantity, req.PaymentType = 1, palaro.PaymentQR
	_, err = f.purchases.CreateOrder(ctx, req, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Contains(t, err.Error(), "Seat C1 was just taken")

	// a minute before its end it still holds; at its end the same seats go to #2
	f.passOn(t, offer.ExpiresAt)
	require.Equal(t, palaro.WaitlistPassed, f.entryStatus(t, code, "one@x.ph"))
	require.Empty(t, f.offerSeatsOf(t, "one@x.ph"))
	require.Equal(t, []string{"C1", "C2"}, f.offerSeatsOf(t, "two@x.ph"))
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, capacity, sold+held, "one hold passed on, not two")

	tokenTwo := f.offerToken(t, "two@x.ph")
	req = seatRequest(code, "one@x.ph", "C1", "C2")
	req.Quantity, req.PaymentType, req.Offer = 2, palaro.PaymentQR, tokenOne
	_, err = f.purchases.CreateOrder(ctx, req, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "the expired offer buys nothing")

	// the claim buys exactly the offered seats
	req = seatRequest(code, "two@x.ph", "C1", "D1")
	req.Quantity, req.PaymentType, req.Offer = 2, palaro.PaymentQR, tokenTwo
	_, err = f.purchases.CreateOrder(ctx, req, f.clock)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	require.Contains(t, err.Error(), "This waiting-list offer is for seats C1, C2.")
	req.Seats = []string{"C2", "C1"}
	o, err := f.purchases.CreateOrder(ctx, req, f.clock)
	require.NoError(t, err, "#2 claims the offer through the normal purchase")
	require.ElementsMatch(t, []string{"C1", "C2"}, o.Seats)
	var owned []string
	owned, err = queryStrings(ctx, f.db.read, `SELECT seat FROM seat_assignments WHERE order_id = ? ORDER BY seat`, o.ID)
	require.NoError(t, err)
	require.Equal(t, []string{"C1", "C2"}, owned, "the order holds the offered seats, no others")
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM seat_assignments WHERE offer_id IS NOT NULL`), "the offer's seat rows became the order's")
	require.Equal(t, palaro.WaitlistClaimed, f.entryStatus(t, code, "two@x.ph"))
	sold, held, capacity = f.counts(t, code)
	require.Equal(t, capacity, sold+held)

	board, err := f.lists.Board(ctx, o.EventID)
	require.NoError(t, err)
	for _, e := range board.Entries {
		require.Len(t, e.Offers, 1, e.Email)
		require.Equal(t, []string{"C1", "C2"}, e.Offers[0].Seats, "the console keeps the seats of closed offers")
	}
}

// TestWaitlist_DeclinePassesSeatsOn: a holder who gives up an offer passes its seats to the next
// entry at once; with nobody left waiting they go back on sale.
func TestWaitlist_DeclinePassesSeatsOn(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code, typeID, orders := f.seatedSoldOut(t, "wl-seat-decline")
	f.join(t, code, "one@x.ph", 2)
	f.join(t, code, "two@x.ph", 2)
	require.NoError(t, f.purchases.CancelOrder(ctx, orders[1].ID))
	tokenOne := f.offerToken(t, "one@x.ph")

	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(f.lists.Decline(ctx, "no-such-token", f.clock)))
	f.clock = f.clock.Add(time.Hour)
	require.NoError(t, f.lists.Decline(ctx, tokenOne, f.clock))
	require.Equal(t, palaro.WaitlistPassed, f.entryStatus(t, code, "one@x.ph"))
	require.Equal(t, []string{"B1", "B2"}, f.offerSeatsOf(t, "two@x.ph"), "the seats go to #2 at once")
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ?`, palaro.MessageWaitlistOfferExpired),
		"who declined is not told that the offer expired")
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(f.lists.Decline(ctx, tokenOne, f.clock)), "once")
	offer, err := f.lists.FindOffer(ctx, tokenOne)
	require.NoError(t, err)
	require.True(t, offer.Declined)
	require.Equal(t, palaro.OfferExpired, offer.Status)

	require.NoError(t, f.lists.Decline(ctx, f.offerToken(t, "two@x.ph"), f.clock))
	states := f.seatStates(t, typeID)
	require.Equal(t, [2]string{palaro.SeatAvailable, palaro.SeatAvailable}, [2]string{states["B1"], states["B2"]}, "nobody waits: on sale again")
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, 2, capacity-sold-held)
}

// TestWaitlist_SeatedOfferHoldsAgainstARush: while buyers rush for the seats an offer holds, only
// its holder gets them; the seats are never sold twice.
func TestWaitlist_SeatedOfferHoldsAgainstARush(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code, _, orders := f.seatedSoldOut(t, "wl-seat-rush")
	f.join(t, code, "w1@x.ph", 2)
	require.NoError(t, f.purchases.CancelOrder(ctx, orders[0].ID))
	require.Equal(t, []string{"A1", "A2"}, f.offerSeatsOf(t, "w1@x.ph"))
	token := f.offerToken(t, "w1@x.ph")

	var wg sync.WaitGroup
	results := make(chan error, 30)
	claimed := make(chan *palaro.Order, 1)
	for i := range 24 {
		wg.Go(func() {
			req := seatRequest(code, fmt.Sprintf("rush%d@x.ph", i), []string{"A1", "A2"}[:1+i%2]...)
			req.Quantity, req.PaymentType = 1+i%2, palaro.PaymentQR
			_, err := f.purchases.CreateOrder(ctx, req, f.clock)
			results <- err
		})
	}
	wg.Go(func() {
		req := seatRequest(code, "w1@x.ph", "A1", "A2")
		req.Quantity, req.PaymentType, req.Offer = 2, palaro.PaymentQR, token
		o, err := f.purchases.CreateOrder(ctx, req, f.clock)
		require.NoError(t, err, "the holder's claim succeeds during the rush")
		claimed <- o
	})
	wg.Wait()
	close(results)
	for err := range results {
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "no rush buyer gets an offered seat: %v", err)
	}
	o := <-claimed
	require.Equal(t, 2, f.countRows(t, `SELECT count(*) FROM seat_assignments WHERE order_id = ? AND seat IN ('A1', 'A2')`, o.ID))
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, capacity, sold+held, "never oversold")
	require.Equal(t, 16, f.countRows(t, `SELECT count(*) FROM seat_assignments a JOIN ticket_types tt ON tt.id = a.ticket_type_id
		WHERE tt.code = ?`, code), "one assignment per seat")
}

// TestWaitlist_SeatedOfferByHandAndFreedSeats: the organizer offers named seats by hand, and
// seats the organizer frees (unblocks) go to the list first.
func TestWaitlist_SeatedOfferByHandAndFreedSeats(t *testing.T) {
	ctx := context.Background()
	f := newWaitlistFixture(t)
	code, typeID, orders := f.seatedSoldOut(t, "wl-seat-hand")
	eventID := orders[0].EventID
	org := NewOrganizerService(f.db, nil)
	hand := f.join(t, code, "hand@x.ph", 2)
	later := f.join(t, code, "later@x.ph", 1)

	_, err := f.lists.OfferByHand(ctx, eventID, hand.Entry.ID, 0, []string{"B1", "B2"}, "owner@x.ph", f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "sold seats cannot be offered")
	require.Equal(t, palaro.WaitlistWaiting, f.entryStatus(t, code, "hand@x.ph"), "a refused offer leaves the entry waiting")
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, capacity, sold+held, "and takes no hold")

	// the organizer blocks nothing yet; expire one order (hold ended): its seats go to #1 (hand@)
	// automatically; then unblocking is tried on the rest
	f.clock = f.clock.Add(16 * time.Minute)
	require.NoError(t, f.purchases.CancelOrder(ctx, orders[7].ID)) // H1, H2
	require.Equal(t, []string{"H1", "H2"}, f.offerSeatsOf(t, "hand@x.ph"))

	// by hand, with a named seat, to the later entry: first a seat is freed by cancelling an order
	require.NoError(t, f.purchases.CancelOrder(ctx, orders[6].ID)) // G1, G2: later@ wants 1
	require.Equal(t, []string{"G1"}, f.offerSeatsOf(t, "later@x.ph"), "the list takes what fits, front seat first")
	require.Equal(t, palaro.SeatAvailable, f.seatStates(t, typeID)["G2"])
	_, err = f.lists.OfferByHand(ctx, eventID, later.Entry.ID, 1, []string{"G2"}, "owner@x.ph", f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "an entry with an open offer gets no second one")

	// the organizer blocks G2, then frees it: it goes to the next waiting entry
	require.NoError(t, org.SetBlockedSeats(ctx, eventID, code, "owner@x.ph", []string{"G2"}))
	third := f.join(t, code, "third@x.ph", 1)
	require.NoError(t, org.SetBlockedSeats(ctx, eventID, code, "owner@x.ph", nil))
	require.Equal(t, []string{"G2"}, f.offerSeatsOf(t, "third@x.ph"), "a freed seat goes to the waiting list first")

	// named seats by hand: the expired offer of third@ is replaced by hand with the same seat
	f.clock = f.clock.Add(palaro.DefaultOfferTime)
	_, _, err = f.lists.Advance(ctx, f.clock)
	require.NoError(t, err)
	require.Equal(t, palaro.WaitlistPassed, f.entryStatus(t, code, "third@x.ph"))
	// every expired offer's seats went back: hand@ and later@ passed too, and nobody waits, so
	// they are free now
	require.Equal(t, palaro.SeatAvailable, f.seatStates(t, typeID)["H1"])
	_, err = f.lists.OfferByHand(ctx, eventID, third.Entry.ID, 0, []string{"Z9"}, "owner@x.ph", f.clock)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "an unknown seat")
	o, err := f.lists.OfferByHand(ctx, eventID, third.Entry.ID, 0, []string{"H2"}, "owner@x.ph", f.clock)
	require.NoError(t, err)
	require.Equal(t, []string{"H2"}, o.Seats)
	require.Equal(t, 1, o.Quantity)
	require.True(t, o.ByHand)
	require.Equal(t, palaro.SeatHeld, f.seatStates(t, typeID)["H2"])
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM audit_log WHERE action LIKE '%seats H2%'`))
}
