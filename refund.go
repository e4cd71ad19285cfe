package palaro

import (
	"cmp"
	"context"
	"errors"
	"time"
)

// Statuses of a refund: written pending with its tickets already void, then ended by the refund
// job as refunded (the gateway gave the money back) or failed (with the reason).
const (
	RefundPending  = "pending"
	RefundRefunded = "refunded"
	RefundFailed   = "failed"
)

// Reasons of a refund, the column refunds.reason.
const (
	RefundByOrganizer     = "organizer"       // an owner or manager refunded the order (console or API)
	RefundEventCancelled  = "event_cancelled" // the organizer refunds every order of a cancelled event
	RefundBuyerCancelled  = "buyer_cancelled" // the buyer cancelled before the organizer's deadline
	RefundReturnedTickets = "returned"        // a returned ticket was bought by another buyer
	RefundDateCancelled   = "date_cancelled"  // a date of a series was cancelled (Refund.Date names it)
)

// Refund is one refund of some or all of an order's tickets (the refunds table).
type Refund struct {
	ID       int64
	PublicID string // the idempotency key the gateway is asked with
	OrderID  int64
	// OrderPublicID, EventID, OrderProvider and SessionID are the order's: its public id, its
	// event, the provider that collected it and that provider's checkout session.
	OrderPublicID string
	EventID       int64
	OrderProvider string
	SessionID     string
	Amount        Money
	Fee           Money
	Reason        string
	Status        string
	// Provider and ProviderRef name the gateway's refund once it answered.
	Provider    string
	ProviderRef string
	Failure     string
	RequestedBy string
	Attempts    int
	// TicketCodes are the codes of the tickets the refund voids (none for an add-on order).
	TicketCodes []string
	// PassCodes are the codes of the season passes refunded in part for Date: they stay valid on
	// the series' other dates.
	PassCodes []string
	// Date is the cancelled date of a series a RefundDateCancelled refund is for; nil otherwise.
	Date      *RefundDate
	CreatedAt time.Time
	DoneAt    time.Time
}

// RefundDate is the cancelled date of a series a refund is for.
type RefundDate struct {
	ID       int64
	Slug     string
	Name     string
	StartsAt time.Time
}

// Label names the date for people, in Manila time: "Sat 16 Jan 2027, 7:00 PM".
func (d RefundDate) Label() string { return d.StartsAt.In(Manila).Format("Mon 2 Jan 2006, 3:04 PM") }

// Cancelled says the date of the event was cancelled: "<event>, <date in Manila> was cancelled".
func (d RefundDate) Cancelled(eventName string) string {
	return eventName + ", " + d.Label() + " was cancelled"
}

// RefundWhy says why a refund was made, for its buyer and the console: for a cancelled date
// "<event>, <date in Manila> was cancelled" (RefundDate.Cancelled); "" for the other reasons
// (their callers say them).
func RefundWhy(eventName string, r Refund) string {
	if r.Reason != RefundDateCancelled || r.Date == nil {
		return ""
	}
	return r.Date.Cancelled(eventName)
}

// Statuses a refunded ticket shows (the organizer API's and the console's), for its refund's status.
const (
	TicketRefundPending = "refund_pending"
	TicketRefunded      = "refunded"
	TicketRefundFailed  = "refund_failed"
)

// RefundedTicketStatuses maps the code of each ticket an order's refunds void to its status:
// refund_pending, refunded or refund_failed, as its refund stands (a ticket is in one refund at most).
func RefundedTicketStatuses(refunds []Refund) map[string]string {
	word := map[string]string{RefundPending: TicketRefundPending, RefundRefunded: TicketRefunded, RefundFailed: TicketRefundFailed}
	status := map[string]string{}
	for _, r := range refunds {
		for _, code := range r.TicketCodes {
			status[code] = word[r.Status]
		}
	}
	return status
}

// RefundRequest is what the app asks a payment provider to give back for one refund.
type RefundRequest struct {
	// Key is the refund's public id: asking twice with the same key refunds once.
	Key string
	// SessionID is the checkout session that collected the order (the order's provider_ref).
	SessionID string
	// OrderID is the order's public id.
	OrderID string
	Amount  Money
	// Reason is one of the Refund* reasons.
	Reason string
}

// RefundResult is a provider's answer about a refund.
type RefundResult struct {
	// ID is the provider's id of the refund.
	ID string
	// Status is RefundRefunded, RefundPending (the provider is still processing it) or RefundFailed.
	Status string
	// Failure says why a failed refund failed.
	Failure string
}

// Validate reports an EINVALID error for a request a provider cannot send: no key, no session or
// an amount that is not positive.
func (r RefundRequest) Validate() error {
	switch {
	case r.Key == "":
		return Errorf(EINVALID, "A refund needs an idempotency key.")
	case r.SessionID == "":
		return Errorf(EINVALID, "This order was not paid through the payment provider, so it cannot be refunded through it.")
	case r.Amount <= 0:
		return Errorf(EINVALID, "A refund needs a positive amount.")
	}
	return nil
}

// Refunder gives money back through a payment provider; every PaymentProvider is one.
type Refunder interface {
	// Refund gives back r.Amount of the payment of checkout session r.SessionID. It is
	// idempotent: a second call with the same r.Key returns the first refund and moves no money.
	// Returns EINVALID for a request the provider refuses (the refund failed for good) and
	// another error when the provider cannot be reached (ask again later).
	Refund(ctx context.Context, r RefundRequest) (RefundResult, error)
}

// RefundStore is the store's side of the refund job.
type RefundStore interface {
	// PendingRefunds returns up to limit pending refunds, oldest first.
	PendingRefunds(ctx context.Context, limit int) ([]Refund, error)
	// FinishRefund ends a pending refund with the provider's answer (refunded or failed), counts
	// the attempt, e-mails the buyer how it ended and, when every ticket of its order is refunded,
	// moves the order to OrderRefunded. A refund already ended is left as it is.
	FinishRefund(ctx context.Context, id int64, provider string, res RefundResult, now time.Time) error
	// NoteRefundAttempt counts an attempt that got no final answer, with what went wrong.
	NoteRefundAttempt(ctx context.Context, id int64, failure string, now time.Time) error
}

// RefundMaxAttempts is how many times the job asks the gateway about a refund whose answer is not
// final (unreachable, or still processing) before it ends the refund as failed.
const RefundMaxAttempts = 20

// SettleRefund asks the provider about one pending refund and records its answer. A free refund
// (nothing to give back) ends refunded without asking. It reports the refund's status afterwards.
func SettleRefund(ctx context.Context, st RefundStore, provider PaymentProvider, r Refund, now time.Time) (string, error) {
	var res RefundResult
	var err error
	switch {
	case r.Amount == 0:
		res = RefundResult{Status: RefundRefunded}
	case r.OrderProvider != provider.Name():
		res = RefundResult{Status: RefundFailed, Failure: "The order was paid through " + cmp.Or(r.OrderProvider, "no payment provider") +
			", not " + provider.Name() + ": refund the buyer yourself."}
	default:
		res, err = provider.Refund(ctx, RefundRequest{Key: r.PublicID, SessionID: r.SessionID, OrderID: r.OrderPublicID, Amount: r.Amount, Reason: r.Reason})
		if err != nil && ErrorCode(err) == EINVALID {
			res, err = RefundResult{Status: RefundFailed, Failure: ErrorMessage(err)}, nil
		}
	}
	// The credit note of a refund the gateway confirmed is issued in the write that ends it
	// (store.issueCreditNote, called by FinishRefund).
	if err == nil && res.Status != RefundPending {
		return res.Status, st.FinishRefund(ctx, r.ID, provider.Name(), res, now)
	}
	failure := "The payment provider is still processing the refund."
	if err != nil {
		failure = "The payment provider could not be reached: " + err.Error()
	}
	if r.Attempts+1 >= RefundMaxAttempts {
		return RefundFailed, errors.Join(err, st.FinishRefund(ctx, r.ID, provider.Name(), RefundResult{ID: res.ID, Status: RefundFailed, Failure: failure}, now))
	}
	return RefundPending, errors.Join(err, st.NoteRefundAttempt(ctx, r.ID, failure, now))
}

// SettleRefunds settles up to limit pending refunds, whoever wrote them (the organizer, a
// cancelled event, a buyer's cancellation or return). It returns how many it asked about.
func SettleRefunds(ctx context.Context, st RefundStore, provider PaymentProvider, limit int, now time.Time) (int, error) {
	refunds, err := st.PendingRefunds(ctx, limit)
	if err != nil {
		return 0, err
	}
	var errs []error
	for i, r := range refunds {
		if ctx.Err() != nil {
			return i, ctx.Err()
		}
		if _, err := SettleRefund(ctx, st, provider, r, now); err != nil {
			errs = append(errs, err)
		}
	}
	return len(refunds), errors.Join(errs...)
}

// RefundProgress is how far the refund of every order of a cancelled event has come.
type RefundProgress struct {
	// Started is when the organizer asked to refund every order; zero when they have not.
	Started time.Time
	// Orders counts the orders being refunded; Refunded, Failed and Pending their refunds' states.
	Orders   int
	Refunded int
	Failed   int
	Pending  int
	// Left counts the paid orders with something not refunded yet (once started, the job writes
	// their refunds next).
	Left int
}

// Done reports whether every order of the event has been refunded or has failed.
func (p RefundProgress) Done() bool { return !p.Started.IsZero() && p.Left == 0 && p.Pending == 0 }

// RefundService refunds orders: the console and the API ask for refunds, the refund job settles
// them (RefundStore).
type RefundService interface {
	RefundStore
	// RequestRefund refunds the tickets of the event's order whose codes are given (every ticket
	// not refunded yet when codes is empty), for reason, asked by actor: in one write it inserts a
	// pending refund with its tickets, makes the tickets void at once (their places go back on
	// sale) and e-mails the buyer. Tickets already refunded are left alone, so asking again
	// changes nothing; it returns the order's refunds, the new one first. Returns ENOTFOUND for
	// an unknown order or ticket code and EINVALID for an order that is not paid.
	RequestRefund(ctx context.Context, eventID int64, orderPublicID string, codes []string, reason, actor string) ([]Refund, error)
	// OrderRefunds returns the refunds of the orders with the given ids, by order id, newest first.
	OrderRefunds(ctx context.Context, orderIDs ...int64) (map[int64][]Refund, error)
	// OrderEvent returns the code of the event of the order with this public id. Returns ENOTFOUND.
	OrderEvent(ctx context.Context, orderPublicID string) (string, error)
	// RetryRefund sets a failed refund of the event pending again, for the job to ask once more.
	RetryRefund(ctx context.Context, eventID int64, refundPublicID, actor string) error
	// RefundEvent starts the refund of every paid order of a cancelled event; asking twice
	// changes nothing. Returns EINVALID for an event that is not cancelled.
	RefundEvent(ctx context.Context, eventID int64, actor string) error
	// RefundEventOrders writes the pending refunds of up to limit paid orders of the events whose
	// refund was started, and returns how many it wrote (the job calls it until 0).
	RefundEventOrders(ctx context.Context, limit int) (int, error)
	// EventRefundProgress says how far the refund of every order of the event has come.
	EventRefundProgress(ctx context.Context, eventID int64) (RefundProgress, error)
	// DateRefunds says, for each cancelled date of the event's series with refunds, how far they are.
	DateRefunds(ctx context.Context, eventID int64) ([]DateRefunds, error)
}

// DateRefunds is how far the refunds of a cancelled date of a series are (reason RefundDateCancelled).
type DateRefunds struct {
	Date                               RefundDate
	Refunds, Refunded, Pending, Failed int
	Amount                             Money
}

// RefundComposer writes the buyer's e-mail about a refund; the store calls it inside the write
// that decides the refund.
type RefundComposer interface {
	// RefundStarted tells the buyer of order o that refund r of its tickets is on its way.
	RefundStarted(o *Order, r Refund) Message
	// RefundEnded tells the buyer of order o that refund r ended: the money went back
	// (RefundRefunded) or the gateway did not give it back (RefundFailed).
	RefundEnded(o *Order, r Refund) Message
}

// Kinds of the e-mails telling a buyer about their refund.
const (
	MessageRefundStarted = "refund_started" // the refund is on its way
	MessageRefundDone    = "refund_done"    // the gateway gave the money back
	MessageRefundFailed  = "refund_failed"  // the gateway did not: the organizer may try again
)
