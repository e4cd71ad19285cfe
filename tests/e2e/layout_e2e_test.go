package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// phoneWidths are the phone viewports the layout tests run at: a small Android and an iPhone.
var phoneWidths = []int64{360, 390}

// atWidth sets the tab's viewport to a phone of the given width (844 px tall).
func atWidth(w int64) chromedp.Action {
	return chromedp.EmulateViewport(w, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)
}

// box is an element's border box in CSS pixels, as getBoundingClientRect returns it.
type box struct {
	Left, Top, Right, Bottom, Width, Height float64
}

// rectOf returns the border box of the first element matching the CSS selector sel.
func rectOf(t *testing.T, ctx context.Context, sel string) box {
	t.Helper()
	var b box
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`(() => { const e = document.querySelector(`+jsString(sel)+`);
		if (!e) throw new Error('no element '+`+jsString(sel)+`);
		const r = e.getBoundingClientRect();
		return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, Width: r.width, Height: r.height}; })()`, &b)), sel)
	return b
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

// overlaps reports whether two boxes share any area.
func (b box) overlaps(o box) bool {
	return b.Left < o.Right && o.Left < b.Right && b.Top < o.Bottom && o.Top < b.Bottom
}

// lineCount is how many lines of text the element at sel takes, from its height and line height.
func lineCount(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	var n int
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`(() => { const e = document.querySelector(`+jsString(sel)+`);
		const lh = parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.5;
		return Math.round(e.getBoundingClientRect().height / lh); })()`, &n)), sel)
	return n
}

// buyFreeTicket buys one free ticket for email through the API and returns its public id.
func buyFreeTicket(t *testing.T, a *testApp, email string) string {
	t.Helper()
	buyer := newVisitor(t, a)
	buyer.get("/")
	_, raw := buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"valorant-night-market-bgc-watch","quantity":1,`+
		`"email":"`+email+`","fullName":"Tess Ong","mobileNumber":"0935-123-4567"}`)
	require.Contains(t, raw, `"responseCode":200`)
	tickets, err := a.Purchases().ListTicketsByEmail(context.Background(), email)
	require.NoError(t, err)
	require.NotEmpty(t, tickets)
	return tickets[0].PublicID
}

func TestSignUpForm_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("CheckboxesLikeTheIslands", func(t *testing.T) {
		for _, w := range phoneWidths {
			require.NoError(t, chromedp.Run(ctx, atWidth(w), chromedp.Navigate(a.URL+"/sign-up"),
				chromedp.WaitVisible("#sign-up", chromedp.ByQuery)))
			for _, id := range []string{"f-terms", "f-existingUser"} {
				row := `label:has(#` + id + `)`
				drawn := rectOf(t, ctx, row+` .box`)
				require.GreaterOrEqual(t, drawn.Width, 20.0, "%d px: the box of %s is drawn", w, id)
				require.GreaterOrEqual(t, drawn.Height, 20.0)
				require.True(t, evalBool(t, ctx, `getComputedStyle(document.querySelector('`+row+` .box')).opacity === '1'`))
				require.Equal(t, 1, lineCount(t, ctx, row+` .check-label`), "%d px: the label of %s stays on one line", w, id)
				target := rectOf(t, ctx, row)
				require.GreaterOrEqual(t, target.Height, 44.0, "the whole row is the touch target")
				require.Greater(t, target.Width, 300.0)
			}
			screenshot(t, ctx, "sign-up-"+strconv.FormatInt(w, 10))
		}
		// A click on the drawn box or on the words ticks the box, as on the islands.
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`label:has(#f-terms) .box`, chromedp.ByQuery)))
		require.True(t, evalBool(t, ctx, `document.getElementById('f-terms').checked`))
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`label:has(#f-terms) .box`, chromedp.ByQuery)))
		require.False(t, evalBool(t, ctx, `document.getElementById('f-terms').checked`))
	})

	t.Run("TopBar", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(390), chromedp.Navigate(a.URL+"/sign-up"),
			chromedp.WaitVisible(".topbar .back", chromedp.ByQuery), chromedp.WaitVisible(".topbar .menu-button", chromedp.ByQuery)))
	})

	t.Run("ExistingUserWithoutJavaScript", func(t *testing.T) {
		withoutJavaScript(t, ctx)
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/sign-up"), chromedp.WaitVisible("#f-firstName", chromedp.ByQuery),
			chromedp.Click(`label:has(#f-existingUser) .check-label`, chromedp.ByQuery),
			chromedp.WaitNotVisible("#f-firstName", chromedp.ByQuery),
			chromedp.WaitVisible("#f-existingUser-hint", chromedp.ByQuery)))
		require.False(t, evalBool(t, ctx, `!!document.querySelector('[data-toggle-password]') && document.querySelector('[data-toggle-password]').checkVisibility()`),
			"scripts are off (the password toggles need them)")
	})

	t.Run("ExistingUserSkipsTheName", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(390), chromedp.Navigate(a.URL+"/sign-up"),
			chromedp.WaitVisible("#f-firstName", chromedp.ByQuery)))
		require.False(t, evalBool(t, ctx, `document.getElementById('f-existingUser-hint').checkVisibility()`), "the explanation shows only when ticked")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`label:has(#f-existingUser) .check-label`, chromedp.ByQuery),
			chromedp.WaitNotVisible("#f-firstName", chromedp.ByQuery),
			chromedp.WaitNotVisible("#f-lastName", chromedp.ByQuery),
			chromedp.WaitVisible("#f-existingUser-hint", chromedp.ByQuery),
		))
		require.True(t, evalBool(t, ctx, `document.getElementById('f-mobileNumber').checkVisibility()`), "the mobile number stays: password resets use it")
		screenshot(t, ctx, "sign-up-existing-user")
		var shown string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.SendKeys("#f-email", "returning@example.ph", chromedp.ByQuery),
			chromedp.SendKeys("#f-password", "Secret123", chromedp.ByQuery),
			chromedp.SendKeys("#f-repeatPassword", "Secret123", chromedp.ByQuery),
			chromedp.SendKeys("#f-mobileNumber", "0917 555 9876", chromedp.ByQuery),
			chromedp.Click(`label:has(#f-terms) .box`, chromedp.ByQuery),
			submitAndLoad(),
			chromedp.WaitVisible(".profile", chromedp.ByQuery),
			chromedp.Text(".profile-email", &shown, chromedp.ByQuery),
		))
		require.Equal(t, "returning@example.ph", shown, "an existing user signs up without a name")
		require.Equal(t, "No name yet: add it under Your details.", evalString(t, ctx, `document.querySelector('.profile-name').textContent`))
		require.Equal(t, "returning@example.ph", evalString(t, ctx, `document.querySelector('.menu-signed-in strong').textContent`),
			"the menu names the account by its e-mail")
	})

	t.Run("ErrNameRequiredOtherwise", func(t *testing.T) {
		v := newVisitor(t, a)
		v.get("/sign-up")
		status, body := v.post("/sign-up", map[string][]string{"email": {"new@example.ph"}, "password": {"Secret123"},
			"repeatPassword": {"Secret123"}, "mobileNumber": {"09175559877"}, "terms": {"1"}})
		require.Equal(t, 422, status)
		require.Contains(t, body, "First Name is required")
	})
}

// rectsOf returns the border boxes of all elements matching sel.
func rectsOf(t *testing.T, ctx context.Context, sel string) []box {
	t.Helper()
	var bs []box
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll(`+jsString(sel)+`)].map(e => {
		const r = e.getBoundingClientRect();
		return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, Width: r.width, Height: r.height}; })`, &bs)), sel)
	return bs
}

// noSidewaysScroll fails when the page is wider than the phone's screen.
func noSidewaysScroll(t *testing.T, ctx context.Context) {
	t.Helper()
	require.True(t, evalBool(t, ctx, `document.documentElement.scrollWidth <= innerWidth`), "the page scrolls sideways")
}

// checkAddOnCards checks the add-on cards of the page at a phone width w: each name has room, and
// runs neither into its price nor into its description; it saves a screenshot under name.
func checkAddOnCards(t *testing.T, ctx context.Context, w int64, name string) {
	t.Helper()
	cards := rectsOf(t, ctx, ".check.addon")
	labels := rectsOf(t, ctx, ".check.addon .check-label")
	prices := rectsOf(t, ctx, ".check.addon .addon-price")
	notes := rectsOf(t, ctx, ".check.addon .addon-notes")
	require.Len(t, labels, len(cards))
	require.GreaterOrEqual(t, len(cards), 4)
	for i := range cards {
		require.False(t, labels[i].overlaps(prices[i]), "%d px, card %d: the name runs into its price", w, i)
		require.False(t, labels[i].overlaps(notes[i]), "%d px, card %d: the name overlaps its description", w, i)
		require.LessOrEqual(t, cards[i].Right, float64(w), "card %d fits the screen", i)
		require.Greater(t, labels[i].Width, cards[i].Width/4, "%d px, card %d: the name is not squeezed", w, i)
		require.LessOrEqual(t, labels[i].Height, 60.0, "%d px, card %d: the name takes at most two lines", w, i)
	}
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".addons", chromedp.ByQuery)))
	screenshot(t, ctx, name+"-"+strconv.FormatInt(w, 10))
	noSidewaysScroll(t, ctx)
}

func TestPhoneLayout_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("SeatMapsOneSize", func(t *testing.T) {
		for _, w := range phoneWidths {
			for _, code := range []string{"lan-party-baguio-seat", "dota-2-visayas-major-lower"} {
				require.NoError(t, chromedp.Run(ctx, atWidth(w)))
				openSeatMap(t, ctx, a.URL+"/s/"+code)
				var sizes []string
				require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...new Set([...document.querySelectorAll('.check.seat:not(.gap)')].map(e => {
					const r = e.getBoundingClientRect(); return r.width + 'x' + r.height + ' ' + getComputedStyle(e).fontSize; }))]`, &sizes)))
				require.Equal(t, []string{"44x44 12px"}, sizes, "%s at %d px: every seat 44×44 with a 12 px label", code, w)
				noSidewaysScroll(t, ctx)
				screenshot(t, ctx, "seats-"+code+"-"+strconv.FormatInt(w, 10))
			}
		}
	})

	t.Run("SeatLimitToastClearOfContinue", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(360)))
		openSeatMap(t, ctx, a.URL+"/s/lan-party-baguio-seat")
		seats := availableSeats(t, ctx, 3)
		require.NoError(t, chromedp.Run(ctx, clickSeat(seats[0]), clickSeat(seats[1]), clickSeat(seats[2]),
			chromedp.WaitVisible(`#toast`, chromedp.ByQuery)))
		toast, cont := rectOf(t, ctx, "#toast"), rectOf(t, ctx, ".seat-bar .button")
		require.Less(t, cont.Bottom, 845.0, "the Continue button is on screen")
		require.False(t, toast.overlaps(cont), "the toast %+v covers Continue %+v", toast, cont)
		require.Greater(t, toast.Top, 0.0)
		screenshot(t, ctx, "seats-limit-toast")
	})

	t.Run("AddOnCards", func(t *testing.T) {
		openSeatMap(t, ctx, a.URL+"/s/dota-2-visayas-major-lower")
		seats := availableSeats(t, ctx, 1)
		for _, w := range phoneWidths {
			require.NoError(t, chromedp.Run(ctx, atWidth(w)))
			openIsland(t, ctx, a.URL+"/b/dota-2-visayas-major-lower?seats="+seats[0], "purchase", ".addons")
			checkAddOnCards(t, ctx, w, "buy-addons")
		}
	})

	t.Run("AddOnCheckboxCards", func(t *testing.T) {
		// The add-ons page of a bought ticket ticks add-ons with checkboxes (the buy form counts them).
		require.NoError(t, chromedp.Run(ctx, atWidth(390), chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
			chromedp.WaitReady(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.Click(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.sheet-backdrop.open #quick-email`, chromedp.ByQuery),
			typeInto("quick-email", "cards@example.ph"),
			chromedp.Click(`//div[contains(@class,'sheet')]//button[normalize-space(.)='Pay by QR PH']`, chromedp.BySearch)))
		waitPath(t, ctx, "/sandbox/")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-pay`, chromedp.ByQuery)))
		waitPath(t, ctx, "/payment/success/")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.ticket-link`, chromedp.ByQuery)))
		waitPath(t, ctx, "/t/")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`//a[normalize-space(.)='Buy add-ons']`, chromedp.BySearch)))
		addOns := waitPath(t, ctx, "/a/")
		for _, w := range phoneWidths {
			require.NoError(t, chromedp.Run(ctx, atWidth(w)))
			openIsland(t, ctx, addOns, "addons", ".addons")
			require.Equal(t, 4, int(evalFloat(t, ctx, `document.querySelectorAll('.check.addon input[type=checkbox]').length`)))
			checkAddOnCards(t, ctx, w, "ticket-addons")
			assertTouchTargets(t, ctx)
		}
	})

	t.Run("CalendarIconNotSquashed", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(360), chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
			chromedp.WaitVisible(".event-when", chromedp.ByQuery)))
		for _, sel := range []string{".event-when svg", ".venue-name svg"} {
			icon := rectOf(t, ctx, sel)
			require.Equal(t, 16.0, icon.Width, sel)
			require.Equal(t, 16.0, icon.Height, sel)
		}
	})

	t.Run("CookieNoticeClearOfFooter", func(t *testing.T) {
		for _, w := range phoneWidths {
			for _, path := range []string{"/", "/sign-up", "/about"} {
				require.NoError(t, chromedp.Run(ctx, atWidth(w), chromedp.Navigate(a.URL+path),
					chromedp.Evaluate(`localStorage.removeItem('palaro-consent')`, nil),
					chromedp.Reload(),
					chromedp.WaitVisible("#cookie-notice", chromedp.ByQuery),
					chromedp.Evaluate(`window.scrollTo(0, document.documentElement.scrollHeight)`, nil),
					waitFor(`Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight`),
				))
				notice := rectOf(t, ctx, "#cookie-notice")
				require.Less(t, notice.Bottom, 845.0, "the notice is on screen")
				for i, link := range rectsOf(t, ctx, ".site-footer a, .site-footer .legal") {
					require.False(t, notice.overlaps(link), "%s at %d px: the notice covers footer item %d", path, w, i)
					require.GreaterOrEqual(t, link.Top, 0.0, "%s at %d px: footer item %d is on screen", path, w, i)
				}
			}
		}
		screenshot(t, ctx, "cookie-notice-bottom")
		// On the seat map the notice stays at the end of the page: the Continue bar is not covered.
		require.NoError(t, chromedp.Run(ctx, atWidth(360), chromedp.Navigate(a.URL+"/s/lan-party-baguio-seat"),
			chromedp.WaitVisible(`[data-island="seats"][data-mounted] .seat-bar`, chromedp.ByQuery),
			chromedp.WaitVisible("#cookie-notice", chromedp.ByQuery)))
		require.False(t, rectOf(t, ctx, "#cookie-notice").overlaps(rectOf(t, ctx, ".seat-bar")), "the notice covers the Continue bar")
		require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	})

	t.Run("ErrorPage", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(360), chromedp.Navigate(a.URL+"/nothing-here"), chromedp.WaitVisible(".error-page", chromedp.ByQuery)))
		require.NotEqual(t, evalString(t, ctx, `document.querySelector('.error-page h1').textContent`),
			evalString(t, ctx, `document.querySelector('.error-page p').textContent`))
		require.Equal(t, "/", evalString(t, ctx, `document.querySelector('.error-page a').getAttribute('href')`))
		screenshot(t, ctx, "error-404")
	})

	t.Run("ProfileLongName", func(t *testing.T) {
		name := strings.Repeat("Maximilian", 10)
		require.NoError(t, chromedp.Run(ctx, atWidth(360), signUpInBrowser(a, "long.name@example.ph", name, "0917 555 1111"),
			chromedp.WaitVisible(".profile-status", chromedp.ByQuery)))
		for _, w := range phoneWidths {
			require.NoError(t, chromedp.Run(ctx, atWidth(w), chromedp.Reload(), chromedp.WaitVisible(".profile-status", chromedp.ByQuery)))
			head := rectOf(t, ctx, ".profile-head")
			for _, sel := range []string{".profile-name", ".profile-email", ".profile-status"} {
				r := rectOf(t, ctx, sel)
				require.LessOrEqual(t, r.Right, head.Right+0.5, "%d px: %s stays inside the header", w, sel)
				require.True(t, evalBool(t, ctx, `(e => e.scrollWidth <= e.clientWidth)(document.querySelector('`+sel+`'))`), "%d px: %s is not cut", w, sel)
			}
			require.False(t, rectOf(t, ctx, ".profile-name").overlaps(rectOf(t, ctx, ".profile-status")))
			noSidewaysScroll(t, ctx)
			screenshot(t, ctx, "profile-long-name-"+strconv.FormatInt(w, 10))
		}
	})
}

func TestFormPages_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	ticket := buyFreeTicket(t, a, "forms@example.ph")

	// Every server-rendered form at both phone widths: it fits the screen, its touch targets are
	// large enough and its checkboxes' labels stay on one line.
	check := func(t *testing.T, name, path, ready string) {
		for _, w := range phoneWidths {
			require.NoError(t, chromedp.Run(ctx, atWidth(w), chromedp.Navigate(a.URL+path), chromedp.WaitVisible(ready, chromedp.ByQuery)))
			noSidewaysScroll(t, ctx)
			assertTouchTargets(t, ctx)
			var lines []int
			require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('.check-field .check-label')].map(e =>
				Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)))`, &lines)))
			for i, n := range lines {
				require.Equal(t, 1, n, "%s at %d px: checkbox label %d takes %d lines", name, w, i, n)
			}
			screenshot(t, ctx, "form-"+name+"-"+strconv.FormatInt(w, 10))
		}
	}
	pages := []struct{ name, path, ready string }{
		{"sign-in", "/sign-in", "#sign-in"},
		{"sign-up", "/sign-up", "#sign-up"},
		{"register", "/register", "main form"},
		{"register-organizer", "/register/organizer", "main form"},
		{"reset-password", "/reset-password", "main form"},
		{"report", "/report", "main form"},
		{"change-email", "/change-email/" + ticket, "main form"},
		{"tickets-signed-out", "/tickets", "main"},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) { check(t, p.name, p.path, p.ready) })
	}
	t.Run("signed-in", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, atWidth(390), signUpInBrowser(a, "forms@example.ph", "Form", "0935 123 4567")))
		check(t, "profile", "/profile", ".profile")
		check(t, "tickets", "/tickets", "main")
	})
}
