package views

// WaitlistView is the waiting-list page of a sold-out ticket type: its head and the join form
// (nil when the list cannot be joined; Message says why).
type WaitlistView struct {
	TicketHeader
	Intro   string
	Form    *Form
	Message string
	// Dates are the links to pick a date's list from (a series' day ticket asked for without one).
	Dates []Link
}

// WaitlistJoinedView is the confirmation of a join.
type WaitlistJoinedView struct {
	TicketHeader
	Heading  string
	Message  string
	Email    string
	Position int
}

// WaitlistOfferView is the page an offer's link opens: the held tickets and the way to buy them.
type WaitlistOfferView struct {
	TicketHeader
	Heading string
	Message string
	// BuyHref is the purchase form for the held tickets; "" when the offer cannot be used.
	BuyHref string
	// Seats are the seats the offer holds (a seated type), shown while it can be used.
	Seats []string
	// DeclineAction is the form that gives the offer up, with its button's label; "" when the
	// offer cannot be used.
	DeclineAction, DeclineLabel string
	Links                       []Link
}

// OrgWaitlistView is the console's page of an event's waiting lists.
type OrgWaitlistView struct {
	Frame       OrgFrame
	OfferHours  string
	OfferAction string
	Error       string
	Lists       []OrgWaitlistType
}

// OrgWaitlistType is one ticket type's waiting list in the console.
type OrgWaitlistType struct {
	Name    string
	Summary string // "3 waiting · 1 offer open · 2 free"
	Entries []OrgWaitlistEntry
}

// OrgWaitlistEntry is one entry of a waiting list in the console.
type OrgWaitlistEntry struct {
	Place    string // "#1" while waiting, "" otherwise
	Email    string
	Quantity string
	Status   string
	Joined   string
	Offers   []OrgWaitlistOffer
	// OfferAction is the by-hand offer form's action; "" when the entry has an open offer.
	OfferAction string
	// MaxQuantity is the most the by-hand form offers (the entry's quantity).
	MaxQuantity int
	// QuantityID is the id of the by-hand form's quantity select.
	QuantityID string
	// SeatsID is the id of the by-hand form's seats field, shown for a seated type ("" otherwise):
	// the seats to hold, or none to let the list pick them.
	SeatsID string
}

// OrgWaitlistOffer is one offer of an entry in the console.
type OrgWaitlistOffer struct {
	Text  string // "2 tickets · open until Sat 7 Mar, 3:00 PM" …
	Order string // the order that claimed it, as a console link ("" if none)
}
