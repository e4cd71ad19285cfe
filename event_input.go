package palaro

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Event statuses an organizer chooses from; EventDraft is never shown to visitors and
// "published" is EventScheduled.
const (
	EventDraft     = "draft"
	EventPublished = "published"
)

// MsgPublishNeedsTicketTypes refuses to publish an event without ticket types (and warns on its
// console page while it has none).
const MsgPublishNeedsTicketTypes = "Add a ticket type before you publish: buyers would find nothing to buy."

// OrganizerStatus is how the console and the organizer API name an event status.
func OrganizerStatus(status string) string {
	if status == EventScheduled {
		return EventPublished
	}
	return status
}

// ParseOrganizerStatus turns a console or API status into the stored one. Returns "" when unknown.
func ParseOrganizerStatus(s string) string {
	switch s {
	case EventPublished, EventScheduled:
		return EventScheduled
	case EventDraft, EventPostponed, EventCancelled, EventRescheduled:
		return s
	}
	return ""
}

// OrganizerStatuses are the statuses an organizer can set, in the console's order.
var OrganizerStatuses = []string{EventDraft, EventPublished, EventPostponed, EventCancelled}

// Field names of the organizer forms and API (the public API's names).
const (
	FieldSummary        = "summary"
	FieldDescription    = "description"
	FieldStartsAt       = "startsAt"
	FieldEndsAt         = "endsAt"
	FieldVenueName      = "venue.name"
	FieldVenueAddress   = "venue.address"
	FieldVenueCity      = "venue.city"
	FieldVenueLatitude  = "venue.latitude"
	FieldVenueLongitude = "venue.longitude"
	FieldTags           = "tags"
	FieldLinks          = "links"
	FieldRequiredFields = "requiredFields"
	FieldSurveyQuestion = "surveyQuestion"
	FieldSurveyAnswers  = "surveyAnswers"
	FieldStatus         = "status"
	FieldPrice          = "price"
	FieldDiscount       = "discount"
	FieldCapacity       = "capacity"
	FieldMaxPurchasable = "maxPurchasable"
	FieldSalesStart     = "salesStart"
	FieldSalesEnd       = "salesEnd"
	FieldPaymentTypes   = "paymentTypes"
	FieldRole           = "role"
	FieldTicketTypes    = "ticketTypes"
)

// VenueInput is the venue of an event as an organizer enters it.
type VenueInput struct {
	Name      string  `json:"name"`
	Address   string  `json:"address"`
	City      string  `json:"city"`
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// LinkInput is a labelled link of an event as an organizer enters it.
type LinkInput struct {
	Label string `json:"label"`
	URL   string `json:"url"`
}

// EventInput is an event as an organizer creates or edits it (the organizer API's event body).
type EventInput struct {
	Code           string      `json:"code"`
	Name           string      `json:"name"`
	Summary        string      `json:"summary"`
	Description    string      `json:"description"`
	StartsAt       time.Time   `json:"startsAt"`
	EndsAt         time.Time   `json:"endsAt"`
	Venue          VenueInput  `json:"venue"`
	Tags           []string    `json:"tags"`
	Links          []LinkInput `json:"links"`
	RequiredFields []string    `json:"requiredFields"`
	SurveyQuestion string      `json:"surveyQuestion"`
	SurveyAnswers  []string    `json:"surveyAnswers"`
	Status         string      `json:"status"`
}

// EventInputOf returns an event's current values as an EventInput, for an edit form or a PATCH.
func EventInputOf(ev *Event) EventInput {
	in := EventInput{Code: ev.Code, Name: ev.Name, Summary: ev.Summary, Description: ev.Description,
		StartsAt: ev.StartsAt.In(Manila), EndsAt: ev.EndsAt.In(Manila),
		Venue: VenueInput{Name: ev.Venue.Name, Address: ev.Venue.Address, City: ev.Venue.City,
			Latitude: ev.Venue.Latitude, Longitude: ev.Venue.Longitude},
		RequiredFields: slices.Clone(ev.RequiredFields), SurveyQuestion: ev.SurveyQuestion,
		SurveyAnswers: slices.Clone(ev.SurveyAnswers), Status: OrganizerStatus(ev.Status),
		Tags: []string{}, Links: []LinkInput{}}
	for _, t := range ev.Tags {
		in.Tags = append(in.Tags, t.Slug)
	}
	for _, l := range ev.Links {
		in.Links = append(in.Links, LinkInput{Label: l.Label, URL: l.URL})
	}
	return in
}

// Normalize trims the input's text, lower-cases its code and tags and drops empty list items.
func (in EventInput) Normalize() EventInput {
	in.Code = strings.ToLower(strings.TrimSpace(in.Code))
	in.Name = strings.TrimSpace(in.Name)
	in.Summary = strings.TrimSpace(in.Summary)
	in.Description = strings.TrimSpace(strings.ReplaceAll(in.Description, "\r\n", "\n"))
	in.Venue.Name = strings.TrimSpace(in.Venue.Name)
	in.Venue.Address = strings.TrimSpace(in.Venue.Address)
	in.Venue.City = strings.TrimSpace(in.Venue.City)
	in.SurveyQuestion = strings.TrimSpace(in.SurveyQuestion)
	in.Status = strings.ToLower(strings.TrimSpace(in.Status))
	if in.Status == "" {
		in.Status = EventDraft
	}
	in.Tags = cleanList(in.Tags, func(s string) string { return Slugify(s) })
	in.SurveyAnswers = cleanList(in.SurveyAnswers, strings.TrimSpace)
	in.RequiredFields = cleanList(in.RequiredFields, strings.TrimSpace)
	var links []LinkInput
	for _, l := range in.Links {
		l.Label, l.URL = strings.TrimSpace(l.Label), strings.TrimSpace(l.URL)
		if l.Label != "" || l.URL != "" {
			links = append(links, l)
		}
	}
	in.Links = links
	return in
}

// cleanList maps every item through clean and drops empty items and duplicates.
func cleanList(items []string, clean func(string) string) []string {
	out := []string{}
	for _, s := range items {
		if s = clean(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// Slugify turns a tag name such as "Mobile Legends" into its slug ("mobile-legends").
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// SuggestEventCode is the short code an event's name suggests: the name without accents,
// slugified (as the console's page script does while the name is typed), at most 80 characters.
func SuggestEventCode(name string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(name) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	code := Slugify(b.String())
	if len(code) > 80 {
		code = strings.TrimRight(code[:80], "-")
	}
	return code
}

// Messages of the organizer's validation rules.
const (
	MsgEventCode      = "Use 3 to 80 lower-case letters, digits and single hyphens, such as mlbb-manila-2026."
	MsgEventCodeTaken = "This code is already used by another event."
	MsgEventEnds      = "The event must end after it starts."
	MsgCapacityBelow  = "Capacity cannot be below %d: %s sold and %s held by pending orders."
)

// Validate checks an event input (already normalized). Returns EINVALID with Fields.
func (in EventInput) Validate() error {
	f := map[string]string{}
	if len(in.Code) < 3 || !ValidCode(in.Code) {
		f[FieldCode] = MsgEventCode
	}
	need := func(field, value, label string, max int) {
		switch {
		case value == "":
			f[field] = label + " is required."
		case len(value) > max:
			f[field] = fmt.Sprintf("%s must be at most %d characters.", label, max)
		}
	}
	need(FieldName, in.Name, "Name", 200)
	if len(in.Summary) > 300 {
		f[FieldSummary] = "Summary must be at most 300 characters."
	}
	if len(in.Description) > 20000 {
		f[FieldDescription] = "Description must be at most 20000 characters."
	}
	switch {
	case in.StartsAt.IsZero():
		f[FieldStartsAt] = "Start is required."
	case in.EndsAt.IsZero():
		f[FieldEndsAt] = "End is required."
	case !in.EndsAt.After(in.StartsAt):
		f[FieldEndsAt] = MsgEventEnds
	}
	need(FieldVenueName, in.Venue.Name, "Venue", 200)
	need(FieldVenueAddress, in.Venue.Address, "Address", 300)
	need(FieldVenueCity, in.Venue.City, "City", 100)
	if math.IsNaN(in.Venue.Latitude) || in.Venue.Latitude < -90 || in.Venue.Latitude > 90 {
		f[FieldVenueLatitude] = "Latitude is between -90 and 90."
	}
	if math.IsNaN(in.Venue.Longitude) || in.Venue.Longitude < -180 || in.Venue.Longitude > 180 {
		f[FieldVenueLongitude] = "Longitude is between -180 and 180."
	}
	if len(in.Tags) > 10 {
		f[FieldTags] = "At most 10 tags."
	}
	for _, t := range in.Tags {
		if !ValidCode(t) {
			f[FieldTags] = "Tags are words or slugs such as valorant or mobile-legends."
		}
	}
	if len(in.Links) > 10 {
		f[FieldLinks] = "At most 10 links."
	}
	for _, l := range in.Links {
		u, err := url.Parse(l.URL)
		if l.Label == "" || len(l.Label) > 100 || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			f[FieldLinks] = "Each link needs a label and a full http(s) address."
		}
	}
	for _, r := range in.RequiredFields {
		if !PersonalField(r) && r != FieldEmail {
			f[FieldRequiredFields] = "Unknown buyer field " + r + "."
		}
	}
	if len(in.SurveyQuestion) > 300 {
		f[FieldSurveyQuestion] = "The survey question must be at most 300 characters."
	}
	if in.SurveyQuestion != "" && len(in.SurveyAnswers) < 2 {
		f[FieldSurveyAnswers] = "Give at least two answers to the survey question."
	}
	if len(in.SurveyAnswers) > 20 {
		f[FieldSurveyAnswers] = "At most 20 answers."
	}
	if ParseOrganizerStatus(in.Status) == "" {
		f[FieldStatus] = "Status is one of draft, published, postponed or cancelled."
	}
	checkTexts(f, TextLine, map[string]string{FieldName: in.Name, FieldSummary: in.Summary, FieldVenueName: in.Venue.Name,
		FieldVenueAddress: in.Venue.Address, FieldVenueCity: in.Venue.City, FieldSurveyQuestion: in.SurveyQuestion})
	checkTexts(f, TextBlock, map[string]string{FieldDescription: in.Description})
	for _, a := range in.SurveyAnswers {
		if len(a) > 200 || !ValidText(TextLine, a) {
			f[FieldSurveyAnswers] = "Each answer is one line of at most 200 characters."
		}
	}
	for _, l := range in.Links {
		if !ValidText(TextLine, l.Label) || !ValidText(TextLine, l.URL) {
			f[FieldLinks] = "Each link needs a label and a full http(s) address."
		}
	}
	return fieldsError(f)
}

// fieldsError returns EINVALID with the fields' messages, or nil when there are none.
func fieldsError(f map[string]string) error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: EINVALID, Message: "Please correct the highlighted fields.", Fields: f}
}

// TicketTypeInput is a ticket type as an organizer creates or edits it (the organizer API's body).
type TicketTypeInput struct {
	Code           string    `json:"code"`
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Price          Money     `json:"price"`
	Discount       float64   `json:"discount"`
	Capacity       int       `json:"capacity"`
	MaxPurchasable int       `json:"maxPurchasable"`
	SalesStart     time.Time `json:"salesStart"`
	SalesEnd       time.Time `json:"salesEnd"`
	PaymentTypes   []string  `json:"paymentTypes"`
	Disclaimer     string    `json:"disclaimer"`
	Seated         bool      `json:"seated"`
	WithSurvey     bool      `json:"withSurvey"`
	ShowPromoField bool      `json:"showPromoField"`
	// SeniorPWDDiscount is true for admission the senior citizen and PWD discount applies to; left
	// out (nil), a new ticket type has it (Normalize), an edited one keeps its own.
	SeniorPWDDiscount *bool `json:"seniorPwdDiscount"`
	// PassKind makes the type a season pass of a series: PassEvery or PassCount; "" for a day ticket.
	PassKind string `json:"passKind"`
	// PassDates is how many dates a PassCount pass is valid for (0 otherwise).
	PassDates int `json:"passDates"`
	// PassOf is the code of the day ticket type whose places (and seats) a pass takes on each date.
	PassOf string `json:"passOf"`
}

// TicketTypeInputOf returns a ticket type's current values, for an edit form or a PATCH.
func TicketTypeInputOf(tt TicketType) TicketTypeInput {
	return TicketTypeInput{Code: tt.Code, Name: tt.Name, Description: tt.Description, Price: tt.Price,
		Discount: tt.Discount, Capacity: tt.Capacity, MaxPurchasable: tt.MaxPurchasable, SalesStart: tt.SalesStart,
		SalesEnd: tt.SalesEnd, PaymentTypes: slices.Clone(tt.PaymentTypes), Disclaimer: tt.Disclaimer,
		Seated: tt.Seated, WithSurvey: tt.WithSurvey, ShowPromoField: tt.ShowPromoField,
		SeniorPWDDiscount: &tt.SeniorPWDDiscount, PassKind: tt.PassKind, PassDates: tt.PassDates, PassOf: tt.PassOfCode}
}

// AppliesSeniorPWD reports whether the senior citizen and PWD discount applies to the ticket
// type: as set, on when left out.
func (in TicketTypeInput) AppliesSeniorPWD() bool {
	return in.SeniorPWDDiscount == nil || *in.SeniorPWDDiscount
}

// Normalize trims the input and fills defaults (10 per buyer, both payment types).
func (in TicketTypeInput) Normalize() TicketTypeInput {
	in.Code = strings.ToLower(strings.TrimSpace(in.Code))
	in.Name = strings.TrimSpace(in.Name)
	in.Description = strings.TrimSpace(in.Description)
	in.Disclaimer = strings.TrimSpace(in.Disclaimer)
	in.PassKind = strings.ToLower(strings.TrimSpace(in.PassKind))
	in.PassOf = strings.ToLower(strings.TrimSpace(in.PassOf))
	if in.PassKind != PassCount {
		in.PassDates = 0
	}
	if in.MaxPurchasable == 0 {
		in.MaxPurchasable = 10
	}
	in.PaymentTypes = cleanList(in.PaymentTypes, func(s string) string { return strings.ToUpper(strings.TrimSpace(s)) })
	if len(in.PaymentTypes) == 0 {
		in.PaymentTypes = []string{PaymentQR, PaymentCard}
	}
	return in
}

// MaxSeatedCapacity bounds a seated ticket type's seat map.
const MaxSeatedCapacity = 5000

// Validate checks a ticket type input (already normalized). Returns EINVALID with Fields.
func (in TicketTypeInput) Validate() error {
	f := map[string]string{}
	if len(in.Code) < 3 || !ValidCode(in.Code) {
		f[FieldCode] = MsgEventCode
	}
	switch {
	case in.Name == "":
		f[FieldName] = "Name is required."
	case len(in.Name) > 200:
		f[FieldName] = "Name must be at most 200 characters."
	}
	if len(in.Description) > 2000 {
		f[FieldDescription] = "Description must be at most 2000 characters."
	}
	if in.Price < 0 || in.Price > 100_000_000 {
		f[FieldPrice] = "Price is between ₱0.00 and ₱1,000,000.00."
	}
	if in.Discount < 0 || in.Discount >= 1 || math.IsNaN(in.Discount) {
		f[FieldDiscount] = "Discount is a fraction from 0 to below 1 (0.15 is 15% off)."
	}
	if in.Capacity < 0 || in.Capacity > 1_000_000 {
		f[FieldCapacity] = "Capacity is between 0 and 1,000,000."
	} else if in.Seated && in.Capacity > MaxSeatedCapacity {
		f[FieldCapacity] = fmt.Sprintf("A seated ticket type has at most %d seats.", MaxSeatedCapacity)
	}
	if in.MaxPurchasable < 1 || in.MaxPurchasable > 100 {
		f[FieldMaxPurchasable] = "Per-buyer maximum is between 1 and 100."
	}
	if !in.SalesStart.IsZero() && !in.SalesEnd.IsZero() && !in.SalesEnd.After(in.SalesStart) {
		f[FieldSalesEnd] = "Sales must end after they start."
	}
	for _, p := range in.PaymentTypes {
		if !ValidPaymentType(p) {
			f[FieldPaymentTypes] = "Payment types are " + strings.Join(PaymentTypes, ", ") + "."
		}
	}
	if len(in.Disclaimer) > 1000 {
		f["disclaimer"] = "The disclaimer must be at most 1000 characters."
	}
	checkTexts(f, TextLine, map[string]string{FieldName: in.Name})
	checkTexts(f, TextBlock, map[string]string{FieldDescription: in.Description, "disclaimer": in.Disclaimer})
	return fieldsError(f)
}

// CheckCapacity refuses a capacity below what is sold plus held, with a message that says why.
func CheckCapacity(capacity, sold, held int) error {
	if capacity < sold+held {
		msg := fmt.Sprintf(MsgCapacityBelow, sold+held, Plural(sold, "ticket is", "tickets are"), Plural(held, "is", "are"))
		return &Error{Code: EINVALID, Message: msg, Fields: map[string]string{FieldCapacity: msg}}
	}
	return nil
}
