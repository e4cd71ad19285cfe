package handlers

import (
	"cmp"
	"context"
	"net/http"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// calendarPage renders the calendar island for a month (query month=YYYY-MM, the current month by
// default), with the month's events as a plain list for visitors without JavaScript.
func (s *Server) calendarPage(c *echo.Context) error {
	now := s.Now().In(palaro.Manila)
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, palaro.Manila)
	if m, err := time.ParseInLocation("2006-01", c.QueryParam("month"), palaro.Manila); err == nil {
		month = m
	}
	events, err := s.calendarMonth(c, month)
	if err != nil {
		return err
	}
	p := s.page(c, "Event calendar · Palaro", "A month calendar of eSports tournaments, concerts and conventions in the Philippines.")
	p.Islands = []string{"calendar"}
	if c.QueryParam("month") != "" {
		p.Path = "/calendar?month=" + month.Format("2006-01")
	}
	props := views.CalendarProps{Month: month.Format("2006-01"), Today: now.Format("2006-01-02"), Events: events}
	return render(c, http.StatusOK, views.CalendarPage(p, props, calendarFallback(month, events)))
}

// calendarFallback groups the events that start in month by day, with links to the months around it.
func calendarFallback(month time.Time, events []views.CalendarEvent) views.CalendarFallback {
	prev, next := month.AddDate(0, -1, 0), month.AddDate(0, 1, 0)
	f := views.CalendarFallback{
		MonthLabel: month.Format("January 2006"),
		PrevHref:   "/calendar?month=" + prev.Format("2006-01"), PrevLabel: prev.Format("January 2006"),
		NextHref: "/calendar?month=" + next.Format("2006-01"), NextLabel: next.Format("January 2006"),
	}
	for _, ev := range events {
		start, err := time.Parse(time.RFC3339, ev.Start)
		if err != nil || start.Month() != month.Month() || start.Year() != month.Year() {
			continue
		}
		date := start.Format("2006-01-02")
		if n := len(f.Days); n == 0 || f.Days[n-1].Date != date {
			f.Days = append(f.Days, views.CalendarDay{Label: start.Format("Monday, 2 January"), Date: date})
		}
		f.Days[len(f.Days)-1].Events = append(f.Days[len(f.Days)-1].Events, ev)
	}
	return f
}

// calendarEvents answers the events of one month (query month=YYYY-MM) as JSON.
func (s *Server) calendarEvents(c *echo.Context) error {
	month, err := time.ParseInLocation("2006-01", c.QueryParam("month"), palaro.Manila)
	if err != nil {
		return palaro.Errorf(palaro.EINVALID, "Invalid month; use YYYY-MM.")
	}
	events, err := s.calendarMonth(c, month)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"month": month.Format("2006-01"), "events": events})
}

// calendarMonth lists the events of the six-week grid around month (weeks start Sunday).
func (s *Server) calendarMonth(c *echo.Context, month time.Time) ([]views.CalendarEvent, error) {
	from := month.AddDate(0, 0, -int(month.Weekday()))
	to := from.AddDate(0, 0, 42)
	events, err := s.services.Events.ListEventsBetween(c.Request().Context(), from, to)
	if err != nil {
		return nil, err
	}
	out := make([]views.CalendarEvent, 0, len(events))
	err = s.eachOccasion(c.Request().Context(), events, from, to, func(ev *palaro.Event, name, slug string) {
		out = append(out, views.CalendarEvent{
			Code:  ev.Code,
			Name:  name,
			Start: ev.StartsAt.In(palaro.Manila).Format(time.RFC3339),
			End:   ev.EndsAt.In(palaro.Manila).Format(time.RFC3339),
			Time:  ev.StartsAt.In(palaro.Manila).Format("3:04 PM"),
			Place: ev.Venue.Name + ", " + ev.Venue.City,
			URL:   eventPath(ev.Code, slug),
			// a word, not only a colour: the grid's chips and the lists say it
			Status: statusLabel(ev.Status),
		})
	})
	return out, err
}

// eachOccasion calls f for each event of events, or, for a series, for each of its dates that
// overlaps [from, to) (the event as on that date, named with the date's name, and its slug).
func (s *Server) eachOccasion(ctx context.Context, events []*palaro.Event, from, to time.Time, f func(ev *palaro.Event, name, slug string)) error {
	for _, ev := range events {
		dates, err := s.seriesDates(ctx, ev)
		if err != nil {
			return err
		}
		if len(dates) == 0 {
			f(ev, ev.Name, "")
		}
		for _, d := range dates {
			if d.Event.StartsAt.Before(to) && d.Event.EndsAt.After(from) {
				name := ev.Name
				if d.Label != "" {
					name = d.Label + " · " + ev.Name
				}
				f(d.Event, name, d.Slug)
			}
		}
	}
	return nil
}

// eventICS answers an RFC 5545 calendar file for one event (CRLF line endings, times in UTC).
func (s *Server) eventICS(c *echo.Context) error {
	ev, err := s.services.Events.FindEventByCode(c.Request().Context(), c.Param("code"))
	if err != nil {
		return err
	}
	cal := newICS()
	s.addICSEvent(cal, ev, "")
	return serveICS(c, cal, ev.Code+".ics")
}

// serveICS answers a calendar as a file to download with the given name (CRLF line endings).
func serveICS(c *echo.Context, cal *ics.Calendar, name string) error {
	c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", []byte(cal.Serialize(ics.WithNewLineWindows)))
}

// calendarICS answers an RFC 5545 calendar file of the public events of one month (query
// month=YYYY-MM, the current month by default), cancelled and postponed ones with their status.
func (s *Server) calendarICS(c *echo.Context) error {
	now := s.Now().In(palaro.Manila)
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, palaro.Manila)
	if q := c.QueryParam("month"); q != "" {
		m, err := time.ParseInLocation("2006-01", q, palaro.Manila)
		if err != nil {
			return palaro.Errorf(palaro.EINVALID, "Invalid month; use YYYY-MM.")
		}
		month = m
	}
	events, err := s.services.Events.ListEventsBetween(c.Request().Context(), month, month.AddDate(0, 1, 0))
	if err != nil {
		return err
	}
	cal := newICS()
	err = s.eachOccasion(c.Request().Context(), events, month, month.AddDate(0, 1, 0), func(ev *palaro.Event, _, slug string) {
		s.addICSEvent(cal, ev, slug)
	})
	if err != nil {
		return err
	}
	return serveICS(c, cal, "palaro-"+month.Format("2006-01")+".ics")
}

// newICS returns an empty calendar of Palaro's events.
func newICS() *ics.Calendar {
	cal := ics.NewCalendar()
	cal.SetMethod(ics.MethodPublish)
	cal.SetProductId("-//Palaro//Events//EN")
	return cal
}

// addICSEvent adds an event to a calendar with its state (CANCELLED, TENTATIVE while postponed,
// else CONFIRMED) and its SEQUENCE, which grows with each change its holders are told about, so a
// calendar that imported it before takes the change. With a date's slug, ev is the event as on
// that date of its series: the date is a calendar entry of its own (UID {code}-{slug}@palaro.ph)
// with the date's page as its URL.
func (s *Server) addICSEvent(cal *ics.Calendar, ev *palaro.Event, slug string) {
	uid, url := ev.Code, s.config.BaseURL+eventPath(ev.Code, slug)
	if slug != "" {
		uid += "-" + slug
	}
	e := cal.AddEvent(uid + "@palaro.ph")
	e.SetDtStampTime(ev.UpdatedAt.UTC())
	e.SetSequence(ev.Sequence)
	e.SetStartAt(ev.StartsAt.UTC())
	e.SetEndAt(ev.EndsAt.UTC())
	summary := ev.Name
	if label := statusLabel(ev.Status); label != "" && ev.Status != palaro.EventRescheduled {
		summary = label + ": " + ev.Name
	}
	e.SetSummary(summary)
	e.SetDescription(strings.TrimSpace(ev.Summary + "\n\n" + url))
	e.SetLocation(ev.Venue.Name + ", " + ev.Venue.Address + ", " + ev.Venue.City)
	e.SetURL(url)
	e.SetOrganizer("mailto:"+cmp.Or(ev.Organizer.Email, s.config.SupportEmail), ics.WithCN(ev.Organizer.Name))
	switch ev.Status {
	case palaro.EventCancelled:
		e.SetStatus(ics.ObjectStatusCancelled)
	case palaro.EventPostponed:
		e.SetStatus(ics.ObjectStatusTentative)
	default:
		e.SetStatus(ics.ObjectStatusConfirmed)
	}
}
