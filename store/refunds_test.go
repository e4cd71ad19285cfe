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

// fakeGateway is a payment provider that refunds once per key and counts the money it moved.
type fakeGateway struct {
	mu    sync.Mutex
	moved map[string]palaro.Money // by key
	calls int
}

func (g *fakeGateway) Name() string { return "sandbox" }
func (g *fakeGateway) Live() bool   { return false }
func (g *fakeGateway) CreateCheckout(context.Context, palaro.Checkout) (palaro.CheckoutSession, error) {
	return palaro.CheckoutSession{}, palaro.Errorf(palaro.EINTERNAL, "not here")
}
func (g *fakeGateway) ParseWebhook(string, []byte, time.Time) (palaro.PaymentEvent, error) {
	return palaro.PaymentEvent{}, palaro.Errorf(palaro.EINVALID, "not here")
}
func (g *fakeGateway) SessionStatus(context.Context, string) (palaro.PaymentEvent, error) {
	return palaro.PaymentEvent{}, palaro.Errorf(palaro.ENOTFOUND, "not here")
}
func (g *fakeGateway) Refund(_ context.Context, r palaro.RefundRequest) (palaro.RefundResult, error) {
	if err := r.Validate(); err != nil {
		return palaro.RefundResult{}, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls++
	if g.moved == nil {
		g.moved = map[string]palaro.Money{}
	}
	if _, ok := g.moved[r.Key]; !ok {
		g.moved[r.Key] = r.Amount
	}
	return palaro.RefundResult{ID: "ref_" + r.Key, Status: palaro.RefundRefunded}, nil
}

// total is the money the gateway gave back.
func (g *fakeGateway) total() palaro.Money {
	g.mu.Lock()
	defer g.mu.Unlock()
	var sum palaro.Money
	for _, m := range g.moved {
		sum += m
	}
	return sum
}

type refundFixture struct {
	*purchaseFixture
	refunds *RefundService
	gateway *fakeGateway
	eventID int64
	code    string
}

func newRefundFixture(t *testing.T) *refundFixture {
	f := &refundFixture{purchaseFixture: newPurchaseFixture(t), gateway: &fakeGateway{}}
	f.refunds = NewRefundService(f.db, notify.NewComposer("https://palaro.test", "help@palaro.test"))
	f.code = f.addTicketType(t, "refund-me", 20000, 40, 20)
	require.NoError(t, f.db.read.QueryRow(`SELECT event_id FROM ticket_types WHERE code = ?`, f.code).Scan(&f.eventID))
	return f
}

// paidOrder is an order of quantity ₱200.00 tickets paid through checkout session session.
func (f *refundFixture) paidOrder(t *testing.T, quantity int, session string) *palaro.Order {
	t.Helper()
	o := f.pendingOrder(t, f.code, quantity, session)
	got, err := f.purchases.ConfirmPayment(context.Background(), "sandbox", false, paid("evt_"+session, session, o.Total))
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, got.Status)
	return got
}

func (f *refundFixture) order(t *testing.T, publicID string) *palaro.Order {
	t.Helper()
	o, err := NewOrganizerService(f.db, nil).FindOrder(context.Background(), f.eventID, publicID)
	require.NoError(t, err)
	return o
}

func (f *refundFixture) settle(t *testing.T) int {
	t.Helper()
	n, err := palaro.SettleRefunds(context.Background(), f.refunds, f.gateway, 100, f.now)
	require.NoError(t, err)
	return n
}

// TestRefundService_Partial: one ticket of two is refunded at once (void, its place back on sale,
// the buyer e-mailed, the gate told); asking again changes nothing; the job settles it through
// the gateway; the rest of the order follows and the order ends refunded; on either engine.
func TestRefundService_Partial(t *testing.T) {
	ctx := context.Background()
	f := newRefundFixture(t)
	o := f.paidOrder(t, 2, "cs_partial")
	sold, _, _ := f.counts(t, f.code)
	require.Equal(t, 2, sold)
	changes := f.countRows(t, `SELECT count(*) FROM gate_changes`)

	first := o.Tickets[0].Code
	refunds, err := f.refunds.RequestRefund(ctx, f.eventID, o.PublicID, []string{first}, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	require.Len(t, refunds, 1)
	r := refunds[0]
	require.Equal(t, palaro.RefundPending, r.Status)
	require.Equal(t, palaro.Money(20000), r.Amount)
	require.Equal(t, []string{first}, r.TicketCodes)
	got := f.order(t, o.PublicID)
	require.Equal(t, palaro.OrderPaid, got.Status)
	require.Equal(t, palaro.TicketCancelled, got.Tickets[0].Status, "void at once")
	require.Equal(t, palaro.TicketValid, got.Tickets[1].Status)
	sold, _, _ = f.counts(t, f.code)
	require.Equal(t, 1, sold, "the place is back on sale")
	require.Greater(t, f.countRows(t, `SELECT count(*) FROM gate_changes`), changes, "the gate lists hear of it")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ?`, palaro.MessageRefundStarted, o.Email))
	res, err := NewCheckInService(f.db).CheckIn(ctx, palaro.CheckInRequest{EventID: f.eventID, Code: first, Gate: "Gate 1", At: f.now})
	require.NoError(t, err)
	require.Equal(t, palaro.CheckInCancelled, res.Outcome, "the gate refuses it")

	again, err := f.refunds.RequestRefund(ctx, f.eventID, o.PublicID, []string{first}, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	require.Equal(t, refunds, again, "asked again: nothing changes")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds`))

	require.Equal(t, 1, f.settle(t))
	require.Equal(t, palaro.Money(20000), f.gateway.total())
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ? AND body_text LIKE ?`,
		palaro.MessageRefundDone, o.Email, "%"+first+"%"), "the buyer hears the money went back, in the same write")
	done, err := f.refunds.OrderRefunds(ctx, o.ID)
	require.NoError(t, err)
	require.Equal(t, palaro.RefundRefunded, done[o.ID][0].Status)
	require.Equal(t, "ref_"+r.PublicID, done[o.ID][0].ProviderRef)
	require.Equal(t, palaro.OrderPaid, f.order(t, o.PublicID).Status, "one ticket is left")

	// The rest of the order: what is left of its total.
	rest, err := f.refunds.RequestRefund(ctx, f.eventID, o.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	require.Len(t, rest, 2)
	require.Equal(t, []string{o.Tickets[1].Code}, rest[0].TicketCodes)
	require.Equal(t, palaro.Money(20000), rest[0].Amount)
	require.Equal(t, 1, f.settle(t))
	require.Equal(t, o.Total, f.gateway.total())
	require.Equal(t, palaro.OrderRefunded, f.order(t, o.PublicID).Status)
	require.Zero(t, f.settle(t), "nothing left to settle")

	_, err = f.refunds.RequestRefund(ctx, f.eventID, o.PublicID, []string{"NOPE"}, palaro.RefundByOrganizer, "owner@x.ph")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	_, err = f.refunds.RequestRefund(ctx, f.eventID+1000, o.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "another event's order")
}

// TestRefundService_TwoPresses: two refunds of the same order asked at once write one refund,
// and the gateway moves the money once; on either engine.
func TestRefundService_TwoPresses(t *testing.T) {
	ctx := context.Background()
	f := newRefundFixture(t)
	o := f.paidOrder(t, 3, "cs_twice")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			_, err := f.refunds.RequestRefund(ctx, f.eventID, o.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
			require.NoError(t, err)
		})
	}
	wg.Wait()
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds`))
	require.Equal(t, 3, f.countRows(t, `SELECT count(*) FROM refund_tickets`))
	sold, _, _ := f.counts(t, f.code)
	require.Zero(t, sold, "each place came back once")

	// Two settlers at once (the job and an API call): one money movement.
	for range 2 {
		wg.Go(func() { f.settle(t) })
	}
	wg.Wait()
	require.Equal(t, o.Total, f.gateway.total())
	require.Len(t, f.gateway.moved, 1)
	require.Equal(t, palaro.OrderRefunded, f.order(t, o.PublicID).Status)
}

// TestRefundService_DiesMidway: the gateway refunded but the server died before the refund was
// ended; the next run asks again with the same key and the gateway moves no more money.
func TestRefundService_DiesMidway(t *testing.T) {
	ctx := context.Background()
	f := newRefundFixture(t)
	o := f.paidOrder(t, 1, "cs_crash")
	refunds, err := f.refunds.RequestRefund(ctx, f.eventID, o.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	r := refunds[0]
	_, err = f.gateway.Refund(ctx, palaro.RefundRequest{Key: r.PublicID, SessionID: r.SessionID, Amount: r.Amount}) // then the crash
	require.NoError(t, err)
	require.Equal(t, 1, f.settle(t))
	require.Equal(t, 2, f.gateway.calls)
	require.Equal(t, o.Total, f.gateway.total(), "refunded once")
	require.Equal(t, palaro.OrderRefunded, f.order(t, o.PublicID).Status)
}

// TestRefundService_Failed: a refund the gateway refuses ends failed with the reason, and a retry
// asks again; an unpaid order cannot be refunded.
func TestRefundService_Failed(t *testing.T) {
	ctx := context.Background()
	f := newRefundFixture(t)
	o := f.paidOrder(t, 1, "cs_fail")
	_, err := f.db.write.Exec(`UPDATE orders SET provider = 'paymongo' WHERE id = ?`, o.ID)
	require.NoError(t, err)
	refunds, err := f.refunds.RequestRefund(ctx, f.eventID, o.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	f.settle(t)
	got, err := f.refunds.OrderRefunds(ctx, o.ID)
	require.NoError(t, err)
	require.Equal(t, palaro.RefundFailed, got[o.ID][0].Status)
	require.Contains(t, got[o.ID][0].Failure, "paid through paymongo")
	require.Zero(t, f.gateway.total())
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ?`, palaro.MessageRefundFailed, o.Email),
		"the buyer, told the refund was on its way, hears it did not go through")
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND body_text LIKE '%paymongo%'`, palaro.MessageRefundFailed),
		"the gateway's reason is the organizer's, not the buyer's")
	require.Zero(t, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ?`, palaro.MessageRefundDone))

	_, err = f.db.write.Exec(`UPDATE orders SET provider = 'sandbox' WHERE id = ?`, o.ID)
	require.NoError(t, err)
	require.NoError(t, f.refunds.RetryRefund(ctx, f.eventID, refunds[0].PublicID, "owner@x.ph"))
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(f.refunds.RetryRefund(ctx, f.eventID, refunds[0].PublicID, "owner@x.ph")), "pending now")
	f.settle(t)
	require.Equal(t, o.Total, f.gateway.total())
	require.Equal(t, palaro.OrderRefunded, f.order(t, o.PublicID).Status)
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM outbox WHERE kind = ? AND recipient = ?`, palaro.MessageRefundDone, o.Email),
		"tried again, it went through: the buyer is told")

	pending := f.pendingOrder(t, f.code, 1, "cs_unpaid")
	_, err = f.refunds.RequestRefund(ctx, f.eventID, pending.PublicID, nil, palaro.RefundByOrganizer, "owner@x.ph")
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
}

// TestTicketShares: the shares of an order's tickets add up to its total, with a promo discount,
// add-ons and a senior discount on one ticket.
func TestTicketShares(t *testing.T) {
	o := &palaro.Order{UnitPrice: 100000, AddOnsTotal: 25000, PromoDiscount: 10001}
	tickets := []refundTicket{{discount: 28571}, {}, {}}
	o.Total = 3*100000 - 28571 + 25000 - 10001
	ticketShares(o, tickets)
	var sum palaro.Money
	for _, tk := range tickets {
		sum += tk.share
	}
	require.Equal(t, o.Total, sum)
	require.Equal(t, palaro.Money(100000-28571+4999), tickets[0].share, "the senior's ticket costs less")
	require.Equal(t, palaro.Money(100000+4999+2), tickets[2].share, "the last takes the remainder")
}

// TestRefundService_RefundEvent: refunding every order of a cancelled event goes on in small
// writes, shows its progress, refunds each order once (an order refunded in part before only
// for the rest) and survives a restart; on either engine.
func TestRefundService_RefundEvent(t *testing.T) {
	ctx := context.Background()
	f := newRefundFixture(t)
	_, err := f.db.write.Exec(`UPDATE orders SET status = 'expired' WHERE event_id = ?`, f.eventID) // the demo's orders aside
	require.NoError(t, err)
	var orders []*palaro.Order
	for i := range 3 {
		orders = append(orders, f.paidOrder(t, 2, "cs_ev"+string(rune('a'+i))))
	}
	_, err = f.refunds.RequestRefund(ctx, f.eventID, orders[0].PublicID, []string{orders[0].Tickets[0].Code}, palaro.RefundByOrganizer, "owner@x.ph")
	require.NoError(t, err)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(f.refunds.RefundEvent(ctx, f.eventID, "owner@x.ph")), "not cancelled")

	_, err = f.db.write.Exec(`UPDATE events SET status = 'cancelled' WHERE id = ?`, f.eventID)
	require.NoError(t, err)
	p, err := f.refunds.EventRefundProgress(ctx, f.eventID)
	require.NoError(t, err)
	require.True(t, p.Started.IsZero())
	require.Equal(t, 3, p.Left, "what a start would refund")
	require.NoError(t, f.refunds.RefundEvent(ctx, f.eventID, "owner@x.ph"))
	require.NoError(t, f.refunds.RefundEvent(ctx, f.eventID, "owner@x.ph"), "twice is fine")
	p, err = f.refunds.EventRefundProgress(ctx, f.eventID)
	require.NoError(t, err)
	require.Equal(t, 3, p.Left)

	n, err := f.refunds.RefundEventOrders(ctx, 2)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	f.settle(t)
	// a restart: a new service over the same database goes on where it stopped
	f.refunds = NewRefundService(f.db, nil)
	p, err = f.refunds.EventRefundProgress(ctx, f.eventID)
	require.NoError(t, err)
	require.Equal(t, palaro.RefundProgress{Started: p.Started, Orders: 2, Refunded: 2, Left: 1}, p)
	require.False(t, p.Done())
	n, err = f.refunds.RefundEventOrders(ctx, 2)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = f.refunds.RefundEventOrders(ctx, 2)
	require.NoError(t, err)
	require.Zero(t, n)
	f.settle(t)
	p, err = f.refunds.EventRefundProgress(ctx, f.eventID)
	require.NoError(t, err)
	require.True(t, p.Done())
	require.Equal(t, 3, p.Refunded)

	var total palaro.Money
	for _, o := range orders {
		require.Equal(t, palaro.OrderRefunded, f.order(t, o.PublicID).Status)
		total += o.Total
	}
	require.Equal(t, total, f.gateway.total(), "every order refunded exactly once")
	require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM refunds WHERE order_id = ? AND reason = 'event_cancelled'`, orders[0].ID))
}
