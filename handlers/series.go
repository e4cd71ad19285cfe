package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
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
	Date  palaro.EventDate
	Event *palaro.Event
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
		return palaro.MsgDateCancelled
	case palaro.EventPostponed:
		return palaro.MsgDatePostponed
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
// :date names among them; an unknown date, or one of an event without dates, is ENOTFOUND; a
// second segment that is no date at all (/e/{code}/extra) is a path no page has (errPageNotFound).
func (s *Server) findSeriesDate(c *echo.Context) (*palaro.Event, []dated, int, error) {
	slug := c.Param("date")
	if _, _, ok := palaro.ParseDateSlug(slug); !ok {
		return nil, nil, 0, errPageNotFound
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
// lists the coming dates, each a link to its page; its day tickets ask for a date, its passes
// sell there; its JSON-LD is an EventSeries with each coming date a subEvent. A date's page is
// the event as on that date: its day tickets buy for it, its passes link to their own buy page.
func (s *Server) seriesPage(c *echo.Context, series *palaro.Event, dates []dated, slug string) error {
	now := s.Now()
	q := s.queueOf(series.ID)
	ev, view := series, s.eventView(series, now)
	list := datesView(series, dates, now, slug)
	view.Dates = &list
	p := s.page(c, series.Name+" · "+series.Venue.City+" · Palaro", metaDescription(series))
	if slug == "" {
		view.PickDate = true
		for i, t := range series.TicketTypes {
			view.Tickets[i].PickDate = !t.IsPass()
		}
		p.JSONLD = s.seriesJSONLD(series, dates, now, q)
	} else {
		d := dates[slices.IndexFunc(dates, func(d dated) bool { return d.Slug == slug })]
		ev = d.Event
		p = s.page(c, dateName(series, d)+" · "+ev.Venue.City+" · Palaro", metaDescription(ev))
		p.JSONLD = s.dateJSONLD(series, d, now, q)
		passes := view.Tickets // a pass is bought for the series, not for the date
		view = s.eventView(ev, now)
		view.Dates = &list
		view.ICSURL = eventPath(series.Code, slug) + "/calendar.ics"
		view.Date = &views.DateHeader{Label: d.Label, SeriesHref: eventPath(series.Code, ""), Notice: dateNotice(ev.Status)}
		for i, t := range ev.TicketTypes {
			switch {
			case t.IsPass():
				view.Tickets[i] = passes[i]
			case view.Date.Notice != "":
				view.Tickets[i].Available, view.Tickets[i].Unavailable = false, statusLabel(ev.Status)
				fallthrough
			default:
				view.Tickets[i].BuyHref = views.WithDate(view.Tickets[i].BuyHref, slug)
				if view.Date.Notice != "" {
					view.Tickets[i].WaitlistHref = "" // a date not on as scheduled has no waiting list
				} else if view.Tickets[i].WaitlistHref != "" { // sold out on this date: its own waiting list
					view.Tickets[i].WaitlistHref = palaro.WaitlistDatePath(t.Code, slug)
				}
			}
		}
	}
	p.Nav, p.Image, p.OGType = views.NavDefaultBack, s.imageURL(series.ImageURL), "event"
	if q != nil {
		if queueSaleLive(ev, now) {
			view.SaleOpens = saleOpensText(q, now)
		}
	} else {
		s.addQuickBuy(ev, &view, slug)
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

// seriesDates loads the dates of an event with what is left of each ticket type on each, as
// dated events, in order of start; nil for an event without dates.
func (s *Server) seriesDates(ctx context.Context, ev *palaro.Event) ([]dated, error) {
	avail, err := s.services.Series.ListDateAvailability(ctx, ev.ID)
	if err != nil {
		return nil, err
	}
	out := make([]dated, 0, len(avail))
	for _, a := range avail {
		out = append(out, dated{Slug: a.Date.Slug, Label: a.Date.Name, Date: a.Date, Event: eventOnDate(ev, a)})
	}
	return out, nil
}

// eventOnDate is an event as on one date of its series: the date's start, end and venue; its
// status (a postponed or cancelled date's own, else the event's); each ticket type with its
// places there (a pass those of the type it is a pass of) and the date's own sales window where
// it sets one. A date that is not on as scheduled sells nothing: its types' sales ended when
// its status changed.
func eventOnDate(ev *palaro.Event, a palaro.DateAvailability) *palaro.Event {
	d := a.Date
	on := *ev
	on.StartsAt, on.EndsAt, on.Venue = d.StartsAt, d.EndsAt, d.VenueOf(ev)
	on.Sequence = ev.Sequence + d.Sequence // either's change raises the date's .ics SEQUENCE
	switch {
	case ev.Status == palaro.EventCancelled:
	case d.Status == palaro.DateCancelled:
		on.Status = palaro.EventCancelled
	case d.Status == palaro.DatePostponed:
		on.Status = palaro.EventPostponed
	}
	if d.UpdatedAt.After(on.UpdatedAt) {
		on.UpdatedAt = d.UpdatedAt
	}
	on.TicketTypes = make([]palaro.TicketType, len(ev.TicketTypes))
	for i, t := range ev.TicketTypes {
		if st, ok := a.Of(t.ID); ok {
			t.Capacity, t.Sold, t.Held = st.Capacity, st.Sold, st.Held
		}
		if !d.SalesStart.IsZero() {
			t.SalesStart = d.SalesStart
		}
		if !d.SalesEnd.IsZero() {
			t.SalesEnd = d.SalesEnd
		}
		if d.Status != palaro.DateScheduled {
			t.SalesEnd = d.UpdatedAt
		}
		on.TicketTypes[i] = t
	}
	return &on
}

// slug is the date's slug; "" for no date (an event of one date, or a pass).
func (d *dated) slug() string {
	if d == nil {
		return ""
	}
	return d.Slug
}

// ids are the date ids the seats of an order for d are taken on: none for no date.
func (d *dated) ids() []int64 {
	if d == nil {
		return nil
	}
	return []int64{d.Date.ID}
}

// id is the date's id, 0 for no date: the date a best-available hold is on (seat_holds.date_id).
func (d *dated) id() int64 {
	if d == nil {
		return 0
	}
	return d.Date.ID
}

// errPickDate says that a series' day ticket was asked for without one of its dates.
var errPickDate = palaro.Errorf(palaro.EINVALID, palaro.MsgDateRequired)

// findTicketOnDate loads the ticket type of the request's :code with its event, and for a day
// ticket of a series both as on the date the query's date names (ticketOnDate).
func (s *Server) findTicketOnDate(c *echo.Context) (*palaro.TicketType, *palaro.Event, *dated, error) {
	tt, ev, err := s.findTicketType(c)
	if err != nil {
		return nil, nil, nil, err
	}
	return s.ticketOnDate(c.Request().Context(), tt, ev, c.QueryParam("date"))
}

// ticketOnDate returns a series' day ticket type and its event as on the date slug names, with
// the date: its places, sales window and status there. A ticket of a single-date event, or a
// pass, stays as it is (no date); a day ticket without a known date is errPickDate.
func (s *Server) ticketOnDate(ctx context.Context, tt *palaro.TicketType, ev *palaro.Event, slug string) (*palaro.TicketType, *palaro.Event, *dated, error) {
	if tt.IsPass() {
		return tt, ev, nil, nil
	}
	dates, err := s.seriesDates(ctx, ev)
	if err != nil || len(dates) == 0 {
		return tt, ev, nil, err
	}
	i := slices.IndexFunc(dates, func(d dated) bool { return d.Slug == slug })
	if i < 0 {
		return tt, ev, nil, errPickDate
	}
	d := dates[i]
	k := slices.IndexFunc(d.Event.TicketTypes, func(t palaro.TicketType) bool { return t.ID == tt.ID })
	if k < 0 {
		return nil, nil, nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket type not found.")
	}
	return &d.Event.TicketTypes[k], d.Event, &d, nil
}

// pickDateFirst is where a buyer goes who opened the buy or seat page of a series' day ticket
// without one of its dates (err errPickDate): the dates on the series' page; "" otherwise.
func pickDateFirst(err error, ev *palaro.Event) string {
	if err != errPickDate || ev == nil {
		return ""
	}
	return eventPath(ev.Code, "") + "#dates"
}

// seriesCard makes a list's card of a series show one of its dates: the first coming one in
// [from, to) (to zero: no end), else the next; the card then has that date's day, time, venue,
// price and status, leads to its page and says how many more dates come. A card of an event
// without dates, or of a series whose dates are all over, stays as it is.
func (s *Server) seriesCard(ctx context.Context, ev *palaro.Event, card *views.EventCard, now, from, to time.Time) error {
	dates, err := s.seriesDates(ctx, ev)
	if err != nil {
		return err
	}
	coming := slices.DeleteFunc(dates, func(d dated) bool { return !now.Before(d.Event.EndsAt) })
	if len(coming) == 0 {
		return nil
	}
	pick := max(slices.IndexFunc(coming, func(d dated) bool {
		return d.Event.EndsAt.After(from) && (to.IsZero() || d.Event.StartsAt.Before(to))
	}), 0)
	d := coming[pick]
	on := s.eventCard(d.Event, now, nil)
	card.Href, card.Day, card.Month, card.When, card.Place = eventPath(ev.Code, d.Slug), on.Day, on.Month, on.When, on.Place
	card.Price, card.SoldOut, card.Status, card.Ongoing = on.Price, on.SoldOut, on.Status, on.Ongoing
	var notes []string
	if d.Label != "" {
		notes = append(notes, d.Label)
	}
	if more := len(coming) - 1; more > 0 {
		notes = append(notes, "+"+palaro.Plural(more, "more date", "more dates"))
	}
	card.Dates = strings.Join(notes, " · ")
	return nil
}
