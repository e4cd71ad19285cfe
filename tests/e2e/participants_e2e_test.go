package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// confirmInBrowser confirms the number of the browser's participant on /activities: "Send me a
// code by SMS", then the code from the outbox (number in E.164).
func confirmInBrowser(t *testing.T, ctx context.Context, a *testApp, number string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/activities"),
		chromedp.WaitVisible("#confirm", chromedp.ByQuery),
		chromedp.Click(`#confirm form[action^="/activities/confirm"] button`, chromedp.ByQuery),
		chromedp.WaitVisible("#confirm-form", chromedp.ByQuery),
	))
	screenshot(t, ctx, "activities-confirm-code")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.SendKeys("#f-code", smsCodeTo(t, a, number), chromedp.ByQuery),
		chromedp.Click(`#confirm-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".scan-banner", chromedp.ByQuery),
		chromedp.WaitNotPresent("#confirm", chromedp.ByQuery),
	))
}

// signUpAs fills the sign-up form and waits for the profile.
func signUpAs(t *testing.T, ctx context.Context, a *testApp, email, first, last, mobile string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/sign-up"),
		chromedp.WaitVisible("#sign-up", chromedp.ByQuery),
		chromedp.SendKeys("#f-email", email, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-repeatPassword", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-firstName", first, chromedp.ByQuery),
		chromedp.SendKeys("#f-lastName", last, chromedp.ByQuery),
		chromedp.SendKeys("#f-mobileNumber", mobile, chromedp.ByQuery),
		chromedp.Click("#f-terms", chromedp.ByQuery),
		chromedp.Click(`#sign-up button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".profile", chromedp.ByQuery),
	))
}

// signOutInBrowser signs out with the menu's form.
func signOutInBrowser(t *testing.T, ctx context.Context) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		openMenu(),
		chromedp.Click(".menu-sign-out button", chromedp.ByQuery),
		chromedp.WaitVisible("#sign-in", chromedp.ByQuery),
		// signing out forgets what this phone kept, the cookie choice included: the notice asks again
		chromedp.WaitVisible("#cookie-notice [data-consent]", chromedp.ByQuery),
		chromedp.Click(`#cookie-notice [data-consent]:last-of-type`, chromedp.ByQuery),
		chromedp.WaitNotVisible("#cookie-notice", chromedp.ByQuery),
	))
}

// TestParticipants_ConfirmedNumberOnly_Browser: Vera registered as a participant, confirmed her
// number and earned points. Mallory signs up with Vera's number: the sign-up answers as for any
// number, and /activities, her QR link and the leaderboard show nothing of Vera's (no name, points,
// QR, log), and the scan page sends her to register. Vera then signs up with her own number,
// enters the code it got by SMS, and her account shows her participant with her points.
func TestParticipants_ConfirmedNumberOnly_Browser(t *testing.T) {
	a := startApp(t)
	const number = "+639175557777"
	vera := newVisitor(t, a)
	veraID := registerConfirmed(t, vera, "Vera", "Owner", number)
	status, answer := scanAPI(t, vera, "booth", demoScratchEvent, veraID)
	require.Equal(t, 200, status, answer)

	ctx := newBrowser(t)
	dismissCookieNotice(t, ctx, a.URL+"/")
	signUpAs(t, ctx, a, "mallory@example.ph", "Mallory", "Owner", "0917 555 7777")
	var profile string
	require.NoError(t, chromedp.Run(ctx, chromedp.Text("main", &profile, chromedp.ByQuery)))
	require.NotContains(t, profile, "already used", "sign-up does not say the number is taken")
	require.Contains(t, profile, "Confirm your mobile number")
	screenshot(t, ctx, "profile-confirm-number")

	var page, qrHref string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/activities"),
		chromedp.WaitVisible("#confirm", chromedp.ByQuery),
		chromedp.Text("main", &page, chromedp.ByQuery),
	))
	screenshot(t, ctx, "activities-unconfirmed-account")
	require.NotContains(t, page, "Vera")
	require.NotContains(t, page, "10 points")
	require.NotContains(t, page, "Your activity log")
	require.Contains(t, page, "Confirm your mobile number to see your participant QR code")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/activities/qr"),
		chromedp.WaitVisible("#register", chromedp.ByQuery),
		chromedp.Location(&qrHref),
	))
	require.True(t, strings.HasSuffix(qrHref, "/register"), qrHref)
	var own int
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/leaderboard?event="+demoScratchEvent),
		chromedp.WaitVisible(".leaderboard", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('.leaderboard li.own').length`, &own),
	))
	require.Zero(t, own, "no row is Mallory's")
	var where string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+boothScanPath(t, a, demoScratchEvent, "scratch")),
		chromedp.WaitVisible("#register", chromedp.ByQuery),
		chromedp.Location(&where),
	))
	require.Contains(t, where, "/register?next=", "the scan page does not play as Vera")
	var visits int
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM activity_visits v JOIN participants p ON p.id = v.participant_id
		WHERE p.public_id = ?`, veraID).Scan(&visits))
	require.Equal(t, 1, visits, "nothing was played as Vera")
	signOutInBrowser(t, ctx)

	// Vera signs up with her own number and confirms it with the code it received.
	signUpAs(t, ctx, a, "vera@example.ph", "Vera", "Owner", "09175557777")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.WaitVisible("#mobile-form", chromedp.ByQuery),
		chromedp.SendKeys("#mobile-form #f-code", smsCodeTo(t, a, number), chromedp.ByQuery),
		chromedp.Click(`#mobile-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitNotPresent("#mobile-form", chromedp.ByQuery),
	))
	var me, log string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/activities"),
		chromedp.WaitVisible(".engage-me", chromedp.ByQuery),
		chromedp.Text(".engage-me", &me, chromedp.ByQuery),
		chromedp.Text(".activity-log", &log, chromedp.ByQuery),
		chromedp.AttributeValue(".engage-me a", "href", &qrHref, nil, chromedp.ByQuery),
	))
	screenshot(t, ctx, "activities-confirmed-account")
	require.Contains(t, me, "Vera Owner")
	require.Contains(t, me, "10 points")
	require.Contains(t, log, "Partner booth")
	require.Equal(t, "/register/success/"+veraID, qrHref, "her own participant, confirmed before")
}
