package views

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"palaro"
)

// PurchaseForm is the state of the server-rendered purchase form of /b/{code}: what the buyer
// sent (nothing on a first visit) and what the server answered. It draws the same fields, in the
// same order and sizes, as the purchase island's first render, so the island can take it over
// without moving the page; without JavaScript it posts to /b/{code} itself.
type PurchaseForm struct {
	Action string
	CSRF   string
	// Values are the fields as sent, by payload name (email, quantity, firstName, …, source).
	Values   map[string]string
	Existing bool
	// Counts are the add-on quantities by add-on id; an add-on not listed takes its default
	// (a free one goes with every ticket, a paid one is not taken).
	Counts map[int64]int
	// Shown are the field messages shown under the fields (after a post).
	Shown map[string]string
	// Error is the message above the pay buttons; UnpaidLink, when set, replaces it with a link
	// to the buyer's unpaid order.
	Error      string
	UnpaidLink string
	// SeatsInstead and SeatMap, after a lost seat race, are the buy page with the nearest free
	// seats ("" when none are left) and the seat map to choose again.
	SeatsInstead string
	SeatMap      string
}

// PurchaseInitial is what the island takes over from a form the server answered: the fields whose
// messages are shown, the form's message and the unpaid order's link.
type PurchaseInitial struct {
	Touched      []string `json:"touched"`
	Error        string   `json:"error"`
	UnpaidLink   string   `json:"unpaidLink"`
	SeatsInstead string   `json:"seatsInstead,omitempty"`
	SeatMap      string   `json:"seatMap,omitempty"`
}

// purchaseFormView combines the island's props with the form's state for the templates.
type purchaseFormView struct {
	PurchaseProps
	PurchaseForm
}

func (v purchaseFormView) val(field string) string { return v.Values[field] }

// rule returns the rule of field, if the form has one.
func (v purchaseFormView) rule(field string) (palaro.FieldRule, bool) {
	i := slices.IndexFunc(v.Rules, func(r palaro.FieldRule) bool { return r.Field == field })
	if i < 0 {
		return palaro.FieldRule{}, false
	}
	return v.Rules[i], true
}

// errors checks every field as the island does (components/rules.ts check mirrors FieldRule.Check).
func (v purchaseFormView) errors() map[string]string {
	errs := map[string]string{}
	for _, r := range append(slices.Clone(v.Rules), v.SourceRule) {
		errs[r.Field] = r.Check(v.val(r.Field), v.Existing)
	}
	if errs[palaro.FieldQuantity] == "" {
		if n, _ := strconv.Atoi(strings.TrimSpace(v.val(palaro.FieldQuantity))); n > v.Ticket.Quantity {
			errs[palaro.FieldQuantity] = "Sold out"
			if v.Ticket.Quantity > 0 {
				errs[palaro.FieldQuantity] = "Only " + palaro.Plural(v.Ticket.Quantity, "ticket", "tickets") + " left."
			}
		}
	}
	return errs
}

// qty is the quantity the summary counts: 0 while the quantity field is wrong.
func (v purchaseFormView) qty() int {
	if v.errors()[palaro.FieldQuantity] != "" {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(v.val(palaro.FieldQuantity)))
	return n
}

// maxEach is how many of each add-on the buyer may take: one per ticket.
func (v purchaseFormView) maxEach() int { return max(v.qty(), 1) }

// countOf is how many of an add-on the order takes.
func (v purchaseFormView) countOf(a AddOnJSON) int {
	n, ok := v.Counts[a.ID]
	if !ok {
		n = 0
		if a.Price == 0 {
			n = v.maxEach()
		}
	}
	return max(0, min(n, v.maxEach()))
}

// setCount reports whether the buyer set the add-on's count (else it takes its default).
func (v purchaseFormView) setCount(a AddOnJSON) bool {
	_, ok := v.Counts[a.ID]
	return ok
}

func (v purchaseFormView) addOnSum() int64 {
	var sum int64
	for _, a := range v.Ticket.AddOns {
		sum += a.Price * int64(v.countOf(a))
	}
	return sum
}

// promo is the usable promo code the code field holds, or nil.
func (v purchaseFormView) promo() *PromoJSON {
	if v.Promo == nil || !strings.EqualFold(strings.TrimSpace(v.val(palaro.FieldSource)), v.Promo.Code) {
		return nil
	}
	return v.Promo
}

// promoDiscount is what the promo code takes off the order as the form stands: nothing when the
// senior citizen and PWD discounts take off more (they are never combined).
func (v purchaseFormView) promoDiscount() int64 {
	if v.seniorPWDWins() {
		return 0
	}
	return v.promo().Discount(v.Ticket.FinalPrice*int64(v.qty()), v.addOnSum())
}

// total is the summary's total after the promo code, '—' while the quantity is wrong.
func (v purchaseFormView) total() string {
	if v.errors()[palaro.FieldQuantity] != "" {
		return "—"
	}
	off := v.promoDiscount()
	if v.seniorPWDWins() {
		off = v.seniorPWDDiscount()
	}
	return palaro.Money(v.Ticket.FinalPrice*int64(v.qty()) + v.addOnSum() - off).Display()
}

// reason is the first problem of the form in its order, shown above the pay buttons.
func (v purchaseFormView) reason() string {
	errs := v.errors()
	var order []string
	for _, group := range []func(palaro.FieldRule) bool{
		func(r palaro.FieldRule) bool { return r.Field == palaro.FieldEmail },
		func(r palaro.FieldRule) bool { return r.RequiredWhen == palaro.RequiredNewBuyer },
		func(r palaro.FieldRule) bool { return r.Input == "survey" },
		func(r palaro.FieldRule) bool { return r.Field == palaro.FieldQuantity },
		nil,
		func(r palaro.FieldRule) bool { return r.Input == "checkbox" },
	} {
		if group == nil {
			order = append(order, palaro.FieldSource)
			continue
		}
		for _, r := range v.Rules {
			if group(r) {
				order = append(order, r.Field)
			}
		}
	}
	for _, f := range order {
		if errs[f] != "" {
			return errs[f]
		}
	}
	return ""
}

// rulesWhere lists the form's rules that pass keep.
func (v purchaseFormView) rulesWhere(keep func(palaro.FieldRule) bool) []palaro.FieldRule {
	var out []palaro.FieldRule
	for _, r := range v.Rules {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func (v purchaseFormView) personal() []palaro.FieldRule {
	return v.rulesWhere(func(r palaro.FieldRule) bool { return r.RequiredWhen == palaro.RequiredNewBuyer })
}

func (v purchaseFormView) ofInput(input string) []palaro.FieldRule {
	return v.rulesWhere(func(r palaro.FieldRule) bool { return r.Input == input })
}

// showTickets reports whether the Tickets section is drawn: a visible quantity or a code field.
func (v purchaseFormView) showTickets() bool {
	q, ok := v.rule(palaro.FieldQuantity)
	return !ok || !q.Hidden || v.Ticket.ShowPromoField || v.Source != ""
}

func (v purchaseFormView) quantityHidden() bool {
	q, ok := v.rule(palaro.FieldQuantity)
	return ok && q.Hidden
}

func (v purchaseFormView) quantityHint(r palaro.FieldRule) string {
	if len(v.Seats) > 0 {
		return "Seats " + strings.Join(v.Seats, ", ")
	}
	return fmt.Sprintf("Max. %d per person", r.Max)
}

// changeSeatsHref is the seat map with the chosen seats, as the island links it.
func (v purchaseFormView) changeSeatsHref() string {
	href := "/s/" + v.Ticket.Code + "?seats=" + strings.Join(v.Seats, ",")
	if v.Source != "" {
		href += "&source=" + url.QueryEscape(v.Source)
	}
	return href
}

// addOnGroups are the add-ons by category, categories in alphabetical order ('Other' without one).
func (v purchaseFormView) addOnGroups() []addOnGroup {
	var groups []addOnGroup
	for _, a := range v.Ticket.AddOns {
		name := a.Category
		if name == "" {
			name = "Other"
		}
		i := slices.IndexFunc(groups, func(g addOnGroup) bool { return g.Name == name })
		if i < 0 {
			groups = append(groups, addOnGroup{Name: name})
			i = len(groups) - 1
		}
		groups[i].AddOns = append(groups[i].AddOns, a)
	}
	slices.SortStableFunc(groups, func(a, b addOnGroup) int { return strings.Compare(a.Name, b.Name) })
	return groups
}

// addOnGroup is one category of add-ons.
type addOnGroup struct {
	Name   string
	AddOns []AddOnJSON
}

// ListID is the id of the group's list, as the island names it.
func (g addOnGroup) ListID() string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(g.Name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return "addons-" + b.String()
}

// buttons are the form's pay buttons (payButtons).
func (v purchaseFormView) buttons() []PaymentOption {
	return payButtons(v.Payments, v.Ticket.FinalPrice == 0 && v.addOnSum() == 0)
}

// payButtons are the pay buttons of a form, as the islands' PayButtons draws them: one per
// payment type, or one 'Submit' when there is one type or nothing to pay.
func payButtons(options []PaymentOption, free bool) []PaymentOption {
	if free || len(options) < 2 {
		t := ""
		if len(options) > 0 {
			t = options[0].Type
		}
		return []PaymentOption{{Type: t, Label: "Submit"}}
	}
	return options
}

// autocomplete is the autocomplete token of a personal field.
func autocomplete(field string) string {
	switch field {
	case "email":
		return "email"
	case "firstName":
		return "given-name"
	case "lastName":
		return "family-name"
	case "fullName":
		return "name"
	case "mobileNumber":
		return "tel"
	case "birthDate":
		return "bday"
	case "companyName":
		return "organization"
	case "designation":
		return "organization-title"
	}
	return ""
}

// inputType is the HTML input type of a rule's input kind, as the island's TextInput sets it.
func inputType(input string) string {
	switch input {
	case "email", "tel", "date":
		return input
	}
	return "text"
}

// inputMode is the inputmode the island's TextInput gives a field.
func inputMode(input string, numeric bool) string {
	switch {
	case numeric:
		return "numeric"
	case input == "tel":
		return "tel"
	case input == "email":
		return "email"
	}
	return ""
}

func percentText(fraction float64) string {
	return strconv.FormatFloat(float64(int64(fraction*10000+0.5))/100, 'f', -1, 64) + "%"
}

// textFieldView is one text input of a server-drawn island form.
type textFieldView struct {
	// Name is the field's name when it is not its ID.
	ID, Name, Label, Type, Value, AutoComplete, Mode, Hint, Error string
	MaxLength                                                     int
	Required, ReadOnly, Numeric                                   bool
}

// Cap is how many tickets the quick-buy sheet allows: the per-buyer limit, or fewer when fewer are left.
func (t QuickTicket) Cap() int {
	most := t.MaxPurchasable
	if most == 0 {
		most = t.Quantity
	}
	return max(1, min(most, t.Quantity))
}

// buttons are the sheet's pay buttons (payButtons).
func (t QuickTicket) buttons() []PaymentOption { return payButtons(t.Payments, t.FinalPrice == 0) }
