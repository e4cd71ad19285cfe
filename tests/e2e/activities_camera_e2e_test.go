package e2e

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// cameraBrowser opens a phone-sized Chromium whose fake camera plays a video of the QR code of payload.
func cameraBrowser(t *testing.T, payload string) context.Context {
	t.Helper()
	video := qrVideo(t, payload)
	ctx := newBrowser(t, chromedp.Flag("use-fake-device-for-media-stream", true), chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", video))
	watchCSP(t, ctx)
	return ctx
}

// registerInBrowser registers the browser as a participant at /register.
func registerInBrowser(t *testing.T, ctx context.Context, a *testApp, mobile string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(a.URL+"/register"),
		chromedp.WaitVisible("#register", chromedp.ByQuery),
		chromedp.SendKeys("#f-firstName", "Carla", chromedp.ByQuery),
		chromedp.SendKeys("#f-lastName", "Camera", chromedp.ByQuery),
		chromedp.SendKeys("#f-mobileNumber", mobile, chromedp.ByQuery),
		chromedp.Click(`#register button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(".qr-code", chromedp.ByQuery),
	))
}

// TestActivities_CameraScansBooth: on /activities "Scan a booth" opens the camera (Chromium's fake
// camera playing a booth poster's QR, read by the WebAssembly decoder under the page's CSP) and the
// visitor lands on the booth's /scan page with the visit registered; any other QR code is refused
// with a message and the page stays.
func TestActivities_CameraScansBooth(t *testing.T) {
	a := startApp(t)
	t.Run("OK", func(t *testing.T) {
		ctx := cameraBrowser(t, a.URL+"/scan?activityCode=booth&eventCode="+demoScratchEvent)
		registerInBrowser(t, ctx, a, "09175551234")
		var banner string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/activities"),
			chromedp.WaitVisible(".camera-scan-island[data-mounted] button", chromedp.ByQuery),
		))
		screenshot(t, ctx, "activities-scan-button")
		assertTouchTargets(t, ctx)
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(".camera-scan-island[data-mounted] button", chromedp.ByQuery),
			waitFor(`location.pathname === '/activities'`), // /scan's form posts the visit at once
			chromedp.WaitVisible(".scan-banner", chromedp.ByQuery),
			chromedp.Text(".scan-banner", &banner, chromedp.ByQuery),
		))
		require.Contains(t, banner, "+10 points")
		screenshot(t, ctx, "activities-scanned-booth")
		require.Empty(t, cspViolations(t, ctx))
	})
	t.Run("ErrNotABooth", func(t *testing.T) {
		ctx := cameraBrowser(t, "https://example.com/scan?activityCode=booth&eventCode="+demoScratchEvent)
		var message string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/activities"),
			chromedp.WaitVisible(".camera-scan-island[data-mounted] button", chromedp.ByQuery),
			chromedp.Click(".camera-scan-island[data-mounted] button", chromedp.ByQuery),
			waitFor(`document.querySelector('.camera-scan-message').textContent !== ''`),
			chromedp.Text(".camera-scan-message", &message, chromedp.ByQuery),
		))
		require.Equal(t, "This is not a Palaro booth code.", message)
		var path string
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`location.pathname`, &path)))
		require.Equal(t, "/activities", path)
		screenshot(t, ctx, "activities-scanned-other")
		require.Empty(t, cspViolations(t, ctx))
	})
}

// TestActivities_CameraScansParticipant: on the booth staff page the camera reads a participant's
// QR code (their id) and submits the visit form: the visit is registered.
func TestActivities_CameraScansParticipant(t *testing.T) {
	a := startApp(t)
	pid := registerParticipant(t, newVisitor(t, a), "Pia", "Participant", "09175554321")
	ctx := cameraBrowser(t, pid)
	boothPath := "/organizer/events/" + demoOwnedEvent + "/activities/booth/scan"
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/sign-in?next="+boothPath),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, boothPath)
	var notice string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.WaitVisible(".camera-scan-island[data-mounted] button", chromedp.ByQuery),
	))
	screenshot(t, ctx, "console-booth-camera")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(".camera-scan-island[data-mounted] button", chromedp.ByQuery),
		waitFor(`/visit registered/.test(document.querySelector('.form-notice')?.textContent || '')`),
		chromedp.Text(".form-notice", &notice, chromedp.ByQuery),
	))
	require.Contains(t, notice, "Pia Participant: visit registered", "staff see whom they scanned")
	require.Contains(t, notice, "+10 points")
	var visits int
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM activity_visits v JOIN participants p ON p.id = v.participant_id
		WHERE p.public_id = ?`, pid).Scan(&visits))
	require.Equal(t, 1, visits, strconv.Itoa(visits))
	screenshot(t, ctx, "console-booth-scanned")
	require.Empty(t, cspViolations(t, ctx))
}
