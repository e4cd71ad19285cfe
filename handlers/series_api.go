package handlers

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// dateStockJSON is one ticket type's places on a date in the organizer API.
type dateStockJSON struct {
	TicketType  string `json:"ticketType"`
	Capacity    int    `json:"capacity"`
	OwnCapacity bool   `json:"ownCapacity"`
	Sold        int    `json:"sold"`
	Held        int    `json:"held"`
	Available   int    `json:"available"`
}

// dateJSON is a date of a series in the organizer API.
type dateJSON struct {
	Slug       string          `json:"slug"`
	Name       string          `json:"name"`
	StartsAt   time.Time       `json:"startsAt"`
	EndsAt     time.Time       `json:"endsAt"`
	Status     string          `json:"status"`
	SalesStart *time.Time      `json:"salesStart,omitempty"`
	SalesEnd   *time.Time      `json:"salesEnd,omitempty"`
	Venue      string          `json:"venue,omitempty"`
	Stock      []dateStockJSON `json:"stock,omitempty"`
}

// optionalTime is a zero time as nil, for an omitted JSON field.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// dateOut is a date (and its stock, when known) as the organizer API shows it.
func dateOut(d palaro.EventDate, stock []palaro.DateStock, types []palaro.TicketType) dateJSON {
	out := dateJSON{Slug: d.Slug, Name: d.Name, StartsAt: d.StartsAt, EndsAt: d.EndsAt, Status: d.Status,
		SalesStart: optionalTime(d.SalesStart), SalesEnd: optionalTime(d.SalesEnd)}
	if d.Venue != nil {
		out.Venue = d.Venue.Name
	}
	for _, st := range stock {
		i := slices.IndexFunc(types, func(t palaro.TicketType) bool { return t.ID == st.TicketTypeID })
		if i < 0 || types[i].IsPass() { // a pass's places are its day ticket's, listed there
			continue
		}
		out.Stock = append(out.Stock, dateStockJSON{TicketType: types[i].Code, Capacity: st.Capacity,
			OwnCapacity: st.OwnCapacity, Sold: st.Sold, Held: st.Held, Available: st.Available()})
	}
	return out
}

// apiOrgDates answers GET /v1/organizer/events/{code}/dates: the series' dates by start, each with
// its day tickets' places.
func (s *Server) apiOrgDates(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	avail, err := s.services.Series.ListDateAvailability(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	out := make([]dateJSON, 0, len(avail))
	for _, a := range avail {
		out = append(out, dateOut(a.Date, a.Stock, ev.TicketTypes))
	}
	return c.JSON(http.StatusOK, map[string]any{"dates": out})
}

// dateInJSON is one date to create in the organizer API.
type dateInJSON struct {
	Name       string         `json:"name"`
	StartsAt   time.Time      `json:"startsAt"`
	EndsAt     time.Time      `json:"endsAt"`
	Status     string         `json:"status"`
	SalesStart time.Time      `json:"salesStart"`
	SalesEnd   time.Time      `json:"salesEnd"`
	Capacities map[string]int `json:"capacities"`
}

// dateRuleJSON creates dates in bulk: every one of weekdays, from startTime to endTime (Manila),
// from the day from for weeks weeks.
type dateRuleJSON struct {
	Weekdays   []string       `json:"weekdays"`
	StartTime  string         `json:"startTime"`
	EndTime    string         `json:"endTime"`
	From       string         `json:"from"`
	Weeks      int            `json:"weeks"`
	Capacities map[string]int `json:"capacities"`
}

// createDatesBody is the body of POST /v1/organizer/events/{code}/dates: dates one by one, or a rule.
type createDatesBody struct {
	Dates []dateInJSON  `json:"dates"`
	Rule  *dateRuleJSON `json:"rule"`
}

// dateInputs turns the body into the dates to create; a field error names what is wrong.
func (b createDatesBody) dateInputs(ev *palaro.Event) ([]palaro.DateInput, error) {
	fields := map[string]string{}
	checkCapacities := func(prefix string, caps map[string]int) {
		for code := range caps {
			if !slices.ContainsFunc(ev.TicketTypes, func(t palaro.TicketType) bool { return t.Code == code && !t.IsPass() }) {
				fields[prefix+"capacities."+code] = "No day ticket of this event has this code."
			}
		}
	}
	var inputs []palaro.DateInput
	switch {
	case b.Rule != nil && len(b.Dates) > 0:
		fields["rule"] = "Send dates or a rule, not both."
	case b.Rule != nil:
		rule := palaro.DateRule{StartTime: b.Rule.StartTime, EndTime: b.Rule.EndTime, From: b.Rule.From, Weeks: b.Rule.Weeks}
		for _, w := range b.Rule.Weekdays {
			d, ok := palaro.ParseWeekday(w)
			if !ok {
				fields["rule."+palaro.FieldRuleWeekdays] = "Name days of the week, such as friday or fri."
			}
			rule.Weekdays = append(rule.Weekdays, d)
		}
		checkCapacities("rule.", b.Rule.Capacities)
		if len(fields) > 0 {
			break
		}
		dates, err := rule.Dates()
		if err != nil {
			return nil, err
		}
		for _, d := range dates {
			inputs = append(inputs, palaro.DateInput{StartsAt: d.StartsAt, EndsAt: d.EndsAt, Capacities: b.Rule.Capacities})
		}
	case len(b.Dates) == 0:
		fields["dates"] = "Send the dates to create, or a rule."
	default:
		for i, d := range b.Dates {
			checkCapacities("dates["+strconv.Itoa(i)+"].", d.Capacities)
			inputs = append(inputs, palaro.DateInput{Name: d.Name, StartsAt: d.StartsAt, EndsAt: d.EndsAt, Status: d.Status,
				SalesStart: d.SalesStart, SalesEnd: d.SalesEnd, Capacities: d.Capacities})
		}
	}
	if len(fields) > 0 {
		return nil, &palaro.Error{Code: palaro.EINVALID, Message: "Please check the dates to create.", Fields: fields}
	}
	return inputs, nil
}

// apiOrgCreateDates answers POST /v1/organizer/events/{code}/dates: 201 with the dates created.
func (s *Server) apiOrgCreateDates(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var body createDatesBody
	if err := decodeJSONStrict(c, &body); err != nil {
		return err
	}
	inputs, err := body.dateInputs(ev)
	if err != nil {
		return apiError(err)
	}
	created, err := s.services.Series.CreateDates(c.Request().Context(), ev.ID, inputs, s.Now())
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	out := make([]dateJSON, 0, len(created))
	for _, d := range created {
		out = append(out, dateOut(d, nil, ev.TicketTypes))
	}
	return c.JSON(http.StatusCreated, map[string]any{"dates": out})
}

// datePatchJSON is the body of PATCH /v1/organizer/events/{code}/dates/{date}: what to change;
// a member left out keeps the date's value. venue sets the date's own venue, eventVenue true
// gives it back the event's; capacities set the date's own capacity per day ticket code.
type datePatchJSON struct {
	Name       *string            `json:"name"`
	StartsAt   *time.Time         `json:"startsAt"`
	EndsAt     *time.Time         `json:"endsAt"`
	Status     *string            `json:"status"`
	SalesStart *time.Time         `json:"salesStart"`
	SalesEnd   *time.Time         `json:"salesEnd"`
	Venue      *palaro.VenueInput `json:"venue"`
	EventVenue bool               `json:"eventVenue"`
	Capacities map[string]int     `json:"capacities"`
}

// apply returns the date's input with the body's changes.
func (b datePatchJSON) apply(d *palaro.EventDate) palaro.DateInput {
	in := d.InputOf()
	set := func(dst *time.Time, src *time.Time) {
		if src != nil {
			*dst = *src
		}
	}
	set(&in.StartsAt, b.StartsAt)
	set(&in.EndsAt, b.EndsAt)
	set(&in.SalesStart, b.SalesStart)
	set(&in.SalesEnd, b.SalesEnd)
	if b.Name != nil {
		in.Name = *b.Name
	}
	if b.Status != nil {
		in.Status = *b.Status
	}
	switch {
	case b.Venue != nil:
		in.Venue = b.Venue
	case b.EventVenue:
		in.VenueID = 0
	}
	in.Capacities = b.Capacities
	return in
}

// orgDate returns the event's date named by the route's :date (ENOTFOUND when it has none).
func (s *Server) orgDate(c *echo.Context, ev *palaro.Event) (*palaro.EventDate, error) {
	return s.services.Series.FindEventDate(c.Request().Context(), ev.ID, c.Param("date"))
}

// apiOrgUpdateDate answers PATCH /v1/organizer/events/{code}/dates/{date}: the date as changed.
// A change of time, venue or status e-mails the date's ticket and pass holders (queued with it).
func (s *Server) apiOrgUpdateDate(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var body datePatchJSON
	if err := decodeJSONStrict(c, &body); err != nil {
		return err
	}
	d, err := s.orgDate(c, ev)
	if err != nil {
		return err
	}
	saved, err := s.services.Series.UpdateDate(c.Request().Context(), ev.ID, d.Slug, body.apply(d), caller.Actor(), s.Now())
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	return c.JSON(http.StatusOK, dateOut(*saved, nil, ev.TicketTypes))
}

// apiOrgDeleteDate answers DELETE /v1/organizer/events/{code}/dates/{date}: 204, or 409 when
// tickets were sold for the date (cancel it instead).
func (s *Server) apiOrgDeleteDate(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	if err := s.services.Series.DeleteDate(c.Request().Context(), ev.ID, c.Param("date"), caller.Actor(), s.Now()); err != nil {
		return err
	}
	s.eventsChanged()
	return c.NoContent(http.StatusNoContent)
}
