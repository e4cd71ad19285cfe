package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

func TestQuickBuyAndAddOns_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	var ticketURL string

	t.Run("QuickBuyToTicket", func(t *testing.T) {
		var total string
		var tokenInPage bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
			chromedp.WaitReady(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.Evaluate(`!!document.querySelector('meta[name="csrf-token"]')`, &tokenInPage),
		))
		// The cached event page carries no token: the sheet asks /v1/csrf before it posts the order.
		require.False(t, tokenInPage, "a cached public page carries no per-visitor token")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.sheet-backdrop.open #quick-email`, chromedp.ByQuery),
			typeInto("quick-email", "quick@example.ph"),
			typeInto("quick-quantity", "2"),
			chromedp.Text(`.sheet-total strong`, &total, chromedp.ByQuery),
		))
		require.Equal(t, "₱700.00", total, "2 × ₱350.00")
		require.False(t, buttonsDisabled(ctx, t))
		screenshot(t, ctx, "quick-buy-filled")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`//div[contains(@class,'sheet')]//button[normalize-space(.)='Pay by QR PH']`, chromedp.BySearch)))
		waitPath(t, ctx, "/sandbox/")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-pay`, chromedp.ByQuery)))
		waitPath(t, ctx, "/payment/success/")
		var links int
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.ticket-link`, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('.ticket-link').length`, &links)))
		require.Equal(t, 2, links, "one ticket per quantity")
		ticketURL = openTicketAndQR(t, ctx, "quick-buy")
	})

	t.Run("AddOnsForTheTicket", func(t *testing.T) {
		require.NotEmpty(t, ticketURL, "needs the ticket bought by quick buy")
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(ticketURL),
			chromedp.Click(`//a[normalize-space(.)='Buy add-ons']`, chromedp.BySearch)))
		waitPath(t, ctx, "/a/")
		var total string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.WaitVisible(`[data-island="addons"][data-mounted] form`, chromedp.ByQuery),
			chromedp.Click(`//label[contains(., 'Event shirt')]`, chromedp.BySearch),
			chromedp.Text(`[data-total]`, &total, chromedp.ByQuery),
		))
		require.Equal(t, "₱599.00", total, "the shirt; the free lanyard comes along")
		screenshot(t, ctx, "addons-chosen")
		require.NoError(t, chromedp.Run(ctx, pay("Pay by Card")))
		waitPath(t, ctx, "/sandbox/")
		require.NoError(t, chromedp.Run(ctx, payByCard("4343 4343 4343 4345")))
		waitPath(t, ctx, "/change-ticket/success/")
		var msg string
		require.NoError(t, chromedp.Run(ctx, chromedp.Text(`.success-page p`, &msg, chromedp.ByQuery)))
		require.Contains(t, msg, "Event shirt")
		screenshot(t, ctx, "addons-success")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.success-page a.button`, chromedp.ByQuery)))
		waitPath(t, ctx, "/t/")
		var addOns string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Text(`//dl[contains(@class,'ticket-facts')]//dt[.='Add-ons']/following-sibling::dd`, &addOns, chromedp.BySearch)))
		require.Contains(t, addOns, "Event shirt", "the ticket shows its add-on")
		screenshot(t, ctx, "addons-ticket")
	})
}

// goOffline cuts the browser's network, the service worker's included, and tells the page it is offline.
func goOffline() chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		offline := []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
		if _, err := network.EmulateNetworkConditionsByRule(offline).WithEmulateOfflineServiceWorker(true).Do(ctx); err != nil {
			return err
		}
		return network.OverrideNetworkState(true, 0, -1, -1).Do(ctx)
	})
}

func TestOfflineTicket_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	buy := func(email string) palaro.Ticket {
		o, err := a.Purchases().CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: "codm-campus-clash-iloilo-free",
			Email: email, FirstName: "Lia", LastName: "Santos", CompanyName: "UP Visayas", Designation: "Student"}, a.Now())
		require.NoError(t, err)
		return o.Tickets[0]
	}
	opened, neverOpened := buy("offline@example.ph"), buy("other@example.ph")

	// Online, once: the service worker keeps the page and the files it loaded.
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+palaro.TicketPath(opened.PublicID)),
		chromedp.WaitVisible(`.ticket-qr svg`, chromedp.ByQuery)))
	deadline := time.Now().Add(15 * time.Second)
	for kept := false; !kept; {
		require.True(t, time.Now().Before(deadline), "the service worker did not keep the ticket")
		time.Sleep(100 * time.Millisecond)
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`caches.open('palaro-tickets-v1').then(c => c.keys())
			.then(ks => ks.map(k => new URL(k.url).pathname)).then(ps => ps.includes(location.pathname) && ps.some(p => p.endsWith('.css')))`,
			&kept, awaitPromise)))
	}

	// Offline: the server is gone and the browser has no network.
	a.Stop()
	require.NoError(t, chromedp.Run(ctx, network.Enable(), goOffline()))
	var code string
	var qr bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Reload(),
		chromedp.WaitVisible(`.ticket-code`, chromedp.ByQuery),
		chromedp.Text(`.ticket-code`, &code, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('.ticket-qr svg').childElementCount > 0`, &qr),
	))
	require.Equal(t, opened.Code, code, "the ticket opens offline")
	require.True(t, qr, "with its QR code")
	screenshot(t, ctx, "ticket-offline")

	// The control: a ticket never opened on this phone is not there offline.
	_ = chromedp.Run(ctx, chromedp.Navigate(a.URL+palaro.TicketPath(neverOpened.PublicID)))
	var shown bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!!document.querySelector('.ticket-code')`, &shown)))
	require.False(t, shown, "only opened tickets are kept")
}

// TestOfflineOrderTickets_Browser: a buyer pays for two tickets and lands on the order page once,
// online; both tickets and their QR pages then open offline, though neither was opened before.
func TestOfflineOrderTickets_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
		chromedp.WaitReady(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
		chromedp.Click(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.sheet-backdrop.open #quick-email`, chromedp.ByQuery),
		typeInto("quick-email", "group@example.ph"),
		typeInto("quick-quantity", "2"),
		chromedp.Click(`//div[contains(@class,'sheet')]//button[normalize-space(.)='Pay by QR PH']`, chromedp.BySearch)))
	waitPath(t, ctx, "/sandbox/")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-pay`, chromedp.ByQuery)))
	waitPath(t, ctx, "/payment/success/")
	var orderURL string
	var tickets []string // the tickets' public ids, from the order page's links
	require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelectorAll('.ticket-link').length === 2`),
		chromedp.Evaluate(`location.href`, &orderURL),
		chromedp.Evaluate(`[...document.querySelectorAll('.ticket-link')].map((a) => new URL(a.href).pathname.split('/')[2])`, &tickets)))
	var want []string
	for _, id := range tickets {
		want = append(want, "/t/"+id, "/q/"+id)
	}
	wantJSON, _ := json.Marshal(want)
	deadline := time.Now().Add(15 * time.Second)
	for kept := false; !kept; {
		require.True(t, time.Now().Before(deadline), "the service worker did not keep the order's tickets and QR pages")
		time.Sleep(100 * time.Millisecond)
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`caches.open('palaro-tickets-v1').then(c => c.keys())
			.then(ks => ks.map(k => new URL(k.url).pathname)).then(ps => `+string(wantJSON)+`.every(p => ps.includes(p)))`, &kept, awaitPromise)))
	}
	other, err := a.Purchases().CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: "codm-campus-clash-iloilo-free",
		Email: "other@example.ph", FirstName: "Lia", LastName: "Santos", CompanyName: "UP Visayas", Designation: "Student"}, a.Now())
	require.NoError(t, err)

	a.Stop()
	require.NoError(t, chromedp.Run(ctx, network.Enable(), goOffline()))
	for _, id := range tickets {
		tk, err := a.Purchases().FindTicketByPublicID(context.Background(), id)
		require.NoError(t, err)
		var code, caption string
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+palaro.TicketPath(id)),
			chromedp.WaitVisible(`.ticket-code`, chromedp.ByQuery), chromedp.Text(`.ticket-code`, &code, chromedp.ByQuery)))
		require.Equal(t, tk.Code, code, "a ticket never opened opens offline")
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/q/"+id),
			chromedp.WaitVisible(`.qr-page .qr-box`, chromedp.ByQuery), chromedp.Text(`.qr-page .qr-caption`, &caption, chromedp.ByQuery)))
		require.Contains(t, caption, tk.Code, "its QR page too")
	}
	screenshot(t, ctx, "order-ticket-qr-offline")
	var back bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(orderURL), chromedp.Evaluate(`document.querySelectorAll('.ticket-link').length === 2`, &back)))
	require.True(t, back, "the order page itself opens offline")

	// The control: a ticket never linked from a page this phone opened is not there.
	_ = chromedp.Run(ctx, chromedp.Navigate(a.URL+palaro.TicketPath(other.Tickets[0].PublicID)))
	var shown bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!!document.querySelector('.ticket-code')`, &shown)))
	require.False(t, shown, "only the tickets of pages opened here are kept")
}

// TestOfflineTicketsList_Browser: a signed-in buyer opens /tickets once online; each listed ticket's
// page and QR page are then kept for offline use.
func TestOfflineTicketsList_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	o, err := a.Purchases().CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: "codm-campus-clash-iloilo-free",
		Email: store.DemoOrganizerEmail, FirstName: "Lia", LastName: "Santos", CompanyName: "UP Visayas", Designation: "Student"}, a.Now())
	require.NoError(t, err)
	id := o.Tickets[0].PublicID
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/sign-in?next=%2Ftickets"),
		chromedp.WaitVisible("#sign-in", chromedp.ByQuery),
		chromedp.SendKeys("#f-email", store.DemoOrganizerEmail, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", store.DemoOrganizerPassword, chromedp.ByQuery),
		chromedp.Click(`#sign-in button[type="submit"]`, chromedp.ByQuery),
		waitFor(`location.pathname === '/tickets' && !!document.querySelector('a[href="/t/`+id+`"]')`)))
	deadline := time.Now().Add(15 * time.Second)
	for kept := false; !kept; {
		require.True(t, time.Now().Before(deadline), "the service worker did not keep the listed ticket and its QR page")
		time.Sleep(100 * time.Millisecond)
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`caches.open('palaro-tickets-v1').then(c => c.keys())
			.then(ks => ks.map(k => new URL(k.url).pathname)).then(ps => ['/t/`+id+`', '/q/`+id+`', '/tickets'].every(p => ps.includes(p)))`,
			&kept, awaitPromise)))
	}
	a.Stop()
	var caption string
	require.NoError(t, chromedp.Run(ctx, network.Enable(), goOffline(), chromedp.Navigate(a.URL+"/q/"+id),
		chromedp.WaitVisible(`.qr-page .qr-box`, chromedp.ByQuery), chromedp.Text(`.qr-page .qr-caption`, &caption, chromedp.ByQuery)))
	require.Contains(t, caption, o.Tickets[0].Code, "the QR page opens offline, never opened before")
}
