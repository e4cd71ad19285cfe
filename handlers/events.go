package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// listQuery is the parsed query of an event list: date filter, tag, page and location.
type listQuery struct {
	when string
	tag  string
	page int
	near *palaro.GeoPoint
}

func parseListQuery(c *echo.Context) listQuery {
	q := listQuery{when: c.QueryParam("when"), tag: c.QueryParam("tag"), page: 1}
	if !palaro.ValidWhen(q.when) {
		q.when = palaro.WhenAll
	}
	if n, err := strconv.Atoi(c.QueryParam("page")); err == nil && n > 1 && n < 1000 {
		q.page = n
	}
	lat, errLat := strconv.ParseFloat(c.QueryParam("lat"), 64)
	lng, errLng := strconv.ParseFloat(c.QueryParam("lng"), 64)
	if q.when == palaro.WhenAroundMe && errLat == nil && errLng == nil && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 {
		q.near = &palaro.GeoPoint{Latitude: lat, Longitude: lng}
	}
	return q
}

// values encodes the query for a link, with the given page.
func (q listQuery) values(page int, withTag bool) url.Values {
	v := url.Values{}
	if q.when != "" {
		v.Set("when", q.when)
	}
	if withTag && q.tag != "" {
		v.Set("tag", q.tag)
	}
	if q.near != nil {
		v.Set("lat", strconv.FormatFloat(q.near.Latitude, 'f', 4, 64))
		v.Set("lng", strconv.FormatFloat(q.near.Longitude, 'f', 4, 64))
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return v
}

func withQuery(path string, v url.Values) string {
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

var filterLabels = []struct{ label, value string }{
	{"All", palaro.WhenAll}, {"Today", palaro.WhenToday}, {"This week", palaro.WhenWeek},
	{"This month", palaro.WhenMonth}, {"Around me", palaro.WhenAroundMe},
}

// pageSize is how many events one page of a list has; a full page shows up to listPages pages.
const pageSize, listPages = 12, 8

// firstPage is the first page of the list that the full page ?page=N shows: the pages loaded up to
// N, so that coming back to a list after 'load more' (which sets ?page=N) shows what was loaded,
// at most listPages of them.
func firstPage(page int) int { return max(1, page-listPages+1) }

// eventList loads pages first to q.page of the events for the query and builds the list view
// model; basePath is the page the list lives on ("/" or "/f/{tag}"). Each page after the first
// starts with an anchor (#page-N) that the 'load more' link leads to.
func (s *Server) eventList(c *echo.Context, q listQuery, basePath string, first int) (views.EventList, error) {
	now := s.Now()
	result, err := s.services.Events.ListEvents(c.Request().Context(), palaro.EventFilter{
		When: q.when, Tag: q.tag, Near: q.near, Now: now, Offset: (first - 1) * pageSize, Limit: (q.page - first + 1) * pageSize,
	})
	if err != nil {
		return views.EventList{}, err
	}
	list := views.EventList{Heading: "Discover upcoming events", Empty: "No events match this filter yet. Try another date."}
	for _, f := range filterLabels {
		fq := listQuery{when: f.value}
		list.Filters = append(list.Filters, views.Filter{Label: f.label, Value: f.value, Href: withQuery(basePath, fq.values(1, false)), Active: f.value == q.when})
	}
	if q.when == palaro.WhenAroundMe && q.near == nil {
		list.Notice = "Allow location access in your browser to sort events by distance. Until then, here are all upcoming events."
	}
	from, to := palaro.DateWindow(q.when, now)
	for i, ev := range result.Events {
		card := s.eventCard(ev, now, q.near)
		if err := s.seriesCard(c.Request().Context(), ev, &card, now, from, to); err != nil {
			return views.EventList{}, err
		}
		if n := (first-1)*pageSize + i; n > 0 && n%pageSize == 0 {
			card.Anchor = "page-" + strconv.Itoa(n/pageSize+1)
		}
		list.Cards = append(list.Cards, card)
	}
	if result.HasMore {
		list.MoreHref = withQuery(basePath, q.values(q.page+1, false)) + "#page-" + strconv.Itoa(q.page+1)
		list.MoreFragment = withQuery("/events", q.values(q.page+1, true))
	}
	return list, nil
}

// home renders the home page.
func (s *Server) home(c *echo.Context) error {
	q := parseListQuery(c)
	q.tag = ""
	list, err := s.eventList(c, q, "/", firstPage(q.page))
	if err != nil {
		return err
	}
	var popular []views.EventCard
	if firstPage(q.page) == 1 {
		top, err := s.services.Events.ListEvents(c.Request().Context(), palaro.EventFilter{Popular: true, Now: s.Now(), Limit: 8})
		if err != nil {
			return err
		}
		for _, ev := range top.Events {
			card := s.eventCard(ev, s.Now(), nil)
			if err := s.seriesCard(c.Request().Context(), ev, &card, s.Now(), s.Now(), time.Time{}); err != nil {
				return err
			}
			popular = append(popular, card)
		}
	}
	p := s.page(c, "Palaro · eSports and events in the Philippines", "Discover eSports tournaments, concerts, cosplay and gaming conventions across the Philippines and buy tickets in pesos with QR Ph or card.")
	p.Path = withQuery("/", listQuery{when: q.when}.values(q.page, false))
	if q.near != nil {
		p.Path, p.NoIndex = "/", true
	}
	return render(c, http.StatusOK, views.HomePage(p, list, popular))
}

// eventListFragment renders the next page of an event list for htmx's 'load more'.
func (s *Server) eventListFragment(c *echo.Context) error {
	q := parseListQuery(c)
	if q.tag != "" && !palaro.ValidCode(q.tag) {
		return palaro.Errorf(palaro.ENOTFOUND, "Tag not found.")
	}
	base := "/"
	if q.tag != "" {
		base = "/f/" + q.tag
	}
	list, err := s.eventList(c, q, base, q.page)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.EventCards(list.Cards, list.MoreHref, list.MoreFragment, false))
}

// findPage renders the event list of one tag or game.
func (s *Server) findPage(c *echo.Context) error {
	tag, err := s.services.Events.FindTag(c.Request().Context(), c.Param("tag"))
	if err != nil {
		return err
	}
	q := parseListQuery(c)
	q.tag = tag.Slug
	list, err := s.eventList(c, q, "/f/"+tag.Slug, firstPage(q.page))
	if err != nil {
		return err
	}
	list.Heading = "Upcoming " + tag.Name + " events"
	p := s.page(c, tag.Name+" events in the Philippines · Palaro", "Upcoming "+tag.Name+" events, tournaments and watch parties in the Philippines. Buy tickets on Palaro.")
	p.Nav = views.NavDefaultBack
	p.Path = withQuery("/f/"+tag.Slug, listQuery{when: q.when}.values(q.page, false))
	return render(c, http.StatusOK, views.FindPage(p, tag.Name, list))
}

// eventPage renders one event with its structured data.
func (s *Server) eventPage(c *echo.Context) error {
	ev, err := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code"))
	if err != nil {
		return err
	}
	dates, err := s.seriesDates(c.Request().Context(), ev)
	if err != nil {
		return err
	} else if len(dates) > 0 {
		return s.seriesPage(c, ev, dates, "")
	}
	now := s.Now()
	p := s.page(c, ev.Name+" · "+ev.Venue.City+" · Palaro", metaDescription(ev))
	p.Nav = views.NavDefaultBack
	p.Image = s.imageURL(ev.ImageURL)
	p.OGType = "event"
	q := s.queueOf(ev.ID)
	p.JSONLD = s.eventJSONLD(ev, now, q)
	view := s.eventView(ev, now)
	if view.Tournaments, err = s.tournamentLinks(c, ev.Code); err != nil {
		return err
	}
	if q != nil {
		if queueSaleLive(ev, now) {
			view.SaleOpens = saleOpensText(q, now) // the same for every visitor: cached with the page
		}
	} else {
		s.addQuickBuy(ev, &view, "")
	}
	return render(c, http.StatusOK, views.EventPage(p, view))
}

func metaDescription(ev *palaro.Event) string {
	d := ev.Summary + " " + formatWhen(ev.StartsAt, ev.EndsAt) + " at " + ev.Venue.Name + ", " + ev.Venue.City + "."
	if len(d) > 300 {
		d = d[:297] + "..."
	}
	return d
}
