package handlers

import (
	"cmp"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// ticketLink lists a ticket; ev is used when the ticket does not carry its event.
func (s *Server) ticketLink(t *palaro.Ticket, ev *palaro.Event) views.TicketLinkView {
	if t.Event != nil {
		ev = t.Event
	}
	l := views.TicketLinkView{Href: palaro.TicketPath(t.PublicID), Code: t.Code, Title: t.TicketType.Name, Status: t.Status, StatusText: statusWord(t.Status), Detail: cmp.Or(t.HolderName, t.Email)}
	if ev != nil {
		l.Title += " · " + ev.Name
		l.Detail = ev.StartsAt.In(palaro.Manila).Format("Mon, 2 Jan 2006 · 3:04 PM")
		if label := statusLabel(ev.Status); label != "" {
			l.Detail = label + " · " + l.Detail
		}
	}
	if t.Seat != "" {
		l.Detail += " · Seat " + t.Seat
	}
	if len(t.AddOns) > 0 {
		l.Detail += " · with " + addOnNames(t.AddOns)
	}
	return l
}

// findTicket loads the ticket of the request's :id and builds its view, with its QR code of size px.
func (s *Server) findTicket(c *echo.Context, size int) (*palaro.Ticket, views.TicketPageView, error) {
	t, err := s.services.Purchases.FindTicketByPublicID(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, views.TicketPageView{}, err
	}
	qr, err := views.QRSVG(s.ticketQR(t.Code), size, 5, "QR code of ticket "+t.Code)
	if err != nil {
		return nil, views.TicketPageView{}, err
	}
	v := views.TicketPageView{
		PublicID: t.PublicID, Code: t.Code, TicketType: t.TicketType.Name, Holder: t.HolderName, Email: t.Email,
		Seat: t.Seat, Status: statusWord(t.Status), StatusClass: t.Status, QR: qr, Active: t.Status == palaro.TicketValid,
		QRHref: "/q/" + t.PublicID, AddOnsHref: palaro.AddOnsPath(t.PublicID), ChangeEmailHref: "/change-email/" + t.PublicID,
	}
	if t.Discount.Type != "" {
		v.Discount, v.DiscountHolder = palaro.DiscountLabel(t.Discount.Type)+" — bring your ID", t.Discount.HolderName
	}
	if ev := t.Event; ev != nil {
		v.EventName, v.EventHref, v.ImageURL = ev.Name, "/e/"+ev.Code, s.imageURL(ev.ImageURL)
		v.CalendarHref = "/e/" + ev.Code + "/calendar.ics"
		if d := t.Date; d != nil { // a series' day ticket: its date's time, place, status and calendar entry
			ev = eventOnDate(ev, palaro.DateAvailability{Date: *d})
			v.EventHref = eventPath(ev.Code, d.Slug)
			v.CalendarHref = v.EventHref + "/calendar.ics"
		}
		v.When, v.Place = formatWhen(ev.StartsAt, ev.EndsAt), ev.Venue.Name+", "+ev.Venue.City
		v.Active = v.Active && s.Now().Before(ev.EndsAt)
		if t.Status != palaro.TicketCancelled {
			v.EventNotice = eventNotice(ev)
		}
	}
	for _, a := range t.AddOns {
		v.AddOns = append(v.AddOns, a.Name)
	}
	return t, v, nil
}

// eventNotice tells a ticket holder that the ticket's event is cancelled, postponed or was moved,
// and what it means for the ticket; "" when nothing changed.
func eventNotice(ev *palaro.Event) string {
	switch {
	case ev.Status == palaro.EventCancelled:
		return "This event is cancelled. You are refunded in full, to the way you paid, within 30 days; we sent you an e-mail about it."
	case ev.Status == palaro.EventPostponed:
		return "This event is postponed: the new date is not set yet. Your ticket stays valid for it, and we will e-mail you the new date; you may instead ask for a refund within 14 days."
	case ev.Sequence > 0:
		return "This event's date or place changed: the details below are the new ones. Your ticket stays valid."
	}
	return ""
}

func statusWord(status string) string {
	switch status {
	case palaro.TicketCheckedIn:
		return "Checked in"
	case palaro.TicketCancelled:
		return "Cancelled"
	}
	return "Valid"
}

// ticketPage renders /t/{ticketId}.
func (s *Server) ticketPage(c *echo.Context) error {
	t, v, err := s.findTicket(c, 240)
	if err != nil {
		return err
	}
	if available, err := s.services.Purchases.AddOnsAvailableForTicket(c.Request().Context(), t.PublicID); err != nil {
		return err
	} else if len(available) == 0 {
		v.AddOnsHref = "" // nothing to buy: no action
	}
	if s.services.PartnerLogin != nil {
		v.PartnerAction = "/t/" + t.PublicID + "/partner-login"
	}
	p := s.privatePage(c, v.TicketType+" · "+v.EventName)
	return render(c, http.StatusOK, views.TicketPage(p, v))
}

// qrPage renders /q/{ticketId}: the QR code full screen, 300 px (SPEC.md "QR popup").
func (s *Server) qrPage(c *echo.Context) error {
	_, v, err := s.findTicket(c, 300)
	if err != nil {
		return err
	}
	p := s.privatePage(c, "QR code · "+v.Code)
	p.ShowNav = false
	return render(c, http.StatusOK, views.QRPage(p, v))
}

// addOnsPage renders /a/{ticketId}: the add-ons still available for the ticket, to buy.
func (s *Server) addOnsPage(c *echo.Context) error {
	t, v, err := s.findTicket(c, 120)
	if err != nil {
		return err
	}
	if !v.Active {
		return palaro.Errorf(palaro.ECONFLICT, "Add-ons can only be bought for a valid ticket of an upcoming event.")
	}
	available, err := s.services.Purchases.AddOnsAvailableForTicket(c.Request().Context(), t.PublicID)
	if err != nil {
		return err
	}
	props := views.AddOnsProps{TicketID: t.PublicID, TicketCode: t.Code, AddOns: s.addOnsJSON(available), Payments: paymentOptions(t.TicketType.PaymentTypes)}
	p := s.privatePage(c, "Add-ons · "+v.Code)
	if len(available) > 0 {
		p.Islands = []string{"addons"}
	}
	return render(c, http.StatusOK, views.AddOnsPage(p, v, props))
}

// changeEmailPage renders /change-email/{ticketId} and handles its form: it shows the ticket's
// current address and asks for the preferred one; the current holder then consents by e-mail
// (or already did, signed in as the owner) and the new address confirms receipt.
func (s *Server) changeEmailPage(c *echo.Context) error {
	t, v, err := s.findTicket(c, 120)
	if err != nil {
		return err
	}
	cv := views.ChangeEmailView{Ticket: v, Current: t.Email, CSRF: csrfToken(c), ByOwner: ownsTicket(currentUser(c), t)}
	throttled := false
	if c.Request().Method == http.MethodPost {
		cv.Email = strings.TrimSpace(c.FormValue("email"))
		var tr *palaro.TicketTransfer
		err := s.throttleMail(c, transferRecipients(t.PublicID, cv.Email)...)
		if err == nil {
			tr, err = s.requestTransfer(c, t.PublicID, cv.Email)
		}
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/change-email/"+t.PublicID+"?sent="+tr.Status)
		}
		if code := palaro.ErrorCode(err); code != palaro.EINVALID && code != palaro.ETOOMANY {
			return err
		}
		cv.Error, throttled = palaro.ErrorMessage(err), palaro.ErrorCode(err) == palaro.ETOOMANY
	}
	p := s.privatePage(c, "Change e-mail · "+v.Code)
	if sent := c.QueryParam("sent"); sent == palaro.TransferAwaitingHolder || sent == palaro.TransferAwaitingReceipt {
		msg := transferSentMessage(&palaro.TicketTransfer{Status: sent, FromEmail: t.Email, ToEmail: "the new address"})
		return render(c, http.StatusOK, views.SuccessPage(p, "Check the inbox", msg, palaro.TicketPath(t.PublicID), "Back to your ticket"))
	}
	status := http.StatusOK
	if throttled {
		status = http.StatusTooManyRequests
	} else if cv.Error != "" {
		status = http.StatusBadRequest
	}
	return render(c, status, views.ChangeEmailPage(p, cv))
}

// changeEmailSuccessPage renders /change-email/success/{ticketId}, where a confirmed change lands.
func (s *Server) changeEmailSuccessPage(c *echo.Context) error {
	t, v, err := s.findTicket(c, 120)
	if err != nil {
		return err
	}
	p := s.privatePage(c, "E-mail changed")
	return render(c, http.StatusOK, views.SuccessPage(p, "E-mail changed",
		"Your "+v.TicketType+" ticket for "+v.EventName+" now belongs to "+t.Email+".", "/t/"+t.PublicID, "Open your ticket"))
}

// changeTicketSuccessPage renders /change-ticket/success/{ticketId}: the ticket's add-ons after a change.
func (s *Server) changeTicketSuccessPage(c *echo.Context) error {
	t, v, err := s.findTicket(c, 120)
	if err != nil {
		return err
	}
	msg := "Your ticket has no add-ons yet."
	if len(v.AddOns) > 0 {
		msg = "Your ticket now comes with: " + strings.Join(v.AddOns, ", ") + "."
	}
	p := s.privatePage(c, "Ticket updated")
	return render(c, http.StatusOK, views.SuccessPage(p, "Ticket updated", msg, "/t/"+t.PublicID, "Open your ticket"))
}

// addOnNames lists add-ons by name, as in "Lanyard, Parking".
func addOnNames(addOns []palaro.AddOn) string {
	names := make([]string, 0, len(addOns))
	for _, a := range addOns {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}
