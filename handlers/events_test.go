package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"

	"palaro"
)

func texts(sel *goquery.Selection) []string {
	return sel.Map(func(_ int, s *goquery.Selection) string { return strings.TrimSpace(s.Text()) })
}

func attrs(sel *goquery.Selection, name string) []string {
	return sel.Map(func(_ int, s *goquery.Selection) string { return s.AttrOr(name, "") })
}

func uniq(s []string) []string {
	seen, out := map[string]bool{}, []string{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func TestHome(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		doc := ts.html(t, "/", http.StatusOK)
		require.Equal(t, "Discover upcoming events", strings.TrimSpace(doc.Find("#upcoming-heading").Text()))
		require.Equal(t, "Discover popular events", strings.TrimSpace(doc.Find("#popular-heading").Text()))
		require.Len(t, doc.Find("#upcoming-list .event-card").Nodes, 12)
		require.NotEmpty(t, doc.Find("#popular-heading").Parent().Find(".event-card").Nodes)
		require.Equal(t, "MLBB Manila Showdown", strings.TrimSpace(doc.Find("#upcoming-list .event-card-title").First().Text()),
			"the event on now comes first")
		require.Equal(t, []string{"/e/mlbb-manila-showdown"}, attrs(doc.Find("#upcoming-list .event-card-link").First(), "href"))
	})
	t.Run("Filters", func(t *testing.T) {
		doc := ts.html(t, "/", http.StatusOK)
		filters := doc.Find("nav.filters a.filter")
		require.Equal(t, []string{"All", "Today", "This week", "This month", "Around me"}, texts(filters))
		require.Equal(t, []string{"/", "/?when=today", "/?when=week", "/?when=month", "/?when=around-me"}, attrs(filters, "href"))
		require.Equal(t, []string{"All"}, texts(doc.Find(`nav.filters a[aria-current="true"]`)))

		doc = ts.html(t, "/?when=today", http.StatusOK)
		require.Equal(t, []string{"Today"}, texts(doc.Find(`nav.filters a[aria-current="true"]`)))
		events, err := ts.Events.ListEventsBetween(t.Context(), testNow, time.Date(2026, 3, 5, 0, 0, 0, 0, palaro.Manila))
		require.NoError(t, err)
		var today []string
		for _, ev := range events {
			today = append(today, listHref(t, ts, ev, testNow, time.Date(2026, 3, 5, 0, 0, 0, 0, palaro.Manila)))
		}
		require.NotEmpty(t, today)
		require.Equal(t, today, attrs(doc.Find("#upcoming-list .event-card-link"), "href"),
			"today's list has the events that overlap the rest of 4 March (TestDateLogic_Instants checks other hours)")
		require.Equal(t, testBaseURL+"/?when=today", doc.Find(`link[rel="canonical"]`).AttrOr("href", ""))
	})
	t.Run("WeekAndMonth", func(t *testing.T) {
		week := len(ts.html(t, "/?when=week", http.StatusOK).Find("#upcoming-list .event-card").Nodes)
		month := ts.html(t, "/?when=month", http.StatusOK).Find("#upcoming-list .event-card")
		require.Positive(t, week)
		require.GreaterOrEqual(t, len(month.Nodes), week)
		for _, m := range texts(month.Find(".date-month")) {
			require.Equal(t, "MAR", m)
		}
	})
	t.Run("UnknownFilterShowsAll", func(t *testing.T) {
		doc := ts.html(t, "/?when=yesterday", http.StatusOK)
		require.Equal(t, []string{"All"}, texts(doc.Find(`nav.filters a[aria-current="true"]`)))
	})
	t.Run("AroundMe", func(t *testing.T) {
		doc := ts.html(t, "/?when=around-me", http.StatusOK)
		require.Contains(t, doc.Find(".event-section .notice").Text(), "Allow location access")
		require.Equal(t, []string{""}, attrs(doc.Find(`a.filter[data-around-me]`), "data-around-me"))

		// Davao: the Davao venues come first, each card says how far it is.
		doc = ts.html(t, "/?when=around-me&lat=7.07&lng=125.61", http.StatusOK)
		require.Empty(t, doc.Find(".event-section .notice:not([hidden])").Nodes)
		first := doc.Find("#upcoming-list .event-card").First()
		require.Contains(t, first.Find(".event-card-meta").Last().Text(), "Davao City")
		require.Regexp(t, `^\d+\.\d km away$`, strings.TrimSpace(first.Find(".event-card-distance").Text()))
		require.Equal(t, "noindex", doc.Find(`meta[name="robots"]`).AttrOr("content", ""), "a location-specific list is not indexed")
		require.Equal(t, "/?when=around-me&lat=7.0700&lng=125.6100&page=2"[:len("/?")], doc.Find("a.load-more").AttrOr("href", "")[:2])
	})
	t.Run("LoadMore", func(t *testing.T) {
		doc := ts.html(t, "/", http.StatusOK)
		more := doc.Find("#upcoming-list a.load-more")
		require.Equal(t, "Load more", strings.TrimSpace(more.Text()))
		require.Equal(t, "/?page=2#page-2", more.AttrOr("href", ""), "without JavaScript it is a link to the next page, at its first event")
		require.Equal(t, "/events?page=2", more.AttrOr("data-hx-get", ""))
		require.Equal(t, "outerHTML", more.AttrOr("data-hx-swap", ""))

		// ?page=2 is the list as 'load more' left it: pages 1 and 2, with the popular events below.
		page2 := ts.html(t, "/?page=2", http.StatusOK)
		cards := page2.Find("#upcoming-list .event-card-title")
		require.Len(t, cards.Nodes, 24)
		require.Equal(t, texts(doc.Find("#upcoming-list .event-card-title")), texts(cards.Slice(0, 12)), "page 1 first")
		require.Equal(t, []string{"page-2"}, attrs(page2.Find("#upcoming-list > li[id]"), "id"))
		require.Equal(t, 12, page2.Find("#page-2").PrevAll().Length(), "page 2 starts at the 13th event")
		require.NotEmpty(t, page2.Find("#popular-heading").Nodes, "the same page as the one left")
		require.Equal(t, "/?page=3#page-3", page2.Find("a.load-more").AttrOr("href", ""))
		all, err := ts.Events.ListEvents(t.Context(), palaro.EventFilter{Now: testNow, Limit: 100})
		require.NoError(t, err)
		require.Len(t, ts.html(t, "/?page=3", http.StatusOK).Find("#upcoming-list .event-card").Nodes, len(all.Events), "every upcoming demo event")
	})
	t.Run("LoadMoreAtMostEightPages", func(t *testing.T) {
		// ?page=10 shows pages 3 to 10 (the demo data ends on page 3) and no popular events.
		all, err := ts.Events.ListEvents(t.Context(), palaro.EventFilter{Now: testNow, Limit: 100})
		require.NoError(t, err)
		doc := ts.html(t, "/?page=10", http.StatusOK)
		require.Len(t, doc.Find("#upcoming-list .event-card").Nodes, len(all.Events)-24, "page 3")
		require.Equal(t, []string{"page-3"}, attrs(doc.Find("#upcoming-list > li[id]"), "id"))
		require.Empty(t, doc.Find("#popular-heading").Nodes)
	})
}

func TestEventListFragment(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		rec := ts.get(t, "/events?page=2")
		require.Equal(t, http.StatusOK, rec.Code)
		body := rec.Body.String()
		require.NotContains(t, body, "<html", "a fragment, not a page")
		doc, err := goquery.NewDocumentFromReader(strings.NewReader("<ul>" + body + "</ul>"))
		require.NoError(t, err)
		require.Len(t, doc.Find("li > .event-card").Nodes, 12)
		home := ts.html(t, "/?page=2", http.StatusOK)
		require.Equal(t, texts(home.Find("#upcoming-list .event-card-title").Slice(12, 24)), texts(doc.Find(".event-card-title")),
			"the fragment holds the cards that the no-JS page adds")
		require.Equal(t, "page-2", doc.Find("li").First().AttrOr("id", ""), "the no-JS link's anchor")
		require.Equal(t, "/events?page=3", doc.Find("a.load-more").AttrOr("data-hx-get", ""))
	})
	t.Run("LastPage", func(t *testing.T) {
		rec := ts.get(t, "/events?page=3")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Contains(t, rec.Body.String(), "event-card")
		require.NotContains(t, rec.Body.String(), "load-more")
	})
	t.Run("Tag", func(t *testing.T) {
		rec := ts.get(t, "/events?tag=valorant")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Contains(t, rec.Body.String(), "/e/valorant-night-market-bgc")
		require.NotContains(t, rec.Body.String(), "/e/mlbb-manila-showdown")
	})
	t.Run("ErrMalformedTag", func(t *testing.T) {
		require.Equal(t, http.StatusNotFound, ts.get(t, "/events?tag=Bad_Tag").Code)
	})
}

func TestFindPage(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		doc := ts.html(t, "/f/valorant", http.StatusOK)
		require.Equal(t, "Valorant events", strings.TrimSpace(doc.Find("h1").Text()))
		links := attrs(doc.Find("#find-list .event-card-link"), "href")
		require.NotEmpty(t, links)
		for _, href := range links {
			ev, err := ts.Events.FindEventByCode(t.Context(), strings.TrimPrefix(href, "/e/"))
			require.NoError(t, err)
			var slugs []string
			for _, tag := range ev.Tags {
				slugs = append(slugs, tag.Slug)
			}
			require.Contains(t, slugs, "valorant", href)
		}
		require.Equal(t, []string{"/f/valorant", "/f/valorant?when=today"}, attrs(doc.Find("nav.filters a.filter").Slice(0, 2), "href"))
		require.Equal(t, "/", doc.Find(".back-link a").AttrOr("href", ""))
		require.NotEmpty(t, doc.Find(".topbar a.back[data-back]").Nodes, "the find page's top bar has a back arrow")
		require.Empty(t, doc.Find(".topbar a.logo").Nodes)
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, path := range []string{"/f/no-such-tag", "/f/Bad_Tag", "/f/a--b"} {
			doc := ts.html(t, path, http.StatusNotFound)
			require.Equal(t, "Page Not Found", strings.TrimSpace(doc.Find("h1").Text()), path)
		}
	})
}

func TestEventPage(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		doc := ts.html(t, "/e/mlbb-manila-showdown", http.StatusOK)
		require.Equal(t, "MLBB Manila Showdown", strings.TrimSpace(doc.Find("h1").Text()))
		require.Equal(t, []string{"Event info", "Location", "Links", "Tickets", "Tags"}, texts(doc.Find(".event-page h2")))
		require.Contains(t, doc.Find(".venue-name").Text(), "SM Mall of Asia Arena")
		require.Contains(t, doc.Find(".venue-address").Text(), "Seashell Lane, Mall of Asia Complex, Pasay, Metro Manila")
		require.Contains(t, doc.Find(`a[href^="https://www.google.com/maps/"]`).Text(), "Open in maps")
		require.Contains(t, texts(doc.Find(".link-list a")), "Watch live on Twitch")
		require.Contains(t, texts(doc.Find(".tag-list a")), "Mobile Legends")
		require.Contains(t, attrs(doc.Find(".tag-list a"), "href"), "/f/mobile-legends")
		back := doc.Find(".back-link a")
		require.Equal(t, "← Back to events", strings.TrimSpace(back.Text()))
		require.Equal(t, "/", back.AttrOr("href", ""))
		require.NotEmpty(t, doc.Find(".topbar a.back[data-back]").Nodes, "the event page's top bar has a back arrow")
		require.Equal(t, "/e/mlbb-manila-showdown/calendar.ics", doc.Find(`a[download]`).AttrOr("href", ""))
		require.True(t, strings.HasPrefix(doc.Find(`a:contains("Google Calendar")`).AttrOr("href", ""), "https://calendar.google.com/calendar/render?action=TEMPLATE"))
		require.NotEmpty(t, doc.Find(".event-hero img[data-popup-image]").Nodes, "the event image opens the image popup")
	})
	t.Run("Prices", func(t *testing.T) {
		doc := ts.html(t, "/e/mlbb-manila-showdown", http.StatusOK)
		tickets := doc.Find(".ticket-type")
		require.Equal(t, []string{"General Admission", "Lower Box", "VIP Pass"}, texts(tickets.Find("h3")))
		require.Equal(t, []string{"₱450.00", "₱1,350.00", "₱3,060.00"}, texts(tickets.Find(".price")))
		vip := tickets.Eq(2)
		require.Equal(t, "₱3,600.00", strings.TrimSpace(vip.Find(".price-original").Text()), "the price before the discount")
		require.Equal(t, "15% off", strings.TrimSpace(vip.Find(".discount").Text()))
		require.Empty(t, tickets.Eq(0).Find(".discount").Nodes)
		require.Equal(t, []string{"/b/mlbb-manila-showdown-gen", "/s/mlbb-manila-showdown-lower", "/waitlist/mlbb-manila-showdown-vip"},
			attrs(tickets.Find("a.button"), "href"), "an event on now still sells tickets; seated tickets go to seat selection; the sold-out one offers its waiting list")
		require.Equal(t, "Sold out", strings.TrimSpace(vip.Find(".sold-out-label").Text()))
		require.Equal(t, "Join the waiting list", strings.TrimSpace(vip.Find("a.button.secondary").Text()))
		doc.Find(".ticket-type a.button:not(.secondary)").Each(func(_ int, a *goquery.Selection) { require.Equal(t, "Buy", strings.TrimSpace(a.Text())) })

		doc = ts.html(t, "/e/valorant-night-market-bgc", http.StatusOK)
		require.Equal(t, []string{"FREE", "₱2,500.00"}, texts(doc.Find(".ticket-type .price")))
	})
	t.Run("Head", func(t *testing.T) {
		doc := ts.html(t, "/e/mlbb-manila-showdown", http.StatusOK)
		require.Equal(t, "MLBB Manila Showdown · Pasay · Palaro", doc.Find("title").Text())
		require.Equal(t, testBaseURL+"/e/mlbb-manila-showdown", doc.Find(`link[rel="canonical"]`).AttrOr("href", ""))
		og := func(p string) string { return doc.Find(`meta[property="og:`+p+`"]`).AttrOr("content", "") }
		require.Equal(t, "MLBB Manila Showdown · Pasay · Palaro", og("title"))
		require.Equal(t, "event", og("type"))
		require.Equal(t, testBaseURL+"/e/mlbb-manila-showdown", og("url"))
		require.Regexp(t, `^https://palaro\.test/static/img/events/moba\.[0-9a-f]{8}\.svg$`, og("image"))
		require.Contains(t, og("description"), "Eight of the country's best Mobile Legends squads")
		require.Equal(t, og("description"), doc.Find(`meta[name="description"]`).AttrOr("content", ""))
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, path := range []string{"/e/no-such-event", "/e/Bad_Code", "/e/mlbb--x", "/e/" + strings.Repeat("a", 81)} {
			doc := ts.html(t, path, http.StatusNotFound)
			require.Equal(t, "Page Not Found", strings.TrimSpace(doc.Find("h1").Text()), path)
			require.Equal(t, "noindex", doc.Find(`meta[name="robots"]`).AttrOr("content", ""))
		}
	})
}

func TestCalendarPage(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		doc := ts.html(t, "/calendar", http.StatusOK)
		island := doc.Find(`[data-island="calendar"]`)
		require.Equal(t, "calendar-props", island.AttrOr("data-props", ""))
		require.Len(t, doc.Find(`script[type="module"][src^="/static/dist/calendar-"]`).Nodes, 1)
		require.Empty(t, doc.Find(`script[src^="/static/dist/htmx-"]`).Nodes, "the island page leaves htmx out")
		var props struct {
			Month, Today string
			Events       []struct{ Code, Name, Start, End, Time, Place, URL string }
		}
		require.NoError(t, jsonUnmarshal(doc.Find("#calendar-props").Text(), &props))
		require.Equal(t, "2026-03", props.Month)
		require.Equal(t, "2026-03-04", props.Today)
		require.NotEmpty(t, props.Events)
		var league []string // the demo league's entries: one per date, each leading to its date's page
		for _, ev := range props.Events {
			if ev.Code == "palaro-league-season-1" {
				league = append(league, ev.URL)
			} else {
				require.Equal(t, "/e/"+ev.Code, ev.URL)
			}
			require.True(t, strings.HasSuffix(ev.Start, "+08:00"), ev.Start)
			// The six-week grid of March 2026 runs from Sunday 1 March to Saturday 11 April.
			require.True(t, ev.Start < "2026-04-12" && ev.End >= "2026-03-01", ev.Start)
		}
		require.Equal(t, []string{"/e/palaro-league-season-1/2026-03-07", "/e/palaro-league-season-1/2026-03-14",
			"/e/palaro-league-season-1/2026-03-21", "/e/palaro-league-season-1/2026-03-28", "/e/palaro-league-season-1/2026-04-04",
			"/e/palaro-league-season-1/2026-04-11"}, league, "the league's Saturdays in the grid (two were over at the seed, in February)")
		// Without JavaScript: the month's events by day, with links to the months around it.
		fallback := island.Find(".calendar-fallback")
		require.Equal(t, "March 2026", strings.TrimSpace(fallback.Find(".cal-title").Text()))
		require.Equal(t, []string{"/calendar?month=2026-02", "/calendar?month=2026-04"}, attrs(fallback.Find(".cal-head a"), "href"))
		require.Equal(t, "Wednesday, 4 March", strings.TrimSpace(fallback.Find(".cal-list h3").First().Text()))
		require.Contains(t, attrs(fallback.Find(".cal-list a"), "href"), "/e/mlbb-manila-showdown")
	})
	t.Run("Month", func(t *testing.T) {
		doc := ts.html(t, "/calendar?month=2026-05", http.StatusOK)
		require.Equal(t, "May 2026", strings.TrimSpace(doc.Find(".calendar-fallback .cal-title").Text()))
		require.Equal(t, testBaseURL+"/calendar?month=2026-05", doc.Find(`link[rel="canonical"]`).AttrOr("href", ""))
	})
	t.Run("JSON", func(t *testing.T) {
		rec := ts.get(t, "/v1/calendar?month=2026-04")
		require.Equal(t, http.StatusOK, rec.Code)
		require.Contains(t, rec.Header().Get("Content-Type"), "application/json")
		var body struct {
			Month  string
			Events []struct{ Code, Start string }
		}
		require.NoError(t, jsonUnmarshal(rec.Body.String(), &body))
		require.Equal(t, "2026-04", body.Month)
		require.NotEmpty(t, body.Events)
	})
	t.Run("ErrInvalidMonth", func(t *testing.T) {
		for _, q := range []string{"", "2026-13", "March", "2026-3"} {
			rec := ts.get(t, "/v1/calendar?month="+q)
			require.Equal(t, http.StatusBadRequest, rec.Code, q)
			require.JSONEq(t, `{"message":"Invalid month; use YYYY-MM.","responseCode":400}`, rec.Body.String())
		}
	})
}

func TestStaticPages(t *testing.T) {
	ts := newTestServer(t)

	t.Run("OK", func(t *testing.T) {
		for path, heading := range map[string]string{
			"/about": "About Us", "/faq": "Frequently asked questions", "/contacts": "Contact Us",
			"/privacy": "Privacy Policy", "/terms": "Terms & Conditions", "/cookies": "Cookies",
		} {
			doc := ts.html(t, path, http.StatusOK)
			require.Equal(t, heading, strings.TrimSpace(doc.Find("main h1").Text()), path)
			body := doc.Find("main").Text()
			require.NotContains(t, body, "___", "no blank dates in %s", path)
			require.NotRegexp(t, `\{[a-zA-Z ]+\}|\[[A-Z ]+\]`, body, "no template placeholders in %s", path)
		}
	})
	t.Run("SupportEmail", func(t *testing.T) {
		doc := ts.html(t, "/contacts", http.StatusOK)
		require.Contains(t, attrs(doc.Find("main a"), "href"), "mailto:support@palaro.test")
		popup := doc.Find("#popup-contact-us")
		require.Contains(t, popup.Text(), "support@palaro.test")
	})
	t.Run("Popups", func(t *testing.T) {
		doc := ts.html(t, "/", http.StatusOK)
		for _, id := range []string{"privacy", "terms-and-conditions", "cookies", "about-us", "contact-us", "alert", "image"} {
			require.Len(t, doc.Find("dialog#popup-"+id).Nodes, 1, id)
		}
		require.Contains(t, doc.Find("#popup-about-us").Text(), "venue selection")
	})
}

func TestLayout(t *testing.T) {
	ts := newTestServer(t)
	pages := []string{"/", "/?when=week", "/e/mlbb-manila-showdown", "/f/valorant", "/calendar", "/about", "/faq", "/contacts", "/privacy", "/terms", "/cookies"}

	t.Run("Head", func(t *testing.T) {
		for _, path := range pages {
			doc := ts.html(t, path, http.StatusOK)
			require.NotEmpty(t, strings.TrimSpace(doc.Find("head title").Text()), path)
			require.NotEmpty(t, doc.Find(`meta[name="description"]`).AttrOr("content", ""), path)
			require.True(t, strings.HasPrefix(doc.Find(`link[rel="canonical"]`).AttrOr("href", ""), testBaseURL+"/"), path)
			require.Equal(t, "en", doc.Find("html").AttrOr("lang", ""))
		}
	})
	t.Run("DemoBannerAndNav", func(t *testing.T) {
		doc := ts.html(t, "/", http.StatusOK)
		banner := strings.Join(strings.Fields(doc.Find(".demo-banner").Text()), " ")
		require.Equal(t, "This is a demo version of Palaro · alpha release 0.1.1 · iOS and Android apps coming soon", banner)
		require.Equal(t, "nav-init-app", doc.Find("body").AttrOr("class", ""))
		require.NotEmpty(t, doc.Find(".topbar a.logo").Nodes, "init-app shows the logo")
		require.NotEmpty(t, doc.Find(".topbar [data-refresh]").Nodes)
		require.Equal(t, []string{"Home", "Register", "Privacy Policy", "Terms & Conditions", "About Us", "Contact Us"},
			texts(doc.Find("#menu .menu-items").First().Find("a")))
		require.Equal(t, []string{"page"}, attrs(doc.Find(`#menu a[aria-current]`).First(), "aria-current"))
		require.Equal(t, "nav-default-back", ts.html(t, "/e/mlbb-manila-showdown", http.StatusOK).Find("body").AttrOr("class", ""))
	})
	t.Run("NoReactOnListPages", func(t *testing.T) {
		for _, path := range []string{"/", "/e/mlbb-manila-showdown", "/f/valorant"} {
			doc := ts.html(t, path, http.StatusOK)
			require.Empty(t, doc.Find(`script[type="module"], link[rel="modulepreload"], [data-island]`).Nodes, path)
			require.Len(t, doc.Find(`script[src^="/static/dist/htmx-"]`).Nodes, 1, path)
		}
	})
	t.Run("LazyImages", func(t *testing.T) {
		doc := ts.html(t, "/", http.StatusOK)
		imgs := doc.Find("#upcoming-list .event-card img")
		require.Greater(t, len(imgs.Nodes), 4)
		imgs.Each(func(i int, img *goquery.Selection) {
			require.NotEmpty(t, img.AttrOr("width", ""))
			require.NotEmpty(t, img.AttrOr("height", ""))
			if i >= 2 {
				require.Equal(t, "lazy", img.AttrOr("loading", ""), "images below the fold load lazily")
			}
		})
		popular := doc.Find("#popular-heading").Parent().Find(".event-card img")
		require.Greater(t, len(popular.Nodes), 2)
		require.Equal(t, []string{"lazy"}, uniq(attrs(popular, "loading")), "the popular rail is below the fold")
	})
	t.Run("AccessibleNames", func(t *testing.T) {
		for _, path := range pages {
			doc := ts.html(t, path, http.StatusOK)
			doc.Find("a, button").Each(func(_ int, el *goquery.Selection) {
				name := strings.TrimSpace(el.Text()) + el.AttrOr("aria-label", "") + el.AttrOr("title", "")
				html, _ := goquery.OuterHtml(el)
				require.NotEmpty(t, name, "%s: %s has no accessible name", path, html)
			})
		}
	})
}

func TestErrorPages(t *testing.T) {
	t.Run("ErrUnmatchedPath", func(t *testing.T) {
		ts := newTestServer(t)
		for _, path := range []string{"/no/such/page", "/nothing-here", "/e/mlbb-manila-showdown/extra"} {
			doc := ts.html(t, path, http.StatusNotFound)
			require.Equal(t, "Page not found", strings.TrimSpace(doc.Find("h1").Text()), path)
			require.Equal(t, "/", doc.Find(".error-page a.button").AttrOr("href", ""))
		}
		rec := ts.get(t, "/v1/no-such-call")
		require.Equal(t, http.StatusNotFound, rec.Code)
		require.JSONEq(t, `{"message":"Page not found","responseCode":404}`, rec.Body.String())
	})
	t.Run("ErrInternal", func(t *testing.T) {
		ts := newTestServer(t)
		require.NoError(t, ts.DB.Close())
		for _, path := range []string{"/", "/e/mlbb-manila-showdown", "/sitemap.xml"} {
			rec := ts.get(t, path)
			require.Equal(t, http.StatusInternalServerError, rec.Code, path)
			require.NotContains(t, rec.Body.String(), "database is closed", "the internal error is not shown")
			doc, err := goquery.NewDocumentFromReader(rec.Body)
			require.NoError(t, err)
			require.Equal(t, "Internal Server Error", strings.TrimSpace(doc.Find("h1").Text()), path)
		}
		rec := ts.get(t, "/v1/calendar?month=2026-03")
		require.Equal(t, http.StatusInternalServerError, rec.Code)
		require.JSONEq(t, `{"message":"Internal Server Error","responseCode":500}`, rec.Body.String())
		require.Contains(t, ts.Log.String(), "database is closed", "the internal error is logged")
	})
}
