package handlers

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// newsListSize is how many articles /news and the feed show.
const newsListSize = 50

// newsItem is the view of an article.
func newsItem(a palaro.Article) views.NewsItem {
	it := views.NewsItem{Href: "/news/" + a.Slug, Title: a.Title, Summary: a.Summary, Body: a.Body, CoverURL: a.CoverURL, Author: a.Author,
		Date: a.PublishedAt.In(palaro.Manila).Format("January 2, 2006"), DateTime: a.PublishedAt.UTC().Format(time.RFC3339)}
	for _, code := range a.EventCodes {
		it.Events = append(it.Events, views.Link{Label: code, Href: "/e/" + code})
	}
	return it
}

func (s *Server) newsPage(c *echo.Context) error {
	list, err := s.services.News.ListArticles(c.Request().Context(), newsListSize)
	if err != nil {
		return err
	}
	v := views.NewsView{}
	for _, a := range list {
		v.Articles = append(v.Articles, newsItem(a))
	}
	p := s.page(c, "News · Palaro", "News about eSports and events in the Philippines, from Palaro.")
	p.Styles = []string{"css/engage.css"}
	return render(c, http.StatusOK, views.NewsPage(p, v))
}

// articlePage renders one article with its NewsArticle structured data.
func (s *Server) articlePage(c *echo.Context) error {
	ctx := c.Request().Context()
	a, err := s.services.News.FindArticle(ctx, c.Param("slug"))
	if err != nil {
		return err
	}
	it := newsItem(*a)
	image := a.CoverURL
	for i, code := range a.EventCodes {
		if ev, err := s.services.Events.FindEventByCode(ctx, code); err == nil {
			it.Events[i].Label = ev.Name
			if image == "" {
				image = s.imageURL(ev.ImageURL) // no cover: the first linked event's picture
			}
		}
	}
	p := s.page(c, a.Title+" · Palaro", a.Summary)
	p.Styles, p.OGType, p.Image = []string{"css/engage.css"}, "article", image
	ldImage := p.AbsoluteImage()
	if ldImage == "" {
		ldImage = s.config.BaseURL + s.assets.URL("img/icon.svg") // an article's structured data needs an image
	}
	// Times in Manila's offset, as the events' are.
	ld := map[string]any{"@context": "https://schema.org", "@type": "NewsArticle", "headline": a.Title, "description": a.Summary,
		"datePublished": a.PublishedAt.In(palaro.Manila).Format(time.RFC3339), "dateModified": a.UpdatedAt.In(palaro.Manila).Format(time.RFC3339),
		"author": map[string]string{"@type": "Organization", "name": a.Author}, "mainEntityOfPage": s.config.BaseURL + "/news/" + a.Slug,
		"publisher": map[string]string{"@type": "Organization", "name": "Palaro"}, "image": []string{ldImage}}
	p.JSONLD = ld
	return render(c, http.StatusOK, views.ArticlePage(p, it))
}

// atomFeed is an Atom 1.0 feed.
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title   string      `xml:"title"`
	ID      string      `xml:"id"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr,omitempty"`
}

type atomEntry struct {
	Title     string   `xml:"title"`
	ID        string   `xml:"id"`
	Link      atomLink `xml:"link"`
	Published string   `xml:"published"`
	Updated   string   `xml:"updated"`
	Summary   string   `xml:"summary"`
	Author    struct {
		Name string `xml:"name"`
	} `xml:"author"`
}

// newsFeed answers /news/feed.xml: the news as an Atom feed.
func (s *Server) newsFeed(c *echo.Context) error {
	list, err := s.services.News.ListArticles(c.Request().Context(), newsListSize)
	if err != nil {
		return err
	}
	base := s.config.BaseURL
	feed := atomFeed{Title: "Palaro news", ID: base + "/news", Updated: time.Unix(0, 0).UTC().Format(time.RFC3339),
		Links: []atomLink{{Href: base + "/news"}, {Href: base + "/news/feed.xml", Rel: "self"}}}
	for _, a := range list {
		e := atomEntry{Title: a.Title, ID: base + "/news/" + a.Slug, Link: atomLink{Href: base + "/news/" + a.Slug},
			Published: a.PublishedAt.UTC().Format(time.RFC3339), Updated: a.UpdatedAt.UTC().Format(time.RFC3339), Summary: a.Summary}
		e.Author.Name = a.Author
		feed.Updated = max(feed.Updated, e.Updated)
		feed.Entries = append(feed.Entries, e)
	}
	out, err := xml.MarshalIndent(feed, "", "  ")
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "application/atom+xml; charset=utf-8", append([]byte(xml.Header), out...))
}

// newsSitemapURLs are the news pages for the sitemap.
func (s *Server) newsSitemapURLs(c *echo.Context) ([]sitemapURL, error) {
	list, err := s.services.News.ListArticles(c.Request().Context(), 1000)
	if err != nil {
		return nil, err
	}
	out := []sitemapURL{{Loc: s.config.BaseURL + "/news"}}
	for _, a := range list {
		out = append(out, sitemapURL{Loc: s.config.BaseURL + "/news/" + a.Slug, LastMod: a.UpdatedAt.UTC().Format("2006-01-02")})
	}
	return out, nil
}

// partnerPageName is the partner page of a path.
func partnerPageName(c *echo.Context) string {
	if c.Request().URL.Path == "/pnk/promo" {
		return "promo"
	}
	return "home"
}

// partnerPage renders the partner bank's page (/pnk) or its promo page (/pnk/promo).
func (s *Server) partnerPage(c *echo.Context) error {
	name := partnerPageName(c)
	pp, err := s.services.News.PartnerPage(c.Request().Context(), name)
	if err != nil {
		return err
	}
	p := s.page(c, pp.HeroTitle+" · "+pp.BankName+" · Palaro", pp.HeroText)
	p.Styles = []string{"css/engage.css"}
	colours := pp
	if name != "home" && (!palaro.SafeColor(pp.PrimaryColor) || !palaro.SafeColor(pp.AccentColor)) {
		if colours, err = s.services.News.PartnerPage(c.Request().Context(), "home"); err != nil {
			colours = pp
		}
	}
	// The stylesheet's URL names the page's colours (the home page's when it has none), so it can
	// be cached for ever and a change is a new URL.
	v := views.PartnerView{Page: *pp, ThemeHref: "/pnk/theme.css?v=" + url.QueryEscape(strings.TrimPrefix(colours.PrimaryColor, "#")+
		"-"+strings.TrimPrefix(colours.AccentColor, "#"))}
	if name == "home" {
		v.Links = []views.Link{{Label: "Promo", Href: "/pnk/promo"}, {Label: "Leaderboard", Href: "/leaderboard"}}
	} else {
		v.Links = []views.Link{{Label: pp.BankName + " home", Href: "/pnk"}}
	}
	return render(c, http.StatusOK, views.PartnerPageView(p, v))
}

// partnerTheme answers a partner page's colours as CSS custom properties (no inline style under
// the CSP): those named by ?v=RRGGBB-RRGGBB (checked), else the home page's.
func (s *Server) partnerTheme(c *echo.Context) error {
	var pp *palaro.PartnerPage
	if primary, accent, ok := strings.Cut(c.QueryParam("v"), "-"); ok && palaro.SafeColor("#"+primary) && palaro.SafeColor("#"+accent) {
		pp = &palaro.PartnerPage{PrimaryColor: "#" + primary, AccentColor: "#" + accent}
		c.Response().Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		var err error
		if pp, err = s.services.News.PartnerPage(c.Request().Context(), "home"); err != nil {
			return err
		}
	}
	css := ""
	if palaro.SafeColor(pp.PrimaryColor) {
		css += "--pnk-primary: " + pp.PrimaryColor + ";"
	}
	if palaro.SafeColor(pp.AccentColor) {
		css += "--pnk-accent: " + pp.AccentColor + ";"
	}
	return c.Blob(http.StatusOK, "text/css; charset=utf-8", []byte(fmt.Sprintf(":root { %s }\n", css)))
}
