package palaro

import (
	"fmt"
	"strings"
	"unicode"
)

// The senior citizen and PWD discount (RA 9994 for senior citizens; RA 9442 as amended by
// RA 10754 for persons with disability): 20% off admission, and no VAT when the organization is
// VAT-registered, for the holder's own ticket, with a government ID shown at the gate.

// Kinds of senior citizen and PWD discount a ticket can carry.
const (
	DiscountSenior = "senior" // a senior citizen (60+) with an OSCA ID
	DiscountPWD    = "pwd"    // a person with disability with a PWD ID
)

// FieldDiscounts is the purchase payload's list of senior citizen and PWD discounts.
const FieldDiscounts = "discounts"

// MaxDiscountIDNumber is the longest ID number (OSCA ID or PWD ID) a discount accepts.
const MaxDiscountIDNumber = 40

// TicketDiscount is one ticket's senior citizen or PWD discount: who holds the ticket and the ID
// they show at the gate. Amount is the centavos it takes off the ticket (set by DecideOrder).
type TicketDiscount struct {
	Type       string `json:"type"`
	HolderName string `json:"holderName"`
	IDNumber   string `json:"idNumber"`
	Amount     Money  `json:"-"`
}

// SeniorPWDPrice returns what one ticket of price costs with the senior citizen or PWD discount:
// price ÷ 1.12 (VAT removed) when the organization is VAT-registered, then 20% off. The rule is
// one rounding, at the end, to the nearest centavo (halves up), in integer centavos: price × 5/7
// when VAT-registered (100/112 × 80/100), price × 4/5 otherwise. ₱1,000.00 → ₱714.29.
func SeniorPWDPrice(price Money, vatRegistered bool) Money {
	if price <= 0 {
		return 0
	}
	num, den := Money(4), Money(5)
	if vatRegistered {
		num, den = 5, 7
	}
	return (price*num*2 + den) / (den * 2)
}

// SeniorPWDDiscount returns the centavos the senior citizen or PWD discount takes off one ticket
// of price: price − SeniorPWDPrice.
func SeniorPWDDiscount(price Money, vatRegistered bool) Money {
	return max(price, 0) - SeniorPWDPrice(price, vatRegistered)
}

// SeniorPWDLaw names the law behind a discount kind, for the buyer and the organizer.
func SeniorPWDLaw(kind string) string {
	if kind == DiscountPWD {
		return "RA 10754"
	}
	return "RA 9994"
}

// DiscountLabel is a discount kind as people read it: "Senior citizen" or "Person with disability".
func DiscountLabel(kind string) string {
	switch kind {
	case DiscountSenior:
		return "Senior citizen"
	case DiscountPWD:
		return "Person with disability"
	}
	return ""
}

// CheckIDLine is what the gate says of a discounted ticket: "Check ID: senior citizen, {name}".
func CheckIDLine(kind, holder string) string {
	return "Check ID: " + strings.ToLower(DiscountLabel(kind)) + ", " + holder
}

// DiscountIDKey is an ID number as compared for "one discounted ticket per ID per event": upper
// case, letters and digits only, so "osca-123 45" and "OSCA12345" are the same ID.
func DiscountIDKey(id string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToUpper(r)
		}
		return -1
	}, id)
}

// MaskIDNumber shows only the last 4 letters or digits of an ID number: "•••• 2345".
func MaskIDNumber(id string) string {
	k := DiscountIDKey(id)
	if k == "" {
		return ""
	}
	return "•••• " + k[max(len(k)-4, 0):]
}

// DiscountField names one field of the purchase's discount entry i: "discounts[1].idNumber".
func DiscountField(i int, field string) string {
	return fmt.Sprintf("%s[%d].%s", FieldDiscounts, i, field)
}

// NormalizeDiscounts trims the discounts' text and lower-cases their kinds.
func NormalizeDiscounts(ds []TicketDiscount) []TicketDiscount {
	out := make([]TicketDiscount, 0, len(ds))
	for _, d := range ds {
		out = append(out, TicketDiscount{Type: strings.ToLower(strings.TrimSpace(d.Type)),
			HolderName: strings.Join(strings.Fields(d.HolderName), " "), IDNumber: strings.TrimSpace(d.IDNumber)})
	}
	return out
}

// checkDiscounts adds the field errors of a purchase's senior citizen and PWD discounts: at most
// one per ticket, only on a ticket type the discount applies to, each with a kind, the holder's
// full name and an ID number, and no ID twice.
func checkDiscounts(errs *fieldErrors, ds []TicketDiscount, quantity int, tt TicketType) {
	if len(ds) == 0 {
		return
	}
	if !tt.SeniorPWDDiscount {
		errs.add(FieldDiscounts, "The senior citizen and PWD discount does not apply to "+tt.Name+".")
		return
	}
	if len(ds) > max(quantity, 1) {
		errs.add(FieldDiscounts, fmt.Sprintf("At most %s: one per ticket.", Plural(max(quantity, 1), "discount", "discounts")))
		return
	}
	seen := map[string]bool{}
	for i, d := range ds {
		if d.Type != DiscountSenior && d.Type != DiscountPWD {
			errs.add(DiscountField(i, "type"), "Choose senior citizen or person with disability.")
		}
		switch n := len([]rune(d.HolderName)); {
		case n == 0:
			errs.add(DiscountField(i, "holderName"), "Enter the full name on the ID.")
		case n > 100:
			errs.add(DiscountField(i, "holderName"), "The name can be at most 100 characters.")
		}
		key := DiscountIDKey(d.IDNumber)
		switch {
		case key == "":
			errs.add(DiscountField(i, "idNumber"), "Enter the OSCA ID or PWD ID number.")
		case len(d.IDNumber) > MaxDiscountIDNumber:
			errs.add(DiscountField(i, "idNumber"), fmt.Sprintf("The ID number can be at most %d characters.", MaxDiscountIDNumber))
		case seen[key]:
			errs.add(DiscountField(i, "idNumber"), "Each ID can have one discounted ticket per event.")
		}
		seen[key] = true
	}
}

// DiscountIDTaken is the error for an ID number that already has a discounted ticket of the event.
func DiscountIDTaken(i int) *Error {
	msg := "This ID already has a discounted ticket for this event: one discounted ticket per ID per event."
	return &Error{Code: ECONFLICT, Message: msg, Fields: map[string]string{DiscountField(i, "idNumber"): msg}}
}

// seniorPWDDiscounts returns the discounts of an order of tickets at unitPrice, each with its
// Amount, and their sum.
func seniorPWDDiscounts(ds []TicketDiscount, unitPrice Money, vatRegistered bool) ([]TicketDiscount, Money) {
	var sum Money
	out := make([]TicketDiscount, len(ds))
	for i, d := range ds {
		d.Amount = SeniorPWDDiscount(unitPrice, vatRegistered)
		out[i], sum = d, sum+d.Amount
	}
	return out, sum
}
