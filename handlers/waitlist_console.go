package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// orgWaitlistPage lists the event's waiting lists with their order and offers.
func (s *Server) orgWaitlistPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.renderOrgWaitlist(c, caller, ev, http.StatusOK, "", "")
}

// waitlistNotices are the console's messages after a waiting-list form.
var waitlistNotices = map[string]string{
	"offer-time": "Saved. New offers hold their tickets this long; offers already made keep their time.",
	"offered":    "Offered. The e-mail with the link is on its way.",
}

func (s *Server) renderOrgWaitlist(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, status int, problem, hours string) error {
	board, err := s.services.Waitlist.Board(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	base := "/organizer/events/" + ev.Code
	v := views.OrgWaitlistView{Frame: orgFrame(c, caller, "Waiting list · "+ev.Name), Error: problem,
		OfferAction: base + "/waitlist/offer-time", OfferHours: strconv.Itoa(int(board.OfferTime / time.Hour))}
	if hours != "" {
		v.OfferHours = hours
	}
	v.Frame.Back = views.Link{Label: ev.Name, Href: base}
	if n := waitlistNotices[c.QueryParam("notice")]; n != "" && problem == "" {
		v.Frame.Notice = n
	}
	avail, err := s.services.Series.ListDateAvailability(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	v.Lists = orgWaitlistTypes(ev, board, avail, base, s.Now())
	return render(c, status, views.OrgWaitlist(s.orgPage(c, "Waiting list · "+ev.Name), v))
}

// orgWaitlistTypes groups a board's entries per ticket type, in the event's order, and for a
// series' day ticket per date (avail: the series' dates with their places), in order of date.
func orgWaitlistTypes(ev *palaro.Event, board *palaro.WaitlistBoard, avail []palaro.DateAvailability, base string, now time.Time) []views.OrgWaitlistType {
	var lists []views.OrgWaitlistType
	type list struct {
		tt   palaro.TicketType
		date *palaro.DateAvailability
	}
	var all []list
	for _, tt := range ev.TicketTypes {
		all = append(all, list{tt: tt})
		for i := range avail {
			all = append(all, list{tt: tt, date: &avail[i]})
		}
	}
	for _, one := range all {
		tt, dateID := one.tt, int64(0)
		l := views.OrgWaitlistType{Name: tt.Name}
		sold, held, capacity := tt.Sold, tt.Held, tt.Capacity
		if one.date != nil {
			dateID, l.Name = one.date.Date.ID, tt.Name+" · "+palaro.DateSlugLabel(one.date.Date.Slug)
			st, _ := one.date.Of(tt.ID)
			sold, held, capacity = st.Sold, st.Held, st.Capacity
		}
		waiting, open := 0, 0
		for _, e := range board.Entries {
			if e.TicketTypeID != tt.ID || e.DateID != dateID {
				continue
			}
			row := views.OrgWaitlistEntry{Email: e.Email, Quantity: palaro.Tickets(e.Quantity), Status: e.Status,
				Joined: e.JoinedAt.In(palaro.Manila).Format(offerTimeFormat), MaxQuantity: e.Quantity}
			if e.Position > 0 {
				row.Place = "#" + strconv.Itoa(e.Position)
				waiting++
			}
			if e.Status != palaro.WaitlistOffered {
				row.OfferAction = fmt.Sprintf("%s/waitlist/%d/offer", base, e.ID)
				row.QuantityID = fmt.Sprintf("offer-quantity-%d", e.ID)
				if tt.Seated {
					row.SeatsID = fmt.Sprintf("offer-seats-%d", e.ID)
				}
			}
			for _, o := range e.Offers {
				row.Offers = append(row.Offers, orgOfferRow(o, base, now))
				if o.Status == palaro.OfferOpen {
					open++
				}
			}
			l.Entries = append(l.Entries, row)
		}
		if len(l.Entries) == 0 {
			continue
		}
		l.Summary = fmt.Sprintf("%d waiting · %d open offers · %d sold, %d held of %d", waiting, open, sold, held, capacity)
		lists = append(lists, l)
	}
	return lists
}

func orgOfferRow(o palaro.WaitlistOffer, base string, now time.Time) views.OrgWaitlistOffer {
	at := func(t time.Time) string { return t.In(palaro.Manila).Format(offerTimeFormat) }
	how := "Offered"
	if o.ByHand {
		how = "Offered by hand"
	}
	r := views.OrgWaitlistOffer{}
	what := palaro.Tickets(o.Quantity)
	if len(o.Seats) > 0 {
		what += " (seats " + strings.Join(o.Seats, ", ") + ")"
	}
	switch {
	case o.Status == palaro.OfferClaimed:
		r.Text = fmt.Sprintf("%s %s on %s · claimed %s", how, what, at(o.OfferedAt), at(o.ClosedAt))
		r.Order = base + "/orders/" + o.OrderPublicID
	case o.Status == palaro.OfferOpen && o.Claimable(now):
		r.Text = fmt.Sprintf("%s %s on %s · open until %s", how, what, at(o.OfferedAt), at(o.ExpiresAt))
	case o.Declined:
		r.Text = fmt.Sprintf("%s %s on %s · passed on by them %s", how, what, at(o.OfferedAt), at(o.ClosedAt))
	default:
		r.Text = fmt.Sprintf("%s %s on %s · expired %s", how, what, at(o.OfferedAt), at(o.ExpiresAt))
	}
	return r
}

// orgWaitlistOfferTime saves the event's offer time (hours).
func (s *Server) orgWaitlistOfferTime(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	raw := strings.TrimSpace(c.FormValue("offerHours"))
	hours, convErr := strconv.Atoi(raw)
	if convErr != nil {
		hours = 0 // refused with the range
	}
	if err := s.services.Waitlist.SetOfferTime(c.Request().Context(), ev.ID, hours, caller.Actor()); err != nil {
		if palaro.ErrorCode(err) != palaro.EINVALID {
			return err
		}
		return s.renderOrgWaitlist(c, caller, ev, http.StatusUnprocessableEntity, palaro.ErrorMessage(err), raw)
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/waitlist?notice=offer-time")
}

// orgWaitlistOffer offers tickets by hand to one entry.
func (s *Server) orgWaitlistOffer(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	entry, _ := strconv.ParseInt(c.Param("entry"), 10, 64)
	quantity, _ := strconv.Atoi(strings.TrimSpace(c.FormValue("quantity")))
	seats := strings.Fields(strings.ReplaceAll(c.FormValue("seats"), ",", " "))
	if _, err := s.services.Waitlist.OfferByHand(c.Request().Context(), ev.ID, entry, quantity, seats, caller.Actor(), s.Now()); err != nil {
		switch palaro.ErrorCode(err) {
		case palaro.EINVALID:
			return s.renderOrgWaitlist(c, caller, ev, http.StatusUnprocessableEntity, palaro.ErrorMessage(err), "")
		case palaro.ECONFLICT:
			return s.renderOrgWaitlist(c, caller, ev, http.StatusConflict, palaro.ErrorMessage(err), "")
		}
		return err
	}
	s.eventsChanged() // the tickets held for the offer are no longer on sale
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/waitlist?notice=offered")
}

// waitlistJSON is an event's waiting lists in the organizer API.
type waitlistJSON struct {
	OfferHours int                 `json:"offerHours"`
	Entries    []waitlistEntryJSON `json:"entries"`
}

type waitlistEntryJSON struct {
	ID         int64               `json:"id"`
	TicketType string              `json:"ticketType"`
	Date       string              `json:"date,omitempty"`
	Email      string              `json:"email"`
	Quantity   int                 `json:"quantity"`
	Status     string              `json:"status"`
	Position   *int                `json:"position"`
	JoinedAt   time.Time           `json:"joinedAt"`
	Offers     []waitlistOfferJSON `json:"offers"`
}

type waitlistOfferJSON struct {
	ID        int64     `json:"id"`
	Quantity  int       `json:"quantity"`
	Status    string    `json:"status"`
	ByHand    bool      `json:"byHand"`
	OfferedAt time.Time `json:"offeredAt"`
	ExpiresAt time.Time `json:"expiresAt"`
	ClosedAt  time.Time `json:"closedAt,omitzero"`
	Order     string    `json:"order,omitempty"`
	Seats     []string  `json:"seats,omitempty"`
	Declined  bool      `json:"declined,omitempty"`
}

func offerOut(o palaro.WaitlistOffer) waitlistOfferJSON {
	return waitlistOfferJSON{ID: o.ID, Quantity: o.Quantity, Status: o.Status, ByHand: o.ByHand, OfferedAt: o.OfferedAt,
		ExpiresAt: o.ExpiresAt, ClosedAt: o.ClosedAt, Order: o.OrderPublicID, Seats: o.Seats, Declined: o.Declined}
}

// apiOrgWaitlist answers the event's waiting lists: entries in list order with their offers.
func (s *Server) apiOrgWaitlist(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	board, err := s.services.Waitlist.Board(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	out := waitlistJSON{OfferHours: int(board.OfferTime / time.Hour), Entries: []waitlistEntryJSON{}}
	for _, e := range board.Entries {
		j := waitlistEntryJSON{ID: e.ID, TicketType: e.TicketTypeCode, Date: e.DateSlug, Email: e.Email, Quantity: e.Quantity, Status: e.Status,
			JoinedAt: e.JoinedAt, Offers: []waitlistOfferJSON{}}
		if e.Position > 0 {
			j.Position = &e.Position
		}
		for _, o := range e.Offers {
			j.Offers = append(j.Offers, offerOut(o))
		}
		out.Entries = append(out.Entries, j)
	}
	return c.JSON(http.StatusOK, out)
}

// apiOrgWaitlistSettings sets the event's offer time: {"offerHours": N}.
func (s *Server) apiOrgWaitlistSettings(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in struct {
		OfferHours *int `json:"offerHours"`
	}
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	if in.OfferHours == nil {
		return &palaro.Error{Code: palaro.EINVALID, Message: "offerHours: required.", Fields: map[string]string{"offerHours": "required."}}
	}
	if err := s.services.Waitlist.SetOfferTime(c.Request().Context(), ev.ID, *in.OfferHours, caller.Actor()); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int{"offerHours": *in.OfferHours})
}

// apiOrgWaitlistOffer offers tickets by hand to an entry: {"quantity": N} or, for a seated type,
// optionally {"seats": ["A1", …]}; 201 with the offer.
func (s *Server) apiOrgWaitlistOffer(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in struct {
		Quantity int      `json:"quantity"`
		Seats    []string `json:"seats"`
	}
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	entry, err := strconv.ParseInt(c.Param("entry"), 10, 64)
	if err != nil {
		return palaro.Errorf(palaro.ENOTFOUND, "No such entry on the waiting list.")
	}
	o, err := s.services.Waitlist.OfferByHand(c.Request().Context(), ev.ID, entry, in.Quantity, in.Seats, caller.Actor(), s.Now())
	if err != nil {
		return err
	}
	s.eventsChanged()
	return c.JSON(http.StatusCreated, offerOut(*o))
}
