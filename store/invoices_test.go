package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// eventOrgOf returns the organization and id of the event of a ticket type added by addTicketType.
func (f *purchaseFixture) eventOrgOf(t *testing.T, code string) (orgID, eventID int64) {
	t.Helper()
	require.NoError(t, f.db.read.QueryRow(`SELECT e.organizer_id, e.id FROM ticket_types tt JOIN events e ON e.id = tt.event_id
		WHERE tt.code = ?`, code).Scan(&orgID, &eventID))
	return orgID, eventID
}

// TestInvoices_ConcurrentPaidOrders pays 200 orders of one organization at once through two stores
// on one database (two app servers, each with its own batching writer; on PostgreSQL their
// transactions overlap): the invoices are numbered 1..200, no gap, no repeat, one per order. A
// payment event for an unknown session in between takes no serial.
func TestInvoices_ConcurrentPaidOrders(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "inv-rush", 50000, 300, 1)
	orgID, _ := f.eventOrgOf(t, code)
	other, err := Open(f.db.path)
	require.NoError(t, err)
	t.Cleanup(func() { other.Close() })
	other.Now = f.db.Now
	servers := []*PurchaseService{f.purchases,
		NewPurchaseService(other, notify.NewComposer("https://palaro.test", "help@palaro.test"), 15*time.Minute)}

	const n = 200
	orders := make([]*palaro.Order, n)
	for i := range n {
		o, err := f.purchases.CreateOrder(ctx, palaro.PurchaseRequest{TicketCode: code, Quantity: 1,
			Email: fmt.Sprintf("rush%d@x.ph", i), PaymentType: palaro.PaymentQR}, f.now)
		require.NoError(t, err)
		require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: fmt.Sprintf("cs_rush_%d", i)}))
		orders[i] = o
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := servers[i%2].ConfirmPayment(ctx, "sandbox", false, paid(fmt.Sprintf("evt_rush_%d", i),
				fmt.Sprintf("cs_rush_%d", i), 50000)); err != nil {
				t.Errorf("order %d: %v", i, err)
			}
			if i%20 == 0 { // refused: no order, no serial
				_, _ = servers[(i+1)%2].ConfirmPayment(ctx, "sandbox", false, paid(fmt.Sprintf("evt_none_%d", i), "cs_none", 50000))
			}
		})
	}
	wg.Wait()

	serials, err := queryRows(ctx, f.db.read, `SELECT serial FROM invoices WHERE organizer_id = ? AND kind = 'invoice' ORDER BY serial`,
		[]any{orgID}, func(r rowScanner) (s int64, err error) { err = r.Scan(&s); return s, err })
	require.NoError(t, err)
	require.Len(t, serials, n)
	for i, s := range serials {
		require.Equal(t, int64(i+1), s, "serials run 1..200 without a gap or repeat")
	}
	require.Equal(t, n, f.countRows(t, `SELECT count(DISTINCT order_id) FROM invoices WHERE organizer_id = ?`, orgID))
	require.Equal(t, n, f.countRows(t, `SELECT last_serial FROM invoice_counters WHERE organizer_id = ? AND kind = 'invoice'`, orgID))
	got, err := f.purchases.FindOrderByPublicID(ctx, orders[7].PublicID)
	require.NoError(t, err)
	require.Len(t, got.Invoices, 1)
	require.Equal(t, palaro.InvoiceKindInvoice, got.Invoices[0].Kind)
}

// TestInvoices_IssuedWithThePayment checks an invoice's snapshot: the seller as it was, a VAT
// split of the price with VAT, a senior ticket's exemption, no invoice for a free order, and the
// credit notes of a refund and of "Mark refunded".
func TestInvoices_IssuedWithThePayment(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	org := NewOrganizerService(f.db, nil)
	code := f.addTicketType(t, "inv-one", 100000, 10, 4)
	orgID, eventID := f.eventOrgOf(t, code)
	_, err := org.SaveInvoiceSeller(ctx, orgID, "owner@x.ph", palaro.InvoiceSeller{RegisteredName: "Tekken Tuesdays Inc.",
		TIN: "123456789", Address: "Cubao, Quezon City", VATRegistered: true})
	require.NoError(t, err)

	t.Run("OK free order: no invoice", func(t *testing.T) {
		free := f.addTicketType(t, "inv-free", 0, 10, 1)
		o, err := f.purchases.CreateOrder(ctx, freeRequest(free, 1, "free@x.ph"), f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderPaid, o.Status)
		require.Zero(t, f.countRows(t, `SELECT count(*) FROM invoices WHERE order_id = ?`, o.ID))
	})

	o := f.pendingOrder(t, code, 2, "cs_inv_one")
	_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_inv_one", "cs_inv_one", 200000))
	require.NoError(t, err)
	got, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
	require.NoError(t, err)
	inv := mustInvoice(t, org, got)
	require.Equal(t, "123-456-789-00000", inv.Seller.TIN)
	require.Equal(t, "00000001", inv.Number())
	require.Equal(t, palaro.Money(200000), inv.Amounts.Total)
	require.Equal(t, palaro.Money(200000), inv.Amounts.Gross)
	require.Equal(t, palaro.Money(178571), inv.Amounts.VATableSales) // ₱2,000.00 ÷ 1.12
	require.Equal(t, palaro.Money(21429), inv.Amounts.VAT)
	require.Equal(t, palaro.Money(200000), inv.Amounts.Admission)
	require.Len(t, inv.Lines, 1)
	require.Equal(t, 2, inv.Lines[0].Quantity)

	o2 := f.pendingOrder(t, code, 2, "cs_inv_two")
	_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_inv_two", "cs_inv_two", 200000))
	require.NoError(t, err)
	got2, err := f.purchases.FindOrderByPublicID(ctx, o2.PublicID)
	require.NoError(t, err)
	require.Equal(t, int64(2), mustInvoice(t, org, got2).Serial)

	// later edits of the seller change nothing on an issued invoice
	_, err = org.SaveInvoiceSeller(ctx, orgID, "owner@x.ph", palaro.InvoiceSeller{RegisteredName: "Renamed Inc."})
	require.NoError(t, err)
	inv, err = org.FindInvoice(ctx, inv.PublicID)
	require.NoError(t, err)
	require.Equal(t, "Tekken Tuesdays Inc.", inv.Seller.RegisteredName)
	require.True(t, inv.Seller.VATRegistered)

	t.Run("OK a refund's credit note", func(t *testing.T) {
		var refundID int64
		err := f.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
			var err error
			refundID, err = insertID(ctx, tx, `INSERT INTO refunds (public_id, order_id, amount, reason, status, created_at)
				VALUES ('rf_inv', ?, 100000, 'organizer', 'refunded', ?)`, o2.ID, formatTime(f.now))
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO refund_tickets (refund_id, ticket_id, amount)
				VALUES (?, ?, 100000)`, refundID, got2.Tickets[0].ID); err != nil {
				return err
			}
			if err := issueCreditNoteForRefund(ctx, tx, refundID, f.now); err != nil {
				return err
			}
			return issueCreditNoteForRefund(ctx, tx, refundID, f.now) // twice: still one
		})
		require.NoError(t, err)
		again, err := f.purchases.FindOrderByPublicID(ctx, o2.PublicID)
		require.NoError(t, err)
		require.Len(t, again.Invoices, 2)
		cn, err := org.FindInvoice(ctx, again.Invoices[1].PublicID)
		require.NoError(t, err)
		require.Equal(t, "CN-00000001", cn.Number())
		require.Equal(t, again.Invoices[0].PublicID, cn.CreditsPublicID)
		require.Equal(t, "00000002", cn.CreditsNumber)
		require.Equal(t, "rf_inv", cn.RefundPublicID)
		require.Equal(t, palaro.Money(100000), cn.Amounts.Total)
		require.Equal(t, palaro.Money(89286), cn.Amounts.VATableSales)
	})

	t.Run("OK Mark refunded issues the whole credit note once", func(t *testing.T) {
		require.NoError(t, org.MarkRefunded(ctx, eventID, o.PublicID, "owner@x.ph"))
		again, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Len(t, again.Invoices, 2)
		cn, err := org.FindInvoice(ctx, again.Invoices[1].PublicID)
		require.NoError(t, err)
		require.Equal(t, "CN-00000002", cn.Number())
		require.Equal(t, inv.Amounts, cn.Amounts)
		require.Equal(t, "Tekken Tuesdays Inc.", cn.Seller.RegisteredName, "the invoice's seller, not today's")
	})

	t.Run("OK register and admission receipts", func(t *testing.T) {
		var kinds []string
		require.NoError(t, org.EachInvoice(ctx, orgID, f.now.Add(-time.Hour), f.now.Add(time.Hour), func(i *palaro.Invoice) error {
			kinds = append(kinds, i.Number())
			return nil
		}))
		require.Equal(t, []string{"00000001", "00000002", "CN-00000001", "CN-00000002"}, kinds)
		rows, err := org.AdmissionReceipts(ctx, orgID, f.now.Add(-time.Hour), f.now.Add(time.Hour))
		require.NoError(t, err)
		require.Len(t, rows, 1)
		require.Equal(t, 2, rows[0].Invoices)
		require.Equal(t, palaro.Money(200000+200000-100000-200000), rows[0].Gross)
		none, err := org.AdmissionReceipts(ctx, orgID, f.now.Add(time.Hour), f.now.Add(2*time.Hour))
		require.NoError(t, err)
		require.Empty(t, none)
	})
}

func mustInvoice(t *testing.T, org *OrganizerService, o *palaro.Order) *palaro.Invoice {
	t.Helper()
	require.NotEmpty(t, o.Invoices)
	inv, err := org.FindInvoice(context.Background(), o.Invoices[0].PublicID)
	require.NoError(t, err)
	return inv
}
