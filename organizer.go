package palaro

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"
)

// Organization statuses: an organizer registered through /register/organizer waits for the operator.
const (
	OrganizationPending  = "pending"
	OrganizationApproved = "approved"
)

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
	// DateID keeps the orders with places on that date of a series (0: every order).
	DateID int64
}

// Attendee is one ticket of an event with its order, for the attendees export.
type Attendee struct {
	Ticket
	OrderID   string
	Buyer     Buyer
	PaidAt    time.Time
	TypeName  string
	UnitPrice Money
	// PassKind is the ticket's type's pass kind ("" for a day ticket or a single-date event's).
	PassKind string
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
	InvoiceService
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
	// GateEvent is FindEvent for the gate's every scan and sync: from memory until the event data
	// changes, so its ticket types' sold and held counts may be older than the last order, and its
	// tags and links up to a second older. Returns ENOTFOUND for an unknown code.
	GateEvent(ctx context.Context, code string) (*Event, error)
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
	// EachAttendee calls fn with every issued ticket of an event, by order, as it reads them
	// (the attendees export streams them); fn's error stops it.
	// A dateID other than 0 keeps the tickets valid on that date of a series.
	EachAttendee(ctx context.Context, eventID, dateID int64, fn func(*Attendee) error) error
	// EachOrder calls fn with every order of an event, newest first, with its ticket type's name
	// and its tickets' codes, statuses and discounts, as it reads them (the orders export streams
	// them); fn's error stops it.
	// A dateID other than 0 keeps the orders with places on that date of a series.
	EachOrder(ctx context.Context, eventID, dateID int64, fn func(*Order) error) error
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
	// SaveWidgetOrigins replaces the sites that may frame the event's ticket widget (already
	// checked by ParseWidgetOrigins), audit-logged.
	SaveWidgetOrigins(ctx context.Context, eventID int64, actor string, origins []string, now time.Time) error
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
	// SeniorPWDTickets counts the issued tickets with the senior citizen or PWD discount, and
	// SeniorPWDDiscount is what the discount took off them.
	SeniorPWDTickets  int
	SeniorPWDDiscount Money
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
