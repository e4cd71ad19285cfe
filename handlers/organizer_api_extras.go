package handlers

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// orgAddOnJSON is an add-on as the organizer API takes and answers it: the console's field
// names, the price in centavos; id 0 (or none) creates one.
type orgAddOnJSON struct {
	ID       int64        `json:"id"`
	Name     string       `json:"name"`
	Price    palaro.Money `json:"price"`
	Category string       `json:"category"`
	Notes    string       `json:"notes"`
	Hidden   bool         `json:"hidden"`
}

// orgPromoJSON is a promo code as the organizer API takes and answers it: the console's field
// names, the amount in centavos, ticket types by code (none: all); used is answered only.
type orgPromoJSON struct {
	Code        string       `json:"code"`
	Kind        string       `json:"kind"`
	Percent     int          `json:"percent"`
	Amount      palaro.Money `json:"amount"`
	UsageLimit  int          `json:"usageLimit"`
	ValidFrom   *time.Time   `json:"validFrom"`
	ValidUntil  *time.Time   `json:"validUntil"`
	TicketTypes []string     `json:"ticketTypes"`
	Used        int          `json:"used"`
}

func addOnOut(a palaro.AddOn) orgAddOnJSON {
	return orgAddOnJSON{ID: a.ID, Name: a.Name, Price: a.Price, Category: a.Category, Notes: a.Notes, Hidden: a.Hidden}
}

func (s *Server) apiOrgAddOns(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	addOns, err := s.services.Organizers.ListAddOns(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	out := make([]orgAddOnJSON, 0, len(addOns))
	for _, a := range addOns {
		out = append(out, addOnOut(a))
	}
	return c.JSON(http.StatusOK, map[string]any{"addOns": out})
}

func (s *Server) apiOrgSaveAddOn(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in orgAddOnJSON
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	a, err := s.services.Organizers.SaveAddOn(c.Request().Context(), ev.ID, caller.Actor(),
		palaro.AddOn{ID: in.ID, Name: in.Name, Price: in.Price, Category: in.Category, Notes: in.Notes, Hidden: in.Hidden})
	if err != nil {
		return apiError(err)
	}
	s.eventsChanged()
	status := http.StatusOK
	if in.ID == 0 {
		status = http.StatusCreated
	}
	return c.JSON(status, addOnOut(*a))
}

func (s *Server) apiOrgDeleteAddOn(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return palaro.Errorf(palaro.ENOTFOUND, "Add-on not found.")
	}
	if err := s.services.Organizers.DeleteAddOn(c.Request().Context(), ev.ID, id, caller.Actor()); err != nil {
		return err
	}
	s.eventsChanged()
	return c.NoContent(http.StatusNoContent)
}

func (s *Server) apiOrgPromoCodes(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	codes, err := s.services.Organizers.ListPromoCodes(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	out := make([]orgPromoJSON, 0, len(codes))
	for _, p := range codes {
		out = append(out, promoOut(ev, p))
	}
	return c.JSON(http.StatusOK, map[string]any{"promoCodes": out})
}

func promoOut(ev *palaro.Event, p palaro.PromoCode) orgPromoJSON {
	out := orgPromoJSON{Code: p.Code, Kind: p.Kind, Percent: p.Percent, Amount: p.Amount, UsageLimit: p.UsageLimit,
		ValidFrom: manilaPtr(p.ValidFrom), ValidUntil: manilaPtr(p.ValidUntil), TicketTypes: []string{}, Used: p.Used}
	for _, tt := range ev.TicketTypes {
		if slices.Contains(p.TicketTypeIDs, tt.ID) {
			out.TicketTypes = append(out.TicketTypes, tt.Code)
		}
	}
	return out
}

func (s *Server) apiOrgCreatePromoCode(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	var in orgPromoJSON
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	p := palaro.PromoCode{Code: in.Code, Kind: in.Kind, Percent: in.Percent, Amount: in.Amount, UsageLimit: in.UsageLimit}
	if in.ValidFrom != nil {
		p.ValidFrom = *in.ValidFrom
	}
	if in.ValidUntil != nil {
		p.ValidUntil = *in.ValidUntil
	}
	for _, code := range in.TicketTypes {
		i := slices.IndexFunc(ev.TicketTypes, func(tt palaro.TicketType) bool { return tt.Code == code })
		if i < 0 {
			msg := "No ticket type " + strconv.Quote(code) + " in this event."
			return &palaro.Error{Code: palaro.EINVALID, Message: palaro.FieldTicketTypes + ": " + msg, Fields: map[string]string{palaro.FieldTicketTypes: msg}}
		}
		p.TicketTypeIDs = append(p.TicketTypeIDs, ev.TicketTypes[i].ID)
	}
	if err := palaro.ValidatePromoCode(p); err != nil {
		return apiError(err)
	}
	created, err := s.services.Organizers.CreatePromoCode(c.Request().Context(), ev.ID, caller.Actor(), p)
	if err != nil {
		return apiError(err)
	}
	return c.JSON(http.StatusCreated, promoOut(ev, *created))
}
