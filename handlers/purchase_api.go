package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// apiResult is the answer of the purchase calls (SPEC.md section 7): responseCode, redirectUrl, message.
type apiResult struct {
	ResponseCode int    `json:"responseCode"`
	RedirectURL  string `json:"redirectUrl,omitempty"`
	Message      string `json:"message"`
	OrderID      string `json:"orderId,omitempty"`
}

// ticketTypeJSON is the answer of GET /v1/ticket_type: the ticket details of SPEC.md section 3
// (as the purchase island's props carry them) plus the form's rules, payment buttons and the
// promo code the source names, when it is a usable one. Amounts are centavos.
type ticketTypeJSON struct {
	views.TicketDetails
	OnSale   bool                  `json:"onSale"`
	Rules    []palaro.FieldRule    `json:"rules"`
	Payments []views.PaymentOption `json:"payments"`
	Source   string                `json:"source"`
	Promo    *views.PromoJSON      `json:"promo"`
	// PromoError says why the source, a known promo code, cannot be used (expired, used up, …).
	PromoError string `json:"promoError,omitempty"`
}

// ticketType answers GET /v1/ticket_type?eventCode=&ticketTypeCode=&source=&seats=. Seats must be
// free seats of a seated ticket type, at most its per-buyer limit; the answer says which is not.
func (s *Server) ticketType(c *echo.Context) error {
	ctx := c.Request().Context()
	tt, ev, err := s.services.TicketTypes.FindTicketType(ctx, c.QueryParam("ticketTypeCode"))
	if err != nil {
		return err
	}
	if code := c.QueryParam("eventCode"); code != "" && code != ev.Code {
		return palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	now := s.Now()
	tt, ev, date, err := s.ticketOnDate(ctx, tt, ev, c.QueryParam("date")) // a series' date, when it names one
	if err == errPickDate {
		date, err = nil, nil
	} else if err != nil {
		return err
	}
	offer, held := s.offeredSeats(c, tt, date)
	sc, err := s.seatScopeOf(ctx, tt, ev, date)
	if err != nil {
		return err
	}
	seats, err := s.chosenSeats(ctx, tt, sc, c.QueryParams()["seats"], offer, held)
	if err != nil {
		return err
	}
	d := ticketTypeJSON{
		TicketDetails: s.ticketDetails(tt, ev), OnSale: tt.SaleState(ev, now) == palaro.SaleOpen, Rules: palaro.PurchaseRules(*tt, ev, len(seats)),
		Payments: paymentOptions(tt.PaymentTypes), Source: cleanSource(c.QueryParam("source")),
	}
	d.Promo, d.PromoError, err = s.usablePromo(ctx, d.Source, tt, ev)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// usablePromo returns the promo code a source names when the ticket type's order can use it, or
// why not (a message for the buyer); neither for an empty source or a referral code.
func (s *Server) usablePromo(ctx context.Context, source string, tt *palaro.TicketType, ev *palaro.Event) (*views.PromoJSON, string, error) {
	if source == "" {
		return nil, "", nil
	}
	p, err := s.services.Purchases.FindPromoCode(ctx, source, ev.ID, s.Now())
	switch {
	case err == nil && !p.AppliesTo(tt.ID):
		return nil, palaro.PromoNotForTicket(p.Code).Message, nil
	case err == nil:
		return &views.PromoJSON{Code: p.Code, Kind: p.Kind, Percent: p.Percent, Amount: p.Amount, Description: p.Describe(),
			TicketsOnly: p.TicketsOnly()}, "", nil
	case palaro.ErrorCode(err) == palaro.EINVALID:
		return nil, palaro.ErrorMessage(err), nil
	case palaro.ErrorCode(err) == palaro.ENOTFOUND:
		return nil, "", nil
	}
	return nil, "", err
}

// buyTicket answers POST /v1/ticket/buy: creates the order and answers where the buyer goes next.
func (s *Server) buyTicket(c *echo.Context) error {
	var req palaro.PurchaseRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	redirect, err := s.placeOrder(c, req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK, RedirectURL: redirect.url, OrderID: redirect.order})
}

// placed is where a created order sends its buyer, and the order's public id.
type placed struct{ url, order string }

// placeOrder creates the order of a purchase request from this visitor (the JSON call and the
// form of /b/{code}) and starts its checkout: it answers the provider's checkout page of a pending
// order, or the order's page of a free one.
func (s *Server) placeOrder(c *echo.Context, req palaro.PurchaseRequest) (placed, error) {
	if err := s.throttlePurchase(c, req.Email); err != nil {
		return placed{}, err
	}
	place, err := s.queueGate(c, req.TicketCode, req.Date)
	if err != nil && s.heldOffer(c, req.TicketCode, req.Offer, req.Date) == nil {
		return placed{}, err // a waiting-list offer's tickets are held for it: its holder does not queue
	}
	req.QueuePlace = place
	req.SessionKey = visitOf(c).orderKey()
	if u := currentUser(c); u != nil {
		req.UserID = u.ID
	}
	ctx := c.Request().Context()
	order, err := s.services.Purchases.CreateOrder(ctx, req, s.Now())
	s.afterSale(ctx, order, err)
	var appErr *palaro.Error
	if errors.As(err, &appErr) && appErr.Fields[palaro.FieldUnpaidOrder] != "" {
		// the waiting order's page, as a link the buyer can follow
		return placed{}, palaro.UnpaidOrderWaiting(s.config.BaseURL + appErr.Fields[palaro.FieldUnpaidOrder])
	}
	if err != nil {
		return placed{}, s.seatRaceLost(ctx, req, err)
	}
	url, err := s.orderRedirect(ctx, order)
	return placed{url: url, order: order.PublicID}, err
}

// seatRaceLost turns the answer to a buyer whose chosen seats someone else took meanwhile into an
// offer: the nearest free seats (palaro.NearestSeats) with the buy page that takes them, and the
// seat map with the choice, which names the seats taken. Any other error is returned as it is.
func (s *Server) seatRaceLost(ctx context.Context, req palaro.PurchaseRequest, err error) error {
	var appErr *palaro.Error
	if !errors.As(err, &appErr) || appErr.Fields[palaro.FieldSeatsTaken] == "" || len(req.Seats) == 0 || req.Offer != "" {
		return err
	}
	tt, ev, ferr := s.services.TicketTypes.FindTicketType(ctx, strings.TrimSpace(req.TicketCode))
	if ferr != nil {
		return err
	}
	tt, ev, d, ferr := s.ticketOnDate(ctx, tt, ev, req.Date)
	if ferr != nil {
		return err
	}
	sc, ferr := s.seatScopeOf(ctx, tt, ev, d)
	if ferr != nil {
		return err
	}
	rows, rerr := s.services.Seats.SeatMapOn(ctx, sc.typeID, sc.dates)
	plan, perr := s.services.Seats.SeatPlan(ctx, sc.typeID)
	if rerr != nil || perr != nil {
		return err
	}
	wanted, _ := palaro.ParseSeats(req.Seats)
	taken := strings.Split(appErr.Fields[palaro.FieldSeatsTaken], ",")
	instead := palaro.NearestSeats(rows, plan.AisleAfter, wanted, len(wanted))
	source := cleanSource(req.Source)
	insteadHref := strings.Replace(seatsHref(tt.Code, instead, source, d.slug()), "/s/", "/b/", 1)
	return palaro.SeatsLostError(taken, instead, insteadHref, seatsHref(tt.Code, wanted, source, d.slug()))
}

// lowStock is the number of tickets left at or below which the event page names the count
// ('Only 3 left'), so each sale changes it.
const lowStock = 20

// afterSale drops the cached public pages when an order attempt may have changed what they show:
// an order that leaves lowStock tickets of its type or fewer (the count or 'Sold out' changes),
// on its event or on a date of a series it took places on (fewLeftOnDates), or a refusal (a
// sold-out answer means a page may still offer what is gone).
func (s *Server) afterSale(ctx context.Context, order *palaro.Order, err error) {
	switch {
	case err != nil && palaro.ErrorCode(err) == palaro.ECONFLICT:
		s.eventsChanged()
	case err == nil && order != nil && order.TicketType != nil && order.TicketType.Available()-order.Quantity <= lowStock:
		s.eventsChanged()
	case err == nil && order != nil && s.fewLeftOnDates(ctx, order):
		s.eventsChanged()
	}
}

// fewLeftOnDates reports whether an order of a series left lowStock places or fewer of its type
// on a date it took places on: its date for a day ticket, any date for a pass (which takes the
// places of the type it is a pass of). A failed read counts as few: the pages are dropped.
func (s *Server) fewLeftOnDates(ctx context.Context, order *palaro.Order) bool {
	if order.Date == nil && (order.TicketType == nil || !order.TicketType.IsPass()) {
		return false
	}
	avail, err := s.services.Series.ListDateAvailability(ctx, order.EventID)
	if err != nil {
		return true
	}
	for _, a := range avail {
		if order.Date != nil && a.Date.ID != order.Date.ID {
			continue
		}
		if st, ok := a.Of(order.TicketTypeID); ok && st.Available() <= lowStock {
			return true
		}
	}
	return false
}

// orderRedirect is where a created order sends its buyer: the success page of a paid (free)
// order, or the provider's checkout page of a pending one.
func (s *Server) orderRedirect(ctx context.Context, order *palaro.Order) (string, error) {
	if order.Status == palaro.OrderPending {
		return s.startCheckout(ctx, order)
	}
	return s.config.BaseURL + palaro.OrderPath(order.PublicID), nil
}
