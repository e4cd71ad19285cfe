package palaro

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Order statuses.
const (
	OrderPending = "pending" // waiting for payment; holds its tickets until HoldExpiresAt
	OrderPaid    = "paid"    // paid (or free): tickets issued
	OrderExpired = "expired" // hold released without payment
	OrderRefund  = "refund"  // paid after its hold expired and capacity was gone: to be refunded by the operator
	// OrderRefunded is an order whose payment was given back (marked by the organizer): its tickets are cancelled.
	OrderRefunded = "refunded"
)

// Order kinds.
const (
	OrderKindTickets = "tickets" // tickets of one ticket type, with optional add-ons
	OrderKindAddOns  = "add_ons" // add-ons bought later for an existing ticket
)

// Ticket statuses.
const (
	TicketValid     = "valid"
	TicketCheckedIn = "checked_in"
	TicketCancelled = "cancelled"
)

// PurchaseRequest is the purchase payload of SPEC.md section 3, as posted to /v1/ticket/buy.
type PurchaseRequest struct {
	EventCode  string `json:"eventCode"`
	TicketCode string `json:"ticketCode"`
	// Date is the slug of the date bought for (YYYY-MM-DD, -2 for a second session) when the
	// event is a series and the ticket a day ticket; empty for a single-date event and for a pass.
	Date          string   `json:"date"`
	Quantity      int      `json:"quantity"`
	BirthDate     string   `json:"birthDate"`
	Age           string   `json:"age"`
	MobileNumber  string   `json:"mobileNumber"`
	Gender        string   `json:"gender"`
	Email         string   `json:"email"`
	EconomicClass string   `json:"economicClass"`
	SurveyAnswer  string   `json:"surveyAnswer"`
	FirstName     string   `json:"firstName"`
	LastName      string   `json:"lastName"`
	FullName      string   `json:"fullName"`
	ExistingUser  bool     `json:"existingUser"`
	Seats         []string `json:"seats"`
	Source        string   `json:"source"`
	AddOns        []int64  `json:"addOns"`
	// AddOnQuantities sets how many of each add-on the order takes (at most one per ticket); an id
	// listed only in AddOns counts once, and a quantity of 0 drops the add-on.
	AddOnQuantities []AddOnQuantity `json:"addOnQuantities"`
	CompanyName     string          `json:"companyName"`
	Designation     string          `json:"designation"`
	PaymentType     string          `json:"paymentType"`
	// DisclaimerAccepted is true when the buyer ticked the ticket type's disclaimer checkbox.
	DisclaimerAccepted bool `json:"disclaimerAccepted"`
	// Offer is the link token of a waiting-list offer: the order buys the tickets it holds.
	Offer string `json:"offer"`
	// SeatHold is the best-available hold (SeatHold.ID) whose seats the buyer takes: it is given
	// back in the order's write, just before the order takes its seats.
	SeatHold string `json:"seatHold"`
	// Discounts are the senior citizen and PWD discounts of the order's first tickets, at most one per ticket.
	Discounts []TicketDiscount `json:"discounts"`
	// SessionKey identifies the browser session that sent the purchase (set by the server, never
	// read from the payload): unpaid holds are limited per session.
	SessionKey string `json:"-"`
	// QueuePlace is the queue place the browser was admitted with (set by the server, 0 without a
	// queue): the order ties the buyer's e-mail address to it in its own transaction.
	QueuePlace int64 `json:"-"`
	// UserID is the signed-in account that sent the purchase (set by the server; 0 for a visitor):
	// the per-buyer maximum holds per account as well as per e-mail.
	UserID int64 `json:"-"`
}

// AddOnQuantity is one add-on of a purchase with how many of it the order takes.
type AddOnQuantity struct {
	ID       int64 `json:"id"`
	Quantity int   `json:"quantity"`
}

// AddOnCounts merges the payload's add-on ids (one each) and add-on quantities (which win) into
// one list in first-mention order, without the add-ons whose quantity is 0.
func (r PurchaseRequest) AddOnCounts() []AddOnQuantity {
	var out []AddOnQuantity
	set := func(id int64, q int) {
		for i := range out {
			if out[i].ID == id {
				out[i].Quantity = q
				return
			}
		}
		out = append(out, AddOnQuantity{ID: id, Quantity: q})
	}
	for _, id := range r.AddOns {
		set(id, 1)
	}
	for _, a := range r.AddOnQuantities {
		set(a.ID, a.Quantity)
	}
	return slices.DeleteFunc(out, func(a AddOnQuantity) bool { return a.Quantity == 0 })
}

// CheckAddOnQuantity returns EINVALID when an order of tickets tickets cannot take quantity of an
// add-on: each ticket carries at most one of each add-on, so the most is the ticket quantity.
func CheckAddOnQuantity(a AddOn, quantity, tickets int) error {
	if quantity < 0 {
		return Errorf(EINVALID, "Invalid quantity for %s.", a.Name)
	}
	if quantity > max(tickets, 1) {
		return Errorf(EINVALID, "At most %d × %s: one per ticket.", max(tickets, 1), a.Name)
	}
	return nil
}

// DistributeAddOns says which add-ons each of an order's tickets carries: an add-on bought q
// times goes to the first q tickets, one each. The result has one entry per ticket.
func DistributeAddOns(tickets int, addOns []AddOn) [][]AddOn {
	out := make([][]AddOn, max(tickets, 0))
	for _, a := range addOns {
		for i := range min(a.Count(), len(out)) {
			one := a
			one.Quantity = 1
			out[i] = append(out[i], one)
		}
	}
	return out
}

// Order is one purchase: a quantity of one ticket type plus add-ons, paid once.
type Order struct {
	ID           int64
	PublicID     string // unguessable id used in URLs (/payment/success/{PublicID})
	Kind         string // OrderKindTickets or OrderKindAddOns
	TicketID     int64  // for add-on orders: the ticket the add-ons are for
	EventID      int64
	TicketTypeID int64
	// Date is the series date a day ticket order is for (nil for a single-date event and a pass).
	Date          *EventDate
	Quantity      int
	Email         string
	Buyer         Buyer
	Seats         []string
	Source        string
	PromoCode     string
	PaymentType   string
	SessionKey    string // hash of the browser session that created the order ("" when unknown)
	UserID        int64  // signed-in account that created the order (0 for a visitor)
	UnitPrice     Money  // discounted price of one ticket
	AddOnsTotal   Money
	PromoDiscount Money
	// Discounts are the senior citizen and PWD discounts of the order's first tickets, in order.
	Discounts []TicketDiscount
	// SeniorPWDDiscount is the sum of the Discounts' amounts, already taken off Total.
	SeniorPWDDiscount Money
	Total             Money
	Status            string
	Provider          string // payment provider name ("sandbox", "paymongo"); "" for free orders
	ProviderRef       string // provider's checkout session id
	CheckoutURL       string
	// PaymentMethod and PaymentAccount are how the order was paid, as the provider's paid event
	// told: its method ("gcash", "card", …) and the account's last digits ("" when not told).
	PaymentMethod  string
	PaymentAccount string
	// PaymentFailed is the method of the last payment attempt the provider reported failed while
	// the order was pending ("" when none failed, or once it is paid); the buyer may try again.
	PaymentFailed string
	HoldExpiresAt time.Time
	PaidAt        time.Time
	CreatedAt     time.Time
	Tickets       []Ticket
	AddOns        []AddOn
	Event         *Event      // filled by lookups: the event (name, venue, start)
	TicketType    *TicketType // filled by lookups: the ticket type bought

	// Invoices are the public ids of the order's sales invoice and credit notes, filled by
	// lookups (the invoice first; none for a free order or before it is paid).
	Invoices []InvoiceRef

	// PromoTicketsOnly is true when the promo code discounted the tickets alone, not the add-ons
	// (PromoCode.TicketsOnly; known to the order just created, which Checkout is made from).
	PromoTicketsOnly bool
}

// InvoiceRef names one invoice or credit note of an order.
type InvoiceRef struct {
	PublicID string
	Kind     string
	Number   string
}

// Free reports whether the order costs nothing.
func (o *Order) Free() bool { return o.Total == 0 }

// Buyer holds the personal details a purchase form collected.
type Buyer struct {
	FirstName     string
	LastName      string
	FullName      string
	MobileNumber  string
	Gender        string
	BirthDate     string
	Age           int
	CompanyName   string
	Designation   string
	EconomicClass string
	SurveyAnswer  string
	ExistingUser  bool
}

// Ticket is one admission issued for a paid order.
type Ticket struct {
	ID         int64
	PublicID   string // unguessable id used in /t/{PublicID}, /q/{PublicID}, /a/{PublicID}
	Code       string // short human-readable code printed under the QR
	OrderID    int64
	EventID    int64
	TicketType TicketType
	Event      *Event
	HolderName string
	Email      string
	Seat       string
	Status     string
	// Date is the series date a day ticket admits to (nil for a single-date event and a pass,
	// whose dates are its PassUses).
	Date *EventDate
	// PassUses are a pass's dates so far (every date for PassEvery, those picked for PassCount),
	// filled by the lookups that show or admit a pass.
	PassUses []PassUse
	// Discount is the ticket's senior citizen or PWD discount; its Type is "" for a ticket without.
	Discount    TicketDiscount
	AddOns      []AddOn
	CheckedInAt time.Time
	CreatedAt   time.Time
}

// Statuses of a ticket transfer: a change of a ticket's e-mail address needs the current holder's
// consent and the new address's confirmation of receipt.
const (
	TransferAwaitingHolder  = "awaiting_holder"  // a link went to the current address
	TransferAwaitingReceipt = "awaiting_receipt" // a link went to the new address
	TransferDone            = "done"             // the ticket was reissued to the new address
	TransferVoid            = "void"             // another transfer of the ticket completed first
)

// TicketTransfer is a move of a ticket from one e-mail address to another.
type TicketTransfer struct {
	Ticket    *Ticket
	FromEmail string
	ToEmail   string
	Status    string
}

// PurchaseResult is the answer to a purchase: where to send the buyer next.
type PurchaseResult struct {
	Order       *Order
	RedirectURL string
}

// TicketTypeService reads ticket types for the purchase page.
type TicketTypeService interface {
	// FindTicketType returns a ticket type with its event (required fields, survey) and add-ons.
	// Returns ENOTFOUND when the code is unknown or its event is not public.
	FindTicketType(ctx context.Context, code string) (*TicketType, *Event, error)
}

// Promo code kinds.
const (
	PromoPercent = "percent" // Percent off the order's subtotal
	PromoFixed   = "fixed"   // Amount off the order's subtotal
)

// PromoCode is a discount a buyer enters as the purchase's source (promo or referral) code.
type PromoCode struct {
	ID      int64
	Code    string
	EventID int64  // 0: valid for every event
	Kind    string // PromoPercent or PromoFixed
	Percent int    // 1–100, for PromoPercent
	Amount  Money  // for PromoFixed
	// ValidFrom and ValidUntil bound when the code can be used; zero means unbounded.
	ValidFrom  time.Time
	ValidUntil time.Time
	// UsageLimit is how many orders may use the code (0: unlimited); Used counts pending and paid ones.
	UsageLimit int
	Used       int
	// TicketTypeIDs are the ticket types the code applies to; empty: every ticket type of its event.
	TicketTypeIDs []int64
	// Paused is true while the organizer has stopped the code; it can be resumed.
	Paused bool
	// Retired is true for a code deleted after orders used it: kept for their history, never usable again.
	Retired bool
}

// AppliesTo reports whether the code discounts tickets of the ticket type.
func (p PromoCode) AppliesTo(ticketTypeID int64) bool {
	return len(p.TicketTypeIDs) == 0 || slices.Contains(p.TicketTypeIDs, ticketTypeID)
}

// PromoNotForTicket is the error for a promo code used with a ticket type it does not apply to.
func PromoNotForTicket(code string) *Error {
	return Errorf(EINVALID, "Promo code %s is not valid for this ticket.", code)
}

// TicketsOnly reports whether the code names ticket types: it then discounts their tickets alone,
// never an order's add-ons; a code for every ticket type discounts the whole order.
func (p PromoCode) TicketsOnly() bool { return len(p.TicketTypeIDs) > 0 }

// Discount returns what the code takes off a subtotal: never more than the subtotal.
func (p PromoCode) Discount(subtotal Money) Money {
	var d Money
	switch p.Kind {
	case PromoPercent:
		d = subtotal * Money(min(max(p.Percent, 0), 100)) / 100
	case PromoFixed:
		d = max(p.Amount, 0)
	}
	return min(d, max(subtotal, 0))
}

// Describe returns a short text such as '10% off' or '₱50.00 off'.
func (p PromoCode) Describe() string {
	if p.Kind == PromoPercent {
		return strconv.Itoa(p.Percent) + "% off"
	}
	return p.Amount.String() + " off"
}

// Check reports why the code cannot be used for an event at time now, or nil. It returns
// EINVALID with a message fit for the buyer. The usage limit is enforced by the store, atomically.
func (p PromoCode) Check(eventID int64, now time.Time) error {
	switch {
	case p.EventID != 0 && p.EventID != eventID:
		return Errorf(EINVALID, "Promo code %s is not valid for this event.", p.Code)
	case p.Retired:
		return PromoRetired(p.Code)
	case p.Paused:
		return PromoPaused(p.Code)
	case !p.ValidFrom.IsZero() && now.Before(p.ValidFrom):
		return Errorf(EINVALID, "Promo code %s is not valid yet.", p.Code)
	case !p.ValidUntil.IsZero() && !now.Before(p.ValidUntil):
		return Errorf(EINVALID, "Promo code %s has expired.", p.Code)
	case p.UsageLimit > 0 && p.Used >= p.UsageLimit:
		return PromoUsedUp(p.Code)
	}
	return nil
}

// PromoPaused is the error for a promo code its organizer has paused.
func PromoPaused(code string) *Error {
	return Errorf(EINVALID, "Promo code %s is paused by the organizer and cannot be used right now.", code)
}

// PromoRetired is the error for a promo code its organizer has deleted after orders used it.
func PromoRetired(code string) *Error {
	return Errorf(EINVALID, "Promo code %s is no longer valid.", code)
}

// PromoUsedUp is the error for a promo code whose usage limit was reached.
func PromoUsedUp(code string) *Error {
	return Errorf(EINVALID, "Promo code %s has reached its usage limit.", code)
}

// Price is the breakdown of an order's total, all in centavos.
type Price struct {
	UnitPrice     Money // the ticket type's discounted price
	Quantity      int
	TicketsTotal  Money // UnitPrice × Quantity
	AddOnsTotal   Money
	Subtotal      Money // TicketsTotal + AddOnsTotal
	PromoDiscount Money
	// SeniorPWDDiscount is what the senior citizen and PWD discounts take off the tickets (never
	// with a promo discount: DecideOrder keeps the larger).
	SeniorPWDDiscount Money
	Total             Money // Subtotal − PromoDiscount − SeniorPWDDiscount, never below 0
}

// PriceOrder computes an order's price: discounted price × quantity + add-ons − promo discount,
// the promo discounting only what it covers (the tickets, when it names ticket types; else the
// whole subtotal). promo may be nil.
func PriceOrder(tt TicketType, quantity int, addOns []AddOn, promo *PromoCode) Price {
	p := Price{UnitPrice: tt.FinalPrice(), Quantity: quantity}
	p.TicketsTotal = p.UnitPrice * Money(quantity)
	for _, a := range addOns {
		p.AddOnsTotal += a.Price * Money(a.Count())
	}
	p.Subtotal = p.TicketsTotal + p.AddOnsTotal
	if promo != nil {
		covered := p.Subtotal
		if promo.TicketsOnly() {
			covered = p.TicketsTotal
		}
		p.PromoDiscount = promo.Discount(covered)
	}
	p.Total = max(p.Subtotal-p.PromoDiscount, 0)
	return p
}

// TicketStatusInfo is what a partner learns about a ticket from its code.
type TicketStatusInfo struct {
	Code           string    `json:"ticketCode"`
	Status         string    `json:"status"`
	EventCode      string    `json:"eventCode"`
	EventName      string    `json:"eventName"`
	TicketTypeCode string    `json:"ticketTypeCode"`
	TicketTypeName string    `json:"ticketTypeName"`
	CheckedInAt    time.Time `json:"checkedInAt,omitzero"`
}

// OrderFilter selects orders for the operator's list.
type OrderFilter struct {
	Status string // "" for every status
	Limit  int
}

// PurchaseService creates and settles orders, issues tickets and answers questions about them.
type PurchaseService interface {
	// CreateOrder validates and prices a purchase and reserves its tickets. A free order is paid at
	// once and its tickets issued; a paid one is pending and holds its tickets until its hold
	// expires. Returns EINVALID for a failing field or promo code, ENOTFOUND for an unknown
	// ticket type or add-on, ECONFLICT when not enough tickets are left or sales are closed.
	CreateOrder(ctx context.Context, req PurchaseRequest, now time.Time) (*Order, error)
	// AttachCheckout records the provider's checkout session (and its payment intent) of a pending order.
	// Returns ENOTFOUND for an unknown order and ECONFLICT when it is no longer pending.
	AttachCheckout(ctx context.Context, orderID int64, provider string, session CheckoutSession) error
	// CancelOrder releases a pending order's hold at once (its checkout could not be created).
	// Returns ENOTFOUND for an unknown order.
	CancelOrder(ctx context.Context, orderID int64) error
	// ConfirmPayment applies a provider's payment event. It is idempotent: an event seen before,
	// or a paid event for an order already settled, changes nothing. A payment after the hold
	// expired issues the tickets when capacity remains, otherwise marks the order OrderRefund.
	// A failed attempt leaves a pending order pending and sets its PaymentFailed; a paid one
	// records PaymentMethod and PaymentAccount (at most the last four digits).
	// The event must name the provider's checkout session of the order, or its payment intent
	// (its reference number alone is not enough) and pass PaymentEvent.Refusal for the provider's mode (live); a refused event
	// is recorded as refused and changes nothing. Returns the order; ENOTFOUND when no order has
	// the event's session, EINVALID when the event is refused.
	ConfirmPayment(ctx context.Context, provider string, live bool, ev PaymentEvent) (*Order, error)
	// ListPaymentEvents returns the payment events received, newest first.
	ListPaymentEvents(ctx context.Context, f PaymentEventFilter) ([]PaymentEventRecord, error)
	// ExpireHolds releases the holds (and promo uses) of pending orders whose hold ended before
	// now, marking them expired. Returns how many orders expired.
	ExpireHolds(ctx context.Context, now time.Time) (int, error)
	// PendingOrdersForReconciliation returns orders with a provider checkout that are still
	// pending, or expired within the last day, created before now minus minAge.
	PendingOrdersForReconciliation(ctx context.Context, now time.Time, minAge time.Duration) ([]*Order, error)
	// FindOrderByPublicID returns an order with its event, ticket type, tickets and add-ons.
	// Returns ENOTFOUND for an unknown id.
	FindOrderByPublicID(ctx context.Context, publicID string) (*Order, error)
	// ListOrders returns the most recent orders, for the operator. Returns EINVALID for a bad filter.
	ListOrders(ctx context.Context, f OrderFilter) ([]*Order, error)
	// FindTicketByPublicID returns a ticket with its event, ticket type and add-ons.
	// Returns ENOTFOUND for an unknown id.
	FindTicketByPublicID(ctx context.Context, publicID string) (*Ticket, error)
	// ListTicketsByEmail returns every ticket held by an e-mail address, newest first.
	ListTicketsByEmail(ctx context.Context, email string) ([]*Ticket, error)
	// AddOnsAvailableForTicket returns the event's add-ons the ticket does not have yet.
	// Returns ENOTFOUND for an unknown ticket.
	AddOnsAvailableForTicket(ctx context.Context, ticketPublicID string) ([]AddOn, error)
	// CreateAddOnOrder creates an order for add-ons of an existing ticket: paid at once when free,
	// pending otherwise. Returns ENOTFOUND for an unknown ticket, EINVALID for no add-ons or one
	// that is not available for the ticket, and ECONFLICT when the ticket is not valid.
	CreateAddOnOrder(ctx context.Context, ticketPublicID string, addOnIDs []int64, paymentType string, now time.Time) (*Order, error)
	// RequestEmailChange starts moving a ticket to newEmail. The current holder consents first:
	// a link goes to the ticket's current address, unless byOwner says the signed-in owner of
	// that address asked, in which case the new address is asked at once to confirm receipt.
	// Returns ENOTFOUND for an unknown ticket and EINVALID for a bad or unchanged address.
	RequestEmailChange(ctx context.Context, ticketPublicID, newEmail string, byOwner bool, now time.Time) (*TicketTransfer, error)
	// FindEmailChange returns the transfer a link token belongs to, when the link still works;
	// its Status says which step the link confirms. Returns ENOTFOUND otherwise.
	FindEmailChange(ctx context.Context, token string, now time.Time) (*TicketTransfer, error)
	// ConfirmEmailChange takes the step a link token confirms: the holder's consent (then the new
	// address gets a link to confirm receipt) or the new address's receipt, which reissues the
	// ticket to it (new public id, code and QR; the old ones stop working), voids every other
	// transfer of the ticket and e-mails both addresses. Returns the transfer with its new
	// status; ENOTFOUND for an unknown, used, voided or expired token.
	ConfirmEmailChange(ctx context.Context, token string, now time.Time) (*TicketTransfer, error)
	// SendTicketsLink queues a job that e-mails a link listing the address's tickets, when it has
	// any: the same work for every address, so neither the answer nor its timing reveals which
	// addresses hold tickets. Returns EINVALID for a malformed address.
	SendTicketsLink(ctx context.Context, email string, now time.Time) error
	// TicketsByLink returns the e-mail address and tickets of a link sent by SendTicketsLink.
	// Returns ENOTFOUND for an unknown or expired token.
	TicketsByLink(ctx context.Context, token string, now time.Time) (string, []*Ticket, error)
	// TicketStatus returns the status of the ticket with a short code. Returns ENOTFOUND for an
	// unknown code.
	TicketStatus(ctx context.Context, code string) (*TicketStatusInfo, error)
	// FindPromoCode returns a usable promo code for an event at time now.
	// Returns ENOTFOUND when no such code exists and EINVALID when it cannot be used.
	FindPromoCode(ctx context.Context, code string, eventID int64, now time.Time) (*PromoCode, error)
}

// Checkout describes the order for a payment provider. Without a promo discount the lines are the
// tickets and each paid add-on; with one, a single line carries the discounted total, since
// providers charge the sum of unit amount × quantity and the discount cannot always be spread
// over the lines in whole centavos.
func (o *Order) Checkout(baseURL, cancelPath string) Checkout {
	c := Checkout{
		OrderID: o.PublicID, Total: o.Total, Email: o.Email, Name: o.Buyer.FullName, PaymentType: o.PaymentType,
		SuccessURL: baseURL + OrderPath(o.PublicID), CancelURL: baseURL + cancelPath, ExpiresAt: o.HoldExpiresAt,
	}
	if c.Name == "" {
		c.Name = strings.TrimSpace(o.Buyer.FirstName + " " + o.Buyer.LastName)
	}
	ticketName := "Ticket"
	if o.TicketType != nil {
		ticketName = o.TicketType.Name
	}
	if o.Event != nil {
		c.Description = o.Event.Name
		ticketName += " · " + o.Event.Name
	}
	var lines []LineItem
	if full := o.Quantity - len(o.Discounts); o.UnitPrice > 0 && full > 0 {
		lines = append(lines, LineItem{Name: ticketName, Amount: o.UnitPrice, Quantity: full})
	}
	for _, d := range o.Discounts { // a senior citizen's or PWD's ticket: its own line, at its own price
		if amount := o.UnitPrice - d.Amount; amount > 0 {
			lines = append(lines, LineItem{Name: ticketName + " (" + strings.ToLower(DiscountLabel(d.Type)) + ", " +
				SeniorPWDLaw(d.Type) + ")", Amount: amount, Quantity: 1})
		}
	}
	for _, a := range o.AddOns {
		if a.Price > 0 {
			lines = append(lines, LineItem{Name: a.Name, Amount: a.Price, Quantity: a.Count()})
		}
	}
	covered := len(lines) // a promo never comes with senior citizen or PWD discounts (DecideOrder)
	if o.PromoTicketsOnly && len(lines) > 0 && o.UnitPrice > 0 {
		covered = 1
	}
	c.LineItems = discountLines(lines, covered, o.PromoDiscount, " (promo "+o.PromoCode+")")
	return c
}

// discountLines spreads a discount over the first covered lines in proportion to their amounts
// and gives every line back with its own price after its share (suffix added to its name), so a
// provider's page lists every line and they add up to the total. A line whose share does not
// divide by its quantity becomes two lines a centavo apart; a line discounted to nothing is left out.
func discountLines(lines []LineItem, covered int, discount Money, suffix string) []LineItem {
	if discount <= 0 || covered == 0 {
		return lines
	}
	var base Money
	for _, l := range lines[:covered] {
		base += l.Subtotal()
	}
	shares := make([]Money, covered)
	left := min(discount, base)
	for i, l := range lines[:covered] {
		shares[i] = min(discount*l.Subtotal()/base, l.Subtotal())
		left -= shares[i]
	}
	for i := 0; left > 0 && i < covered; i++ { // the centavos the division left, to lines with room
		more := min(left, lines[i].Subtotal()-shares[i])
		shares[i] += more
		left -= more
	}
	out := make([]LineItem, 0, len(lines)+covered)
	for i, l := range lines {
		if i >= covered || shares[i] == 0 {
			out = append(out, l)
			continue
		}
		total := l.Subtotal() - shares[i]
		per, extra := total/Money(l.Quantity), int(total%Money(l.Quantity))
		if extra > 0 {
			out = append(out, LineItem{Name: l.Name + suffix, Amount: per + 1, Quantity: extra})
		}
		if per > 0 && l.Quantity > extra {
			out = append(out, LineItem{Name: l.Name + suffix, Amount: per, Quantity: l.Quantity - extra})
		}
	}
	return out
}

// FieldUnpaidOrder is the error field holding the path of the buyer's unpaid order that blocks a new one.
const FieldUnpaidOrder = "unpaidOrder"

// UnpaidOrderWaiting is the ECONFLICT error for a session that already holds the most unpaid
// tickets it may, with a link to that order's page (OrderPath; the handler makes it absolute).
func UnpaidOrderWaiting(link string) *Error {
	return &Error{Code: ECONFLICT, Message: "You have an unpaid order waiting: " + link,
		Fields: map[string]string{FieldUnpaidOrder: link}}
}

// UnpaidOrderElsewhere is the ECONFLICT error for an e-mail address whose unpaid order, started
// in another browser, holds its tickets for left more; it gives no link to that order.
func UnpaidOrderElsewhere(left time.Duration) *Error {
	minutes := max(int((left+time.Minute-1)/time.Minute), 1)
	unit := "minutes"
	if minutes == 1 {
		unit = "minute"
	}
	return Errorf(ECONFLICT, "An unpaid order for this e-mail address is waiting for payment. Complete it, or try again when it expires in %d %s.", minutes, unit)
}

// MergeBuyers returns a with its empty personal details taken from b.
func MergeBuyers(a, b Buyer) Buyer {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&a.FirstName, b.FirstName}, {&a.LastName, b.LastName}, {&a.FullName, b.FullName},
		{&a.MobileNumber, b.MobileNumber}, {&a.Gender, b.Gender}, {&a.BirthDate, b.BirthDate},
		{&a.CompanyName, b.CompanyName}, {&a.Designation, b.Designation}, {&a.EconomicClass, b.EconomicClass},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if a.Age == 0 {
		a.Age = b.Age
	}
	return a
}
