package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// signUpInBrowser signs up through the /sign-up form (password Secret123) and waits for the profile.
func signUpInBrowser(a *testApp, email, firstName, mobile string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.Navigate(a.URL + "/sign-up"),
		chromedp.SendKeys("#f-email", email, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-repeatPassword", "Secret123", chromedp.ByQuery),
		chromedp.SendKeys("#f-firstName", firstName, chromedp.ByQuery),
		chromedp.SendKeys("#f-lastName", "Reyes", chromedp.ByQuery),
		chromedp.SendKeys("#f-mobileNumber", mobile, chromedp.ByQuery),
		chromedp.Click("#f-terms", chromedp.ByQuery),
		chromedp.Click(`#sign-up button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".profile", chromedp.ByQuery),
	}
}

// TestChangePassword_Browser changes the password from /profile with scripts off (the form works
// without JavaScript): a wrong current password is named under its field, the right one changes
// it, this tab stays signed in and another device's session ends.
func TestChangePassword_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx,
		dismissCookies(a.URL),
		signUpInBrowser(a, "rosa@example.ph", "Rosa", "0917 555 4321"),
		chromedp.WaitVisible("#password-form", chromedp.ByQuery),
		chromedp.Evaluate(`document.getElementById('password').scrollIntoView()`, nil),
	))
	screenshot(t, ctx, "profile-change-password")

	other := newVisitor(t, a) // the same account on another device
	other.get("/sign-in")
	status, _ := other.post("/sign-in", url.Values{"email": {"rosa@example.ph"}, "password": {"Secret123"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, body := other.get("/profile")
	require.Contains(t, body, "rosa@example.ph")

	withoutJavaScript(t, ctx)
	submit := func(current, password, repeat string) chromedp.Tasks {
		return chromedp.Tasks{
			chromedp.Navigate(a.URL + "/profile"),
			chromedp.SendKeys("#f-currentPassword", current, chromedp.ByQuery),
			chromedp.SendKeys("#f-password", password, chromedp.ByQuery),
			chromedp.SendKeys("#f-repeatPassword", repeat, chromedp.ByQuery),
			chromedp.Evaluate(`window.palaroOldPage = true`, nil),
			chromedp.Click(`#password-form button[type="submit"]`, chromedp.ByQuery),
			waitFor(`window.palaroOldPage === undefined && document.readyState === 'complete'`),
		}
	}
	var msg string
	require.NoError(t, chromedp.Run(ctx,
		submit("Wrong1234", "Changed123", "Changed123"),
		chromedp.Text("#f-currentPassword-error", &msg, chromedp.ByQuery),
	))
	require.Equal(t, palaro.MsgCurrentPasswordWrong, strings.TrimSpace(msg))
	screenshot(t, ctx, "profile-change-password-error")

	var notice, email string
	require.NoError(t, chromedp.Run(ctx,
		submit("Secret123", "Changed123", "Changed123"),
		chromedp.Text("#password-form .form-notice", &notice, chromedp.ByQuery),
		chromedp.Text(".profile-email", &email, chromedp.ByQuery),
	))
	require.Contains(t, notice, "Your password has been changed.")
	screenshot(t, ctx, "profile-change-password-done")
	require.Equal(t, "rosa@example.ph", email, "this tab stays signed in")

	_, body = other.get("/profile")
	require.Contains(t, body, palaro.SignInRequiredMessage, "the other device is signed out")
	require.NotContains(t, body, "rosa@example.ph")
}
