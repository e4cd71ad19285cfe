package handlers_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	ics "github.com/arran4/golang-ical"
	"github.com/stretchr/testify/require"

	"palaro"
)

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func TestEventJSONLD(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		doc := ts.html(t, "/e/mlbb-manila-showdown", http.StatusOK)
		script := doc.Find(`script[type="application/ld+json"]`)
		require.Len(t, script.Nodes, 1)
		var ld struct {
			Context             string `json:"@context"`
			Type                string `json:"@type"`
			Name                string
			Description         string
			StartDate, EndDate  string
			EventStatus         string
			EventAttendanceMode string
			URL                 string
			Image               []string
			Location            struct {
				Type    string `json:"@type"`
				Name    string
				Address struct {
					Type                                                          string `json:"@type"`
					StreetAddress, AddressLocality, AddressRegion, AddressCountry string
				}
			}
			Organizer struct {
				Type string `json:"@type"`
				Name string
				URL  string
			}
			Offers []struct {
				Type          string `json:"@type"`
				Price         string
				PriceCurrency string
				Availability  string
				URL           string
				ValidFrom     string
			}
		}
		require.NoError(t, jsonUnmarshal(script.Text(), &ld))
		require.Equal(t, "https://schema.org", ld.Context)
		require.Equal(t, "Event", ld.Type)
		require.Equal(t, "MLBB Manila Showdown", ld.Name)
		require.NotEmpty(t, ld.Description)
		require.Regexp(t, `^2026-03-04T08:00:00\+08:00$`, ld.StartDate, "starts two hours before the test clock's hour")
		require.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$`, ld.EndDate)
		require.Equal(t, "https://schema.org/EventScheduled", ld.EventStatus)
		require.Equal(t, "https://schema.org/OfflineEventAttendanceMode", ld.EventAttendanceMode)
		require.Equal(t, testBaseURL+"/e/mlbb-manila-showdown", ld.URL)
		require.Len(t, ld.Image, 1)
		require.True(t, strings.HasPrefix(ld.Image[0], testBaseURL+"/static/img/events/moba."), ld.Image[0])
		require.Equal(t, "Place", ld.Location.Type)
		require.Equal(t, "SM Mall of Asia Arena", ld.Location.Name)
		require.Equal(t, "PostalAddress", ld.Location.Address.Type)
		require.Equal(t, "Pasay", ld.Location.Address.AddressLocality)
		require.Equal(t, "PH", ld.Location.Address.AddressCountry)
		require.NotEmpty(t, ld.Location.Address.StreetAddress)
		require.Equal(t, "Organization", ld.Organizer.Type)
		require.Equal(t, "Manila Esports League", ld.Organizer.Name)
		require.Len(t, ld.Offers, 3)
		require.Equal(t, []string{"450.00", "1350.00", "3060.00"}, []string{ld.Offers[0].Price, ld.Offers[1].Price, ld.Offers[2].Price})
		for _, o := range ld.Offers {
			require.Equal(t, "Offer", o.Type)
			require.Equal(t, "PHP", o.PriceCurrency)
			require.True(t, strings.HasPrefix(o.Availability, "https://schema.org/"), o.Availability)
			require.True(t, strings.HasPrefix(o.URL, testBaseURL+"/b/mlbb-manila-showdown-"), o.URL)
			require.True(t, strings.HasSuffix(o.ValidFrom, "+08:00"), o.ValidFrom)
		}
	})
	t.Run("Postponed", func(t *testing.T) {
		doc := ts.html(t, "/e/street-fighter-weekly-postponed", http.StatusOK)
		var ld struct{ EventStatus string }
		require.NoError(t, jsonUnmarshal(doc.Find(`script[type="application/ld+json"]`).Text(), &ld))
		require.Equal(t, "https://schema.org/EventPostponed", ld.EventStatus)
		require.Equal(t, "Postponed", strings.TrimSpace(doc.Find(".event-header .status-badge").Text()))
	})
	t.Run("OnlyOnEventPages", func(t *testing.T) {
		require.Empty(t, ts.html(t, "/", http.StatusOK).Find(`script[type="application/ld+json"]`).Nodes)
	})
}

func TestSitemap(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		rec := ts.get(t, "/sitemap.xml")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Contains(t, rec.Header().Get("Content-Type"), "application/xml")
		var set struct {
			XMLName xml.Name
			URLs    []struct {
				Loc     string `xml:"loc"`
				LastMod string `xml:"lastmod"`
			} `xml:"url"`
		}
		require.NoError(t, xml.Unmarshal(rec.Body.Bytes(), &set))
		require.Equal(t, "http://www.sitemaps.org/schemas/sitemap/0.9", set.XMLName.Space)
		locs := map[string]bool{}
		for _, u := range set.URLs {
			locs[u.Loc] = true
		}
		for _, p := range []string{"/", "/calendar", "/about", "/faq", "/contacts", "/privacy", "/terms", "/f/valorant"} {
			require.True(t, locs[testBaseURL+p], "sitemap lists %s", p)
		}
		events, err := ts.Events.ListEventsBetween(t.Context(), testNow.AddDate(0, 0, -200), testNow.AddDate(0, 0, 199))
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(events), 30)
		for _, ev := range events {
			require.True(t, locs[testBaseURL+"/e/"+ev.Code], "sitemap lists event %s", ev.Code)
		}
	})
	t.Run("Robots", func(t *testing.T) {
		rec := ts.get(t, "/robots.txt")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Contains(t, rec.Header().Get("Content-Type"), "text/plain")
		require.Contains(t, rec.Body.String(), "\nSitemap: "+testBaseURL+"/sitemap.xml\n")
		require.Contains(t, rec.Body.String(), "Disallow: /v1/")
	})
}

func TestEventICS(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		rec := ts.get(t, "/e/mlbb-manila-showdown/calendar.ics")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, "text/calendar; charset=utf-8", rec.Header().Get("Content-Type"))
		require.Equal(t, `attachment; filename="mlbb-manila-showdown.ics"`, rec.Header().Get("Content-Disposition"))
		body := rec.Body.String()
		require.True(t, strings.HasPrefix(body, "BEGIN:VCALENDAR\r\n"), "CRLF line endings")
		require.True(t, strings.HasSuffix(body, "END:VCALENDAR\r\n"))
		for _, line := range strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n") {
			require.LessOrEqual(t, len(line), 75, "lines are folded at 75 octets: %q", line)
		}
		cal, err := ics.ParseCalendar(strings.NewReader(body))
		require.NoError(t, err)
		var version, prodID string
		for _, p := range cal.CalendarProperties {
			switch p.IANAToken {
			case "VERSION":
				version = p.Value
			case "PRODID":
				prodID = p.Value
			}
		}
		require.Equal(t, "2.0", version)
		require.NotEmpty(t, prodID)
		events := cal.Events()
		require.Len(t, events, 1)
		ev := events[0]
		require.Equal(t, "mlbb-manila-showdown@palaro.ph", ev.Id())
		require.Equal(t, "MLBB Manila Showdown", ev.GetProperty(ics.ComponentPropertySummary).Value)
		dtstart := ev.GetProperty(ics.ComponentPropertyDtStart).Value
		require.Equal(t, "20260304T000000Z", dtstart, "DTSTART in UTC: 08:00 in Manila")
		start, err := ev.GetStartAt()
		require.NoError(t, err)
		require.True(t, start.Equal(time.Date(2026, 3, 4, 8, 0, 0, 0, palaro.Manila)))
		require.NotNil(t, ev.GetProperty(ics.ComponentPropertyDtEnd))
		require.NotNil(t, ev.GetProperty(ics.ComponentPropertyDtstamp))
		require.Contains(t, ev.GetProperty(ics.ComponentPropertyLocation).Value, "SM Mall of Asia Arena")
		require.Equal(t, testBaseURL+"/e/mlbb-manila-showdown", ev.GetProperty(ics.ComponentPropertyUrl).Value)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		require.Equal(t, http.StatusNotFound, ts.get(t, "/e/no-such-event/calendar.ics").Code)
		require.Equal(t, http.StatusNotFound, ts.get(t, "/e/Bad_Code/calendar.ics").Code)
	})
}

func TestCaching(t *testing.T) {
	ts := newTestServer(t)
	doc := ts.html(t, "/", http.StatusOK)
	css := doc.Find(`link[rel="stylesheet"]`).AttrOr("href", "")
	js := doc.Find(`script[src^="/static/dist/app-"]`).AttrOr("src", "")

	t.Run("HashedAssetsImmutable", func(t *testing.T) {
		require.Regexp(t, `^/static/css/app\.[0-9a-f]{8}\.css$`, css)
		for _, path := range []string{css, js, doc.Find(".event-card img").First().AttrOr("src", "")} {
			rec := ts.get(t, path)
			require.Equal(t, http.StatusOK, rec.Code, path)
			require.Equal(t, "public, max-age=31536000, immutable", rec.Header().Get("Cache-Control"), path)
		}
		require.Equal(t, "text/css; charset=utf-8", ts.get(t, css).Header().Get("Content-Type"))
	})
	t.Run("ErrUnknownAsset", func(t *testing.T) {
		require.Equal(t, http.StatusNotFound, ts.get(t, "/static/css/app.00000000.css").Code, "an old hash is gone")
		require.Equal(t, http.StatusNotFound, ts.get(t, "/static/css/app.css").Code, "unhashed names are not served")
	})
	t.Run("PagesRevalidate", func(t *testing.T) {
		require.Equal(t, "no-cache", ts.get(t, "/").Header().Get("Cache-Control"))
		rec := ts.get(t, "/build.json")
		require.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
		require.JSONEq(t, `{"build":"`+doc.Find(`meta[name="palaro-build"]`).AttrOr("content", "")+`"}`, rec.Body.String())
	})
	t.Run("Gzip", func(t *testing.T) {
		for _, path := range []string{"/", "/e/mlbb-manila-showdown", css, js} {
			rec := ts.do(t, http.MethodGet, path, nil, http.Header{"Accept-Encoding": {"gzip"}})
			require.Equal(t, http.StatusOK, rec.Code)
			require.Equal(t, "gzip", rec.Header().Get("Content-Encoding"), path)
			zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
			require.NoError(t, err)
			plain, err := io.ReadAll(zr)
			require.NoError(t, err)
			require.Less(t, rec.Body.Len(), len(plain)/2, "%s compresses", path)
			if path == "/" {
				_, err := goquery.NewDocumentFromReader(bytes.NewReader(plain))
				require.NoError(t, err)
				require.Contains(t, string(plain), "Discover upcoming events")
			}
		}
		require.Empty(t, ts.get(t, "/").Header().Get("Content-Encoding"), "no gzip unless asked for")
	})
}

// TestWebManifest: /manifest.webmanifest is a valid web app manifest whose icon is served, and
// every page's head links it (and the news feed, when the site has news: TestNews).
func TestWebManifest(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		rec := ts.get(t, "/manifest.webmanifest")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, "application/manifest+json", rec.Header().Get("Content-Type"))
		require.Empty(t, rec.Result().Cookies(), "no session for a machine-read file")
		var m struct {
			Name, Display   string
			ShortName       string `json:"short_name"`
			StartURL        string `json:"start_url"`
			ThemeColor      string `json:"theme_color"`
			BackgroundColor string `json:"background_color"`
			Icons           []struct{ Src, Sizes, Type string }
		}
		body := rec.Body.String()
		require.NoError(t, jsonUnmarshal(body, &m), body)
		require.Equal(t, "Palaro", m.Name)
		require.Equal(t, "Palaro", m.ShortName)
		require.Equal(t, "/", m.StartURL)
		require.Equal(t, "standalone", m.Display)
		require.Equal(t, "#12101f", m.ThemeColor)
		require.NotEmpty(t, m.BackgroundColor)
		require.NotEmpty(t, m.Icons)
		for _, icon := range m.Icons {
			require.Equal(t, http.StatusOK, ts.get(t, icon.Src).Code, icon.Src)
			require.NotEmpty(t, icon.Sizes)
		}
	})
	t.Run("LinkedFromEveryPage", func(t *testing.T) {
		for _, path := range []string{"/", "/e/mlbb-manila-showdown", "/calendar", "/about", "/sign-in"} {
			doc := ts.html(t, path, http.StatusOK)
			require.Equal(t, "/manifest.webmanifest", doc.Find(`head link[rel="manifest"]`).AttrOr("href", ""), path)
			require.NotEmpty(t, doc.Find(`link[rel="alternate"][type="application/atom+xml"]`).Nodes, "every site has news: its feed is announced")
		}
	})
}
