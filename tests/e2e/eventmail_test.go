package e2e

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// outboxOf returns the outbox's messages of a kind, composed as the worker would send them.
func outboxOf(t *testing.T, a *testApp, kind string) []palaro.OutboxMessage {
	t.Helper()
	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{Limit: 1000})
	require.NoError(t, err)
	var out []palaro.OutboxMessage
	for _, m := range msgs {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// TestMessages_CountAndRecord: an owner writes to an event's ticket holders from the console: the
// confirmation step shows how many people it goes to and sends nothing; confirming queues one
// e-mail per holder's address and the messages page lists it with that count. A gate member
// cannot open the page; words with an unknown placeholder are refused.
func TestMessages_CountAndRecord(t *testing.T) {
	a := startApp(t)
	ev, holders := eventHolders(t, a, changedEvent)
	people := palaro.Plural(len(holders), "person", "people")

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + changedEvent + "/messages"
	code, body := owner.get(base)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "No messages sent yet.")

	form := url.Values{"ticketType": {""}, "subject": {"Gates open at 5 PM"}, "body": {"Hi {name}!\n\nGates of {event} open at 5 PM."}}
	code, body = owner.post(base, form)
	require.Equal(t, http.StatusOK, code, body)
	require.Contains(t, html.UnescapeString(body), "Send this message to "+people+"?")
	require.Contains(t, body, `name="confirm" value="yes"`)
	require.Empty(t, outboxOf(t, a, palaro.MessageOrganizerMessage), "nothing is sent before the confirmation")

	form.Set("confirm", "yes")
	code, body = owner.post(base, form)
	require.Equal(t, http.StatusSeeOther, code, body)
	code, body = owner.get(base + "?notice=messageSent")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "Gates open at 5 PM")
	require.Contains(t, body, "<span data-recipients>"+strconv.Itoa(len(holders))+"</span>")
	require.Contains(t, body, store.DemoOrganizerEmail)

	sent := outboxOf(t, a, palaro.MessageOrganizerMessage)
	require.Len(t, sent, len(holders), "one e-mail per address")
	for _, m := range sent {
		require.Contains(t, holders, m.To)
		require.Equal(t, "Gates open at 5 PM", m.Subject)
		require.Contains(t, m.Text, "Gates of "+ev.Name+" open at 5 PM.")
	}

	code, body = owner.post(base, url.Values{"subject": {"Hi"}, "body": {"Hello {who}"}})
	require.Equal(t, http.StatusUnprocessableEntity, code)
	require.Contains(t, body, "Unknown placeholder {who}")

	gate := signedIn(t, a, store.DemoGateEmail)
	code, _ = gate.get(base)
	require.Contains(t, []int{http.StatusForbidden, http.StatusNotFound}, code, "owner and manager only")
}

// TestEmails_Console: the e-mails page refuses an unknown placeholder, saves the words, previews
// both e-mails with the words filled in and escaped, and sends a test of both to the organizer.
func TestEmails_Console(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + changedEvent + "/emails"
	code, body := owner.get(base)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `value="24"`)

	code, body = owner.post(base, url.Values{"confirmation": {"Hi {nmae}"}, "reminder": {""}, "reminderHours": {"24"}})
	require.Equal(t, http.StatusUnprocessableEntity, code)
	require.Contains(t, body, "Unknown placeholder {nmae}")

	words := url.Values{"confirmation": {"Salamat {name}! <b>See you</b> at {venue}."}, "reminder": {"Tomorrow: {event}, {date}."}, "reminderHours": {"12"}}
	code, _ = owner.post(base, words)
	require.Equal(t, http.StatusSeeOther, code)
	code, body = owner.get(base)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `value="12"`)
	require.Contains(t, body, "Salamat {name}! &lt;b&gt;See you&lt;/b&gt;")

	code, body = owner.post(base+"/preview", words)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "Salamat Juan Dela Cruz! &lt;b&gt;See you&lt;/b&gt; at ")
	require.Contains(t, body, "Tomorrow: Tekken")
	require.NotContains(t, body, "<b>See you")

	code, body = owner.post(base+"/test", words)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "The test e-mails are on their way")
	tests := outboxOf(t, a, palaro.MessageEmailTest)
	require.Len(t, tests, 2)
	for _, m := range tests {
		require.Equal(t, store.DemoOrganizerEmail, m.To)
		require.Contains(t, m.Subject, "[Test]")
	}
}
