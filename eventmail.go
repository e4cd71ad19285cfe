package palaro

import (
	"context"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Message kinds of an event's own e-mails: reminders, organizers' messages and test sends.
const (
	// MessageReminder reminds a ticket holder of their event a set time before it starts.
	MessageReminder = "reminder"
	// MessageOrganizerMessage is an organizer's message to the holders of an event's tickets.
	MessageOrganizerMessage = "organizer_message"
	// MessageEmailTest is an organizer's test send of their words for an e-mail, to themselves.
	MessageEmailTest = "email_test"
)

// Kinds of e-mail whose words an organizer may write for an event.
const (
	EmailConfirmation = "confirmation"
	EmailReminder     = "reminder"
)

// Reminder timing: hours before an event's start its reminder goes out.
const (
	DefaultReminderHours = 24
	MaxReminderHours     = 168 // a week
)

// MaxEmailWords is how long an organizer's words for one e-mail may be, in characters.
const MaxEmailWords = 2000

// Form fields of an event's e-mail settings and of an organizer's message.
const (
	FieldConfirmationWords = "confirmation"
	FieldReminderWords     = "reminder"
	FieldReminderHours     = "reminderHours"
	FieldMessageSubject    = "subject"
	FieldMessageBody       = "body"
	FieldMessageTicketType = "ticketType"
)

// EmailPlaceholders are the names an organizer's words may use in braces, such as {name}.
var EmailPlaceholders = []string{"name", "event", "date", "venue"}

// EmailVars are the values of the placeholders for one e-mail.
type EmailVars struct {
	Name  string // the ticket holder's name
	Event string // the event's name
	Date  string // the event's start, Manila time
	Venue string // the venue's name, address and city
}

var placeholderPattern = regexp.MustCompile(`\{[^{}]*\}`)

// CheckEmailWords checks an organizer's words for one e-mail (field names the form field):
// plain text of at most MaxEmailWords characters whose braces hold only known placeholders.
// Returns EINVALID with the field's message.
func CheckEmailWords(field, words string) error {
	msg := ""
	switch {
	case len([]rune(words)) > MaxEmailWords:
		msg = "Write at most " + strconv.Itoa(MaxEmailWords) + " characters."
	default:
		var unknown []string
		for _, p := range placeholderPattern.FindAllString(words, -1) {
			if name := p[1 : len(p)-1]; !slices.Contains(EmailPlaceholders, name) && !slices.Contains(unknown, p) {
				unknown = append(unknown, p)
			}
		}
		rest := placeholderPattern.ReplaceAllString(words, "")
		switch {
		case len(unknown) > 0:
			msg = "Unknown placeholder " + strings.Join(unknown, ", ") + ": use only {name}, {event}, {date} and {venue}."
		case strings.ContainsAny(rest, "{}"):
			msg = "A brace is not closed: placeholders are written as {name}, {event}, {date} or {venue}."
		}
	}
	if msg == "" {
		return nil
	}
	return &Error{Code: EINVALID, Message: msg, Fields: map[string]string{field: msg}}
}

// FillEmailWords replaces the placeholders of checked words with v's values, as plain text.
func FillEmailWords(words string, v EmailVars) string {
	return strings.NewReplacer("{name}", v.Name, "{event}", v.Event, "{date}", v.Date, "{venue}", v.Venue).Replace(words)
}

// EmailParagraphs splits plain words into paragraphs at blank lines, without empty ones.
func EmailParagraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// EventEmails are an event's e-mail settings: the organizer's words ("" for Palaro's) and when
// reminders go out.
type EventEmails struct {
	Confirmation string
	Reminder     string
	// ReminderHours is how long before the start each ticket's reminder goes out; 0 sends none.
	ReminderHours int
	UpdatedAt     time.Time
	UpdatedBy     string
}

// Check checks the settings. Returns EINVALID with Fields.
func (e EventEmails) Check() error {
	fields := map[string]string{}
	for _, w := range []struct{ field, words string }{{FieldConfirmationWords, e.Confirmation}, {FieldReminderWords, e.Reminder}} {
		if err := CheckEmailWords(w.field, w.words); err != nil {
			fields[w.field] = err.(*Error).Fields[w.field]
		}
	}
	if e.ReminderHours < 0 || e.ReminderHours > MaxReminderHours {
		fields[FieldReminderHours] = "Send reminders 0 to " + strconv.Itoa(MaxReminderHours) + " hours before the start (0: none)."
	}
	return fieldsError(fields)
}

// OrganizerMessage is a message an organizer sent to the holders of an event's tickets (or of
// one ticket type's).
type OrganizerMessage struct {
	ID      int64
	EventID int64
	// TicketTypeCode names the ticket type whose holders get it; "" for every holder.
	TicketTypeCode string
	TicketTypeName string
	Subject        string
	Body           string
	// Recipients is how many addresses it was queued for.
	Recipients int
	SentBy     string
	CreatedAt  time.Time
}

// Check checks a message before it is sent. Returns EINVALID with Fields.
func (m OrganizerMessage) Check() error {
	fields := map[string]string{}
	switch s := strings.TrimSpace(m.Subject); {
	case s == "":
		fields[FieldMessageSubject] = "Write a subject."
	case len([]rune(s)) > 120 || strings.ContainsAny(s, "\r\n"):
		fields[FieldMessageSubject] = "Write a subject of at most 120 characters on one line."
	}
	if strings.TrimSpace(m.Body) == "" {
		fields[FieldMessageBody] = "Write the message."
	} else if err := CheckEmailWords(FieldMessageBody, m.Body); err != nil {
		fields[FieldMessageBody] = err.(*Error).Fields[FieldMessageBody]
	}
	return fieldsError(fields)
}

// EventEmailComposer writes the e-mails whose words an event's organizer may set.
type EventEmailComposer interface {
	// OrderConfirmationWith is OrderConfirmation with the organizer's words ("" for Palaro's).
	OrderConfirmationWith(o *Order, words string) Message
	// Reminder reminds t's holder (t.Email) of t.Event, with the ticket's QR code and the
	// calendar links, in the organizer's words ("" for Palaro's).
	Reminder(t *Ticket, words string) Message
	// OrganizerMessage is message m of event ev to the address to, holder of tickets (as they
	// are when it is sent).
	OrganizerMessage(ev *Event, m OrganizerMessage, to string, tickets []*Ticket) Message
}

// EventMailService keeps an event's e-mail settings, reminders and organizers' messages.
type EventMailService interface {
	// EventEmails returns an event's e-mail settings (the defaults when never saved).
	EventEmails(ctx context.Context, eventID int64) (EventEmails, error)
	// SaveEventEmails stores an event's e-mail settings. Returns EINVALID (with Fields).
	SaveEventEmails(ctx context.Context, eventID int64, actor string, e EventEmails, now time.Time) error
	// SampleEmail composes the confirmation or reminder (kind) of event ev in words, as the
	// address to named name would get it, with a sample ticket. Returns EINVALID for bad words.
	SampleEmail(ctx context.Context, ev *Event, kind, words, to, name string) (Message, error)
	// SendTestEmail queues SampleEmail's message to the address to. Returns EINVALID.
	SendTestEmail(ctx context.Context, ev *Event, kind, words, to, name string, now time.Time) error
	// CountRecipients returns how many addresses hold a valid or checked-in ticket of the event
	// (of the ticket type code, when not ""). Returns ENOTFOUND for an unknown ticket type.
	CountRecipients(ctx context.Context, eventID int64, ticketTypeCode string) (int, error)
	// SendMessage records message m of the event and queues it, throttled, once per address that
	// holds a ticket then, in one write. Returns EINVALID (with Fields), ENOTFOUND.
	SendMessage(ctx context.Context, eventID int64, actor string, m OrganizerMessage, now time.Time) (*OrganizerMessage, error)
	// ListMessages returns the messages sent for the event, newest first.
	ListMessages(ctx context.Context, eventID int64) ([]OrganizerMessage, error)
	// QueueReminders queues the reminders that are due at now, once per ticket, and returns how
	// many it queued.
	QueueReminders(ctx context.Context, now time.Time) (int, error)
}

// DefaultReminderWords are Palaro's words of a reminder, used when the organizer wrote none.
const DefaultReminderWords = "Hi {name}, {event} starts on {date} at {venue}. Your ticket is below: show its QR code at the gate."

// GoogleCalendarURL is the link that adds event ev to Google Calendar; baseURL is the site's.
func GoogleCalendarURL(ev *Event, baseURL string) string {
	const layout = "20060102T150405Z"
	q := url.Values{}
	q.Set("action", "TEMPLATE")
	q.Set("text", ev.Name)
	q.Set("dates", ev.StartsAt.UTC().Format(layout)+"/"+ev.EndsAt.UTC().Format(layout))
	q.Set("details", ev.Summary+"\n"+baseURL+"/e/"+ev.Code)
	q.Set("location", ev.Venue.Name+", "+ev.Venue.Address+", "+ev.Venue.City)
	q.Set("ctz", "Asia/Manila")
	return "https://calendar.google.com/calendar/render?" + q.Encode()
}

// EventICSPath is the .ics file that adds an event to a calendar.
func EventICSPath(code string) string { return "/e/" + code + "/calendar.ics" }
