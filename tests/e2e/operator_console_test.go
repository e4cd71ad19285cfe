package e2e

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro/internal/app"
	"palaro/store"
)

// withPageCache keeps public pages in the page cache for an hour: only invalidation changes them.
func withPageCache(cfg *app.Config) { cfg.EventCache = time.Hour }

// TestOperatorConsole: only an account granted on the command line reaches /operator (anyone else
// signed in gets a 404, a visitor is sent to sign in); the operator edits any article, keeps a
// new one as a draft (not on /news) and publishes it, and edits /pnk, each shown at once although
// the public pages are cached for an hour; bad colours and links are refused with messages.
func TestOperatorConsole(t *testing.T) {
	a := startApp(t, withPageCache)
	anon := newVisitor(t, a)
	status, _ := anon.get("/operator/news")
	require.Equal(t, http.StatusSeeOther, status, "a visitor is sent to sign in")

	op := signedIn(t, a, store.DemoRivalEmail)
	status, _ = op.get("/operator/news")
	require.Equal(t, http.StatusNotFound, status, "an account that is not an operator")

	_, err := command(t, a, "operators", "grant", "RIVAL@palaro.ph")
	require.NoError(t, err)
	_, err = command(t, a, "operators", "grant", "nobody@palaro.ph")
	require.Error(t, err)
	out, err := command(t, a, "operators")
	require.NoError(t, err)
	require.Equal(t, store.DemoOperatorEmail+"\n"+store.DemoRivalEmail+"\n", out, "the demo operator and the one granted")

	status, page := op.get("/operator/news")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `href="/operator/news/how-the-leaderboard-works"`)

	// Edit another author's article: the cached article page shows the change at once.
	_, before := anon.get("/news/how-the-leaderboard-works")
	require.Contains(t, before, "How the Palaro leaderboard works")
	status, page = op.get("/operator/news/how-the-leaderboard-works")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `value="Palaro team"`)
	form := url.Values{"slug": {"how-the-leaderboard-works"}, "title": {"How the leaderboard works, updated"},
		"summary": {"Ranks"}, "body": {"Ties **share** a rank."}, "author": {"Palaro team"}, "eventCodes": {"tekken-tuesdays-cubao"}}
	status, _ = op.post("/operator/news", form)
	require.Equal(t, http.StatusSeeOther, status)
	_, after := anon.get("/news/how-the-leaderboard-works")
	require.Contains(t, after, "How the leaderboard works, updated")
	require.Contains(t, after, "Ties <strong>share</strong> a rank.")

	// A draft stays off /news, the feed and its address; publishing shows it.
	_, list := anon.get("/news")
	draft := url.Values{"slug": {"finals-schedule"}, "title": {"Finals schedule"}, "body": {"Soon."}, "author": {"Palaro team"}, "draft": {"on"}}
	status, _ = op.post("/operator/news", draft)
	require.Equal(t, http.StatusSeeOther, status)
	_, page = op.get("/operator/news")
	require.Regexp(t, `Finals schedule</strong> · Draft`, page)
	_, again := anon.get("/news")
	require.Equal(t, list, again)
	status, _ = anon.get("/news/finals-schedule")
	require.Equal(t, http.StatusNotFound, status)
	draft.Del("draft")
	status, _ = op.post("/operator/news", draft)
	require.Equal(t, http.StatusSeeOther, status)
	status, _ = anon.get("/news/finals-schedule")
	require.Equal(t, http.StatusOK, status)
	_, list = anon.get("/news")
	require.Contains(t, list, "Finals schedule")
	_, feed := anon.get("/news/feed.xml")
	require.Contains(t, feed, "Finals schedule")

	// Refusals keep what was typed.
	bad := url.Values{"slug": {"Bad slug"}, "title": {"X"}, "author": {"Palaro team"}, "coverUrl": {"javascript:alert(1)"}}
	status, page = op.post("/operator/news", bad)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Use an https:// address or a path of this site.")

	// The partner page.
	status, page = op.get("/operator/pnk/home")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, `value="PNK Bank"`)
	_, pnkBefore := anon.get("/pnk")
	pnk := url.Values{"bankName": {"PNK Bank"}, "primaryColor": {"#123abc"}, "accentColor": {"#ffcc00"}, "heroTitle": {"Play smart, save smarter"},
		"heroText": {"Savings for gamers."}, "block0Title": {"Quiz time"}, "block0Text": {"Take the **power** quiz."},
		"block0LinkText": {"Start"}, "block0LinkURL": {"/quiz/investment-power/" + demoScratchEvent},
		"block1Title": {"Bad link"}, "block1LinkText": {"Go"}, "block1LinkURL": {"javascript:alert(1)"}}
	status, page = op.post("/operator/pnk/home", pnk)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Use an https:// address or a path of this site.")
	pnk.Set("primaryColor", "red;}body{display:none")
	pnk.Del("block1Title")
	pnk.Del("block1LinkText")
	pnk.Del("block1LinkURL")
	status, page = op.post("/operator/pnk/home", pnk)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Use a colour like #0b3d91.")
	_, cached := anon.get("/pnk")
	require.Equal(t, pnkBefore, cached, "nothing saved")
	pnk.Set("primaryColor", "#123abc")
	status, _ = op.post("/operator/pnk/home", pnk)
	require.Equal(t, http.StatusSeeOther, status)
	_, pnkAfter := anon.get("/pnk")
	require.Contains(t, pnkAfter, "Play smart, save smarter")
	require.Contains(t, pnkAfter, "Take the <strong>power</strong> quiz.")
	theme := regexp.MustCompile(`href="(/pnk/theme\.css\?v=[^"]+)"`).FindStringSubmatch(pnkAfter)
	require.NotNil(t, theme)
	_, css := anon.get(theme[1])
	require.Contains(t, css, "--pnk-primary: #123abc;")
	// The promo page has colours of its own.
	pnk.Set("primaryColor", "#aa0000")
	pnk.Set("heroTitle", "Promo time")
	status, _ = op.post("/operator/pnk/promo", pnk)
	require.Equal(t, http.StatusSeeOther, status)
	_, promo := anon.get("/pnk/promo")
	require.Contains(t, promo, "Promo time")
	require.Contains(t, promo, `href="/pnk/theme.css?v=aa0000-ffcc00"`)
	_, css = anon.get("/pnk/theme.css?v=aa0000-ffcc00")
	require.Contains(t, css, "--pnk-primary: #aa0000;")
	_, css = anon.get("/pnk/theme.css?v=red;}x{-ffcc00")
	require.Contains(t, css, "--pnk-primary: #123abc;", "a bad colour in the URL falls back to the saved home colours")
	status, _ = op.get("/operator/pnk/other")
	require.Equal(t, http.StatusNotFound, status)

	// The demo operator signs in with the demo password.
	status, _ = signedIn(t, a, store.DemoOperatorEmail).get("/operator/pnk/promo")
	require.Equal(t, http.StatusOK, status)

	// Revoked: the console is gone.
	_, err = command(t, a, "operators", "revoke", store.DemoRivalEmail)
	require.NoError(t, err)
	status, _ = op.get("/operator/news")
	require.Equal(t, http.StatusNotFound, status)
}

// TestOrganizerNews_EditAndDraft: an organizer edits their own article from the console list, keeps
// one as a draft and publishes it; another organization's article cannot be opened.
func TestOrganizerNews_EditAndDraft(t *testing.T) {
	a := startApp(t, withPageCache)
	org := signedIn(t, a, store.DemoRivalEmail)
	anon := newVisitor(t, a)
	org.get("/organizer/news")
	form := url.Values{"slug": {"rival-cup-preview"}, "title": {"Rival cup preview"}, "body": {"Draft text"}, "draft": {"on"}}
	status, _ := org.post("/organizer/news", form)
	require.Equal(t, http.StatusSeeOther, status)
	_, page := org.get("/organizer/news")
	require.Contains(t, page, `href="/organizer/news/rival-cup-preview"`)
	require.Contains(t, page, "Rival cup preview</strong> · Draft")
	status, _ = anon.get("/news/rival-cup-preview")
	require.Equal(t, http.StatusNotFound, status)

	status, page = org.get("/organizer/news/rival-cup-preview")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, page, "Draft text")
	form.Del("draft")
	form.Set("body", "Final text")
	status, _ = org.post("/organizer/news", form)
	require.Equal(t, http.StatusSeeOther, status)
	_, article := anon.get("/news/rival-cup-preview")
	require.Contains(t, article, "Final text")

	status, _ = org.get("/organizer/news/how-the-leaderboard-works")
	require.Equal(t, http.StatusNotFound, status, "another author's article")
}
