package palaro

import (
	"context"
	"math/rand/v2"
	"strconv"
	"time"
)

// QueueWaitMessage refuses a buy page or purchase without an admission while an event's queue is on.
const QueueWaitMessage = "Please wait for your turn in the queue."

// AdmissionWindow is how long an admitted browser may buy, from its first admission.
const AdmissionWindow = 10 * time.Minute

// QueuePlacesPerAddress is the most places one network address (an IPv4 address, an IPv6 /64) may
// take in a queue: enough for a venue's Wi-Fi or a family, not for a script's thousand browsers.
const QueuePlacesPerAddress = 50

// Messages of the queue's refusals.
var (
	// QueueAddressFullMessage refuses a new place to an address that holds QueuePlacesPerAddress.
	QueueAddressFullMessage = "Your network already holds " + strconv.Itoa(QueuePlacesPerAddress) +
		" places in this queue, the most one network may take. Please keep the place you have."
	// QueueEmailTakenMessage refuses an address that bought with another place of the queue.
	QueueEmailTakenMessage = "This e-mail address already bought with another place in this queue."
	// QueuePlaceTakenMessage refuses a place that bought for another address.
	QueuePlaceTakenMessage = "This place in the queue already bought with another e-mail address."
	// QueueOtherDateMessage refuses a purchase for a date of a series other than the one the
	// browser's turn in the queue was for: an admission buys for its own date only.
	QueueOtherDateMessage = "Your turn in the queue is for another date. Please wait in the queue for this one."
	// QueueMoveAdmittedMessage refuses to move a place to another date once its turn has come.
	QueueMoveAdmittedMessage = "Your turn has come for the date you queued for; join the queue again for another date."
)

// MaxAdmitPerMinute is the highest admission rate an organizer may set.
const MaxAdmitPerMinute = 10000

// Fields of the queue settings, as validation errors name them.
const (
	FieldQueueOpensAt        = "queue.opensAt"
	FieldQueueAdmitPerMinute = "queue.admitPerMinute"
)

// QueueSettings is what an organizer sets for an event's queue: when the sale opens and how many
// visitors a minute are admitted to buy.
type QueueSettings struct {
	OpensAt        time.Time `json:"opensAt"`
	AdmitPerMinute int       `json:"admitPerMinute"`
}

// QueueRate is an admission rate in force from From on.
type QueueRate struct {
	From           time.Time
	AdmitPerMinute int
}

// Queue is an event's queue as stored: its settings, rate changes and draw.
type Queue struct {
	EventID   int64
	EventCode string
	EventName string
	QueueSettings
	// Seed seeds the draw of the places of the visitors who arrived before OpensAt.
	Seed uint64
	// Opened is true once those places are drawn.
	Opened bool
	// Rates are the admission rates in order; the first starts at OpensAt.
	Rates []QueueRate
	// Version counts the queue's changes in the database.
	Version int64
}

// QueuePlace is one browser's place in a queue.
type QueuePlace struct {
	ID int64
	// Place is 1 for the first in line; 0 before the draw.
	Place int
	// DateID is the date of a series the place is for (its admission buys for that date only);
	// 0 for an event of one date, or a series' passes.
	DateID   int64
	JoinedAt time.Time
	// AdmittedAt is when the browser first got its admission; zero before.
	AdmittedAt time.Time
}

// QueueStatus is what a browser learns about its place (GET /v1/queue/{eventCode}).
type QueueStatus struct {
	OpensAt time.Time `json:"opensAt"`
	// Position is the browser's place, nil before the draw.
	Position *int `json:"position"`
	// Ahead is how many before it still wait, nil before the draw.
	Ahead *int `json:"ahead"`
	// EstimatedWaitSeconds is the time until its turn (until the opening, before it).
	EstimatedWaitSeconds int  `json:"estimatedWaitSeconds"`
	Admitted             bool `json:"admitted"`
	// AdmittedAt is when its admission began (zero before): it ends AdmissionWindow later.
	AdmittedAt time.Time `json:"-"`
	// DateID is the date of a series the place is for (0: none).
	DateID int64 `json:"-"`
}

// QueueStats is the organizer's live view of a queue.
type QueueStats struct {
	QueueSettings
	Opened bool
	// Waiting is how many browsers wait: before the opening, every one that arrived.
	Waiting int
	// Admitted is how many were admitted so far.
	Admitted int
	// Dates splits Waiting and Admitted by the date of a series the places are for, by date ID
	// (0: no date, a series' passes); nil for a queue with no place for a date.
	Dates map[int64]QueueCount
}

// QueueCount is how many places of a queue wait and were admitted (for one date of a series).
type QueueCount struct {
	Waiting  int
	Admitted int
}

// QueueService runs events' queues: settings, places, admissions.
type QueueService interface {
	// Settings returns the event's queue, or nil when it has none.
	Settings(eventID int64) *Queue
	// ByCode returns the queue of the event with that code, or nil.
	ByCode(eventCode string) *Queue
	// Active reports whether any event has a queue.
	Active() bool
	// Configure turns the event's queue on or changes it; nil turns it off.
	Configure(ctx context.Context, ev *Event, actor string, settings *QueueSettings, now time.Time) error
	// Join gives a browser a place (at the end, or in the draw before the opening) for a date of
	// the event's series (0: none; ENOTFOUND for a date of another event); client is its network
	// address (ETOOMANY when that holds QueuePlacesPerAddress places already).
	Join(ctx context.Context, eventID, dateID int64, client string, now time.Time) (placeID int64, err error)
	// Move makes a waiting place one for another date of the series (0: none), keeping its place
	// in line (the line and its rate are the event's); ECONFLICT once its turn has come
	// (QueueMoveAdmittedMessage), ENOTFOUND for an unknown place or date.
	Move(ctx context.Context, eventID, placeID, dateID int64) error
	// Status answers about a place; ENOTFOUND when the queue has no such place.
	Status(ctx context.Context, eventID, placeID int64, now time.Time) (QueueStatus, error)
	// Stats returns the organizer's live figures.
	Stats(eventID int64, now time.Time) (QueueStats, bool)
}

// Validate checks queue settings for an event; current is its queue when it has one already.
func (s QueueSettings) Validate(ev *Event, current *Queue, now time.Time) error {
	fields := map[string]string{}
	switch {
	case s.OpensAt.IsZero():
		fields[FieldQueueOpensAt] = "Enter when the sale opens, such as 2026-12-01T20:00:00+08:00."
	case current != nil && (current.Opened || !now.Before(current.OpensAt)) && !s.OpensAt.Equal(current.OpensAt):
		fields[FieldQueueOpensAt] = "The queue opened at " + current.OpensAt.In(Manila).Format("2006-01-02 15:04") +
			" Manila time; its opening can no longer change (turn the queue off to start again)."
	case !ev.EndsAt.IsZero() && !s.OpensAt.Before(ev.EndsAt):
		fields[FieldQueueOpensAt] = "The sale must open before the event ends."
	}
	if s.AdmitPerMinute < 1 || s.AdmitPerMinute > MaxAdmitPerMinute {
		fields[FieldQueueAdmitPerMinute] = "Admit between 1 and " + strconv.Itoa(MaxAdmitPerMinute) + " visitors a minute."
	}
	if len(fields) > 0 {
		return &Error{Code: EINVALID, Message: "Please check the queue settings.", Fields: fields}
	}
	return nil
}

// DrawPlaces returns the places of n early arrivals, in their order of arrival: a permutation of
// 1..n drawn from the seed, so the same seed always gives the same places and arriving early gives
// no advantage.
func DrawPlaces(seed uint64, n int) []int {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	places := r.Perm(n)
	for i := range places {
		places[i]++
	}
	return places
}
