package handlers

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro/store"
)

// buyBody is a purchase of a ticket type that does not exist: the answer is 404 unless throttled.
func buyBody(email string) string {
	return `{"ticketCode":"no-such-ticket","quantity":1,"email":"` + email + `"}`
}

func TestPurchase_ThrottledBySessionNotAddress(t *testing.T) {
	ts := newTestServer(t)
	ts.Server.services.Purchases = store.NewPurchaseService(ts.db, nil, 0)
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ts.Server.Now = func() time.Time { return clock }
	const natIP = "112.198.0.1" // a carrier-grade NAT address shared by a crowd

	t.Run("OK 300 buyers with their own sessions behind one address within a minute", func(t *testing.T) {
		for i := range 300 {
			buyer := ts.client(t, natIP)
			buyer.get("/about")
			r := buyer.postJSON("/v1/ticket/buy", buyBody(fmt.Sprintf("fan%d@example.ph", i)))
			require.Equal(t, http.StatusNotFound, r.Code, "buyer %d: %s", i, r.body)
			clock = clock.Add(200 * time.Millisecond)
		}
	})
	t.Run("ErrTooMany one session hammering is slowed", func(t *testing.T) {
		clock = clock.Add(time.Hour)
		bot := ts.client(t, natIP)
		bot.get("/about")
		var last response
		passed := 0
		for i := range 50 {
			last = bot.postJSON("/v1/ticket/buy", buyBody(fmt.Sprintf("bot%d@example.ph", i)))
			if last.Code != http.StatusTooManyRequests {
				passed++
			}
		}
		require.Equal(t, limitPurchaseSession.Burst, passed)
		require.Equal(t, http.StatusTooManyRequests, last.Code)
		require.NotEmpty(t, last.Header().Get("Retry-After"))
		clock = clock.Add(limitPurchaseSession.Every)
		require.Equal(t, http.StatusNotFound, bot.postJSON("/v1/ticket/buy", buyBody("bot-late@example.ph")).Code, "a token comes back")
		require.Equal(t, http.StatusTooManyRequests, bot.postJSON("/v1/ticket/buy", buyBody("bot-late2@example.ph")).Code)

		other := ts.client(t, natIP)
		other.get("/about")
		require.Equal(t, http.StatusNotFound, other.postJSON("/v1/ticket/buy", buyBody("neighbour@example.ph")).Code,
			"the hammering session did not use up its neighbours' share of the address")
	})
	t.Run("ErrTooMany one e-mail from many sessions", func(t *testing.T) {
		clock = clock.Add(time.Hour)
		var last response
		for range limitPurchaseEmail.Burst + 1 {
			c := ts.client(t, natIP)
			c.get("/about")
			last = c.postJSON("/v1/ticket/buy", buyBody("Same@Example.ph"))
		}
		require.Equal(t, http.StatusTooManyRequests, last.Code)
	})
	t.Run("ErrTooMany the address still has a ceiling", func(t *testing.T) {
		clock = clock.Add(time.Hour)
		var last response
		for i := range limitPurchaseIP.Burst + 1 {
			c := ts.client(t, "112.198.0.2")
			c.get("/about")
			last = c.postJSON("/v1/ticket/buy", buyBody(fmt.Sprintf("crowd%d@example.ph", i)))
		}
		require.Equal(t, http.StatusTooManyRequests, last.Code)
	})
}
