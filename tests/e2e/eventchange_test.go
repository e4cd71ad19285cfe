package e2e

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
	"palaro/store"
)

// changedEvent is a demo event of the demo organizer, ahead of the test clock, with ticket holders.
const changedEvent = "tekken-tuesdays-cubao"

// icsEvent fetches a calendar export, parses it with the iCalendar library and returns the event
// whose UID is uid with its STATUS and SEQUENCE.
func icsEvent(t *testing.T, v *httpVisitor, path, uid string) (status string, sequence int) {
	t.Helper()
	code, body := v.get(path)
	require.Equal(t, http.StatusOK, code, body)
	cal, err := ics.ParseCalendar(strings.NewReader(body))
	require.NoError(t, err, body)
	for _, e := range cal.Events() {
		if e.Id() != uid {
			continue
		}
		st := e.GetProperty(ics.ComponentPropertyStatus)
		require.NotNil(t, st, "STATUS of %s", uid)
		seq := e.GetProperty(ics.ComponentPropertySequence)
		require.NotNil(t, seq, "SEQUENCE of %s", uid)
		n, err := strconv.Atoi(seq.Value)
		require.NoError(t, err)
		return st.Value, n
	}
	t.Fatalf("%s has no event %s:\n%s", path, uid, body)
	return "", 0
}

// eventHolders returns an event of the test app and its ticket holders: each address holding a
// ticket that is not cancelled, with the public id of one of its tickets.
func eventHolders(t *testing.T, a *testApp, code string) (*palaro.Event, map[string]string) {
	t.Helper()
	ctx := context.Background()
	organizers := store.NewOrganizerService(a.DB(), nil)
	ev, err := organizers.FindEvent(ctx, code)
	require.NoError(t, err)
	attendees, err := organizers.ListAttendees(ctx, ev.ID)
	require.NoError(t, err)
	holders := map[string]string{}
	for _, at := range attendees {
		if at.Status != palaro.TicketCancelled {
			holders[at.Email] = at.PublicID
		}
	}
	require.NotEmpty(t, holders, "the event has ticket holders")
	return ev, holders
}

// TestEventChange_TellsHolders postpones, reschedules and cancels a published event from the
// console: each change queues one e-mail per ticket holder (composed by the worker's claim, with
// the holder's ticket links), the ticket page says so, and the event's and the month's .ics carry
// the state and a SEQUENCE that grows with each change.
func TestEventChange_TellsHolders(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	ev, holders := eventHolders(t, a, changedEvent)

	changeMails := func() map[string][]palaro.OutboxMessage {
		msgs, err := a.Outbox().ListOutbox(ctx, palaro.OutboxFilter{Limit: 1000})
		require.NoError(t, err)
		by := map[string][]palaro.OutboxMessage{}
		for _, m := range msgs {
			if m.Kind == palaro.MessageEventChanged {
				by[m.To] = append(by[m.To], m)
			}
		}
		return by
	}
	require.Empty(t, changeMails())

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + changedEvent
	uid := changedEvent + "@palaro.ph"
	month := "/calendar.ics?month=" + ev.StartsAt.In(palaro.Manila).Format("2006-01")
	visitor := newVisitor(t, a)
	st, seq := icsEvent(t, visitor, "/e/"+changedEvent+"/calendar.ics", uid)
	require.Equal(t, "CONFIRMED", st)
	require.Equal(t, 0, seq)

	setStatus := func(status string) {
		t.Helper()
		code, body := owner.post(base+"/status", url.Values{"status": {status}})
		require.Equal(t, http.StatusSeeOther, code, body)
	}
	anyHolder, anyTicket := "", ""
	for e, id := range holders {
		anyHolder, anyTicket = e, id
		break
	}
	steps := []struct {
		status, icsStatus, subject, ticketPage string
	}{
		{"postponed", "TENTATIVE", "is postponed", "This event is postponed"},
		{"published", "CONFIRMED", "has a new date", "date or place changed"},
		{"cancelled", "CANCELLED", "is cancelled", "This event is cancelled"},
	}
	for i, step := range steps {
		setStatus(step.status)
		if i == 0 {
			setStatus(step.status) // postponing again changes nothing: no second e-mail, same SEQUENCE
		}
		mails := changeMails()
		require.Len(t, mails, len(holders), "every holder is told (%s)", step.status)
		for to, ms := range mails {
			require.Contains(t, holders, to)
			require.Len(t, ms, i+1, "one e-mail per holder per change (%s)", to)
			m := ms[0] // newest first
			require.Contains(t, m.Subject, step.subject)
			require.Contains(t, m.Text, a.URL+palaro.TicketPath(holders[to]), "links the holder's ticket")
		}
		for _, path := range []string{"/e/" + changedEvent + "/calendar.ics", month} {
			st, seq := icsEvent(t, visitor, path, uid)
			require.Equal(t, step.icsStatus, st, path)
			require.Equal(t, i+1, seq, path)
		}
		code, body := visitor.get(palaro.TicketPath(anyTicket))
		require.Equal(t, http.StatusOK, code)
		require.Contains(t, body, step.ticketPage, "ticket page of %s", anyHolder)
	}

	// the worker's claim composes them too, each once
	claimed, err := a.Outbox().ClaimDue(ctx, a.Now().Add(1), 1000, 60e9)
	require.NoError(t, err)
	n := 0
	for _, m := range claimed {
		if m.Kind == palaro.MessageEventChanged {
			n++
			require.NotEmpty(t, m.Text)
			require.NotEmpty(t, m.HTML)
		}
	}
	require.Equal(t, 3*len(holders), n)
}

// TestQueuedSale_CancelledOrEndedSaysNothing: the event page of a queued sale speaks of the queue
// while the event is on, and not once it is cancelled or over (it said "The sale is open through a
// queue" above "Sales ended").
func TestQueuedSale_CancelledOrEndedSaysNothing(t *testing.T) {
	clock := newSettableClock(testEpoch)
	a := startApp(t, func(cfg *app.Config) { cfg.Now = clock.Now; cfg.EventCache = 0 })
	org := signedIn(t, a, store.DemoOrganizerEmail)
	status, _ := org.post("/organizer/events/"+queueEvent+"/queue", url.Values{"opensAt": {"2026-03-18T09:30"}, "admitPerMinute": {"2"}})
	require.Equal(t, http.StatusSeeOther, status)
	visitor := newVisitor(t, a)
	_, page := visitor.get("/e/" + queueEvent)
	require.Contains(t, page, "The sale is open through a queue")

	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(context.Background(), queueEvent)
	require.NoError(t, err)
	clock.Set(ev.EndsAt.Add(time.Minute))
	_, page = visitor.get("/e/" + queueEvent)
	require.Contains(t, page, "This event has ended.")
	require.NotContains(t, page, "queue", "an ended event says nothing of the queue")

	clock.Set(testEpoch)
	status, _ = org.post("/organizer/events/"+queueEvent+"/status", url.Values{"status": {"cancelled"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, page = visitor.get("/e/" + queueEvent)
	require.Contains(t, page, "Sales ended")
	require.NotContains(t, page, "queue", "a cancelled event says nothing of the queue")
}

// TestEventChange_NewDateTellsHolders: a published event moved to another date through the
// organizer API is a rescheduling: every holder gets the new date by e-mail, and the .ics's
// SEQUENCE grows while it stays CONFIRMED; a change of its description alone tells nobody.
func TestEventChange_NewDateTellsHolders(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2")
	api := orgAPI(t, newVisitor(t, a), tok)
	path := "/v1/organizer/events/" + changedEvent
	status, body := api(http.MethodPatch, path, `{"description":"Bring your own stick."}`)
	require.Equal(t, http.StatusOK, status, body)
	count := func() (n int, last palaro.OutboxMessage) {
		msgs, err := a.Outbox().ListOutbox(ctx, palaro.OutboxFilter{Limit: 1000})
		require.NoError(t, err)
		for _, m := range msgs {
			if m.Kind == palaro.MessageEventChanged {
				if n == 0 {
					last = m
				}
				n++
			}
		}
		return n, last
	}
	n, _ := count()
	require.Zero(t, n, "a new description tells nobody")

	newStart := testEpoch.AddDate(0, 0, 7).Add(9 * time.Hour) // a week later, 19:00 Manila
	status, body = api(http.MethodPatch, path, `{"startsAt":"`+newStart.Format(time.RFC3339)+`","endsAt":"`+
		newStart.Add(4*time.Hour).Format(time.RFC3339)+`"}`)
	require.Equal(t, http.StatusOK, status, body)
	n, last := count()
	require.Positive(t, n)
	require.Contains(t, last.Subject, "has a new date")
	require.Contains(t, last.Text, "Wed, 25 Mar 2026, 7:00 PM")
	st, seq := icsEvent(t, newVisitor(t, a), "/e/"+changedEvent+"/calendar.ics", changedEvent+"@palaro.ph")
	require.Equal(t, "CONFIRMED", st)
	require.Equal(t, 1, seq)
}
