package e2e

import (
	"context"
	"crypto/ed25519"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestGatePage_FirstViewFlat: the gate page's first view does not grow with the event's tickets
// (the phone fetches the list afterwards), while the gate list does.
func TestGatePage_FirstViewFlat(t *testing.T) {
	a := startApp(t)
	gate := signedIn(t, a, store.DemoGateEmail)
	page := "/organizer/events/" + demoOwnedEvent + "/check-in"
	list := "/v1/organizer/events/" + demoOwnedEvent + "/gate-list"
	sizes := func() (int, int) {
		status, body := gate.get(page)
		require.Equal(t, http.StatusOK, status)
		status, listBody := gate.get(list)
		require.Equal(t, http.StatusOK, status)
		return len(body), len(listBody)
	}
	_, err := a.DB().IssueGateTickets(context.Background(), demoOwnedEvent, "flat-a", 10, a.Now())
	require.NoError(t, err)
	pageBefore, listBefore := sizes()
	_, err = a.DB().IssueGateTickets(context.Background(), demoOwnedEvent, "flat-b", 3000, a.Now())
	require.NoError(t, err)
	pageAfter, listAfter := sizes()
	require.Greater(t, listAfter-listBefore, 3000*15, "the list grew by 3,000 tickets")
	// the box office lists one more ticket type: that is all
	require.Less(t, pageAfter-pageBefore, 200, "the page is %d bytes, then %d", pageBefore, pageAfter)
}

// TestGate_RefundReachesGates_Browser: a ticket refunded while a gate phone is online is marked
// cancelled in the phone's list within 5 s, and the server refuses it at once; a phone that was
// offline when another ticket was refunded (it synced before) refuses that ticket offline after its
// next sync.
func TestGate_RefundReachesGates_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	openGate(t, ctx, a, demoOwnedEvent)
	bg := context.Background()
	signing, key, ev := gateSecrets(t, a, demoOwnedEvent)

	orderOf := func(code string) string {
		var id string
		require.NoError(t, a.DB().Reader().QueryRow(`SELECT o.public_id FROM orders o JOIN tickets t ON t.order_id = o.id
			WHERE t.code = ?`, code).Scan(&id))
		return id
	}
	var first, second palaro.GateTicket
	for _, tk := range gateTickets(t, a, demoOwnedEvent, palaro.TicketValid) {
		switch {
		case first.Code == "":
			first = tk
		case orderOf(tk.Code) != orderOf(first.Code):
			second = tk
		}
		if second.Code != "" {
			break
		}
	}
	require.NotEmpty(t, second.Code, "two tickets of two orders")
	refund := func(code string) {
		require.NoError(t, store.NewOrganizerService(a.DB(), nil).MarkRefunded(bg, ev.ID, orderOf(code), "owner@palaro.test"))
	}
	// keptStatus is the ticket's status in the list the phone keeps ('' when it is not there)
	keptStatus := func(code string) string {
		return `(() => { const k = Object.keys(localStorage).find((k) => /^palaro\.gate\.\d+\./.test(k) && k.endsWith('.` + demoOwnedEvent + `'));
			const r = k && JSON.parse(localStorage.getItem(k)).list.tickets.find((r) => r[0] === ` + strconv.Quote(palaro.GateCodeHash(key, code)) + `);
			return r ? (r[3] || 'valid') : ''; })()`
	}

	// online: the phone hears of the refund within 5 s, and the server refuses the ticket at once
	require.Equal(t, palaro.TicketValid, evalString(t, ctx, keptStatus(first.Code)))
	start := time.Now()
	refund(first.Code)
	require.NoError(t, chromedp.Run(ctx, waitFor(keptStatus(first.Code)+` === 'cancelled'`)))
	require.Less(t, time.Since(start), 5*time.Second, "an online gate's list has the refund within 5 s")
	ok, answer := gateScan(t, ctx, palaro.SignedTicketQR(signing, first.Code))
	require.False(t, ok, answer)
	require.Contains(t, answer, "This ticket is cancelled")

	// offline: the phone synced before the refund, and still lists the ticket valid
	require.NoError(t, chromedp.Run(ctx, goOffline(), waitFor(`document.querySelector('.gate')?.dataset.state === 'offline'`)))
	refund(second.Code)
	require.Equal(t, palaro.TicketValid, evalString(t, ctx, keptStatus(second.Code)), "offline, the phone cannot know yet")
	// its next sync: the network is back for a moment
	require.NoError(t, chromedp.Run(ctx, goOnline(0), waitFor(keptStatus(second.Code)+` === 'cancelled'`),
		goOffline(), waitFor(`document.querySelector('.gate')?.dataset.state === 'offline'`)))
	ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(signing, second.Code))
	require.False(t, ok, "refused offline after the sync: %s", answer)
	require.Contains(t, answer, "This ticket is cancelled")
	require.Contains(t, evalString(t, ctx, `document.querySelector('.gate-status').textContent`), "Offline")
	screenshot(t, ctx, "gate-refunded-offline")
	var checkIns int
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT COUNT(*) FROM check_ins c JOIN tickets t ON t.id = c.ticket_id
		WHERE t.code IN (?, ?)`, first.Code, second.Code).Scan(&checkIns))
	require.Zero(t, checkIns, "neither refunded ticket got in")
}

// gateSecrets returns the key that signs ticket QR codes, the event's gate-list hash key and the event.
func gateSecrets(t *testing.T, a *testApp, event string) (ed25519.PrivateKey, []byte, *palaro.Event) {
	t.Helper()
	bg := context.Background()
	seed, err := a.DB().AppSecret(bg, "ticket-signing-seed", ed25519.SeedSize)
	require.NoError(t, err)
	secret, err := a.DB().AppSecret(bg, "gate-list-key", 32)
	require.NoError(t, err)
	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(bg, event)
	require.NoError(t, err)
	return ed25519.NewKeyFromSeed(seed), palaro.GateHashKey(secret, ev.ID), ev
}
