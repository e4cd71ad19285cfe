package store

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestSalesReport_AddOnsOwnLine counts a paid order's add-ons on their own line, not under its
// ticket type, with the promo discount taken from the tickets' part first.
func TestSalesReport_AddOnsOwnLine(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "sales-addon", 20000, 10, 5)
	parking := f.addAddOn(t, "Parking", 5000)
	org := NewOrganizerService(f.db, nil)
	ev, err := org.FindEvent(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	before, err := org.SalesReport(ctx, ev.ID)
	require.NoError(t, err)
	_, err = org.CreatePromoCode(ctx, ev.ID, "owner@x.ph", palaro.PromoCode{Code: "SALES10", Kind: palaro.PromoFixed, Amount: 1000})
	require.NoError(t, err)

	req := freeRequest(code, 2, "sales@x.ph")
	req.AddOns = []int64{parking}
	req.Source = "SALES10"
	o, err := f.purchases.CreateOrder(ctx, req, f.now)
	require.NoError(t, err)
	require.Equal(t, palaro.Money(2*20000+5000-1000), o.Total)
	require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_sales", URL: "https://pay.test/s"}))
	_, err = f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_sales", "cs_sales", o.Total))
	require.NoError(t, err)

	r, err := org.SalesReport(ctx, ev.ID)
	require.NoError(t, err)
	i := slices.IndexFunc(r.ByType, func(l palaro.SalesLine) bool { return l.Label == "Test sales-addon" })
	require.GreaterOrEqual(t, i, 0)
	require.Equal(t, palaro.SalesLine{Label: "Test sales-addon", Tickets: 2, Revenue: 2*20000 - 1000}, r.ByType[i], "tickets only, less the discount")
	require.Equal(t, before.AddOnRevenue+5000, r.AddOnRevenue, "the parking is on its own line")
	require.Equal(t, before.Revenue+o.Total, r.Revenue)
	var byType palaro.Money
	for _, l := range r.ByType {
		byType += l.Revenue
	}
	require.Equal(t, r.Revenue, byType+r.AddOnRevenue, "the lines add up to the revenue")
}
