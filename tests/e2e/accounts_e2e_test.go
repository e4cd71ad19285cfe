package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// watchCSP records Content-Security-Policy violations of every page the tab loads in window.__csp.
func watchCSP(t *testing.T, ctx context.Context) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.__csp = [];
			document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`).Do(ctx)
		return err
	})))
}

// cspViolations returns the violations of the current page.
func cspViolations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	var v []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Sleep(200*time.Millisecond), chromedp.Evaluate(`window.__csp || []`, &v)))
	return v
}

// dismissCookieNotice answers the cookie notice, which otherwise covers the bottom of the page.
func dismissCookieNotice(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible("#cookie-notice [data-consent]", chromedp.ByQuery),
		chromedp.Click(`#cookie-notice [data-consent]:last-of-type`, chromedp.ByQuery),
		chromedp.WaitNotVisible("#cookie-notice", chromedp.ByQuery),
	))
}

func TestAccounts_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	watchCSP(t, ctx)
	dismissCookieNotice(t, ctx, a.URL+"/")

	t.Run("SignUpMessages", func(t *testing.T) {
		var errs []string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/sign-up"),
			chromedp.WaitVisible("#sign-up", chromedp.ByQuery),
			chromedp.SendKeys("#f-email", "not-an-email", chromedp.ByQuery),
			chromedp.SendKeys("#f-password", "abc", chromedp.ByQuery),
			chromedp.SendKeys("#f-repeatPassword", "abcd", chromedp.ByQuery),
			chromedp.SendKeys("#f-firstName", "Maria", chromedp.ByQuery),
			chromedp.SendKeys("#f-mobileNumber", "12ab", chromedp.ByQuery),
			chromedp.Click(`#sign-up button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(".field-error", chromedp.ByQuery),
			chromedp.Evaluate(`[...document.querySelectorAll('.field-error')].map(e => e.textContent.trim())`, &errs),
		))
		require.Contains(t, errs, palaro.MsgEmailInvalid)
		require.Contains(t, errs, "The password is not valid. It must contain only letters and numbers, min. 8 characters")
		require.Contains(t, errs, "The passwords do not match")
		require.Contains(t, errs, "Lastname is required")
		require.Contains(t, errs, "The mobile phone number is not valid")
		require.Contains(t, errs, palaro.MsgTermsRequired)
		var kept string
		require.NoError(t, chromedp.Run(ctx, chromedp.Value("#f-firstName", &kept, chromedp.ByQuery)))
		require.Equal(t, "Maria", kept, "what the visitor typed is kept")
		screenshot(t, ctx, "sign-up-errors")
		require.Empty(t, cspViolations(t, ctx))
	})

	t.Run("SignUpOK", func(t *testing.T) {
		var shown, toggled string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/sign-up"),
			chromedp.SendKeys("#f-email", "maria@example.ph", chromedp.ByQuery),
			chromedp.SendKeys("#f-password", "Secret123", chromedp.ByQuery),
			chromedp.Click(`[data-toggle-password="f-password"]`, chromedp.ByQuery),
			chromedp.Poll(`document.getElementById('f-password').type === 'text'`, nil, chromedp.WithPollingTimeout(5*time.Second)),
			chromedp.AttributeValue("#f-password", "type", &toggled, nil, chromedp.ByQuery),
			chromedp.SendKeys("#f-repeatPassword", "Secret123", chromedp.ByQuery),
			chromedp.SendKeys("#f-firstName", "Maria", chromedp.ByQuery),
			chromedp.SendKeys("#f-lastName", "Santos", chromedp.ByQuery),
			chromedp.SendKeys("#f-mobileNumber", "0917 555 1234", chromedp.ByQuery),
			chromedp.Click("#f-terms", chromedp.ByQuery),
			chromedp.Click(`#sign-up button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(".profile", chromedp.ByQuery),
			chromedp.Text(".profile-email", &shown, chromedp.ByQuery),
		))
		require.Equal(t, "text", toggled, "the page script runs under the CSP")
		require.Equal(t, "maria@example.ph", shown)
		screenshot(t, ctx, "profile")
		// The number is the account's once the code sent to it by SMS is entered.
		require.NoError(t, chromedp.Run(ctx,
			chromedp.SendKeys("#mobile-form #f-code", smsCodeTo(t, a, "+639175551234"), chromedp.ByQuery),
			chromedp.Click(`#mobile-form button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitNotPresent("#mobile-form", chromedp.ByQuery),
		))
		require.Empty(t, cspViolations(t, ctx))
	})

	t.Run("SignOutAndIn", func(t *testing.T) {
		var prompt, name string
		require.NoError(t, chromedp.Run(ctx,
			openMenu(), // the panel slides in: a click during the slide can land beside the button
			chromedp.Click(".menu-sign-out button", chromedp.ByQuery),
			chromedp.WaitVisible("#sign-in", chromedp.ByQuery),
			chromedp.Navigate(a.URL+"/activities"),
			chromedp.Text(".sign-in-prompt p", &prompt, chromedp.ByQuery),
		))
		require.Equal(t, "Register or Sign In to unlock all application features", strings.TrimSpace(prompt))
		screenshot(t, ctx, "activities-signed-out")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(".sign-in-prompt a", chromedp.ByQuery),
			chromedp.WaitVisible("#sign-in", chromedp.ByQuery),
			chromedp.SendKeys("#f-email", "maria@example.ph", chromedp.ByQuery),
			chromedp.SendKeys("#f-password", "Secret123", chromedp.ByQuery),
			chromedp.Click(`#sign-in button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(".engage-me", chromedp.ByQuery),
			chromedp.Text("h1", &name, chromedp.ByQuery),
		))
		require.Equal(t, "Activities", strings.TrimSpace(name), "sign-in returns to the page that asked for it")
	})

	t.Run("ResetPasswordBySMS", func(t *testing.T) {
		var notice string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/reset-password"),
			chromedp.SetValue("#f-mobileNumber", "09175551234", chromedp.ByQuery),
			chromedp.Click(`#reset-request button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible("#reset-confirm", chromedp.ByQuery),
			chromedp.Text(".form-notice", &notice, chromedp.ByQuery),
		))
		require.Contains(t, notice, "we have sent it a 6-digit code by SMS")
		msgs, err := a.Outbox().ListOutbox(context.Background(), palaro.OutboxFilter{To: "+639175551234"})
		require.NoError(t, err)
		require.NotEmpty(t, msgs)
		require.Equal(t, palaro.ChannelSMS, msgs[0].Channel)
		code := regexp.MustCompile(`[0-9]{6}`).FindString(msgs[0].Text)
		require.NoError(t, chromedp.Run(ctx,
			chromedp.SendKeys("#f-code", code, chromedp.ByQuery),
			chromedp.SendKeys("#f-password", "Changed123", chromedp.ByQuery),
			chromedp.SendKeys("#f-repeatPassword", "Changed123", chromedp.ByQuery),
		))
		screenshot(t, ctx, "reset-password")
		var signedIn string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`#reset-confirm button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible("#sign-in", chromedp.ByQuery),
			chromedp.SendKeys("#f-email", "maria@example.ph", chromedp.ByQuery),
			chromedp.SendKeys("#f-password", "Changed123", chromedp.ByQuery),
			chromedp.Click(`#sign-in button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(".profile", chromedp.ByQuery),
			chromedp.Text(".profile-email", &signedIn, chromedp.ByQuery),
		))
		require.Equal(t, "maria@example.ph", signedIn)
	})

	t.Run("RegisterParticipant", func(t *testing.T) {
		var heading string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/register"),
			chromedp.SetValue("#f-firstName", "Pia", chromedp.ByQuery), // the form is prefilled for a signed-in visitor
			chromedp.SetValue("#f-lastName", "Lim", chromedp.ByQuery),
			chromedp.SetValue("#f-mobileNumber", "+63 917 000 1111", chromedp.ByQuery),
			chromedp.Click(`#register button[type="submit"]`, chromedp.ByQuery),
			chromedp.WaitVisible(".qr-code", chromedp.ByQuery),
			chromedp.Text("h1", &heading, chromedp.ByQuery),
		))
		require.Equal(t, "You're registered, Pia!", heading)
		screenshot(t, ctx, "register-success")
	})

	t.Run("PagesWithoutViolations", func(t *testing.T) {
		for _, path := range []string{"/", "/sign-in", "/reset-password", "/register", "/register/organizer", "/report", "/calendar"} {
			require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+path), chromedp.WaitReady("body", chromedp.ByQuery)))
			require.Empty(t, cspViolations(t, ctx), path)
		}
	})
}
