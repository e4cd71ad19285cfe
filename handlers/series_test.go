package handlers_test

import (
	"context"
	"encoding/xml"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	ics "github.com/arran4/golang-ical"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// seriesFixture turns a demo event into a series of four dates after the test clock: Friday 13
// March 19:00–23:00 and a second session that day (slug -2), Friday 20 March at another venue, and
// Friday 27 March postponed; it returns the dates as created.
func seriesFixture(t *testing.T, ts *testServer, code string) (*palaro.Event, []palaro.EventDate) {
	t.Helper()
	ctx := context.Background()
	ev, err := ts.Events.FindEventByCode(ctx, code)
	require.NoError(t, err)
	other, err := ts.Events.FindEventByCode(ctx, "mlbb-manila-showdown")
	require.NoError(t, err)
	require.NotEqual(t, ev.Venue.ID, other.Venue.ID)
	at := func(day, hour int) time.Time { return time.Date(2026, 3, day, hour, 0, 0, 0, palaro.Manila) }
	dates, err := store.NewSeriesService(ts.DB).CreateDates(ctx, ev.ID, []palaro.DateInput{
		{Name: "Match day 1", StartsAt: at(13, 13), EndsAt: at(13, 17), Status: palaro.DateScheduled},
		{Name: "Match day 2", StartsAt: at(13, 19), EndsAt: at(13, 23), Status: palaro.DateScheduled},
		{Name: "Match day 3", StartsAt: at(20, 19), EndsAt: at(20, 23), Status: palaro.DateScheduled, VenueID: other.Venue.ID},
		{Name: "Match day 4", StartsAt: at(27, 19), EndsAt: at(27, 23), Status: palaro.DatePostponed},
	}, testNow)
	require.NoError(t, err)
	require.Len(t, dates, 4)
	ts.EventsChanged()
	return ev, dates
}

// ldEvent checks one JSON-LD Event against the rules Google documents for event rich results:
// the required name, startDate (ISO 8601 with its offset) and location (a Place with a name and a
// PostalAddress), and the recommended endDate (after the start), eventStatus, eventAttendanceMode,
// description, image, organizer and offers (price, priceCurrency, availability, url, validFrom
// when set, each in its documented form). It returns the event's start, location name and offer URLs.
func ldEvent(t *testing.T, ev map[string]any) (start, place string, offers []string) {
	t.Helper()
	str := func(m map[string]any, k string) string {
		v, ok := m[k].(string)
		require.True(t, ok && strings.TrimSpace(v) != "", "%s is a non-empty string in %v", k, m)
		return v
	}
	iso := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$`)
	require.NotEmpty(t, str(ev, "name"))
	require.NotEmpty(t, str(ev, "description"))
	start, end := str(ev, "startDate"), str(ev, "endDate")
	require.Regexp(t, iso, start)
	require.Regexp(t, iso, end)
	s, _ := time.Parse(time.RFC3339, start)
	e, _ := time.Parse(time.RFC3339, end)
	require.True(t, e.After(s), "endDate after startDate")
	require.Contains(t, []string{"https://schema.org/EventScheduled", "https://schema.org/EventCancelled",
		"https://schema.org/EventPostponed", "https://schema.org/EventRescheduled"}, str(ev, "eventStatus"))
	require.Equal(t, "https://schema.org/OfflineEventAttendanceMode", str(ev, "eventAttendanceMode"))
	require.True(t, strings.HasPrefix(str(ev, "url"), testBaseURL+"/e/"))
	images, _ := ev["image"].([]any)
	require.NotEmpty(t, images, "image")
	loc, ok := ev["location"].(map[string]any)
	require.True(t, ok, "location is an object")
	require.Equal(t, "Place", str(loc, "@type"))
	addr, ok := loc["address"].(map[string]any)
	require.True(t, ok, "location.address is an object")
	require.Equal(t, "PostalAddress", str(addr, "@type"))
	for _, k := range []string{"streetAddress", "addressLocality", "addressRegion"} {
		str(addr, k)
	}
	require.Equal(t, "PH", str(addr, "addressCountry"))
	org, ok := ev["organizer"].(map[string]any)
	require.True(t, ok, "organizer")
	str(org, "name")
	list, ok := ev["offers"].([]any)
	require.True(t, ok && len(list) > 0, "offers")
	for _, o := range list {
		offer := o.(map[string]any)
		require.Equal(t, "Offer", str(offer, "@type"))
		require.Regexp(t, `^\d+\.\d\d$`, str(offer, "price"))
		require.Equal(t, "PHP", str(offer, "priceCurrency"))
		require.Contains(t, []string{"https://schema.org/InStock", "https://schema.org/LimitedAvailability", "https://schema.org/SoldOut",
			"https://schema.org/PreOrder", "https://schema.org/Discontinued"}, str(offer, "availability"))
		if v, ok := offer["validFrom"]; ok {
			require.Regexp(t, iso, v)
		}
		offers = append(offers, str(offer, "url"))
	}
	return start, str(loc, "name"), offers
}

// jsonLD parses the one JSON-LD block of a page.
func jsonLD(t *testing.T, ts *testServer, path string) map[string]any {
	t.Helper()
	doc := ts.html(t, path, http.StatusOK)
	script := doc.Find(`script[type="application/ld+json"]`)
	require.Len(t, script.Nodes, 1, path)
	var ld map[string]any
	require.NoError(t, jsonUnmarshal(script.Text(), &ld))
	require.Equal(t, "https://schema.org", ld["@context"])
	return ld
}

// TestSeriesStructuredData: the series' page is an EventSeries whose subEvents are its dates, each
// its own Event with its own startDate, location and offers (which buy for that date), and each
// date's page is that Event, with the series as its superEvent; all pass Google's event rules.
func TestSeriesStructuredData(t *testing.T) {
	ts := newTestServer(t)
	ev, dates := seriesFixture(t, ts, "dota-2-visayas-major")
	series := jsonLD(t, ts, "/e/"+ev.Code)
	require.Equal(t, "EventSeries", series["@type"])
	require.Equal(t, ev.Name, series["name"])
	require.Equal(t, "2026-03-13T13:00:00+08:00", series["startDate"], "the first date's start")
	require.Equal(t, "2026-03-27T23:00:00+08:00", series["endDate"], "the last date's end")
	subs, ok := series["subEvent"].([]any)
	require.True(t, ok)
	require.Len(t, subs, len(dates))
	starts := map[string]bool{}
	for i, sub := range subs {
		sub := sub.(map[string]any)
		require.Equal(t, "Event", sub["@type"])
		start, place, offers := ldEvent(t, sub)
		require.Equal(t, dates[i].StartsAt.In(palaro.Manila).Format(time.RFC3339), start)
		starts[start] = true
		require.Equal(t, testBaseURL+"/e/"+ev.Code+"/"+dates[i].Slug, sub["url"])
		for _, u := range offers {
			require.True(t, strings.HasSuffix(u, "?date="+dates[i].Slug), "an offer buys for its date: %s", u)
		}
		if i == 2 {
			require.Equal(t, "SM Mall of Asia Arena", place, "the third date is at its own venue")
		} else {
			require.NotEqual(t, "SM Mall of Asia Arena", place)
		}
		date := jsonLD(t, ts, "/e/"+ev.Code+"/"+dates[i].Slug)
		require.Equal(t, "Event", date["@type"])
		dStart, dPlace, dOffers := ldEvent(t, date)
		require.Equal(t, start, dStart)
		require.Equal(t, place, dPlace)
		require.Equal(t, offers, dOffers)
		super := date["superEvent"].(map[string]any)
		require.Equal(t, "EventSeries", super["@type"])
		require.Equal(t, testBaseURL+"/e/"+ev.Code, super["url"])
	}
	require.Len(t, starts, len(dates), "every date its own startDate")
	require.Equal(t, []string{"2026-03-13", "2026-03-13-2", "2026-03-20", "2026-03-27"},
		[]string{dates[0].Slug, dates[1].Slug, dates[2].Slug, dates[3].Slug})
	require.Equal(t, "https://schema.org/EventPostponed", subs[3].(map[string]any)["eventStatus"])
}

// TestSeriesPages: the series' page lists its dates as links with what is left; a date's page
// has its own canonical address and tickets that buy for it; a postponed date says so and sells
// nothing; unknown dates are 404s; the dates are in the sitemap, the calendar and their .ics.
func TestSeriesPages(t *testing.T) {
	ts := newTestServer(t)
	ev, dates := seriesFixture(t, ts, "dota-2-visayas-major")

	t.Run("SeriesPage", func(t *testing.T) {
		doc := ts.html(t, "/e/"+ev.Code, http.StatusOK)
		var hrefs []string
		doc.Find("#dates .date-list a").Each(func(_ int, a *goquery.Selection) { hrefs = append(hrefs, a.AttrOr("href", "")) })
		require.Equal(t, []string{"/e/" + ev.Code + "/2026-03-13", "/e/" + ev.Code + "/2026-03-13-2", "/e/" + ev.Code + "/2026-03-20",
			"/e/" + ev.Code + "/2026-03-27"}, hrefs)
		require.Equal(t, "Postponed", strings.TrimSpace(doc.Find("#dates .date-list li").Last().Find(".date-left").Text()))
		require.Equal(t, "On sale", strings.TrimSpace(doc.Find("#dates .date-list li").First().Find(".date-left").Text()))
		require.NotEmpty(t, doc.Find(`.ticket-list a[href="#dates"]`).Nodes, "day tickets ask for a date")
		require.Empty(t, doc.Find(`.ticket-list a[href^="/b/"], .ticket-list a[href^="/s/"]`).Nodes, "no day ticket sells without its date")
	})
	t.Run("DatePage", func(t *testing.T) {
		doc := ts.html(t, "/e/"+ev.Code+"/2026-03-20", http.StatusOK)
		require.Equal(t, testBaseURL+"/e/"+ev.Code+"/2026-03-20", doc.Find(`link[rel="canonical"]`).AttrOr("href", ""))
		require.Contains(t, doc.Find("h1").Text(), "Match day 3")
		require.Equal(t, "page", doc.Find(`#dates a[href="/e/`+ev.Code+`/2026-03-20"]`).AttrOr("aria-current", ""))
		require.Contains(t, doc.Find(".event-when").Text(), "Fri, 20 March 2026 · 7:00 PM")
		require.Contains(t, doc.Find(".venue-name").Text(), "SM Mall of Asia Arena")
		buys := doc.Find(`.ticket-list a.button:not(.secondary)`)
		require.NotEmpty(t, buys.Nodes)
		buys.Each(func(_ int, a *goquery.Selection) {
			require.True(t, strings.HasSuffix(a.AttrOr("href", ""), "?date=2026-03-20"), a.AttrOr("href", ""))
		})
	})
	t.Run("PostponedDate", func(t *testing.T) {
		doc := ts.html(t, "/e/"+ev.Code+"/2026-03-27", http.StatusOK)
		require.Equal(t, palaro.MsgDatePostponed,
			strings.TrimSpace(doc.Find(".date-notice").Text()))
		require.Empty(t, doc.Find(`.ticket-list a[href^="/b/"], .ticket-list a[href^="/s/"]`).Nodes, "nothing sells")
		buy := ts.html(t, "/b/"+ev.TicketTypes[0].Code+"?date=2026-03-27", http.StatusOK)
		require.Contains(t, buy.Find(".buy-page .notice").Text(), "This date is postponed")
		require.Empty(t, buy.Find("form.purchase-form").Nodes)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, p := range []string{"/e/" + ev.Code + "/2026-03-14", "/e/" + ev.Code + "/2026-03-13-3", "/e/" + ev.Code + "/not-a-date",
			"/e/mlbb-manila-showdown/2026-03-13", "/e/" + ev.Code + "/2026-03-14/calendar.ics"} {
			require.Equal(t, http.StatusNotFound, ts.get(t, p).Code, p)
		}
	})
	t.Run("BuyWithoutDate", func(t *testing.T) {
		rec := ts.get(t, "/b/"+ev.TicketTypes[0].Code)
		require.Equal(t, http.StatusSeeOther, rec.Code)
		require.Equal(t, "/e/"+ev.Code+"#dates", rec.Header().Get("Location"))
	})
	t.Run("ICS", func(t *testing.T) {
		rec := ts.get(t, "/e/"+ev.Code+"/2026-03-27/calendar.ics")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, `attachment; filename="`+ev.Code+`-2026-03-27.ics"`, rec.Header().Get("Content-Disposition"))
		cal, err := ics.ParseCalendar(strings.NewReader(rec.Body.String()))
		require.NoError(t, err)
		require.Len(t, cal.Events(), 1)
		e := cal.Events()[0]
		require.Equal(t, ev.Code+"-2026-03-27@palaro.ph", e.Id())
		start, err := e.GetStartAt()
		require.NoError(t, err)
		require.True(t, start.Equal(dates[3].StartsAt))
		require.Equal(t, "TENTATIVE", e.GetProperty(ics.ComponentPropertyStatus).Value, "a postponed date")
		require.NotNil(t, e.GetProperty(ics.ComponentPropertySequence))
		require.Equal(t, testBaseURL+"/e/"+ev.Code+"/2026-03-27", e.GetProperty(ics.ComponentPropertyUrl).Value)
		rec = ts.get(t, "/e/"+ev.Code+"/2026-03-13-2/calendar.ics")
		cal, err = ics.ParseCalendar(strings.NewReader(rec.Body.String()))
		require.NoError(t, err)
		require.Equal(t, "CONFIRMED", cal.Events()[0].GetProperty(ics.ComponentPropertyStatus).Value)
	})
	t.Run("Sitemap", func(t *testing.T) {
		var set struct {
			URLs []struct {
				Loc     string `xml:"loc"`
				LastMod string `xml:"lastmod"`
			} `xml:"url"`
		}
		require.NoError(t, xml.Unmarshal(ts.get(t, "/sitemap.xml").Body.Bytes(), &set))
		mods := map[string]string{}
		for _, u := range set.URLs {
			mods[u.Loc] = u.LastMod
		}
		for _, d := range dates {
			require.Regexp(t, `^\d{4}-\d\d-\d\d$`, mods[testBaseURL+"/e/"+ev.Code+"/"+d.Slug], "the sitemap lists %s with its lastmod", d.Slug)
		}
	})
	t.Run("Calendar", func(t *testing.T) {
		body := ts.get(t, "/v1/calendar?month=2026-03").Body.String()
		for _, d := range dates {
			require.Contains(t, body, `"url":"/e/`+ev.Code+`/`+d.Slug+`"`)
		}
	})
	t.Run("HomeCard", func(t *testing.T) {
		doc := ts.html(t, "/?when=month", http.StatusOK)
		card := doc.Find(`#upcoming-list a[href="/e/` + ev.Code + `/2026-03-13"]`)
		require.Len(t, card.Nodes, 1, "the series' card leads to its next date")
		require.Equal(t, "Match day 1 · +3 more dates", strings.TrimSpace(card.Find(".event-card-dates").Text()))
	})
}
