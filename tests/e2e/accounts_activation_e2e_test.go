package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// activationLinks returns the activation links e-mailed to email, newest first.
func activationLinks(t *testing.T, a *testApp, email string) []string {
	t.Helper()
	msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: email})
	require.NoError(t, err)
	var links []string
	for _, m := range msgs {
		if l := regexp.MustCompile(`/activate\?token=[A-Za-z0-9_-]+`).FindString(m.Text); l != "" {
			links = append(links, l)
		}
	}
	return links
}

// TestActivation_Browser: a signed-in visitor whose e-mail is not confirmed is told so on
// /tickets and can ask for the activation e-mail again; the new link activates the account and a
// second click on it says the account is already active.
func TestActivation_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	var notice string
	require.NoError(t, chromedp.Run(ctx,
		dismissCookies(a.URL),
		signUpInBrowser(a, "lito@example.ph", "Lito", "0917 555 9876"),
		chromedp.Navigate(a.URL+"/tickets"),
		chromedp.Text(".notice.unconfirmed", &notice, chromedp.ByQuery),
	))
	require.Contains(t, notice, "lito@example.ph is not confirmed yet")
	screenshot(t, ctx, "tickets-not-activated")
	require.Len(t, activationLinks(t, a, "lito@example.ph"), 1)

	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(".notice.unconfirmed button", chromedp.ByQuery),
		waitFor(`location.search === '?activation=sent' && document.readyState === 'complete'`),
		chromedp.Text(".notice.unconfirmed .activation-sent", &notice, chromedp.ByQuery),
	))
	require.Contains(t, notice, "We sent a new activation link to lito@example.ph")
	screenshot(t, ctx, "tickets-activation-sent")
	links := activationLinks(t, a, "lito@example.ph")
	require.Len(t, links, 2, "a second welcome e-mail")

	var heading string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+links[0]),
		chromedp.Text("h1", &heading, chromedp.ByQuery),
	))
	require.Equal(t, "Your account is active", strings.TrimSpace(heading))
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+links[0]),
		chromedp.Text("h1", &heading, chromedp.ByQuery),
	))
	require.Equal(t, "Your account is already active", strings.TrimSpace(heading), "the second click")
	screenshot(t, ctx, "activation-again")

	var listed bool
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`.account-links a[href="/tickets"]`, chromedp.ByQuery),
		waitFor(`location.pathname === '/tickets' && document.readyState === 'complete'`),
		chromedp.Evaluate(`document.body.textContent.includes('No tickets yet.') && !document.querySelector('.notice.unconfirmed')`, &listed),
	))
	require.True(t, listed, "the active account sees its (empty) list")
}
