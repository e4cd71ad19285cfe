package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestProfilePicture_TooLarge_Browser: a 7 MB picture is refused in the browser before it is
// uploaded, under the field; with scripts off the server answers on the profile page with the
// same message, and the browser gets that page (not a reset connection or a dead end).
func TestProfilePicture_TooLarge_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	big := filepath.Join(t.TempDir(), "holiday.jpg")
	require.NoError(t, os.WriteFile(big, append([]byte("\xff\xd8\xff\xe0"), make([]byte, 7<<20)...), 0o600))
	require.NoError(t, chromedp.Run(ctx,
		dismissCookies(a.URL),
		signUpInBrowser(a, "pic@example.ph", "Pia", "0917 555 2468"),
		chromedp.WaitVisible(".picture-form", chromedp.ByQuery),
	))
	const msg = "The picture is too large. Choose one of at most 5 MB."

	t.Run("RefusedBeforeUpload", func(t *testing.T) {
		var shown string
		var stayed bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.SetUploadFiles("#f-picture", []string{big}, chromedp.ByQuery),
			chromedp.WaitVisible("#f-picture-error", chromedp.ByQuery),
			chromedp.Text("#f-picture-error", &shown, chromedp.ByQuery),
			chromedp.Evaluate(`window.palaroOldPage = true`, nil),
			chromedp.Click(`.picture-form button[type="submit"]`, chromedp.ByQuery),
			chromedp.Evaluate(`window.palaroOldPage === true && document.getElementById('f-picture').getAttribute('aria-invalid') === 'true'`, &stayed),
		))
		require.Equal(t, msg, strings.TrimSpace(shown))
		require.True(t, stayed, "the form is not sent")
		screenshot(t, ctx, "profile-picture-too-large")
	})

	t.Run("ServerAnswersOnTheProfile", func(t *testing.T) {
		withoutJavaScript(t, ctx)
		var shown, path string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/profile"),
			chromedp.SetUploadFiles("#f-picture", []string{big}, chromedp.ByQuery),
			chromedp.Evaluate(`window.palaroOldPage = true`, nil),
			chromedp.Click(`.picture-form button[type="submit"]`, chromedp.ByQuery),
			waitFor(`window.palaroOldPage === undefined && document.readyState === 'complete'`),
			chromedp.Text("#f-picture-error", &shown, chromedp.ByQuery),
			chromedp.Evaluate(`location.pathname`, &path),
		))
		require.Equal(t, msg, strings.TrimSpace(shown))
		require.Equal(t, "/profile/picture", path, "the answer to the upload is the profile page itself")
	})
}
