package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// setField sets the value of the input or textarea named name, as a person typing would leave it.
func setField(name, value string) chromedp.Action {
	return chromedp.SetValue(`[name="`+name+`"]`, value, chromedp.ByQuery)
}

// submitOrgForm submits the console page's form and waits for the page it answers with.
func submitOrgForm() chromedp.Action {
	return chromedp.Tasks{
		chromedp.Evaluate(`window.palaroOldPage = true`, nil),
		chromedp.Click(`.org-form button[type="submit"]`, chromedp.ByQuery),
		waitFor(`window.palaroOldPage === undefined && document.readyState === 'complete'`),
	}
}

// TestOrganizerJourney_Browser is a new organizer's first event, in a phone-size browser:
// register, get approved by the operator command, create an event with two ticket types (one
// seated), publish it and find it on the home page; a visitor buys a ticket; the organizer finds
// the order in the console and in the CSV. Every console page is also captured at laptop size.
func TestOrganizerJourney_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	const email, password = "mara@laroph.ph", "LaroPH2026"
	start := testEpoch.Add(30 * time.Hour).In(time.UTC)
	var pages []string // console pages visited, captured again at laptop size at the end

	require.True(t, t.Run("Register", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/register/organizer"),
			setField("email", email), setField("username", "mara"), setField("name", "Mara Reyes"),
			setField("organization", "LaroPH Events"), setField("mobileNumber", "09179876543"),
			setField("password", password), setField("repeatPassword", password), submitAndLoad()))
		waitPath(t, ctx, "/register/success/organizer")
		var body string
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/organizer"), chromedp.Text("main", &body, chromedp.ByQuery)))
		require.Contains(t, body, "Waiting for approval")
		screenshot(t, ctx, "organizer-pending")
	}), "the journey stops at the first failed step")

	require.True(t, t.Run("Approve", func(t *testing.T) {
		out, err := command(t, a, "organizers", "approve", email)
		require.NoError(t, err)
		require.Contains(t, out, "Approved LaroPH Events")
	}), "the journey stops at the first failed step")

	require.True(t, t.Run("CreateEvent", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/organizer"), chromedp.WaitVisible(".org-empty", chromedp.ByQuery)))
		screenshot(t, ctx, "organizer-home-empty")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`//a[normalize-space(.)='Create an event']`, chromedp.BySearch)))
		waitPath(t, ctx, "/organizer/events/new")
		screenshot(t, ctx, "organizer-event-new")
		require.NoError(t, chromedp.Run(ctx,
			setField("name", "Laro Cup Manila"), setField("code", "laro-cup-manila"),
			setField("summary", "A community Valorant cup."), setField("description", "Sixteen teams, one day."),
			setField("startsAt", start.In(testEpoch.Location()).Format("2006-01-02T15:04")),
			setField("endsAt", start.Add(6*time.Hour).In(testEpoch.Location()).Format("2006-01-02T15:04")),
			setField("venue.name", "Laro Hall"), setField("venue.address", "12 Katipunan Avenue"),
			setField("venue.city", "Quezon City"), setField("venue.latitude", "14.6390"), setField("venue.longitude", "121.0770"),
			setField("tags", "valorant, laro-cup"), setField("links", "Rules | https://laro.ph/rules"),
			submitOrgForm()))
		waitPath(t, ctx, "/organizer/events/laro-cup-manila")
		var notice string
		require.NoError(t, chromedp.Run(ctx, chromedp.Text(".form-notice", &notice, chromedp.ByQuery)))
		require.Contains(t, notice, "Add ticket types")
		pages = append(pages, "/organizer/events/new", "/organizer/events/laro-cup-manila/edit")
	}), "the journey stops at the first failed step")

	require.True(t, t.Run("TicketTypes", func(t *testing.T) {
		base := a.URL + "/organizer/events/laro-cup-manila/ticket-types/new"
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(base),
			setField("name", "General Admission"), setField("code", "laro-cup-manila-ga"), setField("price", "0"),
			setField("capacity", "200"), submitOrgForm()))
		waitPath(t, ctx, "/organizer/events/laro-cup-manila")
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(base), chromedp.WaitVisible(`[name="name"]`, chromedp.ByQuery)))
		screenshot(t, ctx, "organizer-ticket-type-new")
		require.NoError(t, chromedp.Run(ctx,
			setField("name", "Courtside"), setField("code", "laro-cup-manila-court"), setField("price", "1,250"),
			setField("capacity", "40"), chromedp.Click(`#f-seated`, chromedp.ByQuery), submitOrgForm()))
		waitPath(t, ctx, "/organizer/events/laro-cup-manila")
		var types string
		require.NoError(t, chromedp.Run(ctx, chromedp.Text(".org-types", &types, chromedp.ByQuery)))
		require.Contains(t, types, "General Admission")
		require.Contains(t, types, "Courtside")
		require.Contains(t, types, "SEATED", "the badge is upper-case by style")
		require.Contains(t, types, "₱1,250.00")
		pages = append(pages, "/organizer/events/laro-cup-manila/ticket-types/laro-cup-manila-court/edit")
	}), "the journey stops at the first failed step")

	require.True(t, t.Run("Publish", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`//button[normalize-space(.)='Publish']`, chromedp.BySearch),
			waitFor(`document.querySelector('.form-notice') && document.querySelector('.form-notice').textContent.includes('public pages')`)))
		screenshot(t, ctx, "organizer-event")
		var home string
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/"), chromedp.Text("main", &home, chromedp.ByQuery)))
		require.Contains(t, home, "Laro Cup Manila", "published: on the home page")
		pages = append(pages, "/organizer", "/organizer/events/laro-cup-manila")
	}), "the journey stops at the first failed step")

	var orderEmail = "bisita@example.ph"
	require.True(t, t.Run("VisitorBuys", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, network.ClearBrowserCookies()))
		require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
		openForm(t, ctx, a.URL+"/b/laro-cup-manila-ga")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", orderEmail), typeInto("fullName", "Bisita Dela Peña"),
			typeInto("mobileNumber", "09181234567")))
		screenshot(t, ctx, "organizer-visitor-form")
		require.NoError(t, chromedp.Run(ctx, pay("Submit")))
		waitPath(t, ctx, "/payment/success/")
	}), "the journey stops at the first failed step")

	require.True(t, t.Run("OrderInConsole", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/sign-in?next=/organizer/events/laro-cup-manila/orders"),
			setField("email", email), setField("password", password), submitAndLoad()))
		waitPath(t, ctx, "/organizer/events/laro-cup-manila/orders")
		require.NoError(t, chromedp.Run(ctx, setField("q", orderEmail),
			chromedp.Click(`//button[normalize-space(.)='Search']`, chromedp.BySearch),
			waitFor(`location.search.includes('q=')`), chromedp.WaitVisible(".org-orders li", chromedp.ByQuery)))
		var orders string
		require.NoError(t, chromedp.Run(ctx, chromedp.Text(".org-orders", &orders, chromedp.ByQuery)))
		require.Contains(t, orders, orderEmail)
		require.Contains(t, orders, "PAID")
		screenshot(t, ctx, "organizer-orders")
		pages = append(pages, "/organizer/events/laro-cup-manila/orders?q="+url.QueryEscape(orderEmail), "/organizer/tokens",
			"/organizer/events/laro-cup-manila/refunds", "/organizer/events/laro-cup-manila/dashboard")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(".org-orders a", chromedp.ByQuery)))
		orderURL := waitPath(t, ctx, "/organizer/events/laro-cup-manila/orders/")
		var facts string
		require.NoError(t, chromedp.Run(ctx, chromedp.Text(".org-facts", &facts, chromedp.ByQuery)))
		require.Contains(t, facts, "Bisita Dela Peña")
		screenshot(t, ctx, "organizer-order")
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/organizer/events/laro-cup-manila/dashboard"),
			chromedp.WaitVisible(".org-chart svg", chromedp.ByQuery)))
		screenshot(t, ctx, "organizer-dashboard")
		pages = append(pages, strings.TrimPrefix(orderURL, a.URL))

		v := newVisitor(t, a)
		v.get("/sign-in")
		status, _ := v.post("/sign-in", url.Values{"email": {email}, "password": {password}})
		require.Equal(t, http.StatusSeeOther, status)
		status, csvText := v.get("/organizer/events/laro-cup-manila/attendees.csv")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, csvText, orderEmail)
		require.Contains(t, csvText, "Bisita Dela Peña")
		status, csvText = v.get("/organizer/events/laro-cup-manila/orders.csv")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, csvText, orderEmail)
	}), "the journey stops at the first failed step")

	require.True(t, t.Run("Screenshots", func(t *testing.T) {
		pages = append(pages, "/organizer/team", "/organizer/events/laro-cup-manila/add-ons", "/organizer/events/laro-cup-manila/ticket-types/laro-cup-manila-court/edit#seats",
			"/organizer/events/laro-cup-manila/promo-codes")
		for _, size := range []struct {
			name          string
			width, height int64
		}{{"phone", 390, 844}, {"laptop", 1280, 800}} {
			require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(size.width, size.height)))
			for _, p := range pages {
				require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+p), chromedp.WaitVisible(".org h1", chromedp.ByQuery)))
				name := strings.Trim(strings.NewReplacer("/", "-", "?", "-", "=", "-", "%40", "-", "#", "-").Replace(p), "-")
				screenshot(t, ctx, size.name+"-"+name)
			}
		}
	}), "the journey stops at the first failed step")
}
