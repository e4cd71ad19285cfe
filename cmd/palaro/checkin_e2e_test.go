package main

import (
	"context"
	"crypto/ed25519"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// goOnline gives the browser its network back, each request delayed by latencyMs.
func goOnline(latencyMs float64) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		online := []*network.Conditions{{Latency: latencyMs, DownloadThroughput: -1, UploadThroughput: -1}}
		if _, err := network.EmulateNetworkConditionsByRule(online).Do(ctx); err != nil {
			return err
		}
		return network.OverrideNetworkState(false, latencyMs, -1, -1).Do(ctx)
	})
}

// openGate signs a browser in as the demo gate member and opens the event's gate page, ready
// with its ticket list.
func openGate(t *testing.T, ctx context.Context, a *testApp, event string) {
	t.Helper()
	gatePath := "/organizer/events/" + event + "/check-in"
	require.NoError(t, chromedp.Run(ctx,
		dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/sign-in?next="+url.QueryEscape(gatePath)),
		chromedp.WaitVisible("#sign-in", chromedp.ByQuery),
		chromedp.SendKeys("#f-email", store.DemoGateEmail, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", store.DemoOrganizerPassword, chromedp.ByQuery),
		chromedp.Click(`#sign-in button[type="submit"]`, chromedp.ByQuery),
		waitFor(`location.pathname === `+strconv.Quote(gatePath)),
		waitFor(`/Online · [1-9]\d* tickets/.test(document.querySelector('.gate-status')?.textContent || '')`),
	))
}

// gateScan types a ticket code (or a scanner's QR payload) into the gate and waits for its answer.
func gateScan(t *testing.T, ctx context.Context, input string) (ok bool, answer string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('.gate-answer').classList.add('stale')`, nil),
		chromedp.SendKeys("#gate-code", input, chromedp.ByQuery),
		chromedp.Click(".gate-manual button", chromedp.ByQuery),
		waitFor(`!document.querySelector('.gate-answer').classList.contains('stale') && !document.querySelector('.gate-answer-ready')`),
		chromedp.Text(".gate-answer", &answer, chromedp.ByQuery),
	))
	return evalBool(t, ctx, `!!document.querySelector('.gate-answer-ok')`), answer
}

// ticketStatus is a ticket's status on the server.
func ticketStatus(t *testing.T, a *testApp, event, code string) string {
	t.Helper()
	for _, s := range []string{palaro.TicketValid, palaro.TicketCheckedIn} {
		for _, tk := range gateTicketsMaybe(t, a, event, s) {
			if tk.Code == code {
				return s
			}
		}
	}
	return ""
}

// gateTicketsMaybe is gateTickets without requiring any.
func gateTicketsMaybe(t *testing.T, a *testApp, event, status string) []palaro.GateTicket {
	t.Helper()
	ev, err := store.NewOrganizerService(a.db, nil).FindEvent(context.Background(), event)
	require.NoError(t, err)
	all, err := store.NewCheckInService(a.db).GateTickets(context.Background(), ev.ID)
	require.NoError(t, err)
	var out []palaro.GateTicket
	for _, tk := range all {
		if tk.Status == status {
			out = append(out, tk)
		}
	}
	return out
}

// TestGate_Browser checks tickets in as gate staff would, online and then offline, and shows a
// ticket checked in on two offline phones as a conflict in the console.
func TestGate_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	watchCSP(t, ctx)
	openGate(t, ctx, a, demoOwnedEvent)
	screenshot(t, ctx, "gate-ready")
	tickets := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)
	require.GreaterOrEqual(t, len(tickets), 4)

	t.Run("OK manual entry, then already checked in", func(t *testing.T) {
		ok, answer := gateScan(t, ctx, strings.ToLower(tickets[0].Code))
		require.True(t, ok, answer)
		require.Contains(t, answer, "Checked in")
		require.Contains(t, answer, tickets[0].HolderName)
		require.Contains(t, answer, tickets[0].TicketType)
		screenshot(t, ctx, "gate-green")
		ok, answer = gateScan(t, ctx, tickets[0].Code)
		require.False(t, ok)
		require.Contains(t, answer, "Already checked in at")
		require.Contains(t, answer, "(Gate 1)")
		screenshot(t, ctx, "gate-red")
		require.Empty(t, cspViolations(t, ctx))
	})

	t.Run("OK offline: two real tickets in, a forged one refused, synced later", func(t *testing.T) {
		seed, err := a.db.AppSecret(context.Background(), "ticket-signing-seed", ed25519.SeedSize)
		require.NoError(t, err)
		_, forger, _ := ed25519.GenerateKey(nil)
		require.NoError(t, chromedp.Run(ctx, goOffline(), waitFor(`document.querySelector('.gate').dataset.state === 'offline'`)))

		ok, answer := gateScan(t, ctx, tickets[1].Code)
		require.True(t, ok, answer)
		require.Contains(t, answer, "syncs when the network is back")
		ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(ed25519.NewKeyFromSeed(seed), tickets[2].Code))
		require.True(t, ok, "a QR code signed by the server verifies on the phone: %s", answer)
		require.Contains(t, answer, tickets[2].HolderName)
		screenshot(t, ctx, "gate-offline")
		ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(forger, tickets[3].Code))
		require.False(t, ok)
		require.Contains(t, answer, "Forged QR code")
		ok, answer = gateScan(t, ctx, tickets[1].Code)
		require.False(t, ok, "offline, the phone remembers its own check-ins")
		require.Contains(t, answer, "Already checked in")
		require.Equal(t, "2", evalString(t, ctx, `document.querySelector('.gate').dataset.queued`))
		require.Equal(t, palaro.TicketValid, ticketStatus(t, a, demoOwnedEvent, tickets[1].Code), "nothing reached the server yet")

		require.NoError(t, chromedp.Run(ctx, goOnline(1500), waitFor(`document.querySelector('.gate').dataset.state === 'syncing'`)))
		screenshot(t, ctx, "gate-syncing")
		require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.gate').dataset.queued === '0' && document.querySelector('.gate').dataset.state === 'online'`),
			goOnline(0)))
		require.Equal(t, palaro.TicketCheckedIn, ticketStatus(t, a, demoOwnedEvent, tickets[1].Code))
		require.Equal(t, palaro.TicketCheckedIn, ticketStatus(t, a, demoOwnedEvent, tickets[2].Code))
		require.Equal(t, palaro.TicketValid, ticketStatus(t, a, demoOwnedEvent, tickets[3].Code), "the forged QR checked nothing in")
	})

	t.Run("ErrConflict a ticket checked in on two offline phones", func(t *testing.T) {
		other := newBrowser(t)
		openGate(t, other, a, demoOwnedEvent)
		require.NoError(t, chromedp.Run(other, chromedp.Evaluate(`(() => { const i = document.querySelector('#gate-name');
			Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(i, 'South');
			i.dispatchEvent(new Event('input', { bubbles: true })); })()`, nil)))
		for _, c := range []context.Context{ctx, other} {
			require.NoError(t, chromedp.Run(c, goOffline(), waitFor(`document.querySelector('.gate').dataset.state === 'offline'`)))
			ok, answer := gateScan(t, c, tickets[3].Code)
			require.True(t, ok, "each phone alone lets the ticket in: %s", answer)
		}
		for _, c := range []context.Context{ctx, other} {
			require.NoError(t, chromedp.Run(c, goOnline(0), waitFor(`document.querySelector('.gate').dataset.queued === '0'`)))
		}
		require.NoError(t, chromedp.Run(other, waitFor(`!!document.querySelector('.gate-conflicts')`)))
		var console string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/organizer/events/"+demoOwnedEvent+"/check-ins"),
			chromedp.Text(".checkin-conflicts", &console, chromedp.ByQuery),
		))
		require.Contains(t, console, tickets[3].Code)
		require.Contains(t, console, "South")
		require.Contains(t, console, "Gate 1")
		screenshot(t, ctx, "gate-console")
	})
}
