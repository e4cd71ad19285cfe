package handlers

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// sectionSeatsJSON is one section of a stadium's seat map on a series date (Date its slug, ""
// for an event of one date): its rows (one character a seat, 'a' available, 'h' held, 's' sold)
// and the seat numbers its aisles follow.
type sectionSeatsJSON struct {
	Code    string              `json:"code"`
	Date    string              `json:"date,omitempty"`
	Section string              `json:"section"`
	Aisles  []int               `json:"aisles"`
	Rows    []views.SeatRowJSON `json:"rows"`
}

// sectionSeats answers GET /v1/seats/{code}/sections/{section}?date=: one section of a seated
// ticket type's map, on the series date the query names (a series' day ticket needs one),
// fetched by the stadium seat page when the buyer opens it.
func (s *Server) sectionSeats(c *echo.Context) error {
	tt, ev, d, err := s.findTicketOnDate(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sc, err := s.seatScopeOf(ctx, tt, ev, d) // a pass's: its day type's on all its dates
	if err != nil {
		return err
	}
	plan, err := s.services.Seats.SeatPlan(ctx, sc.typeID)
	if err != nil {
		return err
	}
	name := strings.ToUpper(c.Param("section"))
	sec, ok := plan.Section(name)
	if !ok {
		return palaro.Errorf(palaro.ENOTFOUND, "This seat map has no section %s.", name)
	}
	rows, err := s.services.Seats.SectionSeats(ctx, sc.typeID, sc.dates, name)
	if err != nil {
		return err
	}
	out := sectionSeatsJSON{Code: tt.Code, Date: d.slug(), Section: name, Aisles: append([]int{}, sec.AisleAfter...), Rows: seatRowsJSON(rows)}
	c.Response().Header().Set("Cache-Control", "no-cache") // seats change with every sale
	return c.JSON(http.StatusOK, out)
}

// seatRowsJSON writes seat rows one character a seat: 'a'vailable, 'h'eld, 's'old.
func seatRowsJSON(rows []palaro.SeatRow) []views.SeatRowJSON {
	out := make([]views.SeatRowJSON, 0, len(rows))
	for _, r := range rows {
		var b strings.Builder
		for _, seat := range r.Seats {
			b.WriteByte(seat.Status[0])
		}
		out = append(out, views.SeatRowJSON{Row: r.Row, Status: b.String()})
	}
	return out
}

// bestSeatsBody is the body of POST /v1/seats/{code}/best; Date is the slug of the series date
// the seats are for (a series' day ticket needs one; "" for an event of one date).
type bestSeatsBody struct {
	Date        string `json:"date"`
	Quantity    int    `json:"quantity"`
	Section     string `json:"section"`
	AcrossAisle bool   `json:"acrossAisle"`
	Replace     string `json:"replace"`
}

// seatHoldJSON is best available's answer: the seats held, until when, and the buy page that
// takes them.
type seatHoldJSON struct {
	Hold      string    `json:"hold"`
	Seats     []string  `json:"seats"`
	Section   string    `json:"section"`
	ExpiresAt time.Time `json:"expiresAt"`
	BuyHref   string    `json:"buyHref"`
}

// bestSeats answers POST /v1/seats/{code}/best: the best quantity adjacent free seats of the
// price zone (palaro.BestSeats) on the body's series date, held for the buyer there for
// palaro.SeatHoldTime; the buy page it leads to is that date's.
func (s *Server) bestSeats(c *echo.Context) error {
	tt, ev, err := s.findTicketType(c)
	if err != nil {
		return err
	}
	if !tt.Seated {
		return palaro.Errorf(palaro.EINVALID, "%s has no assigned seats.", tt.Name)
	}
	var body bestSeatsBody
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	ctx := c.Request().Context()
	tt, ev, d, err := s.ticketOnDate(ctx, tt, ev, strings.TrimSpace(body.Date))
	if err == errPickDate {
		return &palaro.Error{Code: palaro.EINVALID, Message: palaro.MsgDateRequired, Fields: map[string]string{palaro.FieldDate: palaro.MsgDateRequired}}
	} else if err != nil {
		return err
	}
	if to := s.queueDetour(c, ev, d.slug(), d != nil || tt.IsPass()); to != "" { // the admission of the body's date
		return palaro.Errorf(palaro.ECONFLICT, "Please wait your turn in the queue.")
	}
	if d != nil && dateNotice(ev.Status) != "" {
		return palaro.Errorf(palaro.ECONFLICT, "%s", dateNotice(ev.Status))
	}
	if tt.Available() <= 0 {
		return palaro.Errorf(palaro.ECONFLICT, "%s is sold out.", tt.Name)
	}
	hold, err := s.services.Seats.HoldBestSeats(ctx, palaro.BestSeatsRequest{TicketTypeID: tt.ID, DateID: d.id(),
		Quantity: body.Quantity, Section: body.Section, AcrossAisle: body.AcrossAisle, Replace: body.Replace}, s.Now())
	if err != nil {
		return err
	}
	section, _, _, _ := palaro.SplitSeatLabel(hold.Seats[0])
	href := seatsHref(tt.Code, hold.Seats, cleanSource(c.QueryParam("source")), d.slug())
	href = strings.Replace(href, "/s/", "/b/", 1) + "&hold=" + hold.ID
	return c.JSON(http.StatusOK, seatHoldJSON{Hold: hold.ID, Seats: hold.Seats, Section: section,
		ExpiresAt: hold.ExpiresAt.In(palaro.Manila), BuyHref: href})
}
