package palaro

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"
)

// SelfCancelPolicy is an event's rule for buyers who cancel their own order: allowed until
// HoursBefore the event starts, the organizer keeping Fee plus PercentBP hundredths of a percent
// of what was paid for the tickets (never more than was paid). The zero policy (Enabled false)
// lets no buyer cancel.
type SelfCancelPolicy struct {
	Enabled     bool
	HoursBefore int
	Fee         Money
	PercentBP   int // 1000 is 10%
}

// Deadline is the last moment (exclusive) a buyer may cancel an order for an event starting at start.
func (p SelfCancelPolicy) Deadline(start time.Time) time.Time {
	return start.Add(-time.Duration(p.HoursBefore) * time.Hour)
}

// Open reports whether a buyer may still cancel at now, for an event starting at start.
func (p SelfCancelPolicy) Open(start, now time.Time) bool {
	return p.Enabled && now.Before(p.Deadline(start))
}

// FeeOn returns what the organizer keeps of paid: the fixed fee plus the percentage of paid
// rounded half up to the centavo, at most paid.
func (p SelfCancelPolicy) FeeOn(paid Money) Money {
	if paid <= 0 {
		return 0
	}
	fee := p.Fee + Money((int64(paid)*int64(p.PercentBP)+5000)/10000)
	return min(fee, paid)
}

// Percent formats the policy's percentage as '10%' or '7.5%'.
func (p SelfCancelPolicy) Percent() string {
	return strconv.FormatFloat(float64(p.PercentBP)/100, 'f', -1, 64) + "%"
}

// FeeText says in words what the organizer keeps, as '₱50.00 + 10%' or 'nothing'.
func (p SelfCancelPolicy) FeeText() string {
	var parts []string
	if p.Fee > 0 {
		parts = append(parts, p.Fee.String())
	}
	if p.PercentBP > 0 {
		parts = append(parts, p.Percent()+" of the price paid")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " + ")
}

// Form field names of the self-cancel settings.
const (
	FieldSelfCancelHours   = "hoursBefore"
	FieldSelfCancelFee     = "fee"
	FieldSelfCancelPercent = "percent"
)

// MaxSelfCancelHours is the furthest before the start a self-cancel deadline may be: a year.
const MaxSelfCancelHours = 8760

// selfCancelPercentBP reads a percentage (0–100, at most two decimals) as hundredths of a
// percent; ok is false for any other.
func selfCancelPercentBP(v float64) (bp int, ok bool) {
	r := math.Round(v * 100)
	if math.IsNaN(v) || v < 0 || v > 100 || math.Abs(v*100-r) > 1e-6 {
		return 0, false
	}
	return int(r), true
}

// ParseSelfCancelPolicy reads the console's text fields: hours before the start (whole,
// 0–8760), a fee in pesos (≥ 0) and a percentage (0–100, at most two decimals). A field error
// names each bad field.
func ParseSelfCancelPolicy(enabled bool, hours, fee, percent string) (SelfCancelPolicy, error) {
	p := SelfCancelPolicy{Enabled: enabled}
	fields := map[string]string{}
	if h, err := strconv.Atoi(strings.TrimSpace(hours)); err != nil || h < 0 || h > MaxSelfCancelHours {
		fields[FieldSelfCancelHours] = "Enter the hours before the start as a whole number from 0 to 8760."
	} else {
		p.HoursBefore = h
	}
	if f, ok := parsePesos(fee); !ok || f < 0 {
		fields[FieldSelfCancelFee] = "Enter the fee in pesos, 0 or more, such as 50 or 49.50."
	} else {
		p.Fee = f
	}
	v, err := strconv.ParseFloat(orZero(percent), 64)
	if bp, ok := selfCancelPercentBP(v); err != nil || !ok {
		fields[FieldSelfCancelPercent] = "Enter a percentage from 0 to 100, such as 10 or 7.5."
	} else {
		p.PercentBP = bp
	}
	if len(fields) > 0 {
		return p, &Error{Code: EINVALID, Message: "Check the cancellation settings.", Fields: fields}
	}
	return p, nil
}

// SelfCancelChange is the organizer API's change of a self-cancel policy: the fields sent (nil:
// unchanged), Fee in centavos and Percent from 0 to 100.
type SelfCancelChange struct {
	Enabled     *bool    `json:"enabled"`
	HoursBefore *int     `json:"hoursBefore"`
	Fee         *int64   `json:"fee"`
	Percent     *float64 `json:"percent"`
}

// Apply returns p with the change's fields: hours before the start 0–8760, a fee of 0 or more
// centavos, a percentage 0–100 with at most two decimals. An EINVALID error names each bad field.
func (ch SelfCancelChange) Apply(p SelfCancelPolicy) (SelfCancelPolicy, error) {
	fields := map[string]string{}
	if ch.Enabled != nil {
		p.Enabled = *ch.Enabled
	}
	if h := ch.HoursBefore; h != nil {
		if *h < 0 || *h > MaxSelfCancelHours {
			fields[FieldSelfCancelHours] = "from 0 to 8760."
		}
		p.HoursBefore = *h
	}
	if ch.Fee != nil {
		if *ch.Fee < 0 {
			fields[FieldSelfCancelFee] = "0 or more centavos."
		}
		p.Fee = Money(*ch.Fee)
	}
	if ch.Percent != nil {
		bp, ok := selfCancelPercentBP(*ch.Percent)
		if !ok {
			fields[FieldSelfCancelPercent] = "from 0 to 100, at most two decimals."
		}
		p.PercentBP = bp
	}
	if len(fields) > 0 {
		return p, &Error{Code: EINVALID, Message: "Check the cancellation settings.", Fields: fields}
	}
	return p, nil
}

func orZero(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return "0"
	}
	return s
}

// parsePesos reads '50', '49.5' or '1,000.00' as centavos.
func parsePesos(s string) (Money, bool) {
	s = strings.ReplaceAll(strings.TrimPrefix(orZero(s), "₱"), ",", "")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v > 1e9 || math.Abs(v*100-math.Round(v*100)) > 1e-6 {
		return 0, false
	}
	return Money(math.Round(v * 100)), true
}

// Statuses of a returned ticket.
const (
	ReturnOpen      = "open"      // on sale (waiting list first); the ticket is void meanwhile
	ReturnSold      = "sold"      // another buyer paid: the first buyer's refund is pending or done
	ReturnWithdrawn = "withdrawn" // taken back by its buyer before anyone paid for it
	ReturnRefunded  = "refunded"  // refunded with its order (event cancelled, organizer) before anyone bought it
)

// TicketReturn is a ticket its buyer returned at face value.
type TicketReturn struct {
	ID           int64
	TicketID     int64
	TicketCode   string
	Amount       Money  // the face value paid, refunded once another buyer pays
	Status       string // ReturnOpen, ReturnSold, ReturnWithdrawn or ReturnRefunded
	RefundStatus string // of the refund written when sold or refunded: 'pending', 'refunded' or 'failed'
	CreatedAt    time.Time
	ClosedAt     time.Time
}

// SelfCancelQuote is what a buyer gets back when cancelling an order now.
type SelfCancelQuote struct {
	Allowed  bool      // the policy allows it now and something is left to cancel
	Reason   string    // why not, for the buyer, when not Allowed
	Deadline time.Time // the policy's deadline
	Tickets  int       // the tickets that would be cancelled
	Paid     Money     // paid for those tickets
	Fee      Money     // kept by the organizer
	Refund   Money     // Paid - Fee
	Policy   SelfCancelPolicy
}

// OrderRefundLine is one refund written for an order, as the buyer's order page shows it.
type OrderRefundLine struct {
	PublicID string
	Reason   string // 'organizer', 'event_cancelled', 'buyer_cancelled' or 'returned'
	Status   string // 'pending', 'refunded' or 'failed'
	Amount   Money
	Fee      Money
}

// ReturnsService runs buyers' self-cancellations and face-value returns.
type ReturnsService interface {
	// SelfCancelPolicy returns an event's policy (the zero policy when none is set).
	SelfCancelPolicy(ctx context.Context, eventID int64) (SelfCancelPolicy, error)
	// SetSelfCancelPolicy saves an event's policy; a disabled one lets no buyer cancel.
	SetSelfCancelPolicy(ctx context.Context, eventID int64, p SelfCancelPolicy, actor string, now time.Time) error
	// QuoteSelfCancel says whether the order's buyer may cancel at now and what they get back.
	QuoteSelfCancel(ctx context.Context, orderPublicID string, now time.Time) (*SelfCancelQuote, error)
	// SelfCancel cancels the order's valid tickets at now and writes the pending refund of
	// their price minus the fee, in one write; the buyer is e-mailed.
	SelfCancel(ctx context.Context, orderPublicID string, now time.Time) (*SelfCancelQuote, error)
	// ReturnTicket puts a ticket of the order back on sale at face value (waiting list first).
	ReturnTicket(ctx context.Context, orderPublicID, ticketPublicID string, now time.Time) error
	// WithdrawReturn gives a returned ticket back to its buyer while nobody is buying it.
	WithdrawReturn(ctx context.Context, orderPublicID, ticketPublicID string, now time.Time) error
	// OrderReturns lists the order's returns, newest first.
	OrderReturns(ctx context.Context, orderPublicID string) ([]TicketReturn, error)
	// EventReturns lists the event's returns, newest first.
	EventReturns(ctx context.Context, eventID int64) ([]TicketReturn, error)
	// OrderRefunds lists the refunds written for the order, oldest first.
	OrderRefunds(ctx context.Context, orderPublicID string) ([]OrderRefundLine, error)
}

// ReturnsComposer writes the e-mails of self-cancellations and returns.
type ReturnsComposer interface {
	// SelfCancelled tells the buyer that their order is cancelled and what will be refunded.
	SelfCancelled(o *Order, q *SelfCancelQuote) Message
	// ReturnSold tells the buyer that their returned ticket was bought and is being refunded.
	ReturnSold(o *Order, code string, amount Money) Message
}

// Message kinds of self-cancellations and returns.
const (
	MessageSelfCancelled = "self_cancelled" // to the buyer who cancelled their order
	MessageReturnSold    = "return_sold"    // to the buyer whose returned ticket was bought
)
