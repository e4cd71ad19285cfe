package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestEventPostpone_Browser: the organizer postpones a published event from the console on a
// phone; a holder's ticket page then says the event is postponed, and the holder's e-mail about it
// is in the outbox.
func TestEventPostpone_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	bg := context.Background()
	organizers := store.NewOrganizerService(a.DB(), nil)
	ev, err := organizers.FindEvent(bg, changedEvent)
	require.NoError(t, err)
	attendees, err := organizers.ListAttendees(bg, ev.ID)
	require.NoError(t, err)
	require.NotEmpty(t, attendees)
	holder := attendees[0]

	base := "/organizer/events/" + changedEvent
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), chromedp.Navigate(a.URL+"/sign-in?next="+base),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, base)
	screenshot(t, ctx, "event-postpone-console")
	assertTouchTargets(t, ctx)
	var notice, ask string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`window.palaroOldPage = true`, nil),
		chromedp.Click(`//a[normalize-space(.)='Postpone…']`, chromedp.BySearch),
		waitFor(`window.palaroOldPage === undefined && document.readyState === 'complete'`),
		chromedp.Text(".form-notice", &ask, chromedp.ByQuery)))
	waitPath(t, ctx, base+"/status")
	require.Contains(t, ask, "addresses holding tickets gets an e-mail at once", "the confirmation says who is told")
	screenshot(t, ctx, "event-postpone-confirm")
	assertTouchTargets(t, ctx)
	require.NoError(t, chromedp.Run(ctx, submitOrgForm(), chromedp.Text(".form-notice", &notice, chromedp.ByQuery)))
	require.Contains(t, notice, "Every ticket holder is told by e-mail")
	screenshot(t, ctx, "event-postpone-done")

	var text string
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+palaro.TicketPath(holder.PublicID)),
		chromedp.Text(".event-notice", &text, chromedp.ByQuery)))
	require.Contains(t, text, "This event is postponed")
	screenshot(t, ctx, "event-postpone-ticket")

	msgs, err := a.Outbox().ListOutbox(bg, palaro.OutboxFilter{To: holder.Email})
	require.NoError(t, err)
	found := false
	for _, m := range msgs {
		if m.Kind == palaro.MessageEventChanged {
			found = true
			require.Contains(t, m.Subject, ev.Name+" is postponed")
			require.Contains(t, m.Text, a.URL+palaro.TicketPath(holder.PublicID))
		}
	}
	require.True(t, found, "the holder's e-mail is in the outbox: %+v", msgs)
}
