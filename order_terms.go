package palaro

import "time"

// OrderTerms are what DecideOrder settles about a ticket order before it is stored.
type OrderTerms struct {
	// Price is the order's price breakdown.
	Price Price
	// Promo is the code the order uses up, nil when it uses none: the source was a referral, or
	// the code discounts nothing (on a free order it stays a source).
	Promo *PromoCode
	// Discounts are the senior citizen and PWD discounts the order takes, each with its Amount;
	// nil when it takes none (or a promo code takes off more: they are never combined).
	Discounts []TicketDiscount
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
// a free order has none. addOns are the chosen add-ons with their counts. The senior citizen and
// PWD discounts of req (SeniorPWDPrice; vatRegistered is the organization's VAT status) are not
// combined with a promo code: the buyer gets whichever takes off more (the discounts on a tie).
func DecideOrder(tt TicketType, req PurchaseRequest, promo *PromoCode, addOns []AddOn, vatRegistered bool, now time.Time) (OrderTerms, error) {
	if promo != nil {
		if err := promo.Check(tt.EventID, now); err != nil {
			return OrderTerms{}, err
		}
		if !promo.AppliesTo(tt.ID) {
			return OrderTerms{}, PromoNotForTicket(promo.Code)
		}
	}
	t := OrderTerms{Price: PriceOrder(tt, req.Quantity, addOns, promo), Promo: promo, PaymentType: req.PaymentType}
	if ds, sum := seniorPWDDiscounts(req.Discounts, t.Price.UnitPrice, vatRegistered); sum > 0 && sum >= t.Price.PromoDiscount {
		t.Discounts, t.Price.SeniorPWDDiscount, t.Price.PromoDiscount = ds, sum, 0
		t.Price.Total = max(t.Price.Subtotal-sum, 0)
	}
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
