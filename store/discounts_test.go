package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// seniorRequest is a purchase of the demo's ₱1,000.00 admission of a VAT-registered organization
// (kundiman-gala-orchestra) with one senior citizen discount.
func seniorRequest(email, id string) palaro.PurchaseRequest {
	req := freeRequest("kundiman-gala-orchestra", 1, email)
	req.Discounts = []palaro.TicketDiscount{{Type: palaro.DiscountSenior, HolderName: "Corazon Reyes", IDNumber: id}}
	return req
}

func TestPurchaseService_SeniorPWDDiscount(t *testing.T) {
	ctx := context.Background()
	t.Run("OK the ticket is priced without VAT and 20% off, and the paid ticket carries it", func(t *testing.T) {
		f := newPurchaseFixture(t)
		req := seniorRequest("lola@x.ph", "OSCA-2024-0001")
		req.Quantity = 2
		o, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.Money(100000+71429), o.Total)
		require.Equal(t, palaro.Money(28571), o.SeniorPWDDiscount)
		require.NoError(t, o.Checkout("https://palaro.test", "/b/x").Validate())
		require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_senior", URL: "https://pay.test/cs"}))
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_senior", "cs_senior", o.Total))
		require.NoError(t, err)
		require.Len(t, got.Tickets, 2)
		read, err := f.purchases.FindOrderByPublicID(ctx, o.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.Money(28571), read.SeniorPWDDiscount)
		var discounted []palaro.TicketDiscount
		for _, tk := range read.Tickets {
			if tk.Discount.Type != "" {
				discounted = append(discounted, tk.Discount)
			}
		}
		require.Equal(t, []palaro.TicketDiscount{{Type: "senior", HolderName: "Corazon Reyes", IDNumber: "OSCA-2024-0001", Amount: 28571}}, discounted)
	})
	t.Run("ERR one discounted ticket per ID per event, until the first order expires", func(t *testing.T) {
		f := newPurchaseFixture(t)
		_, err := f.purchases.CreateOrder(ctx, seniorRequest("a@x.ph", "OSCA-77"), f.now)
		require.NoError(t, err)
		_, err = f.purchases.CreateOrder(ctx, seniorRequest("b@x.ph", "osca 77"), f.now)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "the same ID, written otherwise")
		var perr *palaro.Error
		require.ErrorAs(t, err, &perr)
		require.Contains(t, perr.Fields, "discounts[0].idNumber")
		// a type the discount does not apply to refuses it
		req := seniorRequest("c@x.ph", "OSCA-78")
		req.TicketCode = "kundiman-gala-parking"
		_, err = f.purchases.CreateOrder(ctx, req, f.now)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		// the first order's hold expires: the ID is free again
		later := f.now.Add(time.Hour)
		_, err = f.purchases.ExpireHolds(ctx, later)
		require.NoError(t, err)
		_, err = f.purchases.CreateOrder(ctx, seniorRequest("b@x.ph", "OSCA77"), later)
		require.NoError(t, err)
	})
	t.Run("OK a cancelled discounted ticket frees its ID", func(t *testing.T) {
		f := newPurchaseFixture(t)
		o, err := f.purchases.CreateOrder(ctx, seniorRequest("a@x.ph", "OSCA-90"), f.now)
		require.NoError(t, err)
		require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_c", URL: "https://pay.test/cs"}))
		paidOrder, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_c", "cs_c", o.Total))
		require.NoError(t, err)
		_, err = f.purchases.CreateOrder(ctx, seniorRequest("b@x.ph", "OSCA-90"), f.now)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "taken by a paid ticket")
		org := NewOrganizerService(f.db, nil)
		require.NoError(t, org.CancelTicket(ctx, o.EventID, paidOrder.Tickets[0].Code, "owner@x.ph"))
		_, err = f.purchases.CreateOrder(ctx, seniorRequest("b@x.ph", "OSCA-90"), f.now)
		require.NoError(t, err, "free again once its ticket is cancelled")
	})
	t.Run("OK twenty buyers with one ID at once: one gets it", func(t *testing.T) {
		f := newPurchaseFixture(t)
		granted := storm(20, func(i int) int {
			_, err := f.purchases.CreateOrder(ctx, seniorRequest(fmt.Sprintf("s%d@x.ph", i), "PWD-555-1234"), f.now)
			if err == nil {
				return 1
			}
			if palaro.ErrorCode(err) != palaro.ECONFLICT {
				t.Errorf("buyer %d: %v", i, err)
			}
			return 0
		})
		require.Equal(t, int64(1), granted)
		require.Equal(t, 1, f.countRows(t, `SELECT COUNT(*) FROM order_discounts WHERE id_key = 'PWD5551234' AND live = 1`))
	})
}

func TestPurchaseService_MaskDiscountIDs(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	o, err := f.purchases.CreateOrder(ctx, seniorRequest("lola@x.ph", "OSCA-2024-0042"), f.now)
	require.NoError(t, err)
	require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_mask", URL: "https://pay.test/cs"}))
	_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_mask", "cs_mask", o.Total))
	require.NoError(t, err)
	number := func() (ticket, order string) {
		require.NoError(t, f.db.read.QueryRow(`SELECT t.discount_id_number, d.id_number FROM tickets t
			JOIN order_discounts d ON d.order_id = t.order_id WHERE t.order_id = ? AND t.discount_type != ''`, o.ID).Scan(&ticket, &order))
		return
	}
	var ends time.Time
	var endsText string
	require.NoError(t, f.db.read.QueryRow(`SELECT ends_at FROM events WHERE code = 'kundiman-gala'`).Scan(&endsText))
	ends, err = time.Parse(time.RFC3339Nano, endsText)
	require.NoError(t, err)
	lastDay := time.Date(ends.In(palaro.Manila).Year()+DiscountIDYears, 12, 31, 23, 0, 0, 0, palaro.Manila)

	n, err := f.purchases.MaskDiscountIDs(ctx, lastDay)
	require.NoError(t, err)
	require.Zero(t, n, "kept in full through the record period's last year")
	tk, od := number()
	require.Equal(t, "OSCA-2024-0042", tk)
	require.Equal(t, "OSCA-2024-0042", od)

	n, err = f.purchases.MaskDiscountIDs(ctx, lastDay.Add(2*time.Hour)) // New Year in Manila
	require.NoError(t, err)
	require.Equal(t, 1, n)
	tk, od = number()
	require.Equal(t, "•••• 0042", tk)
	require.Equal(t, "•••• 0042", od)
	n, err = f.purchases.MaskDiscountIDs(ctx, lastDay.Add(2*time.Hour))
	require.NoError(t, err)
	require.Zero(t, n, "once")
}
