package palaro

import (
	"context"
	"regexp"
	"time"
)

// Manila is the Philippines' time zone (UTC+8, no daylight saving), in which event times are shown.
var Manila = time.FixedZone("Asia/Manila", 8*60*60)

// EventCodePattern is what an event code, ticket type code or tag slug looks like.
var EventCodePattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidCode reports whether s is a well-formed short code (lower-case letters, digits, hyphens).
func ValidCode(s string) bool { return len(s) <= 80 && EventCodePattern.MatchString(s) }

// Event statuses, matching schema.org's eventStatus values.
const (
	EventScheduled   = "scheduled"
	EventCancelled   = "cancelled"
	EventPostponed   = "postponed"
	EventRescheduled = "rescheduled"
)

// Payment types a ticket type can accept: QR Ph, a card, and the e-wallets the buyer approves in
// the wallet's app (PaymentTypes lists them all).
const (
	PaymentQR        = "QR"
	PaymentCard      = "CARD"
	PaymentGCash     = "GCASH"
	PaymentMaya      = "MAYA"
	PaymentGrabPay   = "GRABPAY"
	PaymentShopeePay = "SHOPEEPAY"
)

// Organizer is a company or person that runs events.
type Organizer struct {
	ID    int64
	Name  string
	Email string
	URL   string
	// VATRegistered is true when the organization is VAT-registered: the senior citizen and PWD
	// discount then removes the VAT before its 20%.
	VATRegistered bool
}

// Venue is a place where events happen.
type Venue struct {
	ID        int64
	Name      string
	Address   string
	City      string
	Region    string
	Latitude  float64
	Longitude float64
}

// Link is a labelled external link of an event (stream, Discord, official site, …).
type Link struct {
	Label string
	URL   string
}

// Event is something visitors can attend and buy tickets for.
type Event struct {
	ID             int64
	Code           string
	Name           string
	Summary        string
	Description    string
	StartsAt       time.Time
	EndsAt         time.Time
	ImageURL       string
	Status         string
	Popularity     int
	Venue          Venue
	Organizer      Organizer
	Tags           []Tag
	Links          []Link
	RequiredFields []string
	SurveyQuestion string
	SurveyAnswers  []string
	TicketTypes    []TicketType
	AddOns         []AddOn
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// Sequence is the event's iCalendar SEQUENCE: it grows with each change its ticket holders are
	// told about (EventChangeKind).
	Sequence int
	// WidgetOrigins are the sites that may frame the event's ticket widget (ParseWidgetOrigins).
	WidgetOrigins []string
}

// EventSchedule is what of an event its ticket holders are told about when it changes.
type EventSchedule struct {
	Status   string
	StartsAt time.Time
	EndsAt   time.Time
	Venue    string // name, address and city
}

// ScheduleOf returns an event's schedule.
func ScheduleOf(ev *Event) EventSchedule {
	return EventSchedule{Status: ev.Status, StartsAt: ev.StartsAt, EndsAt: ev.EndsAt, Venue: VenueLine(ev.Venue)}
}

// VenueLine is a venue's name, address and city on one line.
func VenueLine(v Venue) string { return v.Name + ", " + v.Address + ", " + v.City }

// EventChangeKind says how a change of an event from old to new concerns its ticket holders:
// EventCancelled, EventPostponed, EventRescheduled (a new date, time or venue for a published
// event, or a postponed or cancelled event on again), or "" when they need not be told (a draft
// on either side, or nothing of status, date, time or place changed).
func EventChangeKind(old, new EventSchedule) string {
	if old.Status == EventDraft || new.Status == EventDraft || new.Status == "" {
		return ""
	}
	switch new.Status {
	case EventCancelled:
		if old.Status != EventCancelled {
			return EventCancelled
		}
		return ""
	case EventPostponed:
		if old.Status != EventPostponed {
			return EventPostponed
		}
		return ""
	}
	if old.Status == EventPostponed || old.Status == EventCancelled || !old.StartsAt.Equal(new.StartsAt) ||
		!old.EndsAt.Equal(new.EndsAt) || old.Venue != new.Venue {
		return EventRescheduled
	}
	return ""
}

// Tag is a label or game that groups events, with a URL slug.
type Tag struct {
	Slug string
	Name string
}

// TicketType is one kind of ticket sold for an event.
type TicketType struct {
	ID             int64
	EventID        int64
	Code           string
	Name           string
	Description    string
	Price          Money
	Discount       float64
	MaxPurchasable int
	Capacity       int
	Sold           int
	Held           int // held by pending orders
	SalesStart     time.Time
	SalesEnd       time.Time
	ShowPromoField bool
	WithSurvey     bool
	Disclaimer     string
	PaymentTypes   []string
	Seated         bool
	// SeniorPWDDiscount is true for admission the senior citizen and PWD discount applies to.
	SeniorPWDDiscount bool
	// PassKind is PassEvery or PassCount for a season pass of a series, "" for a day ticket.
	PassKind string
	// PassDates is how many dates a PassCount pass is valid for.
	PassDates int
	// PassOf is the day ticket type whose places (and seat map) a pass takes on each date.
	PassOf int64
	// PassOfCode is the code of the PassOf type ("" for a day ticket).
	PassOfCode string
	// TournamentID is, for a tournament's entry-fee type, the tournament whose fees are its
	// orders (never listed nor sold as a ticket); 0 for a ticket.
	TournamentID int64
}

// FinalPrice is the price after the ticket type's discount.
func (t TicketType) FinalPrice() Money { return t.Price.Discounted(t.Discount) }

// Available is how many tickets remain to be sold: capacity minus sold and held ones.
func (t TicketType) Available() int {
	return max(t.Capacity-t.Sold-t.Held, 0)
}

// Sale states of a ticket type, from SaleState.
const (
	SaleOpen       = "open"
	SaleNotStarted = "not_started"
	SaleEnded      = "ended"
	SaleSoldOut    = "sold_out"
)

// SaleState tells whether the ticket type of event ev can be bought at time now and, if not, why:
// sales end at SalesEnd (exclusive) and with a cancelled event; ev may be nil.
func (t TicketType) SaleState(ev *Event, now time.Time) string {
	switch {
	case ev != nil && ev.Status == EventCancelled, !t.SalesEnd.IsZero() && !now.Before(t.SalesEnd):
		return SaleEnded
	case !t.SalesStart.IsZero() && now.Before(t.SalesStart):
		return SaleNotStarted
	case t.Available() == 0:
		return SaleSoldOut
	}
	return SaleOpen
}

// AddOn is an extra (merchandise, food, parking, …) sold with a ticket.
type AddOn struct {
	ID       int64
	EventID  int64
	Name     string
	Price    Money
	Category string
	Notes    string
	ImageURL string
	// Quantity is how many of the add-on an order line holds (0 on an event's list, read as 1).
	Quantity int
	// Hidden is true for an add-on the organizer no longer offers (only the console lists it).
	Hidden bool
}

// Count is how many of the add-on an order line holds: its Quantity, at least 1.
func (a AddOn) Count() int { return max(a.Quantity, 1) }

// Date filter values of the event lists (SPEC.md section 2).
const (
	WhenAll      = ""
	WhenToday    = "today"
	WhenWeek     = "week"
	WhenMonth    = "month"
	WhenAroundMe = "around-me"
)

// ValidWhen reports whether s is a known date filter value.
func ValidWhen(s string) bool {
	switch s {
	case WhenAll, WhenToday, WhenWeek, WhenMonth, WhenAroundMe:
		return true
	}
	return false
}

// GeoPoint is a latitude/longitude pair in degrees.
type GeoPoint struct {
	Latitude  float64
	Longitude float64
}

// EventFilter selects and orders events for a list.
type EventFilter struct {
	When    string
	Tag     string
	Near    *GeoPoint
	Popular bool
	Now     time.Time
	Offset  int
	Limit   int
}

// EventPage is one page of an event list.
type EventPage struct {
	Events  []*Event
	HasMore bool
}

// EventService reads events for visitors.
type EventService interface {
	// FindEventByCode returns a public event with its venue, organizer, tags, links, ticket types
	// and add-ons. Returns ENOTFOUND when no such event exists.
	FindEventByCode(ctx context.Context, code string) (*Event, error)
	// ListEvents returns one page of public events matching the filter (venue and tags filled,
	// ticket types filled for price display). Returns EINVALID for a malformed filter.
	ListEvents(ctx context.Context, filter EventFilter) (EventPage, error)
	// ListEventsBetween returns public events overlapping [from, to), ordered by start.
	ListEventsBetween(ctx context.Context, from, to time.Time) ([]*Event, error)
	// FindTag returns the tag with the given slug. Returns ENOTFOUND when it does not exist.
	FindTag(ctx context.Context, slug string) (*Tag, error)
	// ListTags returns every tag that has at least one public event.
	ListTags(ctx context.Context) ([]Tag, error)
}
