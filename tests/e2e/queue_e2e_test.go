package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
	"palaro/store"
)

// TestQueue_Browser is a visitor on sale day: before the opening the buy link leads to the
// countdown; at the opening the page shows a place drawn at random; at the visitor's turn it
// admits them and they buy. A second browser without an admission is sent back to the queue.
func TestQueue_Browser(t *testing.T) {
	clock := newSettableClock(testEpoch)
	a := startApp(t, func(cfg *app.Config) { cfg.Now = clock.Now })
	// The seed puts the browser, fourth to arrive, last in the draw, so it waits for its turn.
	var seed uint64
	for palaro.DrawPlaces(seed, 4)[3] != 4 {
		seed++
	}
	a.Queues().Seed = func() uint64 { return seed }
	opens := testEpoch.Add(time.Hour)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "1")
	status, ev := orgAPI(t, newVisitor(t, a), tok)(http.MethodPatch, "/v1/organizer/events/"+queueEvent,
		`{"queue":{"opensAt":"`+opens.Format(time.RFC3339)+`","admitPerMinute":6}}`)
	require.Equal(t, http.StatusOK, status, ev)
	for range 3 { // three early visitors
		queueStatus(t, newVisitor(t, a))
	}

	ctx := newBrowser(t)
	var text string
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/e/"+queueEvent),
		chromedp.Text(`.sale-opens`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "The sale opens Wed 18 Mar 2026, 11:00 AM (Manila time).")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(`.sale-opens`, chromedp.ByQuery)))
	screenshot(t, ctx, "queue-event-page")

	// Before the opening: the buy link leads to the countdown.
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/b/"+queueType)))
	waitPath(t, ctx, "/queue/"+queueEvent)
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "The sale opens soon")
	require.Contains(t, text, "Manila time · opens in about 1 hour.")
	screenshot(t, ctx, "queue-countdown")
	assertTouchTargets(t, ctx)

	// The opening: the page, polling by itself, shows the drawn place.
	clock.Set(opens)
	require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.queue-waiting') !== null`),
		chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "You are in the queue")
	require.Contains(t, text, "Your place\n4", "the seed drew the last place for the browser")
	require.Contains(t, text, "Ahead of you\n2", "place 1 went in at the opening")
	screenshot(t, ctx, "queue-waiting")

	// Its turn (30 s after the opening at 6 a minute): admitted, it buys.
	clock.Set(opens.Add(31 * time.Second))
	require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.queue-admitted') !== null`),
		chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "It's your turn")
	require.Contains(t, text, "You have 10 minutes to buy")
	screenshot(t, ctx, "queue-admitted")
	assertTouchTargets(t, ctx)
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.queue-buy`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery)))
	require.True(t, strings.HasSuffix(waitPath(t, ctx, "/b/"), "/b/"+queueType))
	require.NoError(t, chromedp.Run(ctx, typeInto("email", "queued@example.ph"), typeInto("fullName", "Queued Visitor"),
		typeInto("mobileNumber", "09171234567"), pay("Submit")))
	waitPath(t, ctx, "/payment/success/")
	tickets, err := a.Purchases().ListTicketsByEmail(t.Context(), "queued@example.ph")
	require.NoError(t, err)
	require.Len(t, tickets, 1)

	// A second browser without an admission is sent back to the queue, at the end.
	other := newBrowser(t)
	require.NoError(t, chromedp.Run(other, dismissCookies(a.URL), chromedp.Navigate(a.URL+"/b/"+queueType)))
	waitPath(t, other, "/queue/"+queueEvent)
	require.NoError(t, chromedp.Run(other, chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Your place\n5")

	// The organizer watches the queue in the console, live, and lets more in a minute.
	require.NoError(t, chromedp.Run(other, chromedp.Navigate(a.URL+"/sign-in?next=/organizer/events/"+queueEvent+"/queue"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, other, "/organizer/events/"+queueEvent+"/queue")
	require.NoError(t, chromedp.Run(other, chromedp.Text(`#queue-figures`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Waiting\n1")
	require.Contains(t, text, "Admitted\n4")
	require.NoError(t, chromedp.Run(other, setField("admitPerMinute", "60"), submitOrgForm(),
		chromedp.Text(`#queue-figures`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Rate\n60 visitors a minute")
	clock.Set(opens.Add(41 * time.Second))
	require.NoError(t, chromedp.Run(other, waitFor(`document.querySelector('[data-queue-admitted]').textContent === '5'`)))
	screenshot(t, other, "queue-console")
}
