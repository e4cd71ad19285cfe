package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// returnsFixture is the waiting-list fixture with the returns service registered.
type returnsFixture struct {
	*waitlistFixture
	returns *ReturnsService
	paid    int
}

func newReturnsFixture(t *testing.T) *returnsFixture {
	f := &returnsFixture{waitlistFixture: newWaitlistFixture(t)}
	f.returns = NewReturnsService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test"))
	return f
}

// buy creates an order (claiming offer when set) and pays it through a payment event, as the
// gateway's webhook does; it returns the paid order with its tickets.
func (f *returnsFixture) buy(t *testing.T, code string, quantity int, email, offer string) *palaro.Order {
	t.Helper()
	ctx := context.Background()
	req := paidRequest(code, quantity, email)
	req.Offer = offer
	o, err := f.purchases.CreateOrder(ctx, req, f.clock)
	require.NoError(t, err)
	f.paid++
	session := "cs_ret_" + o.PublicID
	require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: session, URL: "https://pay.test/x"}))
	_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_ret_"+o.PublicID, session, o.Total))
	require.NoError(t, err)
	got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, got.Status)
	return got
}

func (f *returnsFixture) ticketStatus(t *testing.T, id int64) string {
	t.Helper()
	var s string
	require.NoError(t, f.db.read.QueryRow(`SELECT status FROM tickets WHERE id = ?`, id).Scan(&s))
	return s
}

// TestReturns_SelfCancelAmountsAndDeadline: a ₱50.00 + 7.5% fee on ₱999.99 paid keeps ₱125.00
// (7.5% is ₱74.99925, rounded half up to ₱75.00); 24 hours before a midnight (Manila) start,
// cancelling closes at midnight the day before, to the second; the one write voids the
// tickets, returns their places and writes one pending refund with its tickets; on either engine.
func TestReturns_SelfCancelAmountsAndDeadline(t *testing.T) {
	ctx := context.Background()
	f := newReturnsFixture(t)
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, palaro.Manila)
	_, err := f.db.write.Exec(`UPDATE events SET starts_at = ?, ends_at = ? WHERE code = 'tekken-tuesdays-cubao'`,
		formatTime(start), formatTime(start.Add(4*time.Hour)))
	require.NoError(t, err)
	code := f.addTicketType(t, "self-cancel", 33333, 10, 5)
	o := f.buy(t, code, 3, "canceller@x.ph", "")
	require.Equal(t, palaro.Money(99999), o.Total)

	q, err := f.returns.QuoteSelfCancel(ctx, o.PublicID, f.clock)
	require.NoError(t, err)
	require.False(t, q.Allowed, "no policy: buyers cannot cancel")
	require.Contains(t, q.Reason, "does not let buyers cancel")
	_, err = f.returns.SelfCancel(ctx, o.PublicID, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))

	p, err := palaro.ParseSelfCancelPolicy(true, "24", "50", "7.5")
	require.NoError(t, err)
	require.NoError(t, f.returns.SetSelfCancelPolicy(ctx, o.EventID, p, "owner@x.ph", f.clock))
	got, err := f.returns.SelfCancelPolicy(ctx, o.EventID)
	require.NoError(t, err)
	require.Equal(t, palaro.SelfCancelPolicy{Enabled: true, HoursBefore: 24, Fee: 5000, PercentBP: 750}, got)

	deadline := time.Date(2026, 12, 1, 0, 0, 0, 0, palaro.Manila)
	q, err = f.returns.QuoteSelfCancel(ctx, o.PublicID, deadline)
	require.NoError(t, err)
	require.False(t, q.Allowed, "at midnight the deadline has passed")
	require.Equal(t, "Cancelling closed on December 1 at 12:00 AM.", q.Reason)
	_, err = f.returns.SelfCancel(ctx, o.PublicID, deadline)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM refunds`))

	last := deadline.Add(-time.Second)
	q, err = f.returns.QuoteSelfCancel(ctx, o.PublicID, last)
	require.NoError(t, err)
	require.True(t, q.Allowed, "one second before midnight it is open")
	require.Equal(t, [4]palaro.Money{99999, 12500, 87499, 3}, [4]palaro.Money{q.Paid, q.Fee, q.Refund, palaro.Money(q.Tickets)})

	gateBefore := f.countRows(t, `SELECT count(*) FROM gate_changes`)
	done, err := f.returns.SelfCancel(ctx, o.PublicID, last)
	require.NoError(t, err)
	require.Equal(t, q.Refund, done.Refund)
	var amount, fee int64
	var reason, status string
	require.NoError(t, f.db.read.QueryRow(`SELECT amount, fee, reason, status FROM refunds WHERE order_id = ?`, o.ID).
		Scan(&amount, &fee, &reason, &status))
	require.Equal(t, []any{int64(87499), int64(12500), "buyer_cancelled", "pending"}, []any{amount, fee, reason, status})
	require.Equal(t, 87499, f.countRows(t, `SELECT sum(amount) FROM refund_tickets`), "the tickets' amounts add up to the refund")
	require.Equal(t, 3, f.countRows(t, `SELECT count(*) FROM refund_tickets rt JOIN tickets t ON t.id = rt.ticket_id
		WHERE t.order_id = ? AND t.status = 'cancelled'`, o.ID), "every ticket void, in the refund")
	require.Equal(t, gateBefore+3, f.countRows(t, `SELECT count(*) FROM gate_changes`), "the gate hears of each")
	sold, held, _ := f.counts(t, code)
	require.Equal(t, [2]int{0, 0}, [2]int{sold, held}, "their places are back on sale")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ?`,
		palaro.MessageSelfCancelled, "canceller@x.ph"))

	_, err = f.returns.SelfCancel(ctx, o.PublicID, last)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "nothing left to cancel")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds`))
}

// TestReturns_ReturnSoldThroughWaitingListRefundsOnce: a returned ticket of a sold-out type is
// offered to the waiting list at once; its buyer cannot take it back while it is offered; when the
// waiting buyer pays, the first buyer's pending refund of the face value is written, once, and the
// new ticket has a new code; capacity is never exceeded; on either engine.
func TestReturns_ReturnSoldThroughWaitingListRefundsOnce(t *testing.T) {
	ctx := context.Background()
	f := newReturnsFixture(t)
	code := f.addTicketType(t, "ret-wl", 50000, 2, 2)
	a := f.buy(t, code, 1, "a@x.ph", "")
	f.buy(t, code, 1, "b@x.ph", "")
	f.join(t, code, "w@x.ph", 1)

	require.NoError(t, f.returns.ReturnTicket(ctx, a.PublicID, a.Tickets[0].PublicID, f.clock))
	require.Equal(t, palaro.TicketCancelled, f.ticketStatus(t, a.Tickets[0].ID), "void while it is resold")
	sold, held, _ := f.counts(t, code)
	require.Equal(t, [2]int{1, 1}, [2]int{sold, held}, "its place is offered to the waiting list")
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM refunds`), "no refund before someone pays")
	err := f.returns.ReturnTicket(ctx, a.PublicID, a.Tickets[0].PublicID, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "returned once")
	_, err = f.purchases.CreateOrder(ctx, paidRequest(code, 1, "c@x.ph"), f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "an ordinary buyer cannot take it from the waiting list")
	err = f.returns.WithdrawReturn(ctx, a.PublicID, a.Tickets[0].PublicID, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "offered to someone: it cannot be taken back")
	require.Contains(t, err.Error(), "Someone is buying")

	w := f.buy(t, code, 1, "w@x.ph", f.offerToken(t, "w@x.ph"))
	require.NotEqual(t, a.Tickets[0].Code, w.Tickets[0].Code, "the new buyer's ticket has a new code")
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, [3]int{2, 0, 2}, [3]int{sold, held, capacity})
	var amount int64
	var reason, status string
	require.NoError(t, f.db.read.QueryRow(`SELECT amount, reason, status FROM refunds WHERE order_id = ?`, a.ID).Scan(&amount, &reason, &status))
	require.Equal(t, []any{int64(50000), "returned", "pending"}, []any{amount, reason, status})
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refund_tickets WHERE ticket_id = ?`, a.Tickets[0].ID))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = 'a@x.ph'`, palaro.MessageReturnSold))
	returns, err := f.returns.OrderReturns(ctx, a.PublicID)
	require.NoError(t, err)
	require.Len(t, returns, 1)
	require.Equal(t, palaro.ReturnSold, returns[0].Status)
	require.Equal(t, "pending", returns[0].RefundStatus)

	err = f.returns.WithdrawReturn(ctx, a.PublicID, a.Tickets[0].PublicID, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "sold: nothing to take back")
	_, err = f.purchases.CreateOrder(ctx, paidRequest(code, 1, "d@x.ph"), f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "sold out again: a returned ticket is sold once")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds`), "one refund, once")
}

// TestReturns_BackOnSaleWithoutWaitingList: with no waiting list a returned ticket goes back on
// sale; its buyer may take it back (valid again) until another buyer holds it; the next paid order
// of the type sells it and writes the refund; on either engine.
func TestReturns_BackOnSaleWithoutWaitingList(t *testing.T) {
	ctx := context.Background()
	f := newReturnsFixture(t)
	code := f.addTicketType(t, "ret-sale", 45000, 1, 1)
	a := f.buy(t, code, 1, "a@x.ph", "")
	ticket := a.Tickets[0]

	require.NoError(t, f.returns.ReturnTicket(ctx, a.PublicID, ticket.PublicID, f.clock))
	sold, held, _ := f.counts(t, code)
	require.Equal(t, [2]int{0, 0}, [2]int{sold, held}, "back on sale")
	require.NoError(t, f.returns.WithdrawReturn(ctx, a.PublicID, ticket.PublicID, f.clock))
	require.Equal(t, palaro.TicketValid, f.ticketStatus(t, ticket.ID), "taken back: valid again, same code")
	sold, _, _ = f.counts(t, code)
	require.Equal(t, 1, sold)

	require.NoError(t, f.returns.ReturnTicket(ctx, a.PublicID, ticket.PublicID, f.clock))
	c, err := f.purchases.CreateOrder(ctx, paidRequest(code, 1, "c@x.ph"), f.clock)
	require.NoError(t, err, "anyone may buy it")
	err = f.returns.WithdrawReturn(ctx, a.PublicID, ticket.PublicID, f.clock)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "held by a buyer who is paying")
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM refunds`))
	session := "cs_ret_c"
	require.NoError(t, f.purchases.AttachCheckout(ctx, c.ID, "sandbox", palaro.CheckoutSession{ID: session, URL: "https://pay.test/c"}))
	for range 2 { // a redelivered webhook changes nothing
		_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_ret_c", session, c.Total))
		require.NoError(t, err)
	}
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds WHERE order_id = ? AND reason = 'returned' AND amount = 45000`, a.ID))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds`))
	sold, held, _ = f.counts(t, code)
	require.Equal(t, [2]int{1, 0}, [2]int{sold, held})
	require.Equal(t, palaro.TicketCancelled, f.ticketStatus(t, ticket.ID))
}

// TestReturns_ReturnRules: a ticket cannot be returned once the event starts, nor another order's.
func TestReturns_ReturnRules(t *testing.T) {
	ctx := context.Background()
	f := newReturnsFixture(t)
	code := f.addTicketType(t, "ret-rules", 45000, 5, 2)
	a := f.buy(t, code, 1, "a@x.ph", "")
	err := f.returns.ReturnTicket(ctx, a.PublicID, a.Tickets[0].PublicID, a.Event.StartsAt)
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	require.Contains(t, err.Error(), "has started")
	err = f.returns.ReturnTicket(ctx, a.PublicID, "nope", f.clock)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
}

// TestReturns_ConcurrentOnce: a double-pressed return opens one return, a double-pressed cancel
// writes one refund, and two buyers paying at once for the places of one return refund it once;
// on either engine.
func TestReturns_ConcurrentOnce(t *testing.T) {
	ctx := context.Background()
	f := newReturnsFixture(t)
	code := f.addTicketType(t, "ret-race", 30000, 3, 2)
	a := f.buy(t, code, 1, "a@x.ph", "")
	c := f.buy(t, code, 1, "c@x.ph", "")
	p, err := palaro.ParseSelfCancelPolicy(true, "1", "0", "10")
	require.NoError(t, err)
	require.NoError(t, f.returns.SetSelfCancelPolicy(ctx, a.EventID, p, "owner@x.ph", f.clock))

	race := func(n int, fn func() error) (ok int) {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = fn()
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err == nil {
				ok++
			} else {
				require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), err)
			}
		}
		return ok
	}
	require.Equal(t, 1, race(6, func() error { return f.returns.ReturnTicket(ctx, a.PublicID, a.Tickets[0].PublicID, f.clock) }))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM ticket_returns WHERE status = 'open'`))
	require.Equal(t, 1, race(6, func() error { _, err := f.returns.SelfCancel(ctx, c.PublicID, f.clock); return err }))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds WHERE reason = 'buyer_cancelled'`))
	require.Equal(t, 27000, f.countRows(t, `SELECT amount FROM refunds WHERE reason = 'buyer_cancelled'`), "₱300.00 less 10%")

	// three places are free now (one returned, one cancelled, one never sold): three buyers pay at once
	var orders []*palaro.Order
	for _, email := range []string{"x@x.ph", "y@x.ph", "z@x.ph"} {
		o, err := f.purchases.CreateOrder(ctx, paidRequest(code, 1, email), f.clock)
		require.NoError(t, err)
		require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_race_" + email, URL: "https://pay.test/r"}))
		orders = append(orders, o)
	}
	var wg sync.WaitGroup
	errs := make([]error, len(orders))
	for i, o := range orders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_race_"+o.Email, "cs_race_"+o.Email, o.Total))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds WHERE reason = 'returned' AND order_id = ?`, a.ID), "sold once")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM ticket_returns WHERE status = 'sold'`))
	sold, held, capacity := f.counts(t, code)
	require.Equal(t, [3]int{3, 0, 3}, [3]int{sold, held, capacity}, "never more than capacity")
}

// TestReturns_CancelledEventRefundsOpenReturns: refunding every order of a cancelled event also
// refunds the tickets whose face-value returns were still open (void, in no refund yet), each once,
// with the event's reason, and closes those returns as refunded so that they can neither be sold
// nor taken back; a sold return is not refunded again; on either engine.
func TestReturns_CancelledEventRefundsOpenReturns(t *testing.T) {
	ctx := context.Background()
	f := newReturnsFixture(t)
	code := f.addTicketType(t, "ret-cancel", 30000, 10, 5)
	a := f.buy(t, code, 2, "a@x.ph", "") // one of two returned
	b := f.buy(t, code, 1, "b@x.ph", "") // its only ticket returned
	s := f.buy(t, code, 1, "s@x.ph", "") // returned and sold
	_, err := f.db.write.Exec(`UPDATE orders SET status = 'expired' WHERE event_id = ? AND id NOT IN (?, ?, ?)`,
		a.EventID, a.ID, b.ID, s.ID) // the demo's orders aside
	require.NoError(t, err)
	require.NoError(t, f.returns.ReturnTicket(ctx, s.PublicID, s.Tickets[0].PublicID, f.clock))
	n := f.buy(t, code, 1, "n@x.ph", "") // sells s's return
	require.NoError(t, f.returns.ReturnTicket(ctx, a.PublicID, a.Tickets[1].PublicID, f.clock))
	require.NoError(t, f.returns.ReturnTicket(ctx, b.PublicID, b.Tickets[0].PublicID, f.clock))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds`), "only the sold return's refund")

	refunds := NewRefundService(f.db, nil)
	_, err = f.db.write.Exec(`UPDATE events SET status = 'cancelled' WHERE id = ?`, a.EventID)
	require.NoError(t, err)
	require.NoError(t, refunds.RefundEvent(ctx, a.EventID, "owner@x.ph"))
	for range 3 { // the job's later rounds find nothing left
		_, err := refunds.RefundEventOrders(ctx, 10)
		require.NoError(t, err)
	}
	for _, o := range []*palaro.Order{a, b} {
		var amount int64
		var reason string
		require.NoError(t, f.db.read.QueryRow(`SELECT amount, reason FROM refunds WHERE order_id = ?`, o.ID).Scan(&amount, &reason),
			"one refund for order %s", o.PublicID)
		require.Equal(t, []any{int64(o.Total), palaro.RefundEventCancelled}, []any{amount, reason}, "the whole order, returned ticket too")
		require.Equal(t, len(o.Tickets), f.countRows(t, `SELECT count(*) FROM refund_tickets rt JOIN refunds r ON r.id = rt.refund_id
			WHERE r.order_id = ?`, o.ID))
	}
	for _, x := range []struct {
		o  *palaro.Order
		at int
	}{{a, 1}, {b, 0}} {
		returns, err := f.returns.OrderReturns(ctx, x.o.PublicID)
		require.NoError(t, err)
		require.Len(t, returns, 1)
		require.Equal(t, []string{palaro.ReturnRefunded, "pending"}, []string{returns[0].Status, returns[0].RefundStatus})
		require.False(t, returns[0].ClosedAt.IsZero())
		err = f.returns.WithdrawReturn(ctx, x.o.PublicID, x.o.Tickets[x.at].PublicID, f.clock)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "refunded: not to be taken back")
		require.Equal(t, palaro.TicketCancelled, f.ticketStatus(t, x.o.Tickets[x.at].ID))
	}
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM ticket_returns WHERE status = 'open'`))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds WHERE order_id = ?`, s.ID), "the sold return's buyer is refunded once")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refund_tickets WHERE ticket_id = ?`, s.Tickets[0].ID))
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds WHERE order_id = ? AND reason = ?`, n.ID, palaro.RefundEventCancelled))
	require.Equal(t, 4, f.countRows(t, `SELECT count(*) FROM refunds`), "a, b, n, and s's sold return: each once")
	pending, failed, err := refunds.RefundCounts(ctx)
	require.NoError(t, err)
	require.Equal(t, [2]int{4, 0}, [2]int{pending, failed}, "the metrics' pending refunds")
}
