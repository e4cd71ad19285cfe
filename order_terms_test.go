package palaro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDecideOrder(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	tt := TicketType{ID: 7, EventID: 3, Price: 50000, PaymentTypes: []string{"gcash", "card"}}
	free := TicketType{ID: 8, EventID: 3, PaymentTypes: []string{"gcash"}}
	shirt := AddOn{ID: 1, Price: 20000, Quantity: 1}
	pct := func(mod func(*PromoCode)) *PromoCode {
		p := &PromoCode{ID: 9, Code: "TEN", EventID: 3, Kind: PromoPercent, Percent: 10}
		if mod != nil {
			mod(p)
		}
		return p
	}
	tests := []struct {
		name        string
		tt          TicketType
		req         PurchaseRequest
		promo       *PromoCode
		addOns      []AddOn
		wantTotal   Money
		wantPromo   bool
		wantPayment string
		wantFree    bool
		wantErr     string
	}{
		{name: "no source: the ticket type's first payment type", tt: tt, req: PurchaseRequest{Quantity: 2},
			wantTotal: 100000, wantPayment: "gcash"},
		{name: "the buyer's payment type is kept", tt: tt, req: PurchaseRequest{Quantity: 1, PaymentType: "card"},
			wantTotal: 50000, wantPayment: "card"},
		{name: "a referral source (no code found) discounts nothing", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "fb"},
			wantTotal: 50000, wantPayment: "gcash"},
		{name: "a code for every ticket type discounts the add-ons too", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "TEN"},
			promo: pct(nil), addOns: []AddOn{shirt}, wantTotal: 63000, wantPromo: true, wantPayment: "gcash"},
		{name: "a code naming ticket types discounts their tickets alone", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "TEN"},
			promo: pct(func(p *PromoCode) { p.TicketTypeIDs = []int64{7} }), addOns: []AddOn{shirt},
			wantTotal: 65000, wantPromo: true, wantPayment: "gcash"},
		{name: "a code for another ticket type is refused", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "TEN"},
			promo: pct(func(p *PromoCode) { p.TicketTypeIDs = []int64{99} }), wantErr: "Promo code TEN is not valid for this ticket."},
		{name: "a code of another event is refused", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "TEN"},
			promo: pct(func(p *PromoCode) { p.EventID = 4 }), wantErr: "Promo code TEN is not valid for this event."},
		{name: "an expired code is refused", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "TEN"},
			promo: pct(func(p *PromoCode) { p.ValidUntil = now }), wantErr: "Promo code TEN has expired."},
		{name: "a used-up code is refused", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "TEN"},
			promo: pct(func(p *PromoCode) { p.UsageLimit, p.Used = 5, 5 }), wantErr: "Promo code TEN has reached its usage limit."},
		{name: "a full discount makes a free order without payment type", tt: tt, req: PurchaseRequest{Quantity: 1, Source: "ALL", PaymentType: "card"},
			promo: pct(func(p *PromoCode) { p.Percent = 100 }), wantTotal: 0, wantPromo: true, wantFree: true},
		{name: "a free ticket is free and has no payment type", tt: free, req: PurchaseRequest{Quantity: 1, PaymentType: "gcash"},
			wantFree: true},
		{name: "on a free order a code discounts nothing and stays a source", tt: free, req: PurchaseRequest{Quantity: 1, Source: "TEN"},
			promo: pct(nil), wantFree: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecideOrder(tc.tt, tc.req, tc.promo, tc.addOns, false, now)
			if tc.wantErr != "" {
				require.Equal(t, EINVALID, ErrorCode(err))
				require.Equal(t, tc.wantErr, ErrorMessage(err))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.wantTotal, got.Price.Total)
			require.Equal(t, tc.wantPromo, got.Promo != nil)
			require.Equal(t, tc.wantPayment, got.PaymentType)
			require.Equal(t, tc.wantFree, got.Free)
		})
	}
}
