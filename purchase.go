package palaro

import (
	"context"
	"time"
)

// Order statuses.
const (
	OrderPending = "pending" // waiting for payment; holds its tickets until HoldExpiresAt
	OrderPaid    = "paid"    // paid (or free): tickets issued
	OrderExpired = "expired" // hold released without payment
	OrderRefund  = "refund"  // paid after its hold expired and capacity was gone: to be refunded by the operator
)

// Ticket statuses.
const (
	TicketValid     = "valid"
	TicketCheckedIn = "checked_in"
	TicketCancelled = "cancelled"
)

// PurchaseRequest is the purchase payload of SPEC.md section 3, as posted to /v1/ticket/buy.
type PurchaseRequest struct {
	EventCode     string   `json:"eventCode"`
	TicketCode    string   `json:"ticketCode"`
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
	CompanyName   string   `json:"companyName"`
	Designation   string   `json:"designation"`
	PaymentType   string   `json:"paymentType"`
	// DisclaimerAccepted is true when the buyer ticked the ticket type's disclaimer checkbox.
	DisclaimerAccepted bool `json:"disclaimerAccepted"`
}

// Order is one purchase: a quantity of one ticket type plus add-ons, paid once.
type Order struct {
	ID            int64
	PublicID      string // unguessable id used in URLs (/payment/success/{PublicID})
	EventID       int64
	TicketTypeID  int64
	Quantity      int
	Email         string
	Buyer         Buyer
	Seats         []string
	Source        string
	PromoCode     string
	PaymentType   string
	UnitPrice     Money // discounted price of one ticket
	AddOnsTotal   Money
	PromoDiscount Money
	Total         Money
	Status        string
	Provider      string // payment provider name ("sandbox", "paymongo"); "" for free orders
	ProviderRef   string // provider's checkout session id
	CheckoutURL   string
	HoldExpiresAt time.Time
	PaidAt        time.Time
	CreatedAt     time.Time
	Tickets       []Ticket
	AddOns        []AddOn
}

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
	ID          int64
	PublicID    string // unguessable id used in /t/{PublicID}, /q/{PublicID}, /a/{PublicID}
	Code        string // short human-readable code printed under the QR
	OrderID     int64
	EventID     int64
	TicketType  TicketType
	Event       *Event
	HolderName  string
	Email       string
	Seat        string
	Status      string
	AddOns      []AddOn
	CheckedInAt time.Time
	CreatedAt   time.Time
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
