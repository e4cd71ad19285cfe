package views

import (
	"strconv"

	"palaro"
)

// discountBlocks are the indexes of the form's discount entries: one per ticket of the quantity
// (at least one), none when the ticket type offers no senior citizen and PWD discount.
func (v purchaseFormView) discountBlocks() []int {
	if v.SeniorPWD == nil {
		return nil
	}
	n := max(v.qty(), 1)
	if v.Ticket.MaxPurchasable > 0 {
		n = min(n, v.Ticket.MaxPurchasable)
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// discountKey names a field of the form's discount entry i, as the purchase payload's errors do.
func discountKey(i int, field string) string { return palaro.DiscountField(i, field) }

// seniorPWDDiscount is what the chosen senior citizen and PWD discounts take off, before the
// promo code is weighed against it.
func (v purchaseFormView) seniorPWDDiscount() int64 {
	if v.SeniorPWD == nil {
		return 0
	}
	var n int64
	for _, i := range v.discountBlocks() {
		if i < v.qty() && v.val(discountKey(i, "type")) != "" {
			n++
		}
	}
	return n * v.SeniorPWD.Discount
}

// seniorPWDWins reports whether the senior citizen and PWD discounts take off more than the
// promo code (the buyer gets the larger; palaro.DecideOrder).
func (v purchaseFormView) seniorPWDWins() bool {
	d := v.seniorPWDDiscount()
	return d > 0 && d >= v.promo().Discount(v.Ticket.FinalPrice*int64(v.qty()), v.addOnSum())
}

// discountKinds are the choices of a ticket's discount: none, senior citizen, person with disability.
var discountKinds = []struct{ Value, Label string }{
	{"", "Full price"}, {palaro.DiscountSenior, "Senior citizen (60+)"}, {palaro.DiscountPWD, "Person with disability"},
}

// ticketLegend is the legend of a ticket's discount entry.
func ticketLegend(i int) string { return "Ticket " + strconv.Itoa(i+1) }
