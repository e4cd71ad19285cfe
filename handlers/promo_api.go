package handlers

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// orgPromoJSON is a promo code as the organizer API takes and answers it: the console's field
// names, the amount in centavos, ticket types by code (none: all); used and retired are answered only.
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
	Paused      bool         `json:"paused"`
	Retired     bool         `json:"retired"`
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
		ValidFrom: manilaPtr(p.ValidFrom), ValidUntil: manilaPtr(p.ValidUntil), TicketTypes: []string{}, Used: p.Used,
		Paused: p.Paused, Retired: p.Retired}
	for _, tt := range ev.TicketTypes {
		if slices.Contains(p.TicketTypeIDs, tt.ID) {
			out.TicketTypes = append(out.TicketTypes, tt.Code)
		}
	}
	return out
}

// promoIn turns the API's promo code into the domain's, ticket types by code. Returns EINVALID
// for a ticket type not of the event.
func promoIn(ev *palaro.Event, in orgPromoJSON) (palaro.PromoCode, error) {
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
			return p, &palaro.Error{Code: palaro.EINVALID, Message: palaro.FieldTicketTypes + ": " + msg, Fields: map[string]string{palaro.FieldTicketTypes: msg}}
		}
		p.TicketTypeIDs = append(p.TicketTypeIDs, ev.TicketTypes[i].ID)
	}
	return p, nil
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
	p, err := promoIn(ev, in)
	if err != nil {
		return err
	}
	if err := palaro.ValidatePromoCode(p); err != nil {
		return apiError(err)
	}
	ctx := c.Request().Context()
	created, err := s.services.Organizers.CreatePromoCode(ctx, ev.ID, caller.Actor(), p)
	if err != nil {
		return apiError(err)
	}
	if in.Paused {
		if err := s.services.Organizers.SetPromoCodePaused(ctx, ev.ID, created.ID, true, caller.Actor()); err != nil {
			return err
		}
		created.Paused = true
	}
	return c.JSON(http.StatusCreated, promoOut(ev, *created))
}

// orgPromoCode returns the event's promo code named by the route's :promo (any case).
func (s *Server) orgPromoCode(c *echo.Context, ev *palaro.Event) (*palaro.PromoCode, error) {
	codes, err := s.services.Organizers.ListPromoCodes(c.Request().Context(), ev.ID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(codes, func(p palaro.PromoCode) bool { return strings.EqualFold(p.Code, c.Param("promo")) })
	if i < 0 {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
	}
	return &codes[i], nil
}

// apiOrgUpdatePromoCode changes the fields sent of a promo code: its terms and whether it is paused.
func (s *Server) apiOrgUpdatePromoCode(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	cur, err := s.orgPromoCode(c, ev)
	if err != nil {
		return err
	}
	if cur.Retired {
		return palaro.Errorf(palaro.ECONFLICT, "Promo code %s was deleted after orders used it; it cannot change.", cur.Code)
	}
	in := promoOut(ev, *cur)
	if err := decodeJSONStrict(c, &in); err != nil {
		return err
	}
	if !strings.EqualFold(in.Code, cur.Code) {
		msg := "A promo code's code cannot change: create another one and delete this one."
		return &palaro.Error{Code: palaro.EINVALID, Message: palaro.FieldCode + ": " + msg, Fields: map[string]string{palaro.FieldCode: msg}}
	}
	p, err := promoIn(ev, in)
	if err != nil {
		return err
	}
	p.ID, p.Code = cur.ID, cur.Code
	if in.Kind == palaro.PromoPercent {
		p.Amount = 0
	} else if in.Kind == palaro.PromoFixed {
		p.Percent = 0
	}
	ctx := c.Request().Context()
	updated, err := s.services.Organizers.UpdatePromoCode(ctx, ev.ID, caller.Actor(), p)
	if err != nil {
		return apiError(err)
	}
	if in.Paused != cur.Paused {
		if err := s.services.Organizers.SetPromoCodePaused(ctx, ev.ID, cur.ID, in.Paused, caller.Actor()); err != nil {
			return err
		}
	}
	updated.Paused = in.Paused
	return c.JSON(http.StatusOK, promoOut(ev, *updated))
}

// apiOrgDeletePromoCode deletes a promo code (204), or retires one that orders used (200 with it).
func (s *Server) apiOrgDeletePromoCode(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	cur, err := s.orgPromoCode(c, ev)
	if err != nil {
		return err
	}
	if cur.Retired {
		return palaro.Errorf(palaro.ENOTFOUND, "Promo code not found.")
	}
	retired, err := s.services.Organizers.DeletePromoCode(c.Request().Context(), ev.ID, cur.ID, caller.Actor())
	if err != nil {
		return err
	}
	if !retired {
		return c.NoContent(http.StatusNoContent)
	}
	cur.Retired = true
	return c.JSON(http.StatusOK, promoOut(ev, *cur))
}
