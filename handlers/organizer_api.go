package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// orgEventJSON is an event as the organizer API answers it: the fields it takes, plus its
// organization, public URL and ticket types.
type orgEventJSON struct {
	palaro.EventInput
	Organization string              `json:"organization"`
	URL          string              `json:"url"`
	TicketTypes  []orgTicketTypeJSON `json:"ticketTypes"`
	// Queue is the queue in front of the sale, null when it has none.
	Queue *queueJSON `json:"queue"`
}

// orgTicketTypeJSON is a ticket type as the organizer API answers it.
type orgTicketTypeJSON struct {
	Code           string       `json:"code"`
	Name           string       `json:"name"`
	Description    string       `json:"description"`
	Price          palaro.Money `json:"price"`
	Discount       float64      `json:"discount"`
	Capacity       int          `json:"capacity"`
	MaxPurchasable int          `json:"maxPurchasable"`
	SalesStart     *time.Time   `json:"salesStart"`
	SalesEnd       *time.Time   `json:"salesEnd"`
	PaymentTypes   []string     `json:"paymentTypes"`
	Disclaimer     string       `json:"disclaimer"`
	Seated         bool         `json:"seated"`
	WithSurvey     bool         `json:"withSurvey"`
	ShowPromoField bool         `json:"showPromoField"`
	// SeniorPWDDiscount is true for admission the senior citizen and PWD discount applies to.
	SeniorPWDDiscount bool `json:"seniorPwdDiscount"`
	// PassKind is "every" or "count" for a season pass of a series, "" for a day ticket.
	PassKind string `json:"passKind"`
	// PassDates is how many dates a "count" pass is valid for (0 otherwise).
	PassDates int `json:"passDates"`
	// PassOf is the code of the day ticket whose places a pass takes on each date ("" for a day ticket).
	PassOf string `json:"passOf"`
	Sold   int    `json:"sold"`
	Held   int    `json:"held"`
}

// orgEventSummaryJSON is one event of the organizer API's list.
type orgEventSummaryJSON struct {
	Code         string        `json:"code"`
	Name         string        `json:"name"`
	Status       string        `json:"status"`
	StartsAt     time.Time     `json:"startsAt"`
	EndsAt       time.Time     `json:"endsAt"`
	Organization string        `json:"organization"`
	Sold         int           `json:"sold"`
	Capacity     int           `json:"capacity"`
	Revenue      *palaro.Money `json:"revenue,omitempty"`
}

// orgOrderJSON is an order as the organizer API answers it: the order as webhooks show it too,
// and its refunds.
type orgOrderJSON struct {
	palaro.OrderView
	// Refunds are the order's refunds, newest first (refund_api.go).
	Refunds []orgRefundJSON `json:"refunds"`
}

func manilaPtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	m := t.In(palaro.Manila)
	return &m
}

// orgTicketTypeOut is a ticket type as the API shows it; totals (SeriesTotals, nil for a
// single-date event) give a series' day ticket its sold and held over its dates, as the console
// counts them (its own counters stay 0), while its capacity stays the per-date setting a PATCH sends.
func orgTicketTypeOut(tt palaro.TicketType, totals map[int64]palaro.DateTypeSales) orgTicketTypeJSON {
	if sum, ok := totals[tt.ID]; ok {
		tt.Sold, tt.Held = sum.Sold, sum.Held
	}
	return orgTicketTypeJSON{Code: tt.Code, Name: tt.Name, Description: tt.Description, Price: tt.Price, Discount: tt.Discount,
		Capacity: tt.Capacity, MaxPurchasable: tt.MaxPurchasable, SalesStart: manilaPtr(tt.SalesStart), SalesEnd: manilaPtr(tt.SalesEnd),
		PaymentTypes: tt.PaymentTypes, Disclaimer: tt.Disclaimer, Seated: tt.Seated, WithSurvey: tt.WithSurvey,
		ShowPromoField: tt.ShowPromoField, SeniorPWDDiscount: tt.SeniorPWDDiscount, PassKind: tt.PassKind, PassDates: tt.PassDates,
		PassOf: tt.PassOfCode, Sold: tt.Sold, Held: tt.Held}
}

func (s *Server) eventJSON(c *echo.Context, ev *palaro.Event) (orgEventJSON, error) {
	out := orgEventJSON{EventInput: palaro.EventInputOf(ev), Organization: ev.Organizer.Name,
		URL: s.config.BaseURL + "/e/" + ev.Code, TicketTypes: []orgTicketTypeJSON{}}
	queue, err := s.queueOut(c.Request().Context(), ev)
	if err != nil {
		return out, err
	}
	out.Queue = queue
	totals, err := s.seriesTotals(c, ev.ID)
	for _, tt := range ev.TicketTypes {
		out.TicketTypes = append(out.TicketTypes, orgTicketTypeOut(tt, totals))
	}
	return out, err
}

// seriesTotals sums a series' day tickets over its dates (palaro.SeriesTotals), nil for a
// single-date event.
func (s *Server) seriesTotals(c *echo.Context, eventID int64) (map[int64]palaro.DateTypeSales, error) {
	sales, err := s.services.Series.DateSales(c.Request().Context(), eventID)
	if err != nil || len(sales) == 0 {
		return nil, err
	}
	return palaro.SeriesTotals(sales), nil
}

// eventOut answers with the event as the API shows it.
func (s *Server) eventOut(c *echo.Context, status int, ev *palaro.Event) error {
	out, err := s.eventJSON(c, ev)
	if err != nil {
		return err
	}
	return c.JSON(status, out)
}

// ticketTypeOut answers with the ticket type of event eventID as the API shows it.
func (s *Server) ticketTypeOut(c *echo.Context, status int, eventID int64, tt *palaro.TicketType) error {
	totals, err := s.seriesTotals(c, eventID)
	if err != nil {
		return err
	}
	return c.JSON(status, orgTicketTypeOut(*tt, totals))
}

// apiError names the fields of a validation error in its message, for API callers.
// apiOrg returns the organization an API body names with organizationId (0: the caller's only one
// where it may take action): EINVALID when the caller has several and named none, ENOTFOUND when
// it may not take the action in the one named.
func apiOrg(caller *palaro.Caller, orgID int64, action string) (int64, error) {
	if orgID == 0 {
		orgs := caller.OrganizationIDs(action)
		if len(orgs) > 1 {
			return 0, palaro.Errorf(palaro.EINVALID, "organizationId: you belong to several organizations; name one.")
		}
		return orgs[0], nil
	} else if !caller.Can(orgID, action) {
		return 0, palaro.Errorf(palaro.ENOTFOUND, "Organization not found.")
	}
	return orgID, nil
}

func apiError(err error) error {
	var e *palaro.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return err
	}
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + e.Fields[k]
	}
	return &palaro.Error{Code: e.Code, Message: strings.Join(parts, " "), Fields: e.Fields}
}

func (s *Server) apiOrgEvents(c *echo.Context, caller *palaro.Caller) error {
	events, err := s.services.Organizers.ListEvents(c.Request().Context(), caller.OrganizationIDs(palaro.ActionViewEvents))
	if err != nil {
		return err
	}
	out := make([]orgEventSummaryJSON, 0, len(events))
	for _, e := range events {
		row := orgEventSummaryJSON{Code: e.Code, Name: e.Name, Status: palaro.OrganizerStatus(e.Status),
			StartsAt: e.StartsAt.In(palaro.Manila), EndsAt: e.EndsAt.In(palaro.Manila), Organization: e.OrganizationName,
			Sold: e.Sold, Capacity: e.Capacity}
		if caller.Can(e.Organizer.ID, palaro.ActionOrders) {
			rev := e.Revenue
			row.Revenue = &rev
		}
		out = append(out, row)
	}
	return c.JSON(http.StatusOK, map[string]any{"events": out})
}

func (s *Server) apiOrgCreateEvent(c *echo.Context, caller *palaro.Caller) error {
	var body struct {
		palaro.EventInput
		// Organization is the id of the organization, needed only by callers of several.
		Organization int64 `json:"organizationId"`
	}
	if err := decodeJSONStrict(c, &body); err != nil {
		return err
	}
	if strings.TrimSpace(body.Code) == "" {
		body.Code = palaro.SuggestEventCode(body.Name)
	}
	orgID, err := apiOrg(caller, body.Organization, palaro.ActionManageEvents)
	if err != nil {
		return err
	}
	ev, err := s.services.Organizers.CreateEvent(c.Request().Context(), orgID, caller.Actor(), body.EventInput)
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	return s.eventOut(c, http.StatusCreated, ev)
}

func (s *Server) apiOrgEvent(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.eventOut(c, http.StatusOK, ev)
}

func (s *Server) apiOrgUpdateEvent(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	body := struct {
		palaro.EventInput
		Queue json.RawMessage `json:"queue"`
	}{EventInput: palaro.EventInputOf(ev)}
	if err := decodeJSONStrict(c, &body); err != nil {
		return err
	}
	queue, queueSet, err := queueSettingsJSON(body.Queue)
	if err == nil && queue != nil {
		err = queue.Validate(ev, s.services.Queues.Settings(ev.ID), s.Now()) // before anything is saved
	}
	if err != nil {
		return apiError(err)
	}
	saved, err := s.services.Organizers.UpdateEvent(c.Request().Context(), ev.ID, caller.Actor(), body.EventInput)
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	if queueSet {
		if err := s.configureQueue(c, caller, saved, queue); err != nil {
			return apiError(err)
		}
	}
	return s.eventOut(c, http.StatusOK, saved)
}

func (s *Server) apiOrgCreateTicketType(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in palaro.TicketTypeInput
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	tt, err := s.services.Organizers.CreateTicketType(c.Request().Context(), ev.ID, caller.Actor(), in)
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	return s.ticketTypeOut(c, http.StatusCreated, ev.ID, tt)
}

func (s *Server) apiOrgUpdateTicketType(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	cur, err := orgTicketType(c, ev)
	if err != nil {
		return err
	}
	in := palaro.TicketTypeInputOf(*cur)
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	tt, err := s.services.Organizers.UpdateTicketType(c.Request().Context(), ev.ID, cur.Code, caller.Actor(), in)
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	return s.ticketTypeOut(c, http.StatusOK, ev.ID, tt)
}

func (s *Server) apiOrgOrders(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	date, err := s.orgDateFilter(c, ev)
	if err != nil {
		return apiError(err)
	}
	orders, err := s.services.Organizers.SearchOrders(c.Request().Context(), palaro.OrderSearch{EventID: ev.ID, Query: c.QueryParam("q"),
		DateID: dateID(date)})
	if err != nil {
		return err
	}
	ids := make([]int64, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
	}
	refunds, err := s.services.Refunds.OrderRefunds(c.Request().Context(), ids...)
	if err != nil {
		return err
	}
	out := make([]orgOrderJSON, 0, len(orders))
	for _, o := range orders {
		row := orgOrderOf(o)
		applyRefunds(&row, refunds[o.ID])
		out = append(out, row)
	}
	return c.JSON(http.StatusOK, map[string]any{"orders": out})
}

// orgOrderOf is an order as the organizer API answers it, its refunds aside (applyRefunds).
func orgOrderOf(o *palaro.Order) orgOrderJSON {
	return orgOrderJSON{OrderView: palaro.NewOrderView(o)}
}
