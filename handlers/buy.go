package handlers

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// chosenSeats reads and checks the seats query of a ticket type: free seats of a seated ticket
// type, at most its per-buyer limit. It returns the parsed seats (nil when malformed) with the
// first problem: EINVALID for a malformed, unknown or surplus seat, ECONFLICT for a taken one.
func (s *Server) chosenSeats(ctx context.Context, tt *palaro.TicketType, values []string, offered []string) ([]string, error) {
	seats, err := palaro.ParseSeats(values)
	if err != nil {
		return nil, err
	}
	if err := palaro.CheckSeatChoice(*tt, seats); err != nil || len(seats) == 0 {
		return seats, err
	}
	if len(offered) > 0 && len(seats) == len(offered) && !slices.ContainsFunc(seats, func(l string) bool { return !slices.Contains(offered, l) }) {
		return seats, nil // held by the buyer's waiting-list offer
	}
	return seats, s.services.Seats.CheckSeats(ctx, tt.ID, seats)
}

// seatsHref is the seat page of a ticket type, with seats to choose again and a source code.
func seatsHref(code string, seats []string, source string) string {
	q := url.Values{}
	if len(seats) > 0 {
		q.Set("seats", strings.Join(seats, ","))
	}
	if source != "" {
		q.Set("source", source)
	}
	if len(q) == 0 {
		return "/s/" + code
	}
	return "/s/" + code + "?" + q.Encode()
}

// cleanSource keeps a promo or referral code from the query: trimmed, at most 64 characters of
// letters, digits, hyphens and underscores; anything else is dropped.
func cleanSource(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 64 || strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) >= 0 {
		return ""
	}
	return s
}

// paymentLabel is the button label of a payment type (SPEC.md section 9).
func paymentLabel(paymentType string) string {
	if paymentType == palaro.PaymentQR {
		return "Pay by QR PH"
	}
	return "Pay by Card"
}

func paymentOptions(types []string) []views.PaymentOption {
	opts := make([]views.PaymentOption, 0, len(types))
	for _, t := range types {
		opts = append(opts, views.PaymentOption{Type: t, Label: paymentLabel(t)})
	}
	return opts
}

// addOnsJSON converts add-ons to the islands' shape, with their image URLs resolved.
func (s *Server) addOnsJSON(addOns []palaro.AddOn) []views.AddOnJSON {
	out := make([]views.AddOnJSON, 0, len(addOns))
	for _, a := range addOns {
		out = append(out, views.AddOnJSON{ID: a.ID, Name: a.Name, Price: int64(a.Price), Category: a.Category, Notes: a.Notes, ImageURL: s.imageURL(a.ImageURL)})
	}
	return out
}

// ticketDetails builds the ticket details of SPEC.md section 3 for the purchase island.
func (s *Server) ticketDetails(tt *palaro.TicketType, ev *palaro.Event) views.TicketDetails {
	return views.TicketDetails{
		Code:           tt.Code,
		Name:           tt.Name,
		Price:          int64(tt.Price),
		FinalPrice:     int64(tt.FinalPrice()),
		Discount:       tt.Discount,
		MaxPurchasable: tt.MaxPurchasable,
		Quantity:       tt.Available(),
		ShowPromoField: tt.ShowPromoField,
		WithSurvey:     tt.WithSurvey,
		Disclaimer:     tt.Disclaimer,
		PaymentTypes:   tt.PaymentTypes,
		AddOns:         s.addOnsJSON(ev.AddOns),
		Event: views.EventDetails{
			Code:           ev.Code,
			Name:           ev.Name,
			RequiredFields: orEmpty(ev.RequiredFields),
			SurveyQuestion: ev.SurveyQuestion,
			SurveyAnswers:  orEmpty(ev.SurveyAnswers),
		},
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ticketHeader builds the head of the buy and seat pages.
func (s *Server) ticketHeader(tt *palaro.TicketType, ev *palaro.Event, now time.Time) views.TicketHeader {
	return views.TicketHeader{
		EventName: ev.Name,
		EventHref: "/e/" + ev.Code,
		ImageURL:  s.imageURL(ev.ImageURL),
		When:      formatWhen(ev.StartsAt, ev.EndsAt),
		Place:     ev.Venue.Name + ", " + ev.Venue.City,
		Ticket:    s.withWaitlist(ticketView(*tt, ev, now, !now.Before(ev.EndsAt)), *tt),
	}
}

// findTicketType loads the ticket type of the request's :code with its event.
func (s *Server) findTicketType(c *echo.Context) (*palaro.TicketType, *palaro.Event, error) {
	code := c.Param("code")
	if !palaro.ValidCode(code) {
		return nil, nil, palaro.Errorf(palaro.ENOTFOUND, "Ticket type not found.")
	}
	return s.services.TicketTypes.FindTicketType(c.Request().Context(), code)
}

// buyPage renders /b/{ticketTypeCode}: the ticket's summary and the purchase form island, whose
// props carry the ticket details and the validation rules, so the form needs no fetch on load.
// A seated ticket type needs free seats in the query: without them the buyer goes to its seat
// map, which says what was wrong with the seats chosen.
func (s *Server) buyPage(c *echo.Context) error {
	tt, ev, err := s.findTicketType(c)
	if err != nil {
		return err
	}
	if to := s.queueDetour(c, ev); to != "" && s.heldOffer(c, tt.Code, c.QueryParam("offer")) == nil {
		return c.Redirect(http.StatusSeeOther, to)
	}
	source := cleanSource(c.QueryParam("source"))
	var seats []string
	if tt.Seated {
		seats, err = s.chosenSeats(c.Request().Context(), tt, c.QueryParams()["seats"], s.offeredSeats(c, tt))
		if code := palaro.ErrorCode(err); code == palaro.EINTERNAL {
			return err
		} else if err != nil || len(seats) == 0 {
			href := seatsHref(tt.Code, seats, source)
			if err == nil && c.QueryParam("continue") != "" {
				// Continue on the map without JavaScript, no seat ticked: the map says so
				sep := "?"
				if strings.Contains(href, "?") {
					sep = "&"
				}
				href += sep + "choose=1"
			}
			return c.Redirect(http.StatusSeeOther, href)
		}
	}
	return s.renderBuyPage(c, tt, ev, http.StatusOK, s.buyForm(c, tt, seats, source), seats, source)
}

// buyForm is the purchase form of a first visit: no e-mail yet (the island fills in the one kept
// from the last purchase), quantity 1 or the seat count, the source code from the link.
func (s *Server) buyForm(c *echo.Context, tt *palaro.TicketType, seats []string, source string) views.PurchaseForm {
	qty := 1
	if fixed := palaro.FixedQuantity(*tt, len(seats)); fixed > 0 {
		qty = fixed
	}
	return views.PurchaseForm{
		Action: "/b/" + tt.Code, CSRF: csrfToken(c),
		Values: map[string]string{palaro.FieldEmail: "", palaro.FieldQuantity: strconv.Itoa(qty), palaro.FieldSource: source},
	}
}

// renderBuyPage renders /b/{code} with the purchase form in the given state.
func (s *Server) renderBuyPage(c *echo.Context, tt *palaro.TicketType, ev *palaro.Event, status int, form views.PurchaseForm, seats []string, source string) error {
	view := views.BuyView{TicketHeader: s.ticketHeader(tt, ev, s.Now()), Form: form}
	offer := s.buyOffer(c, tt, &view) // a waiting-list offer's held tickets can be bought
	p := s.page(c, "Buy "+tt.Name+" · "+ev.Name+" · Palaro", "Buy "+tt.Name+" tickets for "+ev.Name+", "+view.When+" at "+view.Place+".")
	p.Nav = views.NavDefaultBack
	p.NoIndex = true
	// The form carries the visitor's CSRF token: never kept by a shared cache.
	if h := c.Response().Header(); h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "private, no-cache")
	}
	if view.Ticket.Available {
		p.Islands = []string{"purchase"}
		view.Props = views.PurchaseProps{
			Ticket:   s.ticketDetails(tt, ev),
			Rules:    palaro.PurchaseRules(*tt, ev, len(seats)),
			Payments: paymentOptions(tt.PaymentTypes),
			Seats:    orEmpty(seats),
			Source:   source, SourceRule: palaro.SourceRule,
		}
		promo, _, err := s.usablePromo(c.Request().Context(), cleanSource(form.Values[palaro.FieldSource]), tt, ev)
		if err != nil {
			return err
		}
		view.Props.Promo = promo
		if form.Error != "" || len(form.Shown) > 0 {
			view.Props.Initial = &views.PurchaseInitial{Touched: slices.Sorted(maps.Keys(form.Shown)), Error: form.Error, UnpaidLink: form.UnpaidLink,
				SeatsInstead: form.SeatsInstead, SeatMap: form.SeatMap}
		}
		withOffer(&view.Props, &view.Form, offer)
	} else if view.Ticket.WaitlistHref != "" && s.services.Waitlist != nil {
		w := waitlistJoin(tt, ev, s.Now(), "", "", "")
		view.Waitlist = &w
	}
	return render(c, status, views.BuyPage(p, view))
}

// addQuickBuy offers the quick-buy sheet on the event page for the ticket types that need nothing
// but an e-mail address and a quantity: no personal details, survey, disclaimer or seats.
func (s *Server) addQuickBuy(ev *palaro.Event, view *views.EventView) {
	isl, ok := s.assets.Island("quickbuy")
	if !ok {
		return
	}
	q := views.QuickBuyView{Script: "/static/" + isl.JS, Props: views.QuickBuyProps{EventCode: ev.Code}}
	for i, tt := range ev.TicketTypes {
		if i >= len(view.Tickets) || !view.Tickets[i].Available || tt.Seated {
			continue
		}
		rules := palaro.PurchaseRules(tt, ev, 0)
		if slices.ContainsFunc(rules, func(r palaro.FieldRule) bool {
			return r.Field != palaro.FieldEmail && r.Field != palaro.FieldQuantity
		}) {
			continue
		}
		q.Props.Email = rules[0]
		view.Tickets[i].QuickBuy = true
		q.Props.Tickets = append(q.Props.Tickets, views.QuickTicket{
			Code: tt.Code, Name: tt.Name, FinalPrice: int64(tt.FinalPrice()), MaxPurchasable: tt.MaxPurchasable,
			Quantity: tt.Available(), Payments: paymentOptions(tt.PaymentTypes),
		})
	}
	if len(q.Props.Tickets) > 0 {
		view.QuickBuy = &q
	}
}

// csrfToken returns the session's CSRF token (see security.go).
func csrfToken(c *echo.Context) string { return visitOf(c).csrfToken() }

// privatePage returns a Page for a buyer's own order or ticket: never indexed, never cached by
// shared caches, with the back arrow.
func (s *Server) privatePage(c *echo.Context, title string) views.Page {
	p := s.page(c, title+" · Palaro", title)
	p.NoIndex = true
	p.Nav = views.NavDefaultBack
	c.Response().Header().Set("Cache-Control", "private, no-cache")
	return p
}

// orderPage renders /payment/success/{orderId}: the order's summary, totals and tickets. A paid
// add-on order sends the buyer on to its ticket's /change-ticket/success page.
func (s *Server) orderPage(c *echo.Context) error {
	o, err := s.services.Purchases.FindOrderByPublicID(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	addOns := o.Kind == palaro.OrderKindAddOns
	if addOns && o.Status == palaro.OrderPaid && len(o.Tickets) > 0 {
		// paid add-ons are on the ticket now: show it with them
		return c.Redirect(http.StatusSeeOther, palaro.ChangeTicketSuccessPath(o.Tickets[0].PublicID))
	}
	v := views.OrderView{PublicID: o.PublicID, Email: o.Email, Total: o.Total.Display(), StatusText: orderStatusText(o.Status)}
	if ev := o.Event; ev != nil {
		v.EventName, v.EventHref = ev.Name, "/e/"+ev.Code
		v.When, v.Place = formatWhen(ev.StartsAt, ev.EndsAt), ev.Venue.Name+", "+ev.Venue.City
	}
	if !addOns && o.TicketType != nil {
		v.Lines = append(v.Lines, views.LineView{Label: fmt.Sprintf("%s × %d", o.TicketType.Name, o.Quantity), Value: (o.UnitPrice * palaro.Money(o.Quantity)).Display()})
	}
	for _, a := range o.AddOns {
		label := a.Name
		if a.Count() > 1 {
			label = fmt.Sprintf("%s × %d", a.Name, a.Count())
		}
		v.Lines = append(v.Lines, views.LineView{Label: label, Value: (a.Price * palaro.Money(a.Count())).Display()})
	}
	if o.PromoDiscount > 0 {
		v.Lines = append(v.Lines, views.LineView{Label: "Promo " + o.PromoCode, Value: "-" + o.PromoDiscount.String()})
	}
	switch o.Status {
	case palaro.OrderPaid:
		v.Heading, v.Message = "You're in!", "We sent your tickets to "+o.Email+". Open them on your phone at the gate: they work offline once opened."
		if addOns {
			v.Heading, v.Message = "Add-ons confirmed", "Your add-ons are on your ticket. Show its QR code at the booth to claim them."
		}
	case palaro.OrderPending:
		v.Pending = true
		if strings.HasPrefix(o.CheckoutURL, "https://") || strings.HasPrefix(o.CheckoutURL, s.config.BaseURL+"/") {
			v.PayHref = o.CheckoutURL // the buyer may come back here from 'You have an unpaid order waiting'
		}
		v.Heading, v.Message = "Waiting for your payment", "This page updates by itself when the payment is confirmed. It usually takes a few seconds."
	case palaro.OrderExpired:
		v.Heading, v.Message = "Payment not completed", "Your order expired before the payment was confirmed, and its tickets were released."
		if o.TicketType != nil && !addOns {
			v.BackHref = "/b/" + o.TicketType.Code
		}
	case palaro.OrderRefund:
		v.Heading, v.Message = "Payment received too late", "The tickets sold out while your payment was on its way. Your payment will be refunded in full; our support team will contact you."
	case palaro.OrderRefunded:
		v.Heading, v.Message = "Order refunded", "This order was refunded, and its tickets are no longer valid."
	}
	for _, t := range o.Tickets {
		if t.Email != o.Email {
			continue // moved to another address: its link is that holder's now
		}
		v.Tickets = append(v.Tickets, s.ticketLink(&t, o.Event))
	}
	p := s.privatePage(c, v.Heading)
	return render(c, http.StatusOK, views.OrderPage(p, v))
}

func orderStatusText(status string) string {
	switch status {
	case palaro.OrderPaid:
		return "Paid"
	case palaro.OrderPending:
		return "Waiting for payment"
	case palaro.OrderExpired:
		return "Expired"
	case palaro.OrderRefund:
		return "To be refunded"
	case palaro.OrderRefunded:
		return "Refunded"
	}
	return status
}

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
	if ev := t.Event; ev != nil {
		v.EventName, v.EventHref, v.ImageURL = ev.Name, "/e/"+ev.Code, s.imageURL(ev.ImageURL)
		v.When, v.Place = formatWhen(ev.StartsAt, ev.EndsAt), ev.Venue.Name+", "+ev.Venue.City
		v.CalendarHref = "/e/" + ev.Code + "/calendar.ics"
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

// ticketsPage renders /tickets: anonymous visitors enter their e-mail address and receive a link
// to their tickets (POST), which opens /tickets/{token}.
func (s *Server) ticketsPage(c *echo.Context) error {
	v := views.TicketsView{CSRF: csrfToken(c)}
	if u := currentUser(c); u != nil && c.Request().Method == http.MethodGet {
		if u.Status == palaro.AccountActive {
			return s.accountTickets(c, u)
		}
		v.Unconfirmed, v.Email = true, u.Email
		if c.QueryParam("activation") == "sent" {
			v.ActivationSent = "We sent a new activation link to " + u.Email + ". Open it to see your tickets here."
		}
	}
	status := http.StatusOK
	if c.Request().Method == http.MethodPost {
		v.Email = palaro.NormalizeEmail(c.FormValue("email"))
		err := s.throttleMail(c, mailRecipient(v.Email))
		if err == nil {
			err = s.services.Purchases.SendTicketsLink(c.Request().Context(), v.Email, s.Now())
		}
		switch {
		case err == nil:
			return c.Redirect(http.StatusSeeOther, "/tickets?sent=1")
		case palaro.ErrorCode(err) == palaro.EINVALID:
			v.Error, status = palaro.ErrorMessage(err), http.StatusBadRequest
		case palaro.ErrorCode(err) == palaro.ETOOMANY:
			v.Error, status = palaro.ErrorMessage(err), http.StatusTooManyRequests
		default:
			return err
		}
	}
	if c.QueryParam("sent") == "1" {
		v.Sent = "If that address has tickets, a link to them is on its way. Check your inbox."
	}
	p := s.page(c, "My tickets · Palaro", "Get a link to your Palaro tickets by e-mail.")
	return render(c, status, views.TicketsPage(p, v))
}

// accountTickets renders a signed-in visitor's /tickets: the tickets bought with their confirmed
// e-mail address, upcoming first, then those of events that have ended.
func (s *Server) accountTickets(c *echo.Context, u *palaro.User) error {
	tickets, err := s.services.Purchases.ListTicketsByEmail(c.Request().Context(), u.Email)
	if err != nil {
		return err
	}
	now := s.Now()
	v := views.TicketsView{Email: u.Email, Listed: true, Account: true}
	for _, t := range tickets {
		if t.Event != nil && t.Event.EndsAt.Before(now) {
			v.Past = append(v.Past, s.ticketLink(t, nil))
		} else {
			v.Tickets = append(v.Tickets, s.ticketLink(t, nil))
		}
	}
	return render(c, http.StatusOK, views.TicketsPage(s.privatePage(c, "My tickets"), v))
}

// ticketsByLinkPage renders /tickets/{token}: the tickets of the address a tickets link was sent to.
func (s *Server) ticketsByLinkPage(c *echo.Context) error {
	email, tickets, err := s.services.Purchases.TicketsByLink(c.Request().Context(), c.Param("token"), s.Now())
	if err != nil {
		return err
	}
	v := views.TicketsView{Email: email, Listed: true}
	for _, t := range tickets {
		v.Tickets = append(v.Tickets, s.ticketLink(t, nil))
	}
	p := s.privatePage(c, "My tickets")
	return render(c, http.StatusOK, views.TicketsPage(p, v))
}

// serviceWorker serves the service worker that keeps opened tickets working offline, from the
// site's root so that its scope covers /t/ and /q/.
func (s *Server) serviceWorker(c *echo.Context) error {
	data, err := s.assets.Read("js/sw.js")
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Service-Worker-Allowed", "/")
	return c.Blob(http.StatusOK, "text/javascript; charset=utf-8", data)
}

// seatsPage renders /s/{ticketTypeCode}: the seat map of a seated ticket type, where the buyer
// chooses up to the per-buyer limit of free seats and continues to /b/{code}?seats=…. Seats in
// the query (back from the form) are chosen again when still free; the page says why any was
// dropped. An unseated ticket type goes straight to its buy page.
func (s *Server) seatsPage(c *echo.Context) error {
	tt, ev, err := s.findTicketType(c)
	if err != nil {
		return err
	}
	if to := s.queueDetour(c, ev); to != "" {
		return c.Redirect(http.StatusSeeOther, to)
	}
	source := cleanSource(c.QueryParam("source"))
	if !tt.Seated {
		href := "/b/" + tt.Code
		if source != "" {
			href += "?source=" + url.QueryEscape(source)
		}
		return c.Redirect(http.StatusSeeOther, href)
	}
	ctx := c.Request().Context()
	rows, err := s.services.Seats.SeatMap(ctx, tt.ID)
	if err != nil {
		return err
	}
	view := views.SeatsView{TicketHeader: s.ticketHeader(tt, ev, s.Now())}
	wanted, err := s.chosenSeats(ctx, tt, c.QueryParams()["seats"], nil)
	if code := palaro.ErrorCode(err); code == palaro.EINTERNAL {
		return err
	} else if err != nil {
		view.Message = palaro.ErrorMessage(err)
	} else if c.QueryParam("choose") != "" {
		view.Message = "Please choose your seats."
	}
	limit := max(min(tt.MaxPurchasable, tt.Available()), 1)
	props := views.SeatsProps{
		Code: tt.Code, Name: tt.Name, FinalPrice: int64(tt.FinalPrice()), Max: limit,
		MaxMessage: palaro.MaxTicketsMessage(max(tt.MaxPurchasable, 1)), Source: source, Selected: []string{},
	}
	if limit < tt.MaxPurchasable {
		props.MaxMessage = "Only " + palaro.Plural(limit, "seat is", "seats are") + " left."
	}
	for _, r := range rows {
		var b strings.Builder
		for _, seat := range r.Seats {
			b.WriteByte(seat.Status[0]) // 'a'vailable, 'h'eld, 's'old
			if seat.Status == palaro.SeatAvailable && slices.Contains(wanted, seat.Label) && len(props.Selected) < limit {
				props.Selected = append(props.Selected, seat.Label)
			}
		}
		props.Rows = append(props.Rows, views.SeatRowJSON{Row: r.Row, Status: b.String()})
	}
	plan, err := s.services.Seats.SeatPlan(ctx, tt.ID)
	if err != nil {
		return err
	}
	props.Aisles, props.RowGaps = append([]int{}, plan.AisleAfter...), append([]string{}, plan.GapAfterRows...)
	view.Props = props
	p := s.page(c, "Choose seats · "+tt.Name+" · "+ev.Name+" · Palaro", "Choose your seats for "+tt.Name+", "+ev.Name+", "+view.When+" at "+view.Place+".")
	p.Nav = views.NavDefaultBack
	p.NoIndex = true
	c.Response().Header().Set("Cache-Control", "no-cache") // seats change with every sale
	if view.Ticket.Available {
		p.Islands = []string{"seats"}
	} else if view.Ticket.WaitlistHref != "" && s.services.Waitlist != nil {
		w := waitlistJoin(tt, ev, s.Now(), "", "", "")
		view.Waitlist = &w
	}
	return render(c, http.StatusOK, views.SeatsPage(p, view))
}

// addOnNames lists add-ons by name, as in "Lanyard, Parking".
func addOnNames(addOns []palaro.AddOn) string {
	names := make([]string, 0, len(addOns))
	for _, a := range addOns {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}
