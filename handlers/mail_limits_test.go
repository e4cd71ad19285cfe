package handlers_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
)

// runJobs drains the outbox once, as the outbox worker does: jobs are resolved, messages "sent".
func runJobs(t *testing.T, f *apiFixture) {
	t.Helper()
	w := &notify.Worker{Outbox: f.outbox, Sender: notify.LogSender{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
		Jobs: f.purchases, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return f.now }}
	for {
		n, err := w.Drain(context.Background())
		require.NoError(t, err)
		if n == 0 {
			return
		}
	}
}

// kinds returns the kinds of the outbox messages to an address, newest first.
func kinds(t *testing.T, f *apiFixture, to string) []string {
	t.Helper()
	msgs, err := f.outbox.ListOutbox(context.Background(), palaro.OutboxFilter{To: to})
	require.NoError(t, err)
	var out []string
	for _, m := range msgs {
		out = append(out, m.Kind)
	}
	return out
}

// newSession returns a copy of the fixture whose client has a session (and CSRF token) of its own.
func newSession(t *testing.T, f *apiFixture) *apiFixture {
	t.Helper()
	g := *f
	g.client, g.csrf = openSession(t, f.http.URL)
	return &g
}

// TestTicketsLink_SameWorkForEveryAddress checks the mechanism that keeps POST /v1/tickets/link
// from telling, by its timing, which addresses hold tickets: the handler only queues a job, the
// same for an address with tickets and one without, and answers before the work is done; the
// outbox worker then sends the link to the holder and nothing to the other.
func TestTicketsLink_SameWorkForEveryAddress(t *testing.T) {
	f := newAPIFixture(t)
	freeTicket(t, f, "holder@x.ph")
	before := kinds(t, f, "holder@x.ph")
	statusA, bodyA := f.call(t, "POST", "/v1/tickets/link", map[string]any{"email": "holder@x.ph"})
	statusB, bodyB := f.call(t, "POST", "/v1/tickets/link", map[string]any{"email": "nobody@x.ph"})
	require.Equal(t, 200, statusA)
	require.Equal(t, statusA, statusB)
	require.Equal(t, fmt.Sprint(bodyA["responseCode"]), fmt.Sprint(bodyB["responseCode"]))

	require.Equal(t, append([]string{palaro.JobTicketsLink}, before...), kinds(t, f, "holder@x.ph"),
		"the answer left before the link was made: only the job is queued")
	require.Equal(t, []string{palaro.JobTicketsLink}, kinds(t, f, "nobody@x.ph"), "the same job for an address without tickets")

	runJobs(t, f)
	require.Equal(t, append([]string{palaro.MessageTicketsLink, palaro.JobTicketsLink}, before...), kinds(t, f, "holder@x.ph"))
	require.Equal(t, []string{palaro.JobTicketsLink}, kinds(t, f, "nobody@x.ph"), "nothing is sent to an address without tickets")
	msgs, err := f.outbox.ListOutbox(context.Background(), palaro.OutboxFilter{To: "nobody@x.ph"})
	require.NoError(t, err)
	require.Equal(t, palaro.MessageSent, msgs[0].Status, "the job is done")
}

// TestMailRoutes_RateLimited sends the reported 40 change-of-address requests for one address
// and checks the routes that send e-mail are limited per recipient, per session and per IP.
func TestMailRoutes_RateLimited(t *testing.T) {
	t.Run("ErrPerRecipient", func(t *testing.T) {
		f := newAPIFixture(t)
		tk := freeTicket(t, f, "holder@x.ph")
		accepted := 0
		for i := range 40 {
			s := newSession(t, f) // a new session each time: only the recipient's limit applies
			status, body := s.call(t, "POST", "/v1/ticket/change-email", map[string]any{"uuid": tk.PublicID, "email": "victim@x.ph"})
			if status == 200 {
				accepted++
				continue
			}
			require.Equal(t, http.StatusTooManyRequests, status, "request %d: %v", i+1, body)
		}
		require.Equal(t, 5, accepted)
		var sent int // the holder is asked to consent: the e-mails go to the ticket's address
		for _, to := range []string{"holder@x.ph", "victim@x.ph"} {
			for _, k := range kinds(t, f, to) {
				if k != palaro.MessageOrderConfirmation {
					sent++
				}
			}
		}
		require.Equal(t, 5, sent, "40 requests, 5 e-mails")
		other := freeTicket(t, f, "other-holder@x.ph")
		status, _ := newSession(t, f).call(t, "POST", "/v1/ticket/change-email", map[string]any{"uuid": other.PublicID, "email": "other@x.ph"})
		require.Equal(t, 200, status, "another ticket and recipient are not held up")
		f.now = f.now.Add(21 * time.Minute)
		status, _ = newSession(t, f).call(t, "POST", "/v1/ticket/change-email", map[string]any{"uuid": tk.PublicID, "email": "victim@x.ph"})
		require.Equal(t, 200, status, "the limit refills")
	})
	t.Run("ErrPerSession", func(t *testing.T) {
		f := newAPIFixture(t)
		for i := range 10 {
			status, _ := f.call(t, "POST", "/v1/tickets/link", map[string]any{"email": fmt.Sprintf("a%d@x.ph", i)})
			require.Equal(t, 200, status)
		}
		status, _ := f.call(t, "POST", "/v1/tickets/link", map[string]any{"email": "a9@x.ph"})
		require.Equal(t, http.StatusTooManyRequests, status)
		status, _ = newSession(t, f).call(t, "POST", "/v1/tickets/link", map[string]any{"email": "a9@x.ph"})
		require.Equal(t, 200, status, "another session is not held up")
	})
	t.Run("ErrPerIP", func(t *testing.T) {
		f := newAPIFixture(t)
		tk := freeTicket(t, f, "holder@x.ph")
		codes := map[int]int{}
		for i := range 61 {
			s := newSession(t, f)
			codes[postForm(t, s, "/tickets", map[string][]string{"email": {fmt.Sprintf("b%d@x.ph", i)}})]++
		}
		require.Equal(t, map[int]int{http.StatusSeeOther: 60, http.StatusTooManyRequests: 1}, codes)
		s := newSession(t, f)
		require.Equal(t, http.StatusTooManyRequests, postForm(t, s, "/change-email/"+tk.PublicID, map[string][]string{"email": {"c@x.ph"}}),
			"the address's share covers every e-mail route")
	})
}
