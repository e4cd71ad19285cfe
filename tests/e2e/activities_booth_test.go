package e2e

import (
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
	"palaro/store"
)

// TestScan_PrizesNeedBoothCode: scratch prizes cannot be farmed from afar. A scan of an activity
// with prizes needs a participant who confirmed their number by SMS and the booth screen's current
// code: the public codes alone (a printed poster, a shared link) and a code older than the period
// plus its grace are refused, nothing stored; booth staff scanning the participant needs no code.
// The booth's screen shows a QR code that changes with the period; scans of one activity are
// rate-limited. The clock is the app's, moved by the test.
func TestScan_PrizesNeedBoothCode(t *testing.T) {
	var mu sync.Mutex
	clock := testEpoch
	at := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	a := startApp(t, func(cfg *app.Config) { cfg.Now = at })
	v := newVisitor(t, a)
	pid := registerConfirmed(t, v, "Booth", "Goer", "+639175550101")
	visits := func() int {
		var n int
		require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM activity_visits v JOIN activities ac ON ac.id = v.activity_id
			JOIN events e ON e.id = ac.event_id WHERE e.code = ? AND ac.code = 'scratch'`, demoScratchEvent).Scan(&n))
		return n
	}
	scan := func(code, participant string) (int, string) {
		q := url.Values{"activityCode": {"scratch"}, "eventCode": {demoScratchEvent}, "participantId": {participant}}
		if code != "" {
			q.Set("boothCode", code)
		}
		return v.get("/v1/scan?" + q.Encode())
	}

	t.Run("ErrPublicCodesOnly", func(t *testing.T) {
		status, body := scan("", pid)
		require.Equal(t, http.StatusUnprocessableEntity, status)
		require.Contains(t, body, "booth's code has expired")
		status, page := v.post("/scan", url.Values{"activityCode": {"scratch"}, "eventCode": {demoScratchEvent}})
		require.Equal(t, http.StatusUnprocessableEntity, status)
		require.Contains(t, page, "Scan the code on the booth&#39;s screen again")
		require.Zero(t, visits())
	})
	t.Run("ErrStaleCode", func(t *testing.T) {
		old := boothCode(t, a, demoScratchEvent, "scratch")
		advance(palaro.BoothCodePeriod + palaro.BoothCodeGrace)
		status, _ := scan(old, pid)
		require.Equal(t, http.StatusUnprocessableEntity, status)
		status, _ = scan("1."+old[len(old)-16:], pid)
		require.Equal(t, http.StatusUnprocessableEntity, status, "a forged code")
		require.Zero(t, visits())
	})
	t.Run("ErrUnconfirmedParticipant", func(t *testing.T) {
		other := newVisitor(t, a)
		typed := registerParticipant(t, other, "Typed", "Number", "09175550102")
		status, body := scan(boothCode(t, a, demoScratchEvent, "scratch"), typed)
		require.Equal(t, http.StatusUnprocessableEntity, status)
		require.Contains(t, body, "Confirm your mobile number to play for prizes")
		require.Zero(t, visits())
	})
	t.Run("OK", func(t *testing.T) {
		status, body := scan(boothCode(t, a, demoScratchEvent, "scratch"), pid)
		require.Equal(t, http.StatusOK, status, body)
		require.Equal(t, 1, visits())
	})
	t.Run("OKBoothStaffScan", func(t *testing.T) {
		w := newVisitor(t, a)
		other := registerConfirmed(t, w, "Staff", "Scanned", "+639175550103")
		owner := signedIn(t, a, store.DemoOrganizerEmail)
		path := "/organizer/events/" + demoScratchEvent + "/activities/scratch/scan"
		owner.get(path)
		status, page := owner.post(path, url.Values{"participantId": {other}})
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, page, "Staff Scanned: visit registered")
		require.Equal(t, 2, visits())
	})
	t.Run("BoothScreenRotates", func(t *testing.T) {
		owner := signedIn(t, a, store.DemoOrganizerEmail)
		screen := "/organizer/events/" + demoScratchEvent + "/activities/scratch/screen"
		_, list := owner.get("/organizer/events/" + demoScratchEvent + "/activities")
		require.Contains(t, list, `href="`+screen+`"`)
		codeOf := regexp.MustCompile(`boothCode=([0-9a-z]+\.[A-Za-z0-9_-]+)`)
		status, page := owner.get(screen)
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, page, `class="poster-qr"`)
		require.Contains(t, page, `data-hx-trigger="every 10s"`)
		first := codeOf.FindStringSubmatch(page)
		require.NotNil(t, first, "the screen names its URL")
		status, _ = scan(first[1], pid)
		require.Equal(t, http.StatusOK, status, "the screen's code is valid")
		advance(palaro.BoothCodePeriod)
		_, frag := owner.get(screen + "?fragment=1")
		next := codeOf.FindStringSubmatch(frag)
		require.NotNil(t, next)
		require.NotEqual(t, first[1], next[1], "the code changes every period")
		status, _ = newVisitor(t, a).get(screen)
		require.NotEqual(t, http.StatusOK, status, "only the organizer's team opens the screen")
	})
	t.Run("ErrRateLimitedPerActivity", func(t *testing.T) {
		advance(time.Hour)
		booth := func() int {
			status, _ := v.get("/v1/scan?" + url.Values{"activityCode": {"booth"}, "eventCode": {demoScratchEvent}, "participantId": {pid}}.Encode())
			return status
		}
		for i := 0; i < 60; i++ {
			require.Equal(t, http.StatusOK, booth(), "scan %d", i+1)
		}
		require.Equal(t, http.StatusTooManyRequests, booth())
		status, _ := scan(boothCode(t, a, demoScratchEvent, "scratch"), pid)
		require.Equal(t, http.StatusOK, status, "another activity is not held up")
		advance(2 * time.Second)
		require.Equal(t, http.StatusOK, booth(), "the limit refills")
	})
}
