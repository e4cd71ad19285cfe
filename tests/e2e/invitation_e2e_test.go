package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestInvitation_ThroughSignUp_Browser: a team invitation opened while signed out names the
// organization and the role, and survives sign-up: the new account lands back on the invitation
// and joins the team.
func TestInvitation_ThroughSignUp_Browser(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	owner.get("/organizer/team")
	status, _ := owner.post("/organizer/team", url.Values{"email": {"nina@example.ph"}, "role": {"booth"}, "organization": {"2"}})
	require.Equal(t, http.StatusSeeOther, status)
	var org string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT name FROM organizers WHERE id = 2`).Scan(&org))
	link := outboxLink(t, a, "nina@example.ph", "/invitations/")
	path := strings.TrimPrefix(link, a.URL)

	ctx := newBrowser(t)
	dismissCookieNotice(t, ctx, a.URL+"/")
	var text string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+path),
		chromedp.WaitVisible("main", chromedp.ByQuery),
		chromedp.Text("main", &text, chromedp.ByQuery),
	))
	screenshot(t, ctx, "invitation-signed-out")
	require.Contains(t, text, org, "the page names the organization")
	require.Contains(t, text, "booth staff", "and the role")
	require.Contains(t, text, "nina@example.ph")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`//a[normalize-space()="Create an account"]`, chromedp.BySearch),
		chromedp.WaitVisible("#sign-up", chromedp.ByQuery),
		chromedp.SendKeys("#f-email", "nina@example.ph", chromedp.ByQuery),
		chromedp.SendKeys("#f-password", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-repeatPassword", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-firstName", "Nina", chromedp.ByQuery),
		chromedp.SendKeys("#f-lastName", "Booth", chromedp.ByQuery),
		chromedp.SendKeys("#f-mobileNumber", "09175556060", chromedp.ByQuery),
		chromedp.Click("#f-terms", chromedp.ByQuery),
		chromedp.Click(`#sign-up button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`//button[normalize-space()="Join the team"]`, chromedp.BySearch),
	))
	var where string
	require.NoError(t, chromedp.Run(ctx, chromedp.Location(&where), chromedp.Text("main", &text, chromedp.ByQuery)))
	require.Equal(t, a.URL+path, where, "sign-up comes back to the invitation")
	require.Contains(t, text, org)
	screenshot(t, ctx, "invitation-signed-in")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`//button[normalize-space()="Join the team"]`, chromedp.BySearch),
		waitFor(`location.pathname === '/organizer'`), // the click's navigation, not the page it left
		chromedp.Location(&where),
	))
	require.Contains(t, where, "/organizer?notice=joined")
	var role string
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT m.role FROM organizer_members m JOIN users u ON u.id = m.user_id
		WHERE u.email = 'nina@example.ph' AND m.organizer_id = 2`).Scan(&role))
	require.Equal(t, "booth", role)

	// Signed out, the sign-in page carries the invitation to sign-up and back too.
	status, page := newVisitor(t, a).get("/sign-in?next=" + url.QueryEscape(path))
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `href="/sign-up?next=`+url.QueryEscape(path)+`"`)
}
