package main

import (
	"context"
	"encoding/xml"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

func TestNews(t *testing.T) {
	a := startApp(t)
	v := newVisitor(t, a)
	_, err := store.NewNewsService(a.db).SaveArticle(context.Background(), palaro.Article{Slug: "unsafe", Title: "Unsafe",
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
