package handlers

import (
	"strconv"
	"strings"

	"palaro"
	"palaro/views"
)

// seniorPWDOffer is the senior citizen and PWD discount a ticket type offers on its purchase
// form: the discounted price and the note naming the law; nil when the type offers none.
func seniorPWDOffer(tt *palaro.TicketType, ev *palaro.Event) *views.SeniorPWDJSON {
	price := tt.FinalPrice()
	if !tt.SeniorPWDDiscount || price <= 0 {
		return nil
	}
	vat := ev.Organizer.VATRegistered
	how := "20% off"
	if vat {
		how = "VAT removed, then 20% off"
	}
	discounted := palaro.SeniorPWDPrice(price, vat)
	return &views.SeniorPWDJSON{
		Price: int64(discounted), Discount: int64(price - discounted),
		Note: "Senior citizens (RA 9994) and persons with disability (RA 10754) pay " + discounted.String() +
			" instead of " + price.String() + " for their own ticket (" + how + ") and show their OSCA ID or PWD ID at the gate. " +
			"Not combined with a promo code: you get whichever is larger.",
	}
}

// discountsFromForm reads the purchase form's discount entries, one per ticket: the entries of
// the tickets given a kind, name or ID, and for each the form's ticket index (so that an error
// of the payload's discounts[k] is shown under the form's ticket).
func discountsFromForm(value func(string) string, tickets int) ([]palaro.TicketDiscount, []int) {
	var ds []palaro.TicketDiscount
	var at []int
	for i := range min(max(tickets, 1), 50) {
		d := palaro.TicketDiscount{Type: value(palaro.DiscountField(i, "type")), HolderName: value(palaro.DiscountField(i, "holderName")),
			IDNumber: value(palaro.DiscountField(i, "idNumber"))}
		if strings.TrimSpace(d.Type) == "" {
			continue // a ticket at full price: its name and ID, hidden, are not sent
		}
		ds, at = append(ds, d), append(at, i)
	}
	return ds, at
}

// formDiscountFields renames the payload's discount errors (discounts[k].field) to the form's
// ticket fields (discounts[at[k]].field).
func formDiscountFields(fields map[string]string, at []int) map[string]string {
	out := make(map[string]string, len(fields))
	for f, msg := range fields {
		if rest, ok := strings.CutPrefix(f, palaro.FieldDiscounts+"["); ok {
			if n, tail, ok := strings.Cut(rest, "]"); ok {
				if k, err := strconv.Atoi(n); err == nil && k >= 0 && k < len(at) {
					f = palaro.FieldDiscounts + "[" + strconv.Itoa(at[k]) + "]" + tail
				}
			}
		}
		out[f] = msg
	}
	return out
}

// discountFacts are an order's senior citizen and PWD tickets as its console page lists them, the
// ID number in full: the page is for owners and managers (palaro.ActionOrders).
func discountFacts(o *palaro.Order) [][2]string {
	var out [][2]string
	if o.SeniorPWDDiscount > 0 {
		out = append(out, [2]string{"Senior/PWD discount", "-" + o.SeniorPWDDiscount.String()})
	}
	for _, t := range o.Tickets {
		if d := t.Discount; d.Type != "" {
			out = append(out, [2]string{"Ticket " + t.Code, palaro.DiscountLabel(d.Type) + " · " + d.HolderName + " · ID " +
				d.IDNumber + " · -" + d.Amount.String()})
		}
	}
	return out
}
