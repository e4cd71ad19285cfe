package views

import "palaro"

// PaymentOption is a payment type with the label of its button, such as 'Pay by QR PH'.
type PaymentOption struct {
	Type  string `json:"type"`
	Label string `json:"label"`
	// Wallet marks an e-wallet's button (class pay-wallet): first on a phone.
	Wallet bool `json:"wallet,omitempty"`
}

// AddOnJSON is an add-on as the islands receive it; Price in centavos.
type AddOnJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Price    int64  `json:"price"`
	Category string `json:"category"`
	Notes    string `json:"notes,omitempty"`
	ImageURL string `json:"imageUrl,omitempty"`
}

// EventDetails is the event part of the ticket details (SPEC.md section 3).
type EventDetails struct {
	Code           string   `json:"code"`
	Name           string   `json:"name"`
	RequiredFields []string `json:"requiredFields"`
	SurveyQuestion string   `json:"surveyQuestion"`
	SurveyAnswers  []string `json:"surveyAnswers"`
}

// TicketDetails are the ticket details of SPEC.md section 3, prices in centavos; Quantity is how
// many tickets are still available.
type TicketDetails struct {
	Code           string       `json:"code"`
	Name           string       `json:"name"`
	Price          int64        `json:"price"`
	FinalPrice     int64        `json:"finalPrice"`
	Discount       float64      `json:"discount"`
	MaxPurchasable int          `json:"maxPurchasable"`
	Quantity       int          `json:"quantity"`
	ShowPromoField bool         `json:"showPromoField"`
	WithSurvey     bool         `json:"withSurvey"`
	Disclaimer     string       `json:"disclaimer"`
	PaymentTypes   []string     `json:"paymentTypes"`
	AddOns         []AddOnJSON  `json:"addOns"`
	Event          EventDetails `json:"event"`
}

// PurchaseProps are the purchase island's props.
type PurchaseProps struct {
	Ticket   TicketDetails      `json:"ticket"`
	Rules    []palaro.FieldRule `json:"rules"`
	Payments []PaymentOption    `json:"payments"`
	Seats    []string           `json:"seats"`
	Source   string             `json:"source"`
	// SourceRule is the rule of the promo or referral code field.
	SourceRule palaro.FieldRule `json:"sourceRule"`
	// Initial is what the server answered to a posted form (nil on a first visit).
	Initial *PurchaseInitial `json:"initial,omitempty"`
	// Offer is the waiting-list offer the form buys; nil for an ordinary purchase.
	Offer *OfferJSON `json:"offer,omitempty"`
	// SeatHold is the best-available hold whose seats the form buys ("" without one).
	SeatHold string `json:"seatHold,omitempty"`
	// Promo is the usable promo code the form's code field holds, priced in the summary; nil
	// when it holds none (or a referral code).
	Promo *PromoJSON `json:"promo,omitempty"`
	// SeniorPWD is the senior citizen and PWD discount the ticket type offers; nil when it offers none.
	SeniorPWD *SeniorPWDJSON `json:"seniorPwd,omitempty"`
	// Date is the slug of the series date the tickets are for (the buy body's date); "" for an
	// event of one date.
	Date string `json:"date,omitempty"`
}

// SeniorPWDJSON is the senior citizen and PWD discount on the purchase form: one discounted
// ticket's price and what it takes off (centavos), and the note that names the law.
type SeniorPWDJSON struct {
	Price    int64  `json:"price"`
	Discount int64  `json:"discount"`
	Note     string `json:"note"`
}

// PromoJSON is a usable promo code as the purchase form shows and prices it (amounts in centavos).
type PromoJSON struct {
	Code        string       `json:"code"`
	Kind        string       `json:"kind"`
	Percent     int          `json:"percent,omitempty"`
	Amount      palaro.Money `json:"amount,omitempty"`
	Description string       `json:"description"`
	// TicketsOnly is true when the code discounts the tickets alone, never the add-ons.
	TicketsOnly bool `json:"ticketsOnly"`
}

// Discount is what the code takes off an order of tickets and add-ons (centavos), as
// palaro.PriceOrder computes it; 0 for no code.
func (p *PromoJSON) Discount(tickets, addOns int64) int64 {
	if p == nil {
		return 0
	}
	covered := tickets
	if !p.TicketsOnly {
		covered += addOns
	}
	return int64(palaro.PromoCode{Kind: p.Kind, Percent: p.Percent, Amount: p.Amount}.Discount(palaro.Money(covered)))
}

// OfferJSON is a waiting-list offer on the purchase form: its link token, and the quantity and
// e-mail address it is for (fixed on the form).
type OfferJSON struct {
	Token    string `json:"token"`
	Quantity int    `json:"quantity"`
	Email    string `json:"email"`
}

// TicketHeader is the head of the buy and seat pages: the event and the ticket type's price.
type TicketHeader struct {
	EventName string
	EventHref string
	ImageURL  string
	When      string
	Place     string
	Ticket    TicketView
}

// BuyView is the view model of /b/{ticketTypeCode}.
type BuyView struct {
	TicketHeader
	// Props are the purchase island's props; unused when the ticket is not available.
	Props PurchaseProps
	// Form is the state of the server-drawn form the island takes over.
	Form PurchaseForm
	// OfferNotice says which waiting-list offer the form buys ("" for none).
	OfferNotice string
	// Waitlist is the join form shown when the ticket is sold out; nil otherwise.
	Waitlist *WaitlistView
}

// SeatRowJSON is one row of the seat map: its letter and one character per seat, seat 1 first:
// 'a' available, 'h' held, 's' sold.
type SeatRowJSON struct {
	Row    string `json:"row"`
	Status string `json:"status"`
}

// SeatsProps are the seat map island's props.
type SeatsProps struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	FinalPrice int64  `json:"finalPrice"`
	// Max is how many seats the buyer may choose: the per-buyer limit, or fewer when fewer are left.
	Max        int           `json:"max"`
	MaxMessage string        `json:"maxMessage"`
	Rows       []SeatRowJSON `json:"rows"`
	// Aisles are the seat numbers an aisle follows in every row; RowGaps the rows an empty row follows.
	Aisles  []int    `json:"aisles"`
	RowGaps []string `json:"rowGaps"`
	// Selected are the seats chosen before (back from the form), still available.
	Selected []string `json:"selected"`
	Source   string   `json:"source"`
	// Date is the slug of the series date whose seats the map shows; "" for an event of one date.
	Date string `json:"date,omitempty"`
	// Section is the section of a stadium's seat map these rows are ("" for a plan without
	// sections): its seats' labels start with it ("112-A12").
	Section string `json:"section,omitempty"`
	// Hold is the buyer's best-available hold, whose Held seats the buyer may choose.
	Hold string   `json:"hold,omitempty"`
	Held []string `json:"held,omitempty"`
}

// ArenaSectionJSON is one section of a stadium's overview: where it stands (ring 1 the lower tier,
// 2 the upper; From and To in degrees clockwise from the stage end) and its seats and free seats.
type ArenaSectionJSON struct {
	Name  string `json:"name"`
	Ring  int    `json:"ring"`
	From  int    `json:"from"`
	To    int    `json:"to"`
	Seats int    `json:"seats"`
	Free  int    `json:"free"`
}

// ArenaZoneJSON is one price zone (ticket type) of a stadium: seated with its sections, or a
// standing area with its places left (Free) and its buy page.
type ArenaZoneJSON struct {
	Code       string             `json:"code"`
	Name       string             `json:"name"`
	Price      int64              `json:"price"`
	Max        int                `json:"max"`
	MaxMessage string             `json:"maxMessage"`
	Free       int                `json:"free"`
	Href       string             `json:"href"`
	Sections   []ArenaSectionJSON `json:"sections,omitempty"`
}

// ArenaProps are the stadium seat map island's props (islands/arena.tsx): the overview of every
// price zone's sections with prices and free seats, the same size at any venue size; a section's
// seats are fetched when the buyer opens it (GET /v1/seats/{code}/sections/{section}). Zone is
// the zone the page is for; Date the slug of the series date everything is on ("" for an event of
// one date); Seats, when set, the section opened from the query.
type ArenaProps struct {
	Zone   string          `json:"zone"`
	Zones  []ArenaZoneJSON `json:"zones"`
	Source string          `json:"source"`
	Date   string          `json:"date,omitempty"`
	Seats  *SeatsProps     `json:"seats,omitempty"`
}

// SeatsView is the view model of /s/{ticketTypeCode}.
type SeatsView struct {
	TicketHeader
	// Message says why seats chosen before were dropped, such as a seat just taken.
	Message string
	// Props are the seat map island's props; unused when the ticket is not available.
	Props SeatsProps
	// Arena, for a sectioned (stadium) plan, is the overview island's props instead of Props.
	Arena *ArenaProps
	// Waitlist is the join form shown when the seats are sold out; nil otherwise.
	Waitlist *WaitlistView
}

// QuickTicket is a ticket type offered in the quick-buy sheet; prices in centavos, Quantity is
// how many are still available.
type QuickTicket struct {
	Code           string          `json:"code"`
	Name           string          `json:"name"`
	FinalPrice     int64           `json:"finalPrice"`
	MaxPurchasable int             `json:"maxPurchasable"`
	Quantity       int             `json:"quantity"`
	Payments       []PaymentOption `json:"payments"`
}

// QuickBuyProps are the quick-buy island's props.
type QuickBuyProps struct {
	EventCode string           `json:"eventCode"`
	Tickets   []QuickTicket    `json:"tickets"`
	Email     palaro.FieldRule `json:"email"`
	// Date is the slug of the series date the sheets buy for (a date's page); "" elsewhere.
	Date string `json:"date,omitempty"`
}

// QuickBuyView is the quick-buy sheet's props and the URL of its script, loaded on first use.
type QuickBuyView struct {
	Props  QuickBuyProps
	Script string
}
