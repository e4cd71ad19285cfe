package handlers

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

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
		return errLinkGone(palaro.ErrorMessage(err))
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
