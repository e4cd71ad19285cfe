package handlers

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// eventJSONLD is the schema.org Event of an event page, with what Google's event rich results need.
// Each offer's availability follows the ticket type's sale at now: a cancelled event's are
// Discontinued, an ended or sold-out sale SoldOut, a sale not yet open (or behind a queue that has
// not opened) PreOrder from its opening (validFrom), an open one LimitedAvailability at 20 or fewer
// tickets left, else InStock. q is the event's queue, nil without one.
func (s *Server) eventJSONLD(ev *palaro.Event, now time.Time, q *palaro.Queue) map[string]any {
	return s.occasionJSONLD(ev, "", now, q)
}

// occasionJSONLD is the schema.org Event of an event, or, with a date's slug, of that date of a
// series: ev is then the event as on that date (its start, end, venue, status and tickets), the
// Event's url is the date's page and its offers buy for that date.
func (s *Server) occasionJSONLD(ev *palaro.Event, slug string, now time.Time, q *palaro.Queue) map[string]any {
	url := s.config.BaseURL + eventPath(ev.Code, slug)
	status := map[string]string{
		palaro.EventScheduled:   "https://schema.org/EventScheduled",
		palaro.EventCancelled:   "https://schema.org/EventCancelled",
		palaro.EventPostponed:   "https://schema.org/EventPostponed",
		palaro.EventRescheduled: "https://schema.org/EventRescheduled",
	}[ev.Status]
	var offers []map[string]any
	for _, t := range ev.TicketTypes {
		opens := t.SalesStart
		if q != nil && q.OpensAt.After(opens) {
			opens = q.OpensAt
		}
		availability := "https://schema.org/InStock"
		switch state := t.SaleState(ev, now); {
		case ev.Status == palaro.EventCancelled:
			availability = "https://schema.org/Discontinued"
		case state == palaro.SaleEnded, state == palaro.SaleSoldOut:
			availability = "https://schema.org/SoldOut"
		case state == palaro.SaleNotStarted, now.Before(opens):
			availability = "https://schema.org/PreOrder"
		case t.Available() <= 20:
			availability = "https://schema.org/LimitedAvailability"
		}
		offer := map[string]any{
			"@type":         "Offer",
			"name":          t.Name,
			"price":         t.FinalPrice().Decimal(),
			"priceCurrency": "PHP",
			"availability":  availability,
			"url":           s.config.BaseURL + buyPath(t.Code, slug),
		}
		if !opens.IsZero() {
			offer["validFrom"] = opens.In(palaro.Manila).Format(time.RFC3339)
		}
		offers = append(offers, offer)
	}
	data := map[string]any{
		"@context":            "https://schema.org",
		"@type":               "Event",
		"name":                ev.Name,
		"description":         ev.Summary,
		"startDate":           ev.StartsAt.In(palaro.Manila).Format(time.RFC3339),
		"endDate":             ev.EndsAt.In(palaro.Manila).Format(time.RFC3339),
		"eventStatus":         status,
		"eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
		"url":                 url,
		"location":            placeJSONLD(ev.Venue),
		"organizer":           map[string]any{"@type": "Organization", "name": ev.Organizer.Name, "url": ev.Organizer.URL},
	}
	if img := s.imageURL(ev.ImageURL); img != "" {
		data["image"] = []string{s.config.BaseURL + img}
	}
	if len(offers) > 0 {
		data["offers"] = offers
	}
	return data
}

// placeJSONLD is the schema.org Place of a venue, with its postal address and coordinates.
func placeJSONLD(v palaro.Venue) map[string]any {
	return map[string]any{
		"@type": "Place",
		"name":  v.Name,
		"address": map[string]any{
			"@type":           "PostalAddress",
			"streetAddress":   v.Address,
			"addressLocality": v.City,
			"addressRegion":   v.Region,
			"addressCountry":  "PH",
		},
		"geo": map[string]any{"@type": "GeoCoordinates", "latitude": v.Latitude, "longitude": v.Longitude},
	}
}

// webManifest answers /manifest.webmanifest, the web app manifest the pages link: name, colours
// and icon, so a phone can add Palaro to its home screen.
func (s *Server) webManifest(c *echo.Context) error {
	m := map[string]any{
		"name":             "Palaro",
		"short_name":       "Palaro",
		"description":      "Find eSports events, concerts and conventions in the Philippines, buy tickets and keep them on your phone.",
		"lang":             "en-PH",
		"id":               "/",
		"start_url":        "/",
		"scope":            "/",
		"display":          "standalone",
		"background_color": "#12101f",
		"theme_color":      "#12101f",
		"icons":            []map[string]string{{"src": s.assets.URL("img/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}},
	}
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "application/manifest+json", body)
}

// robots answers robots.txt, pointing crawlers at the sitemap.
func (s *Server) robots(c *echo.Context) error {
	body := "User-agent: *\nAllow: /\nDisallow: /v1/\nDisallow: /b/\nDisallow: /t/\nDisallow: /q/\nDisallow: /sandbox/\n\nSitemap: " + s.config.BaseURL + "/sitemap.xml\n"
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(body))
}

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

type sitemapURLSet struct {
	XMLName xml.Name     `xml:"urlset"`
	XMLNS   string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

// sitemapPages are the public pages listed in the sitemap besides events and tags.
var sitemapPages = []string{"/", "/calendar", "/about", "/faq", "/contacts", "/privacy", "/terms"}

// sitemap lists every public page, event and tag.
func (s *Server) sitemap(c *echo.Context) error {
	ctx := c.Request().Context()
	set := sitemapURLSet{XMLNS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	for _, p := range sitemapPages {
		set.URLs = append(set.URLs, sitemapURL{Loc: s.config.BaseURL + p})
	}
	for offset := 0; ; offset += 100 {
		page, err := s.services.Events.ListEvents(ctx, palaro.EventFilter{Now: time.Time{}.Add(time.Second), Offset: offset, Limit: 100})
		if err != nil {
			return err
		}
		for _, ev := range page.Events {
			set.URLs = append(set.URLs, sitemapURL{Loc: s.config.BaseURL + "/e/" + ev.Code, LastMod: ev.UpdatedAt.UTC().Format("2006-01-02")})
			dates, err := s.seriesDates(ctx, ev)
			if err != nil {
				return err
			}
			for _, d := range dates { // each date its own page, changed when the date or its event was
				set.URLs = append(set.URLs, sitemapURL{Loc: s.config.BaseURL + eventPath(ev.Code, d.Slug), LastMod: d.Event.UpdatedAt.UTC().Format("2006-01-02")})
			}
		}
		if !page.HasMore {
			break
		}
	}
	tags, err := s.services.Events.ListTags(ctx)
	if err != nil {
		return err
	}
	for _, t := range tags {
		set.URLs = append(set.URLs, sitemapURL{Loc: s.config.BaseURL + "/f/" + t.Slug})
	}
	news, err := s.newsSitemapURLs(c)
	if err != nil {
		return err
	}
	set.URLs = append(set.URLs, news...)
	out, err := xml.MarshalIndent(set, "", "  ")
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, "application/xml; charset=utf-8", append([]byte(xml.Header), out...))
}
