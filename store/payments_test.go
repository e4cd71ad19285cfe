package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// pendingOrder creates a paid order of quantity tickets and attaches a fake checkout session.
func (f *purchaseFixture) pendingOrder(t *testing.T, code string, quantity int, session string) *palaro.Order {
	t.Helper()
	o, err := f.purchases.CreateOrder(context.Background(), freeRequest(code, quantity, "payer@x.ph"), f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPending, o.Status)
	require.NoError(t, f.purchases.AttachCheckout(context.Background(), o.ID, "sandbox",
		palaro.CheckoutSession{ID: session, URL: "https://pay.test/" + session}))
	return o
}

func paid(eventID, session string, amount palaro.Money) palaro.PaymentEvent {
	return palaro.PaymentEvent{ID: eventID, SessionID: session, Status: palaro.PaymentPaid, Amount: amount, Currency: palaro.PaymentCurrency}
}

func TestPurchaseService_ConfirmPayment(t *testing.T) {
	ctx := context.Background()
	t.Run("OK duplicate deliveries issue once", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "pay", 20000, 10, 5)
		o := f.pendingOrder(t, code, 2, "cs_1")
		for range 3 {
			got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_1", "cs_1", 40000))
			require.NoError(t, err)
			require.Equal(t, palaro.OrderPaid, got.Status)
			require.Len(t, got.Tickets, 2)
		}
		// the same payment reported again under another event id (reconciliation) changes nothing
		_, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("recon_cs_1_paid", "cs_1", 40000))
		require.NoError(t, err)
		require.Equal(t, 2, f.countRows(t, `SELECT COUNT(*) FROM tickets WHERE order_id = ?`, o.ID))
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM outbox WHERE recipient = 'payer@x.ph'`))
		sold, held, _ := f.counts(t, code)
		require.Equal(t, 2, sold)
		require.Zero(t, held)
	})
	t.Run("OK paid after the hold expired, capacity left", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "late", 20000, 3, 5)
		f.pendingOrder(t, code, 2, "cs_late")
		_, err := f.purchases.ExpireHolds(ctx, f.now.Add(time.Hour))
		require.NoError(t, err)
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_late", "cs_late", 40000))
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Len(t, got.Tickets, 2)
		sold, held, _ := f.counts(t, code)
		require.Equal(t, 2, sold)
		require.Zero(t, held)
	})
	t.Run("OK paid after the hold expired and the tickets went to others: refund", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "gone", 20000, 3, 5)
		o := f.pendingOrder(t, code, 2, "cs_gone")
		_, err := f.purchases.ExpireHolds(ctx, f.now.Add(time.Hour))
		require.NoError(t, err)
		f.pendingOrder(t, code, 3, "cs_other") // someone else holds all three now
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_gone", "cs_gone", 40000))
		require.NoError(t, err)
		require.Equal(t, palaro.OrderRefund, got.Status)
		require.Empty(t, got.Tickets)
		sold, held, capacity := f.counts(t, code)
		require.Equal(t, 0, sold)
		require.Equal(t, capacity, held)
		refunds, err := f.purchases.ListOrders(ctx, palaro.OrderFilter{Status: palaro.OrderRefund})
		require.NoError(t, err)
		require.Len(t, refunds, 1)
		require.Equal(t, o.PublicID, refunds[0].PublicID)
		require.Zero(t, f.countRows(t, `SELECT COUNT(*) FROM outbox`))
	})
	t.Run("OK expired session releases the hold", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "exp", 20000, 3, 5)
		f.pendingOrder(t, code, 2, "cs_exp")
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, palaro.PaymentEvent{ID: "e", SessionID: "cs_exp", Status: palaro.PaymentExpired})
		require.NoError(t, err)
		require.Equal(t, palaro.OrderExpired, got.Status)
		_, held, _ := f.counts(t, code)
		require.Zero(t, held)
	})
	t.Run("OK failed payment keeps the hold", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "fail", 20000, 3, 5)
		f.pendingOrder(t, code, 1, "cs_fail")
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, palaro.PaymentEvent{ID: "f", SessionID: "cs_fail", Status: palaro.PaymentFailed})
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPending, got.Status)
		_, held, _ := f.counts(t, code)
		require.Equal(t, 1, held)
	})
	t.Run("OK wallet: a failed attempt found by its intent marks the order, the payment records the account", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "wal", 20000, 3, 5)
		o, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "payer@x.ph"), f.now)
		require.NoError(t, err)
		require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_w", URL: "https://pay.test/cs_w", IntentID: "pi_w"}))
		failed := palaro.PaymentEvent{ID: "evt_f", IntentID: "pi_w", Status: palaro.PaymentFailed, Method: "gcash", Account: "4321"}
		for range 2 {
			got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, failed)
			require.NoError(t, err)
			require.Equal(t, palaro.OrderPending, got.Status)
			require.Equal(t, "gcash", got.PaymentFailed)
		}
		_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, palaro.PaymentEvent{ID: "evt_x", IntentID: "pi_other", Status: palaro.PaymentFailed})
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), "another intent matches no order")
		ev := paid("evt_p", "cs_w", o.Total)
		ev.Method, ev.Account = "gcash", "0917 555 4321"
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, ev)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, got.Status)
		require.Equal(t, "gcash", got.PaymentMethod)
		require.Equal(t, "4321", got.PaymentAccount, "never more than the last four digits")
		require.Empty(t, got.PaymentFailed)
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM payment_events WHERE event_id = 'evt_f'`))
	})
	t.Run("ErrInvalid wrong amount is refused", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "amt", 20000, 3, 5)
		o := f.pendingOrder(t, code, 1, "cs_amt")
		_, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("a", "cs_amt", 100))
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "refused")
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPending, got.Status)
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM payment_events WHERE event_id = 'a' AND refused != ''`))
	})
	t.Run("ErrNotFound unknown session, even with our order's reference", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "ref", 20000, 3, 5)
		o := f.pendingOrder(t, code, 1, "cs_ref")
		ev := paid("x", "cs_nope", o.Total)
		ev.OrderID = o.PublicID
		_, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, ev)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
		got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPending, got.Status)
	})
}

func TestPurchaseService_PendingOrdersForReconciliation(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "rec", 20000, 10, 5)
	f.pendingOrder(t, code, 1, "cs_a")
	_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "nocheckout@x.ph"), f.now)
	require.NoError(t, err)
	got, err := f.purchases.PendingOrdersForReconciliation(ctx, f.now.Add(time.Minute), 2*time.Minute)
	require.NoError(t, err)
	require.Empty(t, got, "too young")
	got, err = f.purchases.PendingOrdersForReconciliation(ctx, f.now.Add(3*time.Minute), 2*time.Minute)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "cs_a", got[0].ProviderRef)
	_, err = f.purchases.ExpireHolds(ctx, f.now.Add(time.Hour))
	require.NoError(t, err)
	got, err = f.purchases.PendingOrdersForReconciliation(ctx, f.now.Add(2*time.Hour), 2*time.Minute)
	require.NoError(t, err)
	require.Len(t, got, 1, "recently expired orders are still asked about")
	got, err = f.purchases.PendingOrdersForReconciliation(ctx, f.now.Add(48*time.Hour), 2*time.Minute)
	require.NoError(t, err)
	require.Empty(t, got)
}
