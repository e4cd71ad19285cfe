package e2e

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

func TestNews(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	_, err := store.NewNewsService(a.DB()).SaveArticle(context.Background(), palaro.Article{Slug: "unsafe", Title: "Unsafe",
		Summary: "Markdown with HTML in it", Body: "Hello <script>alert(1)</script> [click](javascript:alert(2)) **bold**"})
	require.NoError(t, err)

	t.Run("OK list", func(t *testing.T) {
		status, page := v.get("/news")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, page, "How the Palaro leaderboard works")
		require.Contains(t, page, `href="/news/mlbb-manila-showdown-booths"`)
	})
	t.Run("OK article with NewsArticle data", func(t *testing.T) {
		status, page := v.get("/news/mlbb-manila-showdown-booths")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, page, `"@type":"NewsArticle"`)
		require.Contains(t, page, "<strong>Scratch &amp; Win</strong>")
		require.Contains(t, page, `href="/e/mlbb-manila-showdown"`)
		require.Contains(t, page, "MLBB Manila Showdown")
	})
	t.Run("OK NewsArticle image and Manila times", func(t *testing.T) {
		for slug, image := range map[string]string{
			"mlbb-manila-showdown-booths": "/static/img/events/", // no cover: the linked event's picture
			"unsafe":                      "/static/img/icon.",   // no cover, no event: the site's icon
		} {
			_, page := v.get("/news/" + slug)
			m := regexp.MustCompile(`(?s)<script id="structured-data" type="application/ld\+json">(.*?)</script>`).FindStringSubmatch(page)
			require.NotNil(t, m, slug)
			var ld struct {
				Image                       []string
				DatePublished, DateModified string
			}
			require.NoError(t, json.Unmarshal([]byte(m[1]), &ld), m[1])
			require.Len(t, ld.Image, 1, slug)
			require.True(t, strings.HasPrefix(ld.Image[0], a.URL+image), "%s: %s", slug, ld.Image[0])
			require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$`, ld.DatePublished, slug)
			require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$`, ld.DateModified, slug)
		}
	})
	t.Run("OK Markdown sanitised", func(t *testing.T) {
		status, page := v.get("/news/unsafe")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, page, "<strong>bold</strong>")
		require.NotContains(t, page, "<script>alert(1)")
		require.NotContains(t, page, "javascript:")
	})
	t.Run("OK feed and sitemap", func(t *testing.T) {
		status, body := v.get("/news/feed.xml")
		require.Equal(t, http.StatusOK, status)
		var feed struct {
			Entries []struct {
				Title string `xml:"title"`
			} `xml:"entry"`
		}
		require.NoError(t, xml.Unmarshal([]byte(body), &feed))
		require.Len(t, feed.Entries, 4)
		for _, path := range []string{"/", "/news", "/e/" + demoOwnedEvent, "/sign-in"} {
			_, page := v.get(path)
			require.Contains(t, page, `<link rel="alternate" type="application/atom+xml" title="Palaro news" href="/news/feed.xml">`,
				"%s announces the feed", path)
		}
		_, sitemap := v.get("/sitemap.xml")
		require.Contains(t, sitemap, "/news/how-the-leaderboard-works</loc>")
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		status, _ := v.get("/news/no-such-article")
		require.Equal(t, http.StatusNotFound, status)
	})
	t.Run("OK partner pages", func(t *testing.T) {
		status, page := v.get("/pnk")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, page, "PNK Bank")
		require.Contains(t, page, `href="/quiz/investment-power/mlbb-manila-showdown"`)
		status, page = v.get("/pnk/promo")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, page, "Gamer savings promo")
		status, css := v.get("/pnk/theme.css")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, css, "--pnk-primary: #0b5d3b;")
	})
}

func TestNewsCommand(t *testing.T) {
	a := startApp(t)
	dir := t.TempDir()
	file := dir + "/a.json"
	require.NoError(t, os.WriteFile(file, []byte(`{"slug": "finals-recap", "title": "Finals recap", "summary": "What happened", "body": "# Recap"}`), 0o600))
	out, err := command(t, a, "news", "publish", file)
	require.NoError(t, err)
	require.Equal(t, "published /news/finals-recap\n", out)
	require.NoError(t, os.WriteFile(file, []byte(`{"slug": "Bad Slug", "title": ""}`), 0o600))
	_, err = command(t, a, "news", "publish", file)
	require.Error(t, err)
	require.NoError(t, os.WriteFile(file, []byte(`{"bankName": "PNK Bank", "heroTitle": "New hero", "primaryColor": "#123456"}`), 0o600))
	_, err = command(t, a, "pnk", "set", "home", file)
	require.NoError(t, err)
	_, page := newVisitor(t, a).get("/pnk")
	require.Contains(t, page, "New hero")
}

func TestOrganizerNews(t *testing.T) {
	a := startApp(t)
	org := signedIn(t, a, store.DemoRivalEmail)
	org.get("/organizer/news")
	form := url.Values{"slug": {"rival-cup-day-one"}, "title": {"Rival cup day one"}, "summary": {"Results"},
		"body": {"**Day one** results"}}
	status, _ := org.post("/organizer/news", form)
	require.Equal(t, http.StatusSeeOther, status)
	_, page := newVisitor(t, a).get("/news/rival-cup-day-one")
	require.Contains(t, page, "<strong>Day one</strong>")
	require.Contains(t, page, "Rival Gaming Co.")

	form.Set("slug", "other-event")
	form.Set("eventCodes", demoOwnedEvent) // another organization's event
	status, page = org.post("/organizer/news", form)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "Link only your own events")
	form.Set("slug", "how-the-leaderboard-works") // the operator's article
	form.Set("eventCodes", "")
	status, page = org.post("/organizer/news", form)
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, page, "This slug is taken")
}

// registeredOrganizer registers an organization named name through /register/organizer, has the
// operator approve it and returns its owner, signed in, with what the pending list and the
// approval printed.
func registeredOrganizer(t *testing.T, a *testApp, email, username, name, mobile string) (v *httpVisitor, pending, approved string) {
	t.Helper()
	v = newVisitor(t, a)
	v.get("/register/organizer")
	status, body := v.post("/register/organizer", url.Values{"email": {email}, "username": {username},
		"name": {"Ana Santos"}, "organization": {name}, "mobileNumber": {mobile},
		"password": {"Kalaro2026"}, "repeatPassword": {"Kalaro2026"}})
	require.Equal(t, http.StatusSeeOther, status, body)
	pending, err := command(t, a, "organizers", "--pending")
	require.NoError(t, err)
	approved, err = command(t, a, "organizers", "approve", email)
	require.NoError(t, err)
	status, _ = v.get("/organizer")
	require.Equal(t, http.StatusOK, status)
	return v, pending, approved
}

// TestOrganizerNews_OwnedByID: an organization registered under the name the operator's articles
// show ("Palaro team"), or under another organization's name, neither lists, opens nor overwrites
// their articles: an article belongs to its organization's id, not to a name.
func TestOrganizerNews_OwnedByID(t *testing.T) {
	a := startApp(t)
	rival := signedIn(t, a, store.DemoRivalEmail)
	rival.get("/organizer/news")
	status, _ := rival.post("/organizer/news", url.Values{"slug": {"rival-cup-news"}, "title": {"Rival cup news"}, "body": {"By the rival"}})
	require.Equal(t, http.StatusSeeOther, status)

	for i, name := range []string{"Palaro team", "Rival Gaming Co.", "RivaI Gaming Co"} {
		imp, pending, approved := registeredOrganizer(t, a, fmt.Sprintf("imp%d@kalaro.ph", i), fmt.Sprintf("imp%d", i), name, fmt.Sprintf("0917123499%d", i))
		like := []string{"Palaro (the operator)", "#90 Rival Gaming Co.", "#90 Rival Gaming Co."}[i]
		require.Contains(t, pending, like, "the pending list shows the look-alike")
		require.Contains(t, approved, "Its name looks like "+like)
		_, list := imp.get("/organizer/news")
		require.NotContains(t, list, "how-the-leaderboard-works", "%s: the operator's articles are not listed", name)
		require.NotContains(t, list, "rival-cup-news", "%s: the rival's articles are not listed", name)
		for _, slug := range []string{"how-the-leaderboard-works", "rival-cup-news"} {
			status, _ := imp.get("/organizer/news/" + slug)
			require.Equal(t, http.StatusNotFound, status, "%s opens %s", name, slug)
			status, page := imp.post("/organizer/news", url.Values{"slug": {slug}, "title": {"Taken over"}, "body": {"Not yours"}})
			require.Equal(t, http.StatusUnprocessableEntity, status, "%s saves over %s", name, slug)
			require.Contains(t, page, "This slug is taken")
		}
		status, _ = imp.post("/organizer/news", url.Values{"slug": {fmt.Sprintf("imp-%d", i)}, "title": {"Our own"}, "body": {"Ours"}})
		require.Equal(t, http.StatusSeeOther, status)
		_, list = imp.get("/organizer/news")
		require.Contains(t, list, fmt.Sprintf(`href="/organizer/news/imp-%d"`, i))
	}
	_, page := newVisitor(t, a).get("/news/how-the-leaderboard-works")
	require.NotContains(t, page, "Taken over")
	_, page = newVisitor(t, a).get("/news/rival-cup-news")
	require.Contains(t, page, "By the rival")
	status, _ = rival.get("/organizer/news/rival-cup-news")
	require.Equal(t, http.StatusOK, status, "the rival still edits its own")
	status, _ = rival.get("/organizer/news/imp-1")
	require.Equal(t, http.StatusNotFound, status, "nor the look-alike's")
}
