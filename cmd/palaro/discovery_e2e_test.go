package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

func TestHomePage_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)

	t.Run("OK", func(t *testing.T) {
		var heading string
		var cards int
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Text("#upcoming-heading", &heading, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('#upcoming-list .event-card').length`, &cards),
		))
		require.Equal(t, "Discover upcoming events", heading)
		require.Equal(t, 12, cards)
		screenshot(t, ctx, "home")
	})

	t.Run("LoadMore", func(t *testing.T) {
		var cards int
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(".load-more"),
			chromedp.Poll(`document.querySelectorAll('#upcoming-list .event-card').length > 12`, nil, chromedp.WithPollingTimeout(10*time.Second)),
			chromedp.Evaluate(`document.querySelectorAll('#upcoming-list .event-card').length`, &cards),
		))
		require.Equal(t, 24, cards)
	})

	t.Run("MenuOpensAndCloses", func(t *testing.T) {
		var open, closed bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/"),
			chromedp.Click(".menu-button"),
			chromedp.Evaluate(`document.getElementById('menu').classList.contains('open')`, &open),
			chromedp.Sleep(400*time.Millisecond),
		))
		require.True(t, open)
		screenshot(t, ctx, "menu")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`#menu a[href="/"]`),
			chromedp.Evaluate(`!document.getElementById('menu').classList.contains('open')`, &closed),
		))
		require.True(t, closed, "a link to the current page closes the menu")
	})

	t.Run("ErrPageNotFound", func(t *testing.T) {
		var heading string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/e/no-such-event"),
			chromedp.Text("h1", &heading, chromedp.ByQuery),
		))
		require.Equal(t, "Page Not Found", strings.TrimSpace(heading))
	})
}
