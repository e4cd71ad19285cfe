package handlers

import (
	"context"
	"crypto/subtle"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/payment"
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
	seats, err := s.chosenSeats(ctx, tt, c.QueryParams()["seats"], s.offeredSeats(c, tt))
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
	place, err := s.queueGate(c, req.TicketCode)
	if err != nil && s.heldOffer(c, req.TicketCode, req.Offer) == nil {
		return placed{}, err // a waiting-list offer's tickets are held for it: its holder does not queue
	}
	req.QueuePlace = place
	req.SessionKey = visitOf(c).orderKey()
	if u := currentUser(c); u != nil {
		req.UserID = u.ID
	}
	ctx := c.Request().Context()
	order, err := s.services.Purchases.CreateOrder(ctx, req, s.Now())
	s.afterSale(order, err)
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
	tt, _, ferr := s.services.TicketTypes.FindTicketType(ctx, strings.TrimSpace(req.TicketCode))
	if ferr != nil {
		return err
	}
	rows, rerr := s.services.Seats.SeatMap(ctx, tt.ID)
	plan, perr := s.services.Seats.SeatPlan(ctx, tt.ID)
	if rerr != nil || perr != nil {
		return err
	}
	wanted, _ := palaro.ParseSeats(req.Seats)
	taken := strings.Split(appErr.Fields[palaro.FieldSeatsTaken], ",")
	instead := palaro.NearestSeats(rows, plan.AisleAfter, wanted, len(wanted))
	source := cleanSource(req.Source)
	insteadHref := strings.Replace(seatsHref(tt.Code, instead, source), "/s/", "/b/", 1)
	return palaro.SeatsLostError(taken, instead, insteadHref, seatsHref(tt.Code, wanted, source))
}

// lowStock is the number of tickets left at or below which the event page names the count
// ('Only 3 left'), so each sale changes it.
const lowStock = 20

// afterSale drops the cached public pages when an order attempt may have changed what they show:
// an order that leaves lowStock tickets of its type or fewer (the count or 'Sold out' changes), or
// a refusal (a sold-out answer means a page may still offer what is gone).
func (s *Server) afterSale(order *palaro.Order, err error) {
	switch {
	case err != nil && palaro.ErrorCode(err) == palaro.ECONFLICT:
		s.eventsChanged()
	case err == nil && order != nil && order.TicketType != nil && order.TicketType.Available()-order.Quantity <= lowStock:
		s.eventsChanged()
	}
}

// orderRedirect is where a created order sends its buyer: the success page of a paid (free)
// order, or the provider's checkout page of a pending one.
func (s *Server) orderRedirect(ctx context.Context, order *palaro.Order) (string, error) {
	if order.Status == palaro.OrderPending {
		return s.startCheckout(ctx, order)
	}
	return s.config.BaseURL + palaro.OrderPath(order.PublicID), nil
}

// startCheckout creates the provider's checkout for a pending order and records it; when the
// provider fails, the order's hold is released at once.
func (s *Server) startCheckout(ctx context.Context, order *palaro.Order) (string, error) {
	provider := s.services.Payments
	if provider == nil {
		_ = s.services.Purchases.CancelOrder(ctx, order.ID)
		return "", palaro.Errorf(palaro.EINTERNAL, "Payments are not available right now.")
	}
	cancelPath := "/b/" + order.TicketType.Code
	if order.Kind == palaro.OrderKindAddOns && len(order.Tickets) > 0 {
		cancelPath = palaro.AddOnsPath(order.Tickets[0].PublicID)
	}
	session, err := provider.CreateCheckout(ctx, order.Checkout(s.config.BaseURL, cancelPath))
	if err == nil {
		err = s.services.Purchases.AttachCheckout(ctx, order.ID, provider.Name(), session)
	}
	if err != nil {
		if cErr := s.services.Purchases.CancelOrder(ctx, order.ID); cErr != nil {
			err = errors.Join(err, cErr)
		}
		s.logger.Error("checkout failed", "order", order.PublicID, "error", err)
		return "", palaro.Errorf(palaro.EINTERNAL, "Error occured. Please try again.")
	}
	return session.URL, nil
}

// maxWebhookBody is the largest webhook body read.
const maxWebhookBody = 1 << 20

// paymentWebhook handles POST /v1/payment/webhook/:provider: the provider verifies the signature
// and parses the event, then the order is settled, once however often the event arrives.
func (s *Server) paymentWebhook(c *echo.Context) error {
	provider := s.services.Payments
	if provider == nil || c.Param("provider") != provider.Name() {
		return palaro.Errorf(palaro.ENOTFOUND, "Unknown payment provider.")
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxWebhookBody))
	if err != nil {
		return err
	}
	ev, err := provider.ParseWebhook(c.Request().Header.Get(payment.SignatureHeader), body, s.Now())
	if err != nil {
		return err
	}
	order, err := s.services.Purchases.ConfirmPayment(c.Request().Context(), provider.Name(), provider.Live(), ev)
	switch palaro.ErrorCode(err) {
	case "":
	case palaro.ENOTFOUND:
		// not one of our checkout sessions (another app on the same account): recorded as refused,
		// and acknowledged so it is not retried
		s.logger.Warn("payment event refused", "provider", provider.Name(), "event", ev.ID, "reason", palaro.ErrorMessage(err))
		return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK, Message: "No matching order."})
	case palaro.EINVALID:
		s.logger.Warn("payment event refused", "provider", provider.Name(), "event", ev.ID, "reason", palaro.ErrorMessage(err))
		return err
	default:
		return err
	}
	return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK, Message: order.Status, OrderID: order.PublicID})
}

// ticketJSON is a ticket as the add-on and e-mail change calls show it.
type ticketJSON struct {
	ID             string            `json:"id"`
	Code           string            `json:"code"`
	Status         string            `json:"status"`
	Holder         string            `json:"holder"`
	Email          string            `json:"email"`
	Seat           string            `json:"seat,omitempty"`
	EventCode      string            `json:"eventCode"`
	EventName      string            `json:"eventName"`
	TicketTypeCode string            `json:"ticketTypeCode"`
	TicketTypeName string            `json:"ticketTypeName"`
	AddOns         []views.AddOnJSON `json:"addOns"`
}

func (s *Server) newTicketJSON(t *palaro.Ticket) ticketJSON {
	j := ticketJSON{ID: t.PublicID, Code: t.Code, Status: t.Status, Holder: t.HolderName, Email: t.Email, Seat: t.Seat,
		TicketTypeCode: t.TicketType.Code, TicketTypeName: t.TicketType.Name, AddOns: s.addOnsJSON(t.AddOns)}
	if t.Event != nil {
		j.EventCode, j.EventName = t.Event.Code, t.Event.Name
	}
	return j
}

// ticketAddOns answers GET /v1/ticket/add?uuid=: the ticket and the add-ons it can still buy.
func (s *Server) ticketAddOns(c *echo.Context) error {
	ctx := c.Request().Context()
	id := c.QueryParam("uuid")
	t, err := s.services.Purchases.FindTicketByPublicID(ctx, id)
	if err != nil {
		return err
	}
	available, err := s.services.Purchases.AddOnsAvailableForTicket(ctx, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{
		"ticket": s.newTicketJSON(t), "addOns": s.addOnsJSON(available),
		"payments": paymentOptions(t.TicketType.PaymentTypes),
	})
}

// buyAddOns answers POST /v1/ticket/add {uuid, addOns, ticketCode, paymentType}. It needs the
// ticket's own code (SPEC.md section 7), or the signed-in owner of the ticket.
func (s *Server) buyAddOns(c *echo.Context) error {
	var req struct {
		UUID        string  `json:"uuid"`
		AddOns      []int64 `json:"addOns"`
		TicketCode  string  `json:"ticketCode"`
		PaymentType string  `json:"paymentType"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if !palaro.ValidKey(req.UUID) || !palaro.ValidKey(req.TicketCode) || !palaro.ValidKey(req.PaymentType) {
		return palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	ctx := c.Request().Context()
	t, err := s.services.Purchases.FindTicketByPublicID(ctx, req.UUID)
	if err != nil {
		return err
	}
	if !ticketCodeMatches(req.TicketCode, t.Code) && !ownsTicket(currentUser(c), t) {
		return palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	if err := s.throttlePurchase(c, t.Email); err != nil {
		return err
	}
	order, err := s.services.Purchases.CreateAddOnOrder(ctx, req.UUID, req.AddOns, req.PaymentType, s.Now())
	if err != nil {
		return err
	}
	url, err := s.orderRedirect(ctx, order)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK, RedirectURL: url, OrderID: order.PublicID})
}

// ticketCodeMatches reports whether given is the ticket's own code (never its ticket type's),
// compared in constant time and ignoring case.
func ticketCodeMatches(given, code string) bool {
	given = strings.ToUpper(strings.TrimSpace(given))
	return given != "" && subtle.ConstantTimeCompare([]byte(given), []byte(strings.ToUpper(code))) == 1
}

// ownsTicket reports whether u is a signed-in, activated account holding the ticket's address.
func ownsTicket(u *palaro.User, t *palaro.Ticket) bool {
	return u != nil && u.Status == palaro.AccountActive && strings.EqualFold(u.Email, t.Email)
}

// changeEmail answers POST /v1/ticket/change-email {uuid, email}: starts moving the ticket to
// the new address. The current holder consents first (a link to the ticket's current address)
// unless the signed-in owner asks; then the new address confirms receipt.
func (s *Server) changeEmail(c *echo.Context) error {
	var req struct {
		UUID  string `json:"uuid"`
		Email string `json:"email"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if !palaro.ValidKey(req.UUID) {
		return palaro.Errorf(palaro.ENOTFOUND, "Ticket not found.")
	}
	if err := s.throttleMail(c, transferRecipients(req.UUID, req.Email)...); err != nil {
		return err
	}
	tr, err := s.requestTransfer(c, req.UUID, req.Email)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK, Message: transferSentMessage(tr)})
}

// requestTransfer starts moving the ticket with public id ticketID to email, with the owner's
// consent already given when the signed-in visitor owns the ticket.
func (s *Server) requestTransfer(c *echo.Context, ticketID, email string) (*palaro.TicketTransfer, error) {
	ctx := c.Request().Context()
	t, err := s.services.Purchases.FindTicketByPublicID(ctx, ticketID)
	if err != nil {
		return nil, err
	}
	return s.services.Purchases.RequestEmailChange(ctx, t.PublicID, email, ownsTicket(currentUser(c), t), s.Now())
}

// transferSentMessage says where the link of a new transfer went and what happens next.
func transferSentMessage(tr *palaro.TicketTransfer) string {
	if tr.Status == palaro.TransferAwaitingReceipt {
		return "We sent a link to " + tr.ToEmail + ". Your ticket moves there, with a new code, QR code and link, " +
			"once the new address accepts it."
	}
	return "We sent a confirmation link to the ticket's current address, " + tr.FromEmail + ". Once the holder " +
		"confirms, " + tr.ToEmail + " gets a link to accept the ticket; it moves there, with a new code, QR code " +
		"and link, when it is accepted."
}

// confirmEmailChange handles /change-email/confirm/:token, the link of a transfer e-mail: GET
// shows what the link confirms (so a mail scanner opening links changes nothing), POST confirms
// it. After the holder's consent the new address gets its link; after the receipt the ticket is
// reissued and the visitor goes to its new page.
func (s *Server) confirmEmailChange(c *echo.Context) error {
	ctx, token := c.Request().Context(), c.Param("token")
	var tr *palaro.TicketTransfer
	var err error
	if c.Request().Method == http.MethodPost {
		tr, err = s.services.Purchases.ConfirmEmailChange(ctx, token, s.Now())
	} else {
		tr, err = s.services.Purchases.FindEmailChange(ctx, token, s.Now())
	}
	if palaro.ErrorCode(err) == palaro.ENOTFOUND {
		return echo.NewHTTPError(http.StatusGone, palaro.ErrorMessage(err))
	} else if err != nil {
		return err
	}
	t := tr.Ticket
	eventName := ""
	if t.Event != nil {
		eventName = t.Event.Name
	}
	if c.Request().Method == http.MethodPost {
		if tr.Status == palaro.TransferDone {
			return c.Redirect(http.StatusSeeOther, palaro.EmailChangeSuccessPath(t.PublicID))
		}
		p := s.privatePage(c, "Ticket move confirmed")
		return render(c, http.StatusOK, views.SuccessPage(p, "Confirmed",
			"We sent a link to "+tr.ToEmail+". Your ticket moves there when the new address accepts it; until then it stays yours.",
			palaro.TicketPath(t.PublicID), "Back to your ticket"))
	}
	v := views.TransferConfirmView{Action: palaro.EmailChangeConfirmPath(token), CSRF: csrfToken(c), EventName: eventName,
		TicketType: t.TicketType.Name, From: tr.FromEmail, To: tr.ToEmail, Receipt: tr.Status == palaro.TransferAwaitingReceipt}
	if !v.Receipt {
		v.Code = t.Code
	}
	p := s.privatePage(c, "Move a ticket")
	return render(c, http.StatusOK, views.TransferConfirmPage(p, v))
}

// ticketsLink answers POST /v1/tickets/link {email}: e-mails a link to the address's tickets.
// The answer is the same whether or not the address has tickets.
func (s *Server) ticketsLink(c *echo.Context) error {
	var req struct {
		Email string `json:"email"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	email := palaro.NormalizeEmail(req.Email)
	if err := s.throttleMail(c, mailRecipient(email)); err != nil {
		return err
	}
	if err := s.services.Purchases.SendTicketsLink(c.Request().Context(), email, s.Now()); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiResult{ResponseCode: http.StatusOK,
		Message: "If " + email + " has tickets, a link to them is on its way. Check your inbox."})
}

// ticketStatus answers GET /v1/ticket/status?ticketCode=&key=&timestamp=&signature=, a partner
// call signed with HMAC-SHA256 (palaro.SignPartnerRequest).
func (s *Server) ticketStatus(c *echo.Context) error {
	code := c.QueryParam("ticketCode")
	if err := palaro.VerifyPartnerRequest(s.config.PartnerKeys, c.QueryParam("key"), code,
		c.QueryParam("timestamp"), c.QueryParam("signature"), s.Now()); err != nil {
		return err
	}
	info, err := s.services.Purchases.TicketStatus(c.Request().Context(), code)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, info)
}
