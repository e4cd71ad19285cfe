package palaro

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// Statuses of a waiting-list entry.
const (
	WaitlistWaiting = "waiting" // in the queue for tickets that come back
	WaitlistOffered = "offered" // has an open offer
	WaitlistClaimed = "claimed" // took an offer to the purchase form
	WaitlistPassed  = "passed"  // let an offer expire: the tickets went to the next person
)

// Statuses of a waiting-list offer.
const (
	OfferOpen    = "open"    // holds its tickets until ExpiresAt
	OfferClaimed = "claimed" // an order took its tickets
	OfferExpired = "expired" // not claimed in time: its tickets were given back
)

// DefaultOfferTime is how long an offer holds its tickets when the organizer set no time.
const DefaultOfferTime = 24 * time.Hour

// MaxOfferHours is the longest offer time an organizer can set (two weeks).
const MaxOfferHours = 336

// WaitlistJoin is a request to join the waiting list of a sold-out ticket type.
type WaitlistJoin struct {
	TicketCode string `json:"ticketCode"`
	Email      string `json:"email"`
	Quantity   int    `json:"quantity"`
	// Date is the slug of the series date a day ticket's buyer waits for ("" for an event of one
	// date, or a pass).
	Date string `json:"date,omitempty"`
}

// WaitlistEntry is one person (e-mail address) waiting for tickets of one ticket type (on one
// date of a series, for a day ticket).
type WaitlistEntry struct {
	ID           int64
	EventID      int64
	TicketTypeID int64
	// DateID and DateSlug name the series date waited for (0 and "": an event of one date, a pass).
	DateID         int64
	DateSlug       string
	TicketTypeCode string
	TicketTypeName string
	Email          string
	Quantity       int
	Status         string
	// Position is the entry's place among the waiting entries of its type and date (1 is next); 0
	// when not waiting.
	Position int
	JoinedAt time.Time
	// Offers are the entry's offers, oldest first (filled for the console).
	Offers []WaitlistOffer
}

// WaitlistOffer is tickets held for one waiting-list entry until they are bought or the offer expires.
type WaitlistOffer struct {
	ID            int64
	EntryID       int64
	Email         string
	Quantity      int
	Status        string
	ByHand        bool // offered by the organizer rather than in list order
	Declined      bool // given up by its holder before its end (Status is OfferExpired)
	OfferedAt     time.Time
	ExpiresAt     time.Time
	ClosedAt      time.Time
	OrderPublicID string // the order that claimed it
	// DateID and DateSlug name the series date the offer's tickets are for (0 and "": an event of
	// one date, a pass); its link buys for that date.
	DateID   int64
	DateSlug string
	// Seats are the seats the offer holds (a seated ticket type; nil otherwise): its claim buys
	// exactly these.
	Seats      []string
	TicketType *TicketType // filled by lookups
	Event      *Event      // filled by lookups
}

// Claimable reports whether the offer can still be used to buy its tickets at time now.
func (o WaitlistOffer) Claimable(now time.Time) bool {
	return o.Status == OfferOpen && now.Before(o.ExpiresAt)
}

// WaitlistJoined is the answer to a join: the entry, with whether it existed already.
type WaitlistJoined struct {
	Entry      WaitlistEntry
	Updated    bool // the address was on the list already: its quantity was updated, its place kept
	TicketType *TicketType
	Event      *Event
}

// WaitlistBoard is an event's waiting lists as the organizer sees them.
type WaitlistBoard struct {
	OfferTime time.Duration
	// Entries are in list order per ticket type (ticket types in the event's order).
	Entries []WaitlistEntry
}

// WaitlistService keeps the waiting lists of sold-out ticket types and offers returned tickets.
type WaitlistService interface {
	// Join puts an address on a ticket type's waiting list, or updates its quantity when it is
	// waiting already. Returns EINVALID for a bad address or quantity, ENOTFOUND for an unknown
	// ticket type and ECONFLICT when tickets can be bought now, sales are closed, or the address
	// has an open offer.
	Join(ctx context.Context, req WaitlistJoin, now time.Time) (*WaitlistJoined, error)
	// FindOffer returns the offer a link token belongs to, with its event and ticket type, in
	// whatever status it is. Returns ENOTFOUND for an unknown token.
	FindOffer(ctx context.Context, token string) (*WaitlistOffer, error)
	// Advance expires the offers not claimed by now (their tickets are given back) and offers the
	// free tickets of every ticket type with a waiting list to the next entries that fit.
	// Returns how many offers expired and how many were made.
	Advance(ctx context.Context, now time.Time) (expired, offered int, err error)
	// Board returns an event's waiting lists with their offers and the event's offer time.
	Board(ctx context.Context, eventID int64) (*WaitlistBoard, error)
	// Decline gives up the open offer of a link token before its end, for its holder: its tickets
	// (and seats) are offered to the next entries at once, or go back on sale. Returns ENOTFOUND
	// for an unknown token and ECONFLICT when the offer is no longer open.
	Decline(ctx context.Context, token string, now time.Time) error
	// SetOfferTime sets how long the event's offers hold their tickets (1 to MaxOfferHours hours).
	SetOfferTime(ctx context.Context, eventID int64, hours int, actor string) error
	// OfferByHand offers quantity tickets (1 to the entry's quantity) to one entry of the event's
	// list, out of order, from the free tickets. For a seated type, seats names the free seats to
	// hold (their count is the quantity); none picks them as the list does (PickSeats). Returns
	// ENOTFOUND for an entry of another event, EINVALID for seats of an unseated type or unknown
	// seats, ECONFLICT when the entry has an open offer or too few tickets (or the seats) are free.
	OfferByHand(ctx context.Context, eventID, entryID int64, quantity int, seats []string, actor string, now time.Time) (*WaitlistOffer, error)
}

// WaitlistComposer writes the waiting list's e-mails.
type WaitlistComposer interface {
	// WaitlistJoined confirms that an address is on a ticket type's waiting list.
	WaitlistJoined(j WaitlistJoined) Message
	// WaitlistOffer tells an entry that tickets are held for it, with the link carrying token.
	WaitlistOffer(o *WaitlistOffer, token string) Message
	// WaitlistOfferExpired tells an entry that its offer ended unclaimed and passed on.
	WaitlistOfferExpired(o *WaitlistOffer) Message
	// WaitlistDateOff tells an entry that the series date it waits for was cancelled (its entry
	// ended) or postponed (it keeps its place), and that tickets held for it were released.
	WaitlistDateOff(w WaitlistDateOff) Message
}

// WaitlistDateOff is an entry of a series date's waiting list when the date is cancelled or
// postponed: its open offer (Released tickets, 0 for none) is closed and its tickets given back.
type WaitlistDateOff struct {
	Entry      *WaitlistEntry
	Date       *EventDate // its Status says cancelled or postponed
	Released   int
	TicketType *TicketType
	Event      *Event
}

// Message kinds of the waiting list.
const (
	MessageWaitlistJoined = "waitlist_joined"
	MessageWaitlistOffer  = "waitlist_offer"
	// MessageWaitlistOfferExpired tells a person their offer ended unclaimed.
	MessageWaitlistOfferExpired = "waitlist_offer_expired"
	// MessageWaitlistDateOff tells a person the date they wait for was cancelled or postponed.
	MessageWaitlistDateOff = "waitlist_date_off"
)

// WaitlistPath is the page where a visitor joins a ticket type's waiting list.
func WaitlistPath(ticketCode string) string { return "/waitlist/" + ticketCode }

// WaitlistDatePath is the waiting-list page of a ticket type on one date of its series (slug "":
// WaitlistPath).
func WaitlistDatePath(ticketCode, slug string) string {
	if slug == "" {
		return WaitlistPath(ticketCode)
	}
	return WaitlistPath(ticketCode) + "?date=" + slug
}

// WaitlistOfferPath is the link of an offer: the held tickets and the way to buy them.
func WaitlistOfferPath(token string) string { return "/waitlist/offer/" + token }

// CheckWaitlistJoin validates a join request against WaitlistMax and
// returns it with the e-mail address in canonical form.
func CheckWaitlistJoin(req WaitlistJoin, tt TicketType) (WaitlistJoin, error) {
	email, err := CheckEmail(req.Email)
	if err != nil {
		return req, err
	}
	req.Email = email
	most := WaitlistMax(tt)
	if req.Quantity < 1 || req.Quantity > most {
		if most == 1 {
			return req, Errorf(EINVALID, "You can wait for 1 ticket of %s.", tt.Name)
		}
		return req, Errorf(EINVALID, "Choose between 1 and %d tickets.", most)
	}
	return req, nil
}

// WaitlistRefusal says why a ticket type's waiting list cannot be joined (nor offered from) at
// now, or nil: sales not open or the event over. It does not look at what is left: see the
// store's Join. A seated type's offers hold named seats (see PickSeats).
func WaitlistRefusal(tt TicketType, ev *Event, now time.Time) error {
	switch tt.SaleState(ev, now) {
	case SaleEnded:
		return Errorf(ECONFLICT, "Ticket sales for %s have ended.", tt.Name)
	case SaleNotStarted:
		return Errorf(ECONFLICT, "Ticket sales for %s have not started yet.", tt.Name)
	}
	if ev != nil && !now.Before(ev.EndsAt) {
		return Errorf(ECONFLICT, "This event has ended.")
	}
	return nil
}

// WaitlistMax is the most tickets one address can wait for: the per-buyer maximum, one for a free
// ticket (as on the purchase form).
func WaitlistMax(tt TicketType) int {
	if FixedQuantity(tt, 0) == 1 {
		return 1
	}
	return max(tt.MaxPurchasable, 1)
}

// CheckOfferHours validates an offer time in hours set by an organizer.
func CheckOfferHours(hours int) error {
	if hours < 1 || hours > MaxOfferHours {
		return Errorf(EINVALID, "The offer time must be between 1 and %d hours.", MaxOfferHours)
	}
	return nil
}

// Tickets says "1 ticket" or "N tickets".
func Tickets(n int) string {
	if n == 1 {
		return "1 ticket"
	}
	return strconv.Itoa(n) + " tickets"
}

// OfferTimeLabel says an offer time in words: "24 hours", "1 hour", "90 minutes".
func OfferTimeLabel(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "1 hour"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", int(d/time.Hour))
	}
	return fmt.Sprintf("%d minutes", int(d/time.Minute))
}
