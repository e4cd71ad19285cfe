package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// dated is an event as on one date of its series, what the date's pages show: the date's start,
// end, venue, status and tickets (each ticket type's availability for that date), with the
// date's slug ("2027-01-09", "2027-01-09-2" for a second session that day) and its own name.
type dated struct {
	Slug  string
	Label string
	Event *palaro.Event
}

// validDateSlug reports whether s has the shape of a date's slug: a real day YYYY-MM-DD, and
// "-N" (N from 2) for the N-th session of that day.
func validDateSlug(s string) bool {
	if len(s) < 10 {
		return false
	}
	if _, err := time.Parse("2006-01-02", s[:10]); err != nil {
		return false
	}
	if len(s) == 10 {
		return true
	}
	if len(s) < 12 || s[10] != '-' || s[11] < '1' || s[11] > '9' {
		return false
	}
	n, err := strconv.Atoi(s[11:])
	return err == nil && n >= 2 && n <= 99
}

// eventPath is the page of an event, or of one date of its series when slug is set.
func eventPath(code, slug string) string {
	if slug == "" {
		return "/e/" + code
	}
	return "/e/" + code + "/" + slug
}

// buyPath is the buy page of a ticket type, for one date of a series when slug is set.
func buyPath(code, slug string) string { return views.WithDate("/b/"+code, slug) }

// dateAvailability says what is left to buy for an event (or one date of a series, ev as on that
// date) at now, over its ticket types: "On sale", "Only 12 left" at lowStock or fewer, else why
// nothing sells ("Sold out", "Not yet on sale", "Sales ended"); open says a ticket sells now.
func dateAvailability(ev *palaro.Event, now time.Time) (text string, open bool) {
	left, soldOut, notYet := 0, false, false
	for _, t := range ev.TicketTypes {
		switch t.SaleState(ev, now) {
		case palaro.SaleOpen:
			open = true
			left += t.Available()
		case palaro.SaleSoldOut:
			soldOut = true
		case palaro.SaleNotStarted:
			notYet = true
		}
	}
	switch {
	case ev.Status == palaro.EventCancelled:
		return "Cancelled", false
	case ev.Status == palaro.EventPostponed:
		return "Postponed", false
	case open && left <= lowStock:
		return "Only " + strconv.Itoa(left) + " left", true
	case open:
		return "On sale", true
	case notYet:
		return "Not yet on sale", false
	case soldOut:
		return "Sold out", false
	case len(ev.TicketTypes) == 0:
		return "Tickets soon", false
	}
	return "Sales ended", false
}

// dateNotice is what a date's page says of a date that does not sell for its status: a postponed
// or cancelled date ("" for a date on as planned).
func dateNotice(status string) string {
	switch status {
	case palaro.EventCancelled:
		return "This date is cancelled. Tickets for it are not on sale."
	case palaro.EventPostponed:
		return "This date is postponed. Tickets for it are not on sale until it has a new date."
	}
	return ""
}

// datesView lists the dates of a series that have not ended at now, each with its availability;
// current is the slug of the date whose page shows the list ("" on the series' page).
func datesView(series *palaro.Event, dates []dated, now time.Time, current string) views.DatesView {
	v := views.DatesView{Heading: "Dates"}
	if current != "" {
		v.Heading = "All dates"
	}
	for _, d := range dates {
		ev := d.Event
		if !now.Before(ev.EndsAt) {
			v.Played++
			continue
		}
		st, en := ev.StartsAt.In(palaro.Manila), ev.EndsAt.In(palaro.Manila)
		link := views.DateLink{
			Href: eventPath(series.Code, d.Slug), Day: st.Format("2"), Month: st.Format("Jan"), Weekday: st.Format("Mon"),
			Label: d.Label, Time: st.Format("3:04 PM") + " – " + en.Format("3:04 PM"), StartISO: st.Format(time.RFC3339),
			Status: statusLabel(ev.Status), Current: d.Slug == current,
		}
		if st.YearDay() != en.YearDay() || st.Year() != en.Year() {
			link.Time = st.Format("3:04 PM") + " – " + en.Format("Mon 2 Jan, 3:04 PM")
		}
		if ev.Venue.ID != series.Venue.ID {
			link.Place = ev.Venue.Name + ", " + ev.Venue.City
		}
		link.Availability, link.Open = dateAvailability(ev, now)
		v.Dates = append(v.Dates, link)
	}
	return v
}

// dateName is the name of one date's Event and page: the date's own name with the series', or
// the series' name with the day.
func dateName(series *palaro.Event, d dated) string {
	if d.Label != "" {
		return d.Label + " · " + series.Name
	}
	return series.Name + " · " + d.Event.StartsAt.In(palaro.Manila).Format("Mon, 2 Jan 2006")
}

// dateJSONLD is the schema.org Event of one date of a series, with its own name, url, startDate,
// endDate, location, status and offers (which buy for that date), and the series as its
// superEvent.
func (s *Server) dateJSONLD(series *palaro.Event, d dated, now time.Time, q *palaro.Queue) map[string]any {
	data := s.occasionJSONLD(d.Event, d.Slug, now, q)
	data["name"] = dateName(series, d)
	data["superEvent"] = map[string]any{"@type": "EventSeries", "name": series.Name, "url": s.config.BaseURL + eventPath(series.Code, "")}
	return data
}

// seriesJSONLD is the schema.org EventSeries of a series' page: the series' name, description,
// organizer, image, venue and span (the first date's start to the last date's end), and each
// date not yet over as a subEvent, an Event of its own (dateJSONLD without the superEvent it is
// inside of).
func (s *Server) seriesJSONLD(series *palaro.Event, dates []dated, now time.Time, q *palaro.Queue) map[string]any {
	data := s.occasionJSONLD(series, "", now, q)
	data["@type"] = "EventSeries"
	delete(data, "offers") // each date sells its own
	if len(dates) > 0 {
		first, last := dates[0].Event, dates[len(dates)-1].Event
		data["startDate"] = first.StartsAt.In(palaro.Manila).Format(time.RFC3339)
		data["endDate"] = last.EndsAt.In(palaro.Manila).Format(time.RFC3339)
	}
	var subs []map[string]any
	for _, d := range dates {
		if !now.Before(d.Event.EndsAt) {
			continue
		}
		sub := s.dateJSONLD(series, d, now, q)
		delete(sub, "@context")
		delete(sub, "superEvent")
		subs = append(subs, sub)
	}
	if len(subs) > 0 {
		data["subEvent"] = subs
	}
	return data
}

// eventDatePage renders /e/{code}/{date}: one date of a series, with its own time, venue, status,
// tickets (what is left for that date; Buy goes to the date's buy or seat page), .ics file and
// JSON-LD Event, and the series' other dates.
func (s *Server) eventDatePage(c *echo.Context) error {
	ev, dates, i, err := s.findSeriesDate(c)
	if err != nil {
		return err
	}
	return s.seriesPage(c, ev, dates, dates[i].Slug)
}

// findSeriesDate loads the event of the request's :code with its dates and the index of the date
// :date names among them; an unknown date, or one of an event without dates, is ENOTFOUND.
func (s *Server) findSeriesDate(c *echo.Context) (*palaro.Event, []dated, int, error) {
	slug := c.Param("date")
	if !validDateSlug(slug) {
		return nil, nil, 0, palaro.Errorf(palaro.ENOTFOUND, "Date not found.")
	}
	ctx := c.Request().Context()
	ev, err := s.services.Events.FindEventByCode(ctx, c.Param("code"))
	if err != nil {
		return nil, nil, 0, err
	}
	dates, err := s.seriesDates(ctx, ev)
	if err != nil {
		return nil, nil, 0, err
	}
	i := slices.IndexFunc(dates, func(d dated) bool { return d.Slug == slug })
	if i < 0 {
		return nil, nil, 0, palaro.Errorf(palaro.ENOTFOUND, "Date not found.")
	}
	return ev, dates, i, nil
}

// seriesPage renders the page of a series (slug "") or of one of its dates. The series' page
// lists the coming dates, each a link to its page, and its tickets ask for a date; its JSON-LD is
// an EventSeries with each coming date a subEvent. A date's page is the event as on that date.
func (s *Server) seriesPage(c *echo.Context, series *palaro.Event, dates []dated, slug string) error {
	now := s.Now()
	q := s.queueOf(series.ID)
	if slug == "" {
		p := s.page(c, series.Name+" · "+series.Venue.City+" · Palaro", metaDescription(series))
		p.Nav, p.Image, p.OGType = views.NavDefaultBack, s.imageURL(series.ImageURL), "event"
		p.JSONLD = s.seriesJSONLD(series, dates, now, q)
		view := s.eventView(series, now)
		view.PickDate = true
		list := datesView(series, dates, now, "")
		view.Dates = &list
		if q != nil && queueSaleLive(series, now) {
			view.SaleOpens = saleOpensText(q, now)
		}
		return render(c, http.StatusOK, views.EventPage(p, view))
	}
	i := slices.IndexFunc(dates, func(d dated) bool { return d.Slug == slug })
	d := dates[i]
	ev := d.Event
	p := s.page(c, dateName(series, d)+" · "+ev.Venue.City+" · Palaro", metaDescription(ev))
	p.Nav, p.Image, p.OGType = views.NavDefaultBack, s.imageURL(series.ImageURL), "event"
	p.JSONLD = s.dateJSONLD(series, d, now, q)
	view := s.eventView(ev, now)
	view.ICSURL = eventPath(series.Code, slug) + "/calendar.ics"
	view.Date = &views.DateHeader{Label: d.Label, SeriesHref: eventPath(series.Code, ""), Notice: dateNotice(ev.Status)}
	list := datesView(series, dates, now, slug)
	view.Dates = &list
	for i := range view.Tickets {
		view.Tickets[i].BuyHref = views.WithDate(view.Tickets[i].BuyHref, slug)
	}
	if q != nil {
		if queueSaleLive(ev, now) {
			view.SaleOpens = saleOpensText(q, now)
		}
	} else {
		s.addQuickBuy(ev, &view)
		if view.QuickBuy != nil {
			view.QuickBuy.Props.Date = slug
		}
	}
	return render(c, http.StatusOK, views.EventPage(p, view))
}

// eventDateICS answers the RFC 5545 calendar file of one date of a series, its own entry (see
// addICSEvent) with the date's time, venue, STATUS and SEQUENCE.
func (s *Server) eventDateICS(c *echo.Context) error {
	ev, dates, i, err := s.findSeriesDate(c)
	if err != nil {
		return err
	}
	cal := newICS()
	s.addICSEvent(cal, dates[i].Event, dates[i].Slug)
	return serveICS(c, cal, ev.Code+"-"+dates[i].Slug+".ics")
}

// seriesDates loads the dates of an event as dated events, in order of start; nil for an event
// without dates.
// PROVISIONAL until the series store reads land (branch i22-series): no event has dates yet.
func (s *Server) seriesDates(ctx context.Context, ev *palaro.Event) ([]dated, error) {
	return nil, nil
}
