package main

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
