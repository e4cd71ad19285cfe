package palaro

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Webhook event types: what an organization's endpoints may ask to receive.
const (
	WebhookOrderPaid         = "order.paid"          // an order completed (paid, or free)
	WebhookOrderRefunded     = "order.refunded"      // an order was refunded
	WebhookOrderCancelled    = "order.cancelled"     // the organizer cancelled an order's last ticket that admitted anyone
	WebhookTicketTransferred = "ticket.transferred"  // a ticket moved to another e-mail address
	WebhookTicketCheckedIn   = "ticket.checked_in"   // a ticket was checked in at the gate
	WebhookWaitlistOffered   = "waitlist.offered"    // someone on a waiting list was offered tickets
	WebhookTeamRegistered    = "team.registered"     // a team registered for a tournament (a place or the waiting list)
	WebhookTeamApproved      = "team.approved"       // the organizer gave a team a place
	WebhookTeamRefused       = "team.refused"        // the organizer refused a team
	WebhookTeamDisqualified  = "team.disqualified"   // the organizer disqualified a team
	WebhookTeamCheckedIn     = "team.checked_in"     // a team checked in (or stood by, when waiting)
	WebhookTeamDropped       = "team.dropped"        // a team with a place missed check-in and dropped out
	WebhookTeamMovedUp       = "team.moved_up"       // a waiting team moved up into a place
	WebhookPlayerJoined      = "team.player_joined"  // a player joined a team from their invitation
	WebhookPlayerRemoved     = "team.player_removed" // the organizer removed a player from a team
	// WebhookTest is the event the console's "Send a test event" sends; endpoints do not choose it.
	WebhookTest = "webhook.test"
)

// WebhookEventTypes lists the event types an endpoint may choose, in the order the console shows them.
var WebhookEventTypes = []string{WebhookOrderPaid, WebhookOrderRefunded, WebhookOrderCancelled,
	WebhookTicketTransferred, WebhookTicketCheckedIn, WebhookWaitlistOffered, WebhookTeamRegistered, WebhookTeamApproved,
	WebhookTeamRefused, WebhookTeamDisqualified, WebhookTeamCheckedIn, WebhookTeamDropped, WebhookTeamMovedUp,
	WebhookPlayerJoined, WebhookPlayerRemoved}

// Statuses of a webhook delivery.
const (
	DeliveryPending = "pending" // waiting for its first or next attempt
	DeliverySent    = "sent"    // the endpoint answered 2xx
	DeliveryFailed  = "failed"  // given up after WebhookRetryFor, or its endpoint was removed
)

// WebhookRetryFor is how long a delivery is retried before it fails, and how long an endpoint may
// keep failing before it is paused.
const WebhookRetryFor = 72 * time.Hour

// WebhookSignatureHeader is the header that carries a delivery's signature.
const WebhookSignatureHeader = "Palaro-Signature"

// Fields of a webhook endpoint, as the API and the console name them.
const (
	FieldWebhookURL    = "url"
	FieldWebhookEvents = "events"
)

// WebhookEndpoint is an organization's receiver of webhook deliveries.
type WebhookEndpoint struct {
	ID             int64
	PublicID       string // the id the API and the console show
	OrganizationID int64
	URL            string
	Events         []string
	Secret         string // signs every delivery; shown to the organizer once, when created
	Active         bool   // false: paused, by the organizer or after WebhookRetryFor of failures
	FailingSince   time.Time
	CreatedAt      time.Time
}

// WebhookDelivery is one event for one endpoint, as the job runner sends it and the console shows it.
type WebhookDelivery struct {
	ID            int64
	EndpointID    int64
	EventID       string // the event's stable id: the same for every attempt (receivers drop duplicates by it)
	Type          string
	Status        string
	Attempts      int
	AnswerCode    int // the HTTP status of the last attempt; 0 when none answered
	LastError     string
	NextAttemptAt time.Time
	LastAttemptAt time.Time
	CreatedAt     time.Time
	// URL and Secret are the endpoint's and Body the JSON to send, filled when it is claimed.
	URL    string
	Secret string
	Body   []byte
}

// WebhookOutcome is the result of one attempt to send a delivery.
type WebhookOutcome struct {
	ID         int64
	AnswerCode int
	Error      string // empty when the endpoint answered 2xx
	At         time.Time
	// RetryAt is when to try again after a failure; a zero time fails it for good.
	RetryAt time.Time
}

// WebhookBackoff is the wait after failed attempt number attempt (1-based): 30 s doubling, at
// most 6 hours, so that a delivery gets about twenty attempts over WebhookRetryFor.
func WebhookBackoff(attempt int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempt && d < 6*time.Hour; i++ {
		d *= 2
	}
	return min(d, 6*time.Hour)
}

// WebhookService stores an organization's webhook endpoints and their deliveries.
type WebhookService interface {
	// CreateEndpoint saves an endpoint (its URL already checked by CheckWebhookURL) with a new secret.
	CreateEndpoint(ctx context.Context, orgID int64, rawURL string, events []string, actor string, now time.Time) (*WebhookEndpoint, error)
	// ListEndpoints returns the endpoints of the organizations, oldest first.
	ListEndpoints(ctx context.Context, orgIDs []int64) ([]*WebhookEndpoint, error)
	// Endpoint returns one endpoint of the organizations by its public id (ENOTFOUND otherwise).
	Endpoint(ctx context.Context, orgIDs []int64, publicID string) (*WebhookEndpoint, error)
	// SetEndpointActive pauses or resumes an endpoint of the organizations.
	SetEndpointActive(ctx context.Context, orgIDs []int64, publicID string, active bool) error
	// DeleteEndpoint removes an endpoint of the organizations and its deliveries.
	DeleteEndpoint(ctx context.Context, orgIDs []int64, publicID string) error
	// Deliveries returns an endpoint's most recent deliveries, newest first.
	Deliveries(ctx context.Context, endpointID int64, limit int) ([]*WebhookDelivery, error)
	// Redeliver queues a delivery of the endpoint again, due now, with the same event id.
	Redeliver(ctx context.Context, endpointID, deliveryID int64, now time.Time) error
	// SendTest queues a webhook.test event for the endpoint, due now.
	SendTest(ctx context.Context, endpointID int64, now time.Time) error
}

// WebhookComposer writes the e-mails of webhooks.
type WebhookComposer interface {
	// WebhookPaused tells an organization's owner (to) that endpoint e was paused after failing
	// for WebhookRetryFor.
	WebhookPaused(to string, e *WebhookEndpoint) Message
}

// NormalizeWebhookEvents checks the chosen event types and returns them in WebhookEventTypes'
// order, each once.
func NormalizeWebhookEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return nil, &Error{Code: EINVALID, Message: "Choose at least one event type.",
			Fields: map[string]string{FieldWebhookEvents: "Choose at least one event type."}}
	}
	for _, e := range events {
		if !slices.Contains(WebhookEventTypes, e) {
			msg := "Unknown event type " + strings.TrimSpace(e) + "; the types are " + strings.Join(WebhookEventTypes, ", ") + "."
			return nil, &Error{Code: EINVALID, Message: msg, Fields: map[string]string{FieldWebhookEvents: msg}}
		}
	}
	var out []string
	for _, e := range WebhookEventTypes {
		if slices.Contains(events, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// WebhookAddressAllowed reports whether the server may connect to ip to deliver a webhook: never
// an unspecified, multicast, link-local (cloud metadata: 169.254.169.254, fd00:ec2::254) or
// shared (100.64/10) address, and a loopback or private one only when allowPrivate
// (PALARO_WEBHOOK_ALLOW_PRIVATE=1).
func WebhookAddressAllowed(ip netip.Addr, allowPrivate bool) bool {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid(), ip.IsUnspecified(), ip.IsMulticast(), ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(),
		ip.IsInterfaceLocalMulticast(), metadataPrefix.Contains(ip), ip == metadataV6:
		return false
	case ip.IsLoopback(), ip.IsPrivate(), sharedPrefix.Contains(ip), thisNetwork.Contains(ip):
		return allowPrivate
	}
	return true
}

var (
	metadataPrefix = netip.MustParsePrefix("169.254.0.0/16")
	metadataV6     = netip.MustParseAddr("fd00:ec2::254")
	sharedPrefix   = netip.MustParsePrefix("100.64.0.0/10")
	thisNetwork    = netip.MustParsePrefix("0.0.0.0/8")
)

// Resolver looks a host name up; net.DefaultResolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// CheckWebhookURL checks an endpoint's URL: HTTPS (plain HTTP only to an allowed private address
// when allowPrivate), no user or fragment, and a host whose every address WebhookAddressAllowed
// (resolved with r). It returns the URL's addresses, which the sender dials, never the name again.
func CheckWebhookURL(ctx context.Context, r Resolver, rawURL string, allowPrivate bool) ([]netip.Addr, error) {
	bad := func(msg string) ([]netip.Addr, error) {
		return nil, &Error{Code: EINVALID, Message: msg, Fields: map[string]string{FieldWebhookURL: msg}}
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	switch {
	case rawURL == "":
		return bad("Enter the endpoint's URL.")
	case err != nil || u.Host == "" || u.Opaque != "":
		return bad("Enter a full URL, such as https://example.com/palaro.")
	case len(rawURL) > 500:
		return bad("The URL is too long (at most 500 characters).")
	case u.User != nil:
		return bad("The URL cannot carry a user name or password.")
	case u.Scheme != "https" && !(u.Scheme == "http" && allowPrivate):
		return bad("The URL must start with https://.")
	}
	host := u.Hostname()
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else if addrs, err = r.LookupNetIP(ctx, "ip", host); err != nil || len(addrs) == 0 {
		return bad("The URL's host " + host + " cannot be found.")
	}
	for _, ip := range addrs {
		if !WebhookAddressAllowed(ip, allowPrivate) {
			return bad("The URL's host " + host + " is a private, loopback or link-local address; webhooks go to public addresses only.")
		}
	}
	return addrs, nil
}

var _ Resolver = net.DefaultResolver

// OrderView is an order as the organizer API and webhooks show it.
type OrderView struct {
	ID         string `json:"id"`
	Event      string `json:"event,omitempty"` // the event's code (webhooks; the API's orders are listed under their event)
	Status     string `json:"status"`
	Email      string `json:"email"`
	TicketType string `json:"ticketType"`
	// Date is the slug of a series' date a day ticket order is for; absent for a pass and a
	// single-date event's order.
	Date      string   `json:"date,omitempty"`
	Quantity  int      `json:"quantity"`
	Seats     []string `json:"seats"`
	Source    string   `json:"source"`
	PromoCode string   `json:"promoCode"`
	Total     Money    `json:"total"`
	// SeniorPWDDiscount is what the order's senior citizen and PWD discounts took off its total.
	SeniorPWDDiscount Money        `json:"seniorPwdDiscount"`
	CreatedAt         time.Time    `json:"createdAt"`
	PaidAt            *time.Time   `json:"paidAt"`
	Tickets           []TicketView `json:"tickets"`
}

// TicketView is a ticket as the organizer API and webhooks show it.
type TicketView struct {
	Code   string `json:"code"`
	Status string `json:"status"`
	Email  string `json:"email"`
	Holder string `json:"holder"`
	Seat   string `json:"seat,omitempty"`
	// Discount is the ticket's senior citizen or PWD discount, with the holder's ID number in full
	// (orders are for owners and managers only); absent for a ticket without.
	Discount *TicketDiscountView `json:"discount,omitempty"`
	// Order and Event name the ticket's order and event (webhooks' ticket events).
	Order string `json:"order,omitempty"`
	Event string `json:"event,omitempty"`
}

// TicketDiscountView is a ticket's senior citizen or PWD discount as the organizer API shows it.
type TicketDiscountView struct {
	Type       string `json:"type"`
	HolderName string `json:"holderName"`
	IDNumber   string `json:"idNumber"`
	Amount     Money  `json:"amount"`
}

// NewOrderView returns an order as the organizer API shows it, times in Manila.
func NewOrderView(o *Order) OrderView {
	v := OrderView{ID: o.PublicID, Status: o.Status, Email: o.Email, Quantity: o.Quantity, Seats: o.Seats,
		Source: o.Source, PromoCode: o.PromoCode, Total: o.Total, SeniorPWDDiscount: o.SeniorPWDDiscount, CreatedAt: o.CreatedAt.In(Manila),
		Tickets: []TicketView{}}
	if !o.PaidAt.IsZero() {
		paid := o.PaidAt.In(Manila)
		v.PaidAt = &paid
	}
	if o.TicketType != nil {
		v.TicketType = o.TicketType.Code
	}
	if o.Date != nil {
		v.Date = o.Date.Slug
	}
	for _, t := range o.Tickets {
		tv := TicketView{Code: t.Code, Status: t.Status, Email: t.Email, Holder: t.HolderName, Seat: t.Seat}
		if d := t.Discount; d.Type != "" {
			tv.Discount = &TicketDiscountView{Type: d.Type, HolderName: d.HolderName, IDNumber: d.IDNumber, Amount: d.Amount}
		}
		v.Tickets = append(v.Tickets, tv)
	}
	return v
}

// WaitlistOfferView is a waiting list's offer as webhooks show it.
type WaitlistOfferView struct {
	Event      string    `json:"event"`
	TicketType string    `json:"ticketType"`
	Email      string    `json:"email"`
	Quantity   int       `json:"quantity"`
	Seats      []string  `json:"seats"`
	Status     string    `json:"status"`
	OfferedAt  time.Time `json:"offeredAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// TeamView is a team as the organizer API and webhooks show it, with its players and check-in state.
type TeamView struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Tag          string       `json:"tag"`
	Entry        int          `json:"entry"`
	Status       string       `json:"status"`
	Seed         *int         `json:"seed"`
	CaptainEmail string       `json:"captainEmail"`
	CheckedInAt  *time.Time   `json:"checkedInAt"`
	Players      []PlayerView `json:"players"`
}

// PlayerView is a team's player in the organizer API and webhooks.
type PlayerView struct {
	Email       string     `json:"email"`
	InGameName  string     `json:"inGameName"`
	GameAccount string     `json:"gameAccount"`
	Discord     string     `json:"discord"`
	JoinedAt    *time.Time `json:"joinedAt"`
	CheckedInAt *time.Time `json:"checkedInAt"`
	// PassCode is the code of the player's competitor pass, "" while none is issued.
	PassCode string `json:"passCode"`
}

// TeamWebhookView is the data of a team event: the event and tournament codes, the team as it
// is when the delivery is sent, and for a player's event the player's e-mail.
type TeamWebhookView struct {
	Event      string    `json:"event"`
	Tournament string    `json:"tournament"`
	Team       *TeamView `json:"team"`
	Player     string    `json:"player,omitempty"`
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// NewTeamView returns t as the organizer API shows it (times in UTC).
func NewTeamView(t Team) TeamView {
	j := TeamView{ID: t.PublicID, Name: t.Name, Tag: t.Tag, Entry: t.Entry, Status: t.Status, CaptainEmail: t.CaptainEmail,
		CheckedInAt: utcPtr(t.CheckedInAt), Players: []PlayerView{}}
	if t.Seed > 0 {
		j.Seed = &t.Seed
	}
	for _, p := range t.Players {
		j.Players = append(j.Players, PlayerView{Email: p.Email, InGameName: p.InGameName, GameAccount: p.GameAccount, Discord: p.Discord,
			JoinedAt: utcPtr(p.JoinedAt), CheckedInAt: utcPtr(p.CheckedInAt), PassCode: p.PassCode})
	}
	return j
}
