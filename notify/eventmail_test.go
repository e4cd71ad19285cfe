package notify

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// sampleEvent is an event whose name carries HTML, as a careless organizer might write it.
func sampleEvent() *palaro.Event {
	return &palaro.Event{ID: 1, Code: "fiesta", Name: "Fiesta <i>Live</i>", Status: palaro.EventScheduled,
		StartsAt: time.Date(2026, 12, 5, 18, 0, 0, 0, palaro.Manila), EndsAt: time.Date(2026, 12, 5, 22, 0, 0, 0, palaro.Manila),
		Venue: palaro.Venue{Name: "Plaza", Address: "1 Rizal St", City: "Cebu"}, Organizer: palaro.Organizer{Name: "Fiesta Org"}}
}

func TestCheckEmailWords(t *testing.T) {
	for _, ok := range []string{"", "Hi {name}, see you at {venue} on {date} for {event}.", "No placeholders at all."} {
		require.NoError(t, palaro.CheckEmailWords("reminder", ok), ok)
	}
	for words, want := range map[string]string{
		"Hi {fullname}!":          "Unknown placeholder {fullname}",
		"Hi {name} {Name} {Name}": "Unknown placeholder {Name}: use only",
		"Hi {name":                "A brace is not closed",
		"Hi name}":                "A brace is not closed",
		"{}":                      "Unknown placeholder {}",
		strings.Repeat("x", 2001): "at most 2000 characters",
	} {
		err := palaro.CheckEmailWords("reminder", words)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), words)
		require.Contains(t, err.(*palaro.Error).Fields["reminder"], want)
	}
}

// TestReminder_WordsEscaped: the organizer's words are filled and split into paragraphs; in the
// HTML part every character of theirs (and of the event's name) is text, never markup.
func TestReminder_WordsEscaped(t *testing.T) {
	c := NewComposer("https://palaro.test", "help@palaro.test")
	c.TicketQR = func(code string) string { return "QR:" + code }
	ev := sampleEvent()
	tk := &palaro.Ticket{PublicID: "pub1", Code: "ABC-123", Event: ev, HolderName: "Ana <script>", Email: "ana@x.ph",
		Status: palaro.TicketValid, TicketType: palaro.TicketType{Name: "VIP"}}
	m := c.Reminder(tk, "Hi {name}!\n\n<a href=\"https://evil.test\">Click</a> for {event} at {venue}, {date}.")
	require.Equal(t, palaro.MessageReminder, m.Kind)
	require.Equal(t, "ana@x.ph", m.To)
	require.Contains(t, m.Text, "Hi Ana <script>!\n\n<a href=\"https://evil.test\">Click</a> for Fiesta <i>Live</i> at Plaza, 1 Rizal St, Cebu, Sat, 5 Dec 2026, 6:00 PM.")
	require.NotContains(t, m.HTML, "<script>")
	require.NotContains(t, m.HTML, "evil.test\">")
	require.NotContains(t, m.HTML, "<i>Live")
	require.Contains(t, m.HTML, "Hi Ana &lt;script&gt;!</p>")
	require.Contains(t, m.HTML, "&lt;a href=")
	require.Contains(t, m.HTML, "https://palaro.test/e/fiesta/calendar.ics")
	require.Contains(t, m.HTML, "https://calendar.google.com/calendar/render?")
	require.Len(t, m.Images, 1)
	require.Contains(t, m.HTML, "cid:"+m.Images[0].ContentID)

	def := c.Reminder(tk, "")
	require.Contains(t, def.Text, "Hi Ana <script>, Fiesta <i>Live</i> starts on Sat, 5 Dec 2026, 6:00 PM at Plaza, 1 Rizal St, Cebu.")
}

// TestOrderConfirmationWith: the organizer's words open the confirmation; the tickets stay Palaro's.
func TestOrderConfirmationWith(t *testing.T) {
	c := NewComposer("https://palaro.test", "help@palaro.test")
	ev := sampleEvent()
	tt := palaro.TicketType{Name: "VIP"}
	o := &palaro.Order{PublicID: "ord1", Kind: palaro.OrderKindTickets, Email: "ana@x.ph", Quantity: 1, Event: ev, TicketType: &tt,
		Buyer: palaro.Buyer{FirstName: "Ana", LastName: "Cruz"}, Tickets: []palaro.Ticket{{PublicID: "pub1", Code: "ABC-123"}}}
	m := c.OrderConfirmationWith(o, "Salamat {name}! Doors open an hour before {date}.")
	require.Contains(t, m.Text, "Salamat Ana Cruz! Doors open an hour before Sat, 5 Dec 2026, 6:00 PM.")
	require.NotContains(t, m.Text, "Thank you for your order!")
	require.Contains(t, m.Text, "https://palaro.test/t/pub1")
	require.Equal(t, c.OrderConfirmation(o).Text, c.OrderConfirmationWith(o, "").Text)
	require.Contains(t, c.OrderConfirmation(o).Text, "Thank you for your order!")
}

// TestOrganizerMessage_Escaped: an organizer's message keeps its subject and words as text.
func TestOrganizerMessage_Escaped(t *testing.T) {
	c := NewComposer("https://palaro.test", "help@palaro.test")
	ev := sampleEvent()
	m := c.OrganizerMessage(ev, palaro.OrganizerMessage{Subject: "Gates <b>open</b>", Body: "Hi {name}, bring <ID>."}, "ana@x.ph",
		[]*palaro.Ticket{{PublicID: "pub1", Code: "ABC-123", HolderName: "Ana"}})
	require.Equal(t, "Gates <b>open</b>", m.Subject)
	require.Contains(t, m.Text, "Hi Ana, bring <ID>.")
	require.Contains(t, m.HTML, "Gates &lt;b&gt;open&lt;/b&gt;")
	require.Contains(t, m.HTML, "bring &lt;ID&gt;.")
	require.Contains(t, m.HTML, "https://palaro.test/t/pub1")
}
