package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestEventMail_Browser: on a phone, an organizer previews their reminder words on the e-mails
// page, then writes to the ticket holders: the confirmation step names the count, and the sent
// message is listed. Each page keeps the 44 px rule and is captured with PALARO_SCREENSHOTS=1.
func TestEventMail_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), atWidth(390),
		chromedp.Navigate(a.URL+"/sign-in?next=/organizer"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, "/organizer")
	event := "/organizer/events/" + demoOwnedEvent

	var preview string
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+event+"/emails"),
		chromedp.WaitVisible("#f-reminder", chromedp.ByQuery),
		setField("reminder", "Hi {name}! Doors of {event} open an hour early."),
		chromedp.Click(`button[formaction$="/emails/preview"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".org-previews", chromedp.ByQuery),
		chromedp.Text(".org-previews", &preview, chromedp.ByQuery)))
	require.Contains(t, preview, "Hi Juan Dela Cruz! Doors of ")
	assertTouchTargets(t, ctx)
	screenshot(t, ctx, "event-emails-390")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".org-previews", chromedp.ByQuery)))
	screenshot(t, ctx, "event-emails-preview-390")

	var confirm, sent string
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+event+"/messages"),
		chromedp.WaitVisible("#f-subject", chromedp.ByQuery),
		setField("subject", "Gates open at 5 PM"), setField("body", "Hi {name}, see you at {venue}."),
		chromedp.Click(`.org-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".org-confirm", chromedp.ByQuery),
		chromedp.Text("h1", &confirm, chromedp.ByQuery)))
	require.Regexp(t, `^Send this message to \d+ (person|people)\?$`, confirm)
	assertTouchTargets(t, ctx)
	screenshot(t, ctx, "event-messages-confirm-390")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(".org-confirm button[type=submit]", chromedp.ByQuery),
		chromedp.WaitVisible(".org-messages", chromedp.ByQuery),
		chromedp.Text(".org-messages", &sent, chromedp.ByQuery)))
	require.Contains(t, sent, "Gates open at 5 PM")
	assertTouchTargets(t, ctx)
	screenshot(t, ctx, "event-messages-390")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".org-messages", chromedp.ByQuery)))
	screenshot(t, ctx, "event-messages-list-390")
}
