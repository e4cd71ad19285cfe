package views

import "github.com/a-h/templ"

// LineView is one priced line of a summary, such as an add-on.
type LineView struct {
	Label string
	Value string
}

// TicketLinkView is a ticket as listed on an order or on the tickets page.
type TicketLinkView struct {
	Href       string
	Code       string
	Title      string // "General Admission · MLBB Manila Showdown"
	Detail     string // holder, seat or date
	Status     string // "valid", "checked_in", "cancelled"
	StatusText string // "Valid", "Checked in", "Cancelled"
}

// OrderView is the view model of /payment/success/{orderId}.
type OrderView struct {
	PublicID string
	Pending  bool
	// PayHref is the provider's checkout page of a pending order, to continue paying ("" when none).
	PayHref    string
	Heading    string
	Message    string
	StatusText string
	EventName  string
	EventHref  string
	When       string
	Place      string
	Email      string
	Lines      []LineView
	Total      string
	Tickets    []TicketLinkView
	// BackHref is where a buyer whose payment failed or expired can try again.
	BackHref string
	// PaidWith says how a paid order was paid, such as "GCash ending 4321" ("" when unknown).
	PaidWith string
	// PayLabel is the label of the PayHref button: "Try again" after a declined payment.
	PayLabel string
	// Invoices link the order's sales invoice and credit notes.
	Invoices []Link
	// Returns is the block for a buyer who cannot go: self-cancel and face-value returns.
	Returns OrderReturnsView
}

// TicketPageView is the view model of /t/{ticketId} and /q/{ticketId}.
type TicketPageView struct {
	PublicID   string
	Code       string
	TicketType string
	EventName  string
	EventHref  string
	When       string
	Place      string
	ImageURL   string
	Holder     string
	// Discount says a senior citizen's or PWD's ticket must come with the holder's ID ("Senior
	// citizen — bring your ID"), and DiscountHolder whose; "" for another ticket.
	Discount       string
	DiscountHolder string
	Email          string
	Seat           string
	Status         string // "Valid", "Checked in", "Cancelled"
	StatusClass    string // "valid", "checked_in", "cancelled"
	AddOns         []string
	QR             templ.Component
	QRHref         string
	// AddOnsHref is the add-ons page of the ticket; "" when its event has no add-on left to buy for it.
	AddOnsHref      string
	ChangeEmailHref string
	CalendarHref    string
	// EventNotice says that the event is postponed, rescheduled or cancelled and what it means for
	// the ticket; "" when nothing changed.
	EventNotice string
	Active      bool
	// PartnerAction is where "Open in partner app" posts; "" hides the button (partner not configured).
	PartnerAction string
}

// AddOnsProps are the props of the add-ons island of /a/{ticketId}.
type AddOnsProps struct {
	TicketID   string          `json:"ticketId"`
	TicketCode string          `json:"ticketCode"`
	AddOns     []AddOnJSON     `json:"addOns"`
	Payments   []PaymentOption `json:"payments"`
}

// ChangeEmailView is the view model of /change-email/{ticketId}.
type ChangeEmailView struct {
	Ticket  TicketPageView
	Current string
	Email   string
	Error   string
	CSRF    string
	// ByOwner is true when the signed-in visitor owns the ticket: their consent is given.
	ByOwner bool
}

// TransferConfirmView is the view model of /change-email/confirm/{token}: what the link confirms.
type TransferConfirmView struct {
	Action, CSRF          string
	EventName, TicketType string
	// Code is the ticket's code, shown to its holder only.
	Code     string
	From, To string
	// Receipt is true on the new address's link (accept the ticket), false on the holder's (give it away).
	Receipt bool
}

// TicketsView is the view model of /tickets and /tickets/{token}.
type TicketsView struct {
	Email   string
	Error   string
	Sent    string
	CSRF    string
	Tickets []TicketLinkView
	// Listed is true on the page a tickets link opens (the address's tickets are shown).
	Listed bool
	// Past holds the tickets of events that have ended, listed apart for a signed-in visitor.
	Past []TicketLinkView
	// Account is true for a signed-in visitor's own list; Unconfirmed when their e-mail is not confirmed yet.
	Account     bool
	Unconfirmed bool
	// ActivationSent says that a new activation link was just e-mailed (to an unconfirmed account).
	ActivationSent string
}
