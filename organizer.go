package palaro

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Organization member roles (PRODUCT.md "Roles").
const (
	MemberOwner   = "owner"   // everything, the team included
	MemberManager = "manager" // everything but the team
	MemberGate    = "gate"    // check-in and box office
	MemberBooth   = "booth"   // activities and prize claims
)

// Organization statuses: an organizer registered through /register/organizer waits for the operator.
const (
	OrganizationPending  = "pending"
	OrganizationApproved = "approved"
)

// Actions a member or an API token may be allowed to take in an organization.
const (
	ActionViewEvents   = "view_events"   // see the organization's event list
	ActionManageEvents = "manage_events" // create and edit events, ticket types, add-ons and promo codes
	ActionOrders       = "orders"        // search orders, exports, refunds, the sales dashboard
	ActionTeam         = "team"          // invite and remove members
	ActionTokens       = "tokens"        // create and revoke API tokens
	ActionCheckIn      = "check_in"      // the gate
	ActionActivities   = "activities"    // booth activities and prizes
)

// roleActions lists what each role may do.
var roleActions = map[string][]string{
	MemberOwner:   {ActionViewEvents, ActionManageEvents, ActionOrders, ActionTeam, ActionTokens, ActionCheckIn, ActionActivities},
	MemberManager: {ActionViewEvents, ActionManageEvents, ActionOrders, ActionTokens, ActionCheckIn, ActionActivities},
	MemberGate:    {ActionViewEvents, ActionCheckIn},
	MemberBooth:   {ActionViewEvents, ActionActivities},
}

// ValidMemberRole reports whether role is a member role.
func ValidMemberRole(role string) bool { _, ok := roleActions[role]; return ok }

// ValidTokenRole reports whether an API token may carry role (manager or gate).
func ValidTokenRole(role string) bool { return role == MemberManager || role == MemberGate }

// RoleAllows reports whether a member with role may take action.
func RoleAllows(role, action string) bool { return slices.Contains(roleActions[role], action) }

// TokenRole is the role an API token acts with: its own, narrowed to what its creator's current
// member role allows (a manager token of a creator now at the gate acts as gate), or "" when
// no role fits within both (the token then works for nothing).
func TokenRole(tokenRole, creatorRole string) string {
	within := func(role, limit string) bool {
		for _, a := range roleActions[role] {
			if !RoleAllows(limit, a) {
				return false
			}
		}
		return roleActions[role] != nil
	}
	for _, r := range []string{tokenRole, creatorRole, MemberGate, MemberBooth} {
		if within(r, tokenRole) && within(r, creatorRole) {
			return r
		}
	}
	return ""
}

// lookAlikeFold maps characters often swapped for one another in names to one letter.
var lookAlikeFold = strings.NewReplacer("0", "o", "1", "l", "i", "l", "|", "l", "!", "l", "3", "e", "4", "a", "@", "a", "5", "s", "$", "s", "7", "t", "8", "b", "rn", "m", "vv", "w")

// NameKey is the form of an organization's name that look-alikes share: lower case, letters and
// digits only, common swaps (0 for o, 1 or I for l, rn for m) folded.
func NameKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '|' || r == '!' || r == '@' || r == '$' {
			b.WriteRune(r)
		}
	}
	return lookAlikeFold.Replace(b.String())
}

// LookAlikes returns, for an organization, the other organizations (and operator names) whose
// names share its NameKey or contain the operator's name, so that the operator sees them before approving.
func LookAlikes(o Organization, all []Organization) []string {
	key := NameKey(o.Name)
	var out []string
	for _, other := range all {
		if other.ID != o.ID && NameKey(other.Name) == key {
			out = append(out, fmt.Sprintf("#%d %s", other.ID, other.Name))
		}
	}
	if strings.Contains(key, NameKey("Palaro")) { // the operator writes news as "Palaro team"
		out = append(out, "Palaro (the operator)")
	}
	return out
}

// Organization is a company or person running events on Palaro, with its approval state.
type Organization struct {
	ID         int64
	Name       string
	Email      string
	Status     string
	OwnerEmail string
	CreatedAt  time.Time
	ApprovedAt time.Time
}

// Membership is one organization a person (or a token) acts for, with the role held there.
type Membership struct {
	OrganizationID   int64
	OrganizationName string
	Role             string
	// Approved is false while the organization waits for the operator's approval.
	Approved bool
}

// Caller is who calls the organizer console or API: a signed-in member or an API token.
type Caller struct {
	UserID  int64
	Email   string
	TokenID int64
	// Memberships are the organizations the caller acts for; a token has exactly one.
	Memberships []Membership
}

// Actor names the caller in the audit log.
func (c *Caller) Actor() string {
	if c.TokenID != 0 {
		return fmt.Sprintf("API token #%d", c.TokenID)
	}
	return c.Email
}

// Role returns the caller's role in an approved organization, or "" when not a member of it.
func (c *Caller) Role(orgID int64) string {
	for _, m := range c.Memberships {
		if m.OrganizationID == orgID && m.Approved {
			return m.Role
		}
	}
	return ""
}

// Can reports whether the caller may take action in the organization.
func (c *Caller) Can(orgID int64, action string) bool { return RoleAllows(c.Role(orgID), action) }

// Approved returns the caller's memberships of approved organizations.
func (c *Caller) Approved() []Membership {
	var out []Membership
	for _, m := range c.Memberships {
		if m.Approved {
			out = append(out, m)
		}
	}
	return out
}

// OrganizationIDs returns the approved organizations where the caller may take action.
func (c *Caller) OrganizationIDs(action string) []int64 {
	var ids []int64
	for _, m := range c.Approved() {
		if RoleAllows(m.Role, action) {
			ids = append(ids, m.OrganizationID)
		}
	}
	return ids
}

// CheckEventAccess returns nil when the caller may take action on an event of organization orgID:
// ENOTFOUND when the event is not one of the caller's organizations' (nothing leaks about it),
// EFORBIDDEN when the caller's role there does not allow the action.
func (c *Caller) CheckEventAccess(orgID int64, action string) error {
	role := c.Role(orgID)
	switch {
	case role == "":
		return Errorf(ENOTFOUND, "Event not found.")
	case !RoleAllows(role, action):
		return Errorf(EFORBIDDEN, "Your role in this organization does not allow this.")
	}
	return nil
}

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
}

// TicketTypeInputOf returns a ticket type's current values, for an edit form or a PATCH.
func TicketTypeInputOf(tt TicketType) TicketTypeInput {
	return TicketTypeInput{Code: tt.Code, Name: tt.Name, Description: tt.Description, Price: tt.Price,
		Discount: tt.Discount, Capacity: tt.Capacity, MaxPurchasable: tt.MaxPurchasable, SalesStart: tt.SalesStart,
		SalesEnd: tt.SalesEnd, PaymentTypes: slices.Clone(tt.PaymentTypes), Disclaimer: tt.Disclaimer,
		Seated: tt.Seated, WithSurvey: tt.WithSurvey, ShowPromoField: tt.ShowPromoField}
}

// Normalize trims the input and fills defaults (10 per buyer, both payment types).
func (in TicketTypeInput) Normalize() TicketTypeInput {
	in.Code = strings.ToLower(strings.TrimSpace(in.Code))
	in.Name = strings.TrimSpace(in.Name)
	in.Description = strings.TrimSpace(in.Description)
	in.Disclaimer = strings.TrimSpace(in.Disclaimer)
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
		if p != PaymentQR && p != PaymentCard {
			f[FieldPaymentTypes] = "Payment types are QR and CARD."
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

// OrganizerEvent is a line of the console's event list: an event with its sales.
type OrganizerEvent struct {
	Event
	OrganizationName string
	Sold             int
	Capacity         int
	Revenue          Money
}

// Phase says where an event is for the console's list: draft, published, past or cancelled.
func (e *OrganizerEvent) Phase(now time.Time) string {
	switch {
	case e.Status == EventDraft:
		return EventDraft
	case e.Status == EventCancelled:
		return EventCancelled
	case !e.EndsAt.After(now):
		return "past"
	}
	return OrganizerStatus(e.Status)
}

// OrderSearch finds an event's orders by e-mail, order id or ticket code (q), newest first.
type OrderSearch struct {
	EventID int64
	Query   string
	Status  string
	Limit   int
}

// Attendee is one ticket of an event with its order, for the attendees export.
type Attendee struct {
	Ticket
	OrderID   string
	Buyer     Buyer
	PaidAt    time.Time
	TypeName  string
	UnitPrice Money
}

// APIToken is an organization's API token as the console lists it (never the secret itself).
type APIToken struct {
	ID               int64
	OrganizationID   int64
	OrganizationName string
	Role             string
	Name             string
	CreatedBy        string
	CreatedAt        time.Time
	LastUsedAt       time.Time
	RevokedAt        time.Time
}

// AuditEntry is one line of an event's audit log.
type AuditEntry struct {
	Actor     string
	Action    string
	Detail    string
	CreatedAt time.Time
}

// AuditDetail renders a change for the audit log as compact JSON.
func AuditDetail(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// OrganizerService is what the organizer console and API need: organizations and their members,
// events, ticket types, orders, exports, API tokens and the audit log.
type OrganizerService interface {
	TeamService
	CoverService
	ExtrasService
	SeatingService
	// Memberships returns the organizations a user belongs to, with roles.
	Memberships(ctx context.Context, userID int64) ([]Membership, error)
	// ListOrganizations returns organizations with their owners, pending ones only when pendingOnly.
	ListOrganizations(ctx context.Context, pendingOnly bool) ([]Organization, error)
	// ApproveOrganization approves the pending organizations owned by the account with that e-mail
	// and queues the e-mail telling the owner. Returns ENOTFOUND when the account owns none.
	ApproveOrganization(ctx context.Context, ownerEmail string) ([]Organization, error)
	// ListEvents returns the events of the organizations, newest start first, with their sales.
	ListEvents(ctx context.Context, orgIDs []int64) ([]*OrganizerEvent, error)
	// FindEvent returns an event of any status with its venue, tags, links, ticket types and
	// add-ons. Returns ENOTFOUND for an unknown code.
	FindEvent(ctx context.Context, code string) (*Event, error)
	// CreateEvent adds an event to an organization. Returns EINVALID (with Fields), including a
	// code already taken.
	CreateEvent(ctx context.Context, orgID int64, actor string, in EventInput) (*Event, error)
	// UpdateEvent replaces an event's details. Returns EINVALID (with Fields), ENOTFOUND.
	UpdateEvent(ctx context.Context, eventID int64, actor string, in EventInput) (*Event, error)
	// CreateTicketType adds a ticket type to an event. Returns EINVALID (with Fields).
	CreateTicketType(ctx context.Context, eventID int64, actor string, in TicketTypeInput) (*TicketType, error)
	// UpdateTicketType changes a ticket type of the event; its capacity cannot go below sold plus
	// held. Returns EINVALID (with Fields), ENOTFOUND.
	UpdateTicketType(ctx context.Context, eventID int64, code, actor string, in TicketTypeInput) (*TicketType, error)
	// SearchOrders returns an event's orders matching the search, with their tickets.
	SearchOrders(ctx context.Context, s OrderSearch) ([]*Order, error)
	// ListAttendees returns every issued ticket of an event, by order.
	ListAttendees(ctx context.Context, eventID int64) ([]Attendee, error)
	// CreateToken creates an API token for an organization and returns its secret, shown once.
	// creatorID is the member who creates it (0: the operator): the token works only while they are
	// a member, with no more than their role allows. Returns EINVALID for a bad role.
	CreateToken(ctx context.Context, orgID int64, role, name, createdBy string, creatorID int64) (string, *APIToken, error)
	// ListTokens returns the organizations' tokens, newest first.
	ListTokens(ctx context.Context, orgIDs []int64) ([]APIToken, error)
	// RevokeToken revokes a token of one of the organizations. Returns ENOTFOUND.
	RevokeToken(ctx context.Context, orgIDs []int64, tokenID int64) error
	// AuthenticateToken returns the caller a live token stands for. Returns EUNAUTHORIZED.
	AuthenticateToken(ctx context.Context, secret string) (*Caller, error)
	// ListAudit returns an event's audit log, newest first.
	ListAudit(ctx context.Context, eventID int64, limit int) ([]AuditEntry, error)
	// FindOrder returns an order of the event with its tickets. Returns ENOTFOUND.
	FindOrder(ctx context.Context, eventID int64, publicID string) (*Order, error)
	// ListRefundQueue returns the event's orders paid after their hold expired, not yet refunded.
	ListRefundQueue(ctx context.Context, eventID int64) ([]*Order, error)
	// MarkRefunded moves a refund-queue or paid order to OrderRefunded: a paid order's tickets are
	// cancelled (the gate refuses them), its seats and capacity come back; audit-logged. Returns
	// ENOTFOUND for an unknown order, EINVALID for one that is neither paid nor to be refunded.
	MarkRefunded(ctx context.Context, eventID int64, publicID, actor string) error
	// ResendTickets queues the order's tickets e-mail again. Returns ENOTFOUND, EINVALID when unpaid.
	ResendTickets(ctx context.Context, eventID int64, publicID, actor string) error
	// ChangeTicketEmail moves a ticket of the event to another address. Returns EINVALID, ENOTFOUND.
	ChangeTicketEmail(ctx context.Context, eventID int64, code, newEmail, actor string) error
	// CancelTicket cancels a valid ticket; its place and seat go back on sale. Returns EINVALID, ENOTFOUND.
	CancelTicket(ctx context.Context, eventID int64, code, actor string) error
	// SalesReport sums an event's paid orders per day (Manila), ticket type and promo code or source.
	SalesReport(ctx context.Context, eventID int64) (*SalesReport, error)
}

// MessageOrganizerApproved is the kind of the e-mail telling an owner their organization is approved.
const MessageOrganizerApproved = "organizer_approved"

// MessageTeamInvitation is the kind of the e-mail inviting someone to an organization's team.
const MessageTeamInvitation = "team_invitation"

// OrganizerComposer writes the organizer side's e-mails; the store calls it inside the
// transaction that causes them.
type OrganizerComposer interface {
	// OrganizerApproved tells an owner that their organization may now run events on Palaro.
	OrganizerApproved(org Organization) Message
	// OrderConfirmation lists an order's tickets, for an organizer sending them again.
	OrderConfirmation(o *Order) Message
	// TeamInvitation invites an address to join an organization, with the link carrying token.
	TeamInvitation(org, role, invitedBy, email, token string) Message
	// TransferDone tells the old or the new holder that ticket t was reissued to t.Email.
	TransferDone(t *Ticket, to, fromEmail string) Message
	// TicketCancelled tells an address (the holder's, or the buyer's) that the organizer cancelled ticket t.
	TicketCancelled(t *Ticket, to string) Message
	// OrderRefunded tells the buyer that the organizer marked order o refunded and cancelled its tickets.
	OrderRefunded(o *Order) Message
}

// Message kinds of the organizer console's order actions.
const (
	MessageTicketCancelled = "ticket_cancelled" // to the holder (and the buyer) of a ticket the organizer cancelled
	MessageOrderRefunded   = "order_refunded"   // to the buyer of an order the organizer marked refunded
)

// SalesDay is one day of an event's sales, in Manila.
type SalesDay struct {
	Date    time.Time // midnight in Manila
	Tickets int
	Revenue Money
}

// SalesLine is the sales of one ticket type, promo code or source.
type SalesLine struct {
	Label   string
	Tickets int
	Revenue Money
}

// SalesReport is an event's sales dashboard: paid orders per day, per ticket type and per promo
// code or source, and check-ins against tickets issued.
type SalesReport struct {
	Days      []SalesDay
	ByType    []SalesLine
	BySource  []SalesLine
	Issued    int // tickets issued and not cancelled
	CheckedIn int
	Revenue   Money
	// AddOnRevenue is what paid orders brought in for add-ons; ByType counts only tickets.
	AddOnRevenue Money
}

// InvitationTTL is how long a team invitation's link works.
const InvitationTTL = 7 * 24 * time.Hour

// InvitationPath is the link of a team invitation e-mail.
func InvitationPath(token string) string { return "/invitations/" + token }

// TeamMember is a person of an organization with their role.
type TeamMember struct {
	OrganizationID   int64
	OrganizationName string
	UserID           int64
	Email            string
	Name             string
	Role             string
}

// Invitation is a pending invitation to join an organization.
type Invitation struct {
	ID               int64
	OrganizationID   int64
	OrganizationName string
	Email            string
	Role             string
	InvitedBy        string
	ExpiresAt        time.Time
}

// TeamService manages an organization's members and invitations.
type TeamService interface {
	// ListTeam returns the organizations' members and pending invitations.
	ListTeam(ctx context.Context, orgIDs []int64) ([]TeamMember, []Invitation, error)
	// Invite queues an e-mail inviting an address to join the organization with a role (manager,
	// gate or booth). Returns EINVALID (with Fields) for a bad address or role, ECONFLICT when the
	// address already belongs to the organization.
	Invite(ctx context.Context, orgID int64, email, role, invitedBy string) error
	// FindInvitation returns the live invitation of a link's token (organization, role, address).
	// Returns ENOTFOUND for an unknown, used or expired token.
	FindInvitation(ctx context.Context, token string) (*Invitation, error)
	// AcceptInvitation adds the signed-in account to the invitation's organization. Returns
	// ENOTFOUND for an unknown, used or expired token, EFORBIDDEN when the account's e-mail is not
	// the invited one.
	AcceptInvitation(ctx context.Context, token string, userID int64) (*Membership, error)
	// RemoveMember removes a person from an organization. Returns ENOTFOUND, EINVALID for the last owner.
	RemoveMember(ctx context.Context, orgID, userID int64, actor string) error
}

// Cover image sizes: 16:9 pictures as wide as the event page (and its share image) and the cards.
var CoverWidths = []int{800, 400}

// CoverPath is the URL of a cover image at a width; name is the cover's random name (unguessable,
// so a draft event's cover cannot be found by counting).
func CoverPath(name string, width int) string {
	return fmt.Sprintf("/event-images/%s-%d.jpg", name, width)
}

// CoverService stores and serves events' cover images.
type CoverService interface {
	// SetEventCover stores a cover's JPEG images (by width, from CoverWidths) as a new version and
	// points the event at it. Returns ENOTFOUND.
	SetEventCover(ctx context.Context, eventID int64, actor string, images map[int][]byte) (string, error)
	// FindEventImage returns the JPEG bytes of the cover of that random name at a width. Returns ENOTFOUND.
	FindEventImage(ctx context.Context, name string, width int) ([]byte, error)
}

// promoCodePattern is what a promo code looks like: 3 to 40 letters, digits, hyphens or underscores.
var promoCodePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{3,40}$`)

// ValidatePromoCode checks a promo code an organizer creates. Returns EINVALID with Fields.
func ValidatePromoCode(p PromoCode) error {
	f := map[string]string{}
	if !promoCodePattern.MatchString(p.Code) {
		f[FieldCode] = "Use 3 to 40 letters, digits, hyphens or underscores, such as SUMMER25."
	}
	switch p.Kind {
	case PromoPercent:
		if p.Percent < 1 || p.Percent > 100 {
			f["percent"] = "The percentage is between 1 and 100."
		}
	case PromoFixed:
		if p.Amount <= 0 || p.Amount > 100_000_000 {
			f["amount"] = "The amount is above ₱0.00 and at most ₱1,000,000.00."
		}
	default:
		f["kind"] = "Choose percent or amount."
	}
	if p.UsageLimit < 0 {
		f["usageLimit"] = "The usage limit is 0 (unlimited) or more."
	}
	if !p.ValidFrom.IsZero() && !p.ValidUntil.IsZero() && !p.ValidUntil.After(p.ValidFrom) {
		f["validUntil"] = "The code must stop being valid after it starts."
	}
	return fieldsError(f)
}

// ValidateAddOn checks an add-on an organizer creates or edits. Returns EINVALID with Fields.
func ValidateAddOn(a AddOn) error {
	f := map[string]string{}
	if a.Name == "" || len(a.Name) > 200 {
		f[FieldName] = "Name is required, at most 200 characters."
	}
	if a.Price < 0 || a.Price > 100_000_000 {
		f[FieldPrice] = "Price is between ₱0.00 and ₱1,000,000.00."
	}
	if len(a.Category) > 100 {
		f["category"] = "Category must be at most 100 characters."
	}
	if len(a.Notes) > 1000 {
		f["notes"] = "Notes must be at most 1000 characters."
	}
	return fieldsError(f)
}

// ExtrasService manages an event's add-ons and promo codes.
type ExtrasService interface {
	// SaveAddOn creates (ID 0) or changes an add-on of the event. Returns EINVALID (with Fields), ENOTFOUND.
	SaveAddOn(ctx context.Context, eventID int64, actor string, a AddOn) (*AddOn, error)
	// ListAddOns returns every add-on of the event, hidden ones included.
	ListAddOns(ctx context.Context, eventID int64) ([]AddOn, error)
	// DeleteAddOn deletes an add-on nobody ordered. Returns ENOTFOUND, ECONFLICT for an ordered one.
	DeleteAddOn(ctx context.Context, eventID, id int64, actor string) error
	// ListPromoCodes returns the event's promo codes, newest first.
	ListPromoCodes(ctx context.Context, eventID int64) ([]PromoCode, error)
	// CreatePromoCode adds a promo code to the event. Returns EINVALID (with Fields), ECONFLICT for a taken code.
	CreatePromoCode(ctx context.Context, eventID int64, actor string, p PromoCode) (*PromoCode, error)
	// UpdatePromoCode changes the discount, limit, dates and ticket types of the promo code p.ID
	// (its code stays). Returns EINVALID (with Fields), ENOTFOUND (also for a retired code).
	UpdatePromoCode(ctx context.Context, eventID int64, actor string, p PromoCode) (*PromoCode, error)
	// SetPromoCodePaused pauses or resumes a promo code. Returns ENOTFOUND (also for a retired code).
	SetPromoCodePaused(ctx context.Context, eventID, id int64, paused bool, actor string) error
	// DeletePromoCode deletes a promo code no order used; one that orders used is retired instead
	// (kept for their history, never usable again), and retired is true. Returns ENOTFOUND.
	DeletePromoCode(ctx context.Context, eventID, id int64, actor string) (retired bool, err error)
}

// SeatingService lets organizers lay out the seats of a seated ticket type and take seats off sale.
type SeatingService interface {
	// BlockedSeats returns the labels of the ticket type's blocked seats.
	BlockedSeats(ctx context.Context, ticketTypeID int64) ([]string, error)
	// SetBlockedSeats makes labels the ticket type's blocked seats: newly blocked seats must be
	// free and leave the capacity, unblocked ones come back on sale. Returns EINVALID for a seat
	// that is not free or not of the ticket type, ENOTFOUND.
	SetBlockedSeats(ctx context.Context, eventID int64, ticketTypeCode, actor string, labels []string) error
	// SetSeatPlan replaces the ticket type's layout; its capacity becomes the plan's sellable
	// seats. Returns EINVALID for an invalid plan, a sold or held seat left off the map or
	// blocked, or a capacity below sold plus held; ENOTFOUND.
	SetSeatPlan(ctx context.Context, eventID int64, ticketTypeCode, actor string, p SeatPlan) error
}
