package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/internal/app"
	"palaro/store"
)

// postAction is the selector of the button of the form posted to an action ending in suffix.
func postAction(suffix string) string { return `form[action$="` + suffix + `"] button` }

// TestWebhooks_Console_Browser: on a phone, the organizer adds an endpoint (its secret shown
// once), sends it a test event and sees the delivery answered, sends it again (the receiver gets
// the same event id twice), pauses and removes the endpoint.
func TestWebhooks_Console_Browser(t *testing.T) {
	a := startApp(t, func(cfg *app.Config) { cfg.WebhookAllowPrivate = true })
	jobs, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.RunJobs(jobs); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	r := newReceiver(t, 0)

	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), atWidth(390),
		chromedp.Navigate(a.URL+"/sign-in?next=/organizer/webhooks"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, "/organizer/webhooks")
	var secret string
	require.NoError(t, chromedp.Run(ctx, setField("url", r.URL+"/hook"), submitOrgForm(),
		chromedp.Text(".org-secret code", &secret, chromedp.ByQuery)))
	require.True(t, strings.HasPrefix(secret, "whsec_"), secret)
	r.mu.Lock()
	r.secret = secret
	r.mu.Unlock()
	screenshot(t, ctx, "webhooks-added")

	require.NoError(t, chromedp.Run(ctx, clickAndLoad(postAction("/test"), chromedp.ByQuery)))
	waitPath(t, ctx, "/organizer/webhooks/we_")
	deadline := time.Now().Add(20 * time.Second)
	var page string
	for time.Now().Before(deadline) && !strings.Contains(page, "answered 200") {
		time.Sleep(300 * time.Millisecond)
		require.NoError(t, chromedp.Run(ctx, chromedp.Reload(), chromedp.Text("main", &page, chromedp.ByQuery)))
	}
	require.Contains(t, page, "webhook.test")
	require.Contains(t, page, "answered 200")
	screenshot(t, ctx, "webhooks-deliveries")

	require.NoError(t, chromedp.Run(ctx, clickAndLoad(postAction("/resend"), chromedp.ByQuery)))
	require.Eventually(t, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, n := range r.accepted {
			return n == 2 // the one event, twice: a receiver drops the second by its id
		}
		return false
	}, 10*time.Second, 100*time.Millisecond)
	r.got() // every signature valid

	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/organizer/webhooks"), clickAndLoad(postAction("/active"), chromedp.ByQuery),
		chromedp.Text("main", &page, chromedp.ByQuery)))
	require.Contains(t, page, "The endpoint is paused")
	require.Contains(t, page, "Resume")
	require.NoError(t, chromedp.Run(ctx, clickAndLoad(postAction("/delete"), chromedp.ByQuery), chromedp.Text("main", &page, chromedp.ByQuery)))
	require.Contains(t, page, "No endpoints yet.")
}
