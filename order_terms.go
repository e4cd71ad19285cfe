package palaro

import "time"

// OrderTerms are what DecideOrder settles about a ticket order before it is stored.
type OrderTerms struct {
	// Price is the order's price breakdown.
	Price Price
	// Promo is the code the order uses up, nil when it uses none: the source was a referral, or
	// the code discounts nothing (on a free order it stays a source).
	Promo *PromoCode
	// PaymentType is how the order is to be paid: the buyer's choice, else the ticket type's
	// first; "" for a free order.
	PaymentType string
	// Free is true when the order costs nothing: it is paid at once and holds nothing.
	Free bool
}

// DecideOrder applies the rules that decide a ticket order of an already validated request:
// promo is the code found for req.Source (nil when the source is not a promo code: a referral,
// recorded without a discount); it must be usable for the ticket type's event at time now and
// apply to the ticket type, and it discounts what it covers (PriceOrder). A code that takes
// nothing off is not used. A priced order without a payment type gets the ticket type's first;
// a free order has none. addOns are the chosen add-ons with their counts.
func DecideOrder(tt TicketType, req PurchaseRequest, promo *PromoCode, addOns []AddOn, now time.Time) (OrderTerms, error) {
	if promo != nil {
		if err := promo.Check(tt.EventID, now); err != nil {
			return OrderTerms{}, err
		}
		if !promo.AppliesTo(tt.ID) {
			return OrderTerms{}, PromoNotForTicket(promo.Code)
		}
	}
	t := OrderTerms{Price: PriceOrder(tt, req.Quantity, addOns, promo), Promo: promo, PaymentType: req.PaymentType}
	if t.Price.PromoDiscount == 0 {
		t.Promo = nil
	}
	t.Free = t.Price.Total == 0
	switch {
	case t.Free:
		t.PaymentType = ""
	case t.PaymentType == "":
		t.PaymentType = tt.PaymentTypes[0]
	}
	return t, nil
}
