package e2e

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// widgetEvent is the demo event the widget tests show: it has a free ticket type.
const widgetEvent = "codm-campus-clash-iloilo"

// headersOf fetches a path of the app anonymously and returns its status and headers.
func headersOf(t *testing.T, a *testApp, path string) (int, http.Header) {
	t.Helper()
	resp, err := http.Get(a.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// TestWidget_FrameAncestors: the widget of an event whose owner lists no site renders but may not
// be framed ('none', DENY); once the owner lists sites in the console, the widget's CSP names
// exactly them as frame-ancestors and sends no X-Frame-Options, at once (the cached widget is
// dropped), while the event page and every other page keep frame-ancestors 'none'. A bad site is
// refused with the field's message and changes nothing; one ticket type's widget shows only it.
func TestWidget_FrameAncestors(t *testing.T) {
	a := startApp(t)
	widget := "/embed/e/" + widgetEvent

	code, h := headersOf(t, a, widget)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	require.Equal(t, "DENY", h.Get("X-Frame-Options"))

	owner := signedIn(t, a, store.DemoOrganizerEmail)
	console := "/organizer/events/" + widgetEvent + "/widget"
	status, body := owner.get(console)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, html.UnescapeString(body), `<iframe src="`+a.URL+widget+`"`)
	require.Contains(t, body, "No site is listed yet")

	status, body = owner.post(console, url.Values{"origins": {"https://mysite.ph/tickets"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, html.UnescapeString(body), "“https://mysite.ph/tickets” is not a site's address: write it as https://mysite.ph, with no path.")
	status, body = owner.post(console, url.Values{"origins": {"http://mysite.ph"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, html.UnescapeString(body), "only https:// sites may show the widget")

	status, _ = owner.post(console, url.Values{"origins": {"https://mysite.ph\nhttps://Shop.Example.com:8443/"}})
	require.Equal(t, http.StatusSeeOther, status)
	status, body = owner.get(console + "?notice=widgetSaved")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "https://shop.example.com:8443")
	require.NotContains(t, body, "No site is listed yet")

	for _, path := range []string{widget, widget + "?type=codm-campus-clash-iloilo-free"} {
		code, h = headersOf(t, a, path)
		require.Equal(t, http.StatusOK, code, path)
		require.Contains(t, h.Get("Content-Security-Policy"), "; frame-ancestors https://mysite.ph https://shop.example.com:8443", path)
		require.NotContains(t, h.Get("Content-Security-Policy"), "'none'; frame", path)
		require.Empty(t, h.Get("X-Frame-Options"), path)
	}
	for _, path := range []string{"/e/" + widgetEvent, "/", "/b/codm-campus-clash-iloilo-free", "/embed/e/no-such-event"} {
		_, h = headersOf(t, a, path)
		require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'", path)
		require.Equal(t, "DENY", h.Get("X-Frame-Options"), path)
	}

	visitor := newVisitor(t, a)
	status, body = visitor.get(widget + "?type=codm-campus-clash-iloilo-free")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, `href="`+a.URL+`/b/codm-campus-clash-iloilo-free" target="_blank" rel="noopener"`)
	require.Equal(t, 1, strings.Count(body, `data-embed-buy=`), "one ticket type only")
	require.Equal(t, 1, strings.Count(body, "<script"), "one script, embed.js, which only talks with widget.js: the links work without it")
	status, _ = visitor.get(widget + "?type=no-such-type")
	require.Equal(t, http.StatusNotFound, status)

	code, h = headersOf(t, a, "/embed/widget.js")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, "text/javascript; charset=utf-8", h.Get("Content-Type"), "nosniff lets a script with this type run")

	status, _ = owner.post(console, url.Values{"origins": {""}})
	require.Equal(t, http.StatusSeeOther, status)
	_, h = headersOf(t, a, widget)
	require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'", "no site listed: no framing again")
}

// embedForm fetches the widget's framed buy page of a ticket type without any cookie and returns
// its form token.
func embedForm(t *testing.T, a *testApp, ticket string) string {
	t.Helper()
	resp, err := http.Get(a.URL + "/embed/b/" + ticket)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Empty(t, resp.Cookies(), "the framed buy page sets no cookie")
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	m := regexp.MustCompile(`<form class="purchase-form" method="post" action="/embed/b/` + regexp.QuoteMeta(ticket) + `" target="_self"[^>]*><input type="hidden" name="_csrf" value="([^"]+)"`).FindSubmatch(b)
	require.NotNil(t, m, "the framed buy page draws the form with its token: %s", b)
	return string(m[1])
}

// postEmbed posts the framed buy form with no cookie, from origin ("" sends no Origin header), and
// returns the status and the Location or body.
func postEmbed(t *testing.T, a *testApp, ticket, origin string, form url.Values) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, a.URL+"/embed/b/"+ticket, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if loc := resp.Header.Get("Location"); loc != "" {
		return resp.StatusCode, loc
	}
	return resp.StatusCode, string(b)
}

// TestWidget_FramedBuy: the overlay's pages (/embed/b/{code}, /embed/o/{id}) may be framed only by
// the event's listed sites, like the widget, while the normal buy and order pages keep 'none'. The
// framed form completes a purchase with no cookie at all, on its signed form token alone; a post
// without the token, with another ticket type's, with a changed one, or from another origin is
// refused and orders nothing. A free order's page shows its tickets; a GCash order's page opens
// the wallet's checkout in a new tab.
func TestWidget_FramedBuy(t *testing.T) {
	a := startApp(t)
	const free, paid = widgetEvent + "-free", demoOwnedType
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	for ev, ticket := range map[string]string{widgetEvent: free, demoOwnedEvent: paid} {
		_, h := headersOf(t, a, "/embed/b/"+ticket)
		require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'", "no site listed yet")
		status, _ := owner.post("/organizer/events/"+ev+"/widget", url.Values{"origins": {"https://mysite.ph"}})
		require.Equal(t, http.StatusSeeOther, status)
	}

	token := embedForm(t, a, free)
	buyer := url.Values{"email": {"framed@example.ph"}, "quantity": {"1"}, "firstName": {"Ana"}, "lastName": {"Reyes"},
		"companyName": {"UP Visayas"}, "designation": {"Student"}, "paymentType": {""}}
	refused := func(why, token, origin string) {
		form := url.Values{}
		for k, v := range buyer {
			form[k] = v
		}
		if token != "" {
			form.Set("_csrf", token)
		}
		status, body := postEmbed(t, a, free, origin, form)
		require.Equal(t, http.StatusForbidden, status, why+": "+body)
	}
	refused("no token", "", "")
	refused("another ticket type's token", embedForm(t, a, paid), "")
	refused("a changed token", token[:len(token)-2]+"AA", "")
	refused("another origin", token, "https://evil.example")
	orders, err := a.Purchases().ListOrders(context.Background(), palaro.OrderFilter{Limit: 100000})
	require.NoError(t, err)
	for _, o := range orders {
		require.NotEqual(t, "framed@example.ph", o.Email, "a refused post orders nothing")
	}

	buyer.Set("_csrf", token)
	status, loc := postEmbed(t, a, free, a.URL, buyer)
	require.Equal(t, http.StatusSeeOther, status, loc)
	require.Regexp(t, `^/embed/o/[A-Za-z0-9_-]+$`, loc)
	id := strings.TrimPrefix(loc, "/embed/o/")
	order, err := a.Purchases().FindOrderByPublicID(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, palaro.OrderPaid, order.Status)
	require.Equal(t, "framed@example.ph", order.Email)
	require.Zero(t, order.UserID, "the framed flow is anonymous")

	code, h := headersOf(t, a, loc)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, h.Get("Content-Security-Policy"), "; frame-ancestors https://mysite.ph")
	require.Empty(t, h.Get("X-Frame-Options"))
	_, body := newVisitor(t, a).get(loc)
	require.Contains(t, body, "<h1>You&#39;re in!</h1>")
	require.Contains(t, body, `<base target="_blank">`, "its links open Palaro in a new tab")
	require.Contains(t, body, `class="ticket-link" href="/t/`)

	for _, path := range []string{"/embed/b/" + free, "/embed/b/" + paid} {
		code, h = headersOf(t, a, path)
		require.Equal(t, http.StatusOK, code, path)
		require.Contains(t, h.Get("Content-Security-Policy"), "; frame-ancestors https://mysite.ph", path)
		require.Empty(t, h.Get("X-Frame-Options"), path)
	}
	for _, path := range []string{"/b/" + free, palaro.OrderPath(id), "/embed/b/no-such-type", "/embed/o/no-such-order"} {
		_, h = headersOf(t, a, path)
		require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'", path)
		require.Equal(t, "DENY", h.Get("X-Frame-Options"), path)
	}

	// A paid order: placed in the frame, paid in a new tab (the wallet leaves the page).
	gcash := url.Values{"_csrf": {embedForm(t, a, paid)}, "email": {"framed-gcash@example.ph"}, "quantity": {"1"},
		"firstName": {"Ana"}, "lastName": {"Reyes"}, "mobileNumber": {"09171234567"}, "surveyAnswer": {"Undecided"}, "paymentType": {palaro.PaymentGCash}}
	status, loc = postEmbed(t, a, paid, a.URL, gcash)
	require.Equal(t, http.StatusSeeOther, status, loc)
	_, body = newVisitor(t, a).get(loc)
	require.Contains(t, body, "data-embed-pending")
	require.Regexp(t, `<a class="button" href="`+regexp.QuoteMeta(a.URL)+`/sandbox/checkout/[^"]+">Pay with GCash \(opens a new tab\)</a>`, body)
}
