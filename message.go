package palaro

import (
	"context"
	"strings"
	"time"
)

// Outbox channels: how a message is delivered.
const (
	ChannelEmail = "email"
	ChannelSMS   = "sms"
)

// Outbox message statuses.
const (
	MessagePending = "pending" // waiting to be sent (or retried)
	MessageSent    = "sent"
	MessageFailed  = "failed" // gave up after the last retry
)

// Message kinds, so an operator and a test can tell messages apart.
const (
	MessageOrderConfirmation = "order_confirmation"
	MessageAddOnReceipt      = "add_on_receipt"
	MessageEmailChange       = "email_change"     // to the current holder: consent to a transfer
	MessageTransferReceipt   = "transfer_receipt" // to the new address: confirm receipt
	MessageTransferDone      = "transfer_done"    // to both addresses once the ticket is reissued
	MessageTicketsLink       = "tickets_link"
	MessageWebhookPaused     = "webhook_paused" // to an organization's owners: an endpoint failed for three days
	// MessageEventChanged tells a ticket holder that the event is postponed, rescheduled or cancelled.
	MessageEventChanged = "event_changed"
)

// EventChange is a change of a published event that its ticket holders are told about, as it
// was made (EventChangeKind).
type EventChange struct {
	ID int64
	// Kind is EventPostponed, EventRescheduled or EventCancelled.
	Kind string
	// Sequence is the event's iCalendar SEQUENCE after the change.
	Sequence int
	// Old and New are the event's schedule before and after the change.
	Old, New  EventSchedule
	CreatedAt time.Time
	// Date is the slug of the series date that changed ("" for a change of the event itself),
	// DateName its own name; Sequence is then the date's.
	Date, DateName string
}

// EventChangeComposer writes the e-mail that tells a ticket holder of a change of their event.
type EventChangeComposer interface {
	// EventChanged tells the address to, holder of tickets (as they are when it is sent) of event
	// ev, of change ch.
	EventChanged(ch EventChange, ev *Event, to string, tickets []*Ticket) Message
}

// Jobs are outbox messages that are work for the outbox worker rather than messages to deliver:
// a call that must answer in the same time whatever it is asked about queues one, and the
// worker does the work (JobRunner), which may queue a real message.
const (
	// JobTicketsLink asks for a link to the tickets of the address in To; it becomes a
	// MessageTicketsLink when the address has tickets, and nothing otherwise.
	JobTicketsLink = "job_tickets_link"
)

// IsJob reports whether an outbox message kind is a job.
func IsJob(kind string) bool { return strings.HasPrefix(kind, "job_") }

// JobRunner does the work of job messages.
type JobRunner interface {
	// RunJob does the work of one job message at now. Returns EINVALID for an unknown kind.
	RunJob(ctx context.Context, m Message, now time.Time) error
}

// Message is one e-mail (or, later, SMS) to send.
type Message struct {
	Channel string
	Kind    string
	To      string
	Subject string
	Text    string // plain-text body
	HTML    string // HTML body; empty for SMS
	// Images are pictures the HTML body shows inline (src="cid:…"), sent as its related parts;
	// composed with the message when it is sent, never stored in the outbox.
	Images []InlineImage
}

// InlineImage is a PNG an HTML e-mail shows inline: its body refers to it as cid:ContentID.
type InlineImage struct {
	ContentID string // unique in the message, such as "ticket-abc123@palaro"
	Name      string // file name, such as "ticket-abc123.png"
	PNG       []byte
}

// OutboxMessage is a Message stored in the outbox with its delivery state.
type OutboxMessage struct {
	ID int64
	Message
	Status        string
	Attempts      int
	LastError     string
	NextAttemptAt time.Time
	CreatedAt     time.Time
	SentAt        time.Time
}

// OutboxOutcome is what became of one send of a claimed message.
type OutboxOutcome struct {
	ID int64
	// Sent says the message went out, at SentAt.
	Sent   bool
	SentAt time.Time
	// Error says why the send failed; RetryAt is when to try again, zero to give up.
	Error   string
	RetryAt time.Time
}

// OutboxFilter selects outbox messages for the operator's list.
type OutboxFilter struct {
	To     string // "" for every recipient
	Status string // "" for every status
	Limit  int
}

// Outbox stores messages written alongside the changes that caused them, for a worker to send.
type Outbox interface {
	// ClaimDue marks up to limit pending messages that are due at now as claimed until now+lease
	// and returns them; a claimed message is not returned again before its lease ends.
	ClaimDue(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]OutboxMessage, error)
	// Record stores the outcomes of claimed messages' sends, all in one write. Returns ENOTFOUND
	// naming the unknown ids, after recording the others.
	Record(ctx context.Context, outcomes []OutboxOutcome) error
	// ListOutbox returns messages, newest first. Returns EINVALID for a bad filter.
	ListOutbox(ctx context.Context, f OutboxFilter) ([]OutboxMessage, error)
}

// Composer writes the messages the purchase path sends. The store queues a message inside the
// transaction that causes it, so a message exists exactly when its cause does; an order's
// confirmation is queued as a row naming the order and composed when it is sent.
type Composer interface {
	// OrderConfirmation is sent once when an order's tickets are issued (or its add-ons bought).
	OrderConfirmation(o *Order) Message
	// EmailChangeConfirmation asks a ticket's current holder (t.Email) to consent to its move to
	// newEmail, with a link carrying token.
	EmailChangeConfirmation(t *Ticket, newEmail, token string) Message
	// TransferReceipt asks newEmail to confirm that it receives ticket t, with a link carrying token.
	TransferReceipt(t *Ticket, newEmail, token string) Message
	// TransferDone tells an address (the old holder's or the new one's) that ticket t, reissued,
	// now belongs to t.Email; only the new holder's message links the ticket.
	TransferDone(t *Ticket, to, fromEmail string) Message
	// TicketsLink sends an address a link, carrying token, that lists its tickets.
	TicketsLink(email, token string, tickets []*Ticket) Message
}

// URL paths of the purchase pages, shared by handlers, e-mails and tests.

// OrderPath is the payment success page of an order.
func OrderPath(orderPublicID string) string { return "/payment/success/" + orderPublicID }

// TicketPath is the page of a ticket.
func TicketPath(ticketPublicID string) string { return "/t/" + ticketPublicID }

// AddOnsPath is the page where add-ons are bought for a ticket.
func AddOnsPath(ticketPublicID string) string { return "/a/" + ticketPublicID }

// ChangeTicketSuccessPath is where a buyer lands once add-ons bought for a ticket are paid.
func ChangeTicketSuccessPath(ticketPublicID string) string {
	return "/change-ticket/success/" + ticketPublicID
}

// EmailChangeConfirmPath is the link that confirms a ticket's new e-mail address.
func EmailChangeConfirmPath(token string) string { return "/change-email/confirm/" + token }

// EmailChangeSuccessPath is where a confirmed e-mail change lands.
func EmailChangeSuccessPath(ticketPublicID string) string {
	return "/change-email/success/" + ticketPublicID
}

// TicketsLinkPath is the signed link that lists an e-mail address's tickets.
func TicketsLinkPath(token string) string { return "/tickets/" + token }
