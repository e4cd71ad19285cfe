package handlers

import (
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

// paymentLabel is the button label of a payment type (SPEC.md section 9): "Pay by QR PH",
// "Pay by Card", and "Pay with GCash" for a wallet.
func paymentLabel(paymentType string) string {
	switch {
	case paymentType == palaro.PaymentQR:
		return "Pay by QR PH"
	case palaro.WalletPayment(paymentType):
		return "Pay with " + palaro.PaymentTypeName(paymentType)
	}
	return "Pay by Card"
}

// paymentOptions are the pay buttons of a ticket type's payment types, in the organizer's order;
// the wallets are marked, for the stylesheet puts them first on a phone.
func paymentOptions(types []string) []views.PaymentOption {
	opts := make([]views.PaymentOption, 0, len(types))
	for _, t := range types {
		opts = append(opts, views.PaymentOption{Type: t, Label: paymentLabel(t), Wallet: palaro.WalletPayment(t)})
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
			RequiredFields: palaro.NonNilStrings(ev.RequiredFields),
			SurveyQuestion: ev.SurveyQuestion,
			SurveyAnswers:  palaro.NonNilStrings(ev.SurveyAnswers),
		},
	}
}

// ticketHeader builds the head of the buy and seat pages; for a series date d (nil otherwise) ev
// and tt are as on that date, the head names the date and leads back to its page, and a date
// postponed or cancelled says so.
func (s *Server) ticketHeader(tt *palaro.TicketType, ev *palaro.Event, d *dated, now time.Time) views.TicketHeader {
	h := views.TicketHeader{
		EventName: ev.Name,
		EventHref: "/e/" + ev.Code,
		ImageURL:  s.imageURL(ev.ImageURL),
		When:      formatWhen(ev.StartsAt, ev.EndsAt),
		Place:     ev.Venue.Name + ", " + ev.Venue.City,
		Ticket:    s.withWaitlist(ticketView(*tt, ev, now, !now.Before(ev.EndsAt)), *tt),
	}
	if d != nil {
		h.EventName, h.EventHref = dateName(ev, *d), eventPath(ev.Code, d.Slug)
		if h.Ticket.WaitlistHref != "" { // a day ticket sold out on the date waits for that date
			h.Ticket.WaitlistHref = palaro.WaitlistDatePath(tt.Code, d.Slug)
		}
		if d.Date.Status != palaro.DateScheduled {
			h.Ticket.Available, h.Ticket.Unavailable = false, "This date is "+strings.ToLower(statusLabel(ev.Status))
		}
	}
	return h
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
	tt, ev, d, err := s.findTicketOnDate(c)
	if to := pickDateFirst(err, ev); to != "" {
		return c.Redirect(http.StatusSeeOther, to)
	} else if err != nil {
		return err
	}
	if to := s.queueDetour(c, ev, d.slug(), d != nil || tt.IsPass()); to != "" && s.heldOffer(c, tt.Code, c.QueryParam("offer"), c.QueryParam("date")) == nil {
		return c.Redirect(http.StatusSeeOther, to)
	}
	source := cleanSource(c.QueryParam("source"))
	var seats []string
	if tt.Seated {
		offer, held := s.offeredSeats(c, tt, d)
		sc, serr := s.seatScopeOf(c.Request().Context(), tt, ev, d)
		if serr != nil {
			return serr
		}
		seats, err = s.chosenSeats(c.Request().Context(), tt, sc, c.QueryParams()["seats"], offer, held)
		if code := palaro.ErrorCode(err); code == palaro.EINTERNAL {
			return err
		} else if err != nil || len(seats) == 0 {
			href := seatsHref(tt.Code, seats, source, d.slug())
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
	return s.renderBuyPage(c, tt, ev, d, http.StatusOK, s.buyForm(c, tt, d, seats, source), seats, source)
}

// buyForm is the purchase form of a first visit: no e-mail yet (the island fills in the one kept
// from the last purchase), quantity 1 or the seat count, the source code from the link; it posts
// for the series date d (nil for an event of one date).
func (s *Server) buyForm(c *echo.Context, tt *palaro.TicketType, d *dated, seats []string, source string) views.PurchaseForm {
	qty := 1
	if fixed := palaro.FixedQuantity(*tt, len(seats)); fixed > 0 {
		qty = fixed
	}
	action, token := s.formTarget(c, tt)
	return views.PurchaseForm{
		Action: views.WithDate(action, d.slug()), CSRF: token,
		Values: map[string]string{palaro.FieldEmail: "", palaro.FieldQuantity: strconv.Itoa(qty), palaro.FieldSource: source},
	}
}

// renderBuyPage renders /b/{code} with the purchase form in the given state, for the series date
// d (nil for an event of one date), or the widget's framed buy page (/embed/b/{code}): the same
// form without the island.
func (s *Server) renderBuyPage(c *echo.Context, tt *palaro.TicketType, ev *palaro.Event, d *dated, status int, form views.PurchaseForm, seats []string, source string) error {
	view := views.BuyView{TicketHeader: s.ticketHeader(tt, ev, d, s.Now()), Form: form}
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
			Seats:    palaro.NonNilStrings(seats),
			Source:   source, SourceRule: palaro.SourceRule, Date: d.slug(),
		}
		promo, _, err := s.usablePromo(c.Request().Context(), cleanSource(form.Values[palaro.FieldSource]), tt, ev)
		if err != nil {
			return err
		}
		view.Props.Promo = promo
		view.Props.SeniorPWD = seniorPWDOffer(tt, ev)
		if form.Error != "" || len(form.Shown) > 0 {
			view.Props.Initial = &views.PurchaseInitial{Touched: slices.Sorted(maps.Keys(form.Shown)), Error: form.Error, UnpaidLink: form.UnpaidLink,
				SeatsInstead: form.SeatsInstead, SeatMap: form.SeatMap}
		}
		withOffer(&view.Props, &view.Form, offer)
		if hold := c.FormValue("hold"); offer == nil && hold != "" && len(seats) > 0 {
			view.Props.SeatHold = hold // posted back by the form (its action) and the island
			view.Form.Action += "?hold=" + url.QueryEscape(hold)
		}
	} else if view.Ticket.WaitlistHref != "" {
		w := waitlistJoin(tt, ev, d, s.Now(), "", "", "")
		view.Waitlist = &w
	}
	if framedBuy(c) {
		v := views.EmbedBuyView{TicketHeader: view.TicketHeader, Form: &view}
		return render(c, status, views.EmbedBuyPage(s.embedPageOf(c, "Buy "+tt.Name+" · "+ev.Name), ev, v))
	}
	return render(c, status, views.BuyPage(p, view))
}

// addQuickBuy offers the quick-buy sheet on the event page for the ticket types that need nothing
// but an e-mail address and a quantity: no personal details, survey, disclaimer or seats. On a
// series date's page (slug set) the sheets buy for that date, and a pass (bought for the series)
// is left out; on a series' page only its passes can be (day tickets pick a date first).
func (s *Server) addQuickBuy(ev *palaro.Event, view *views.EventView, slug string) {
	isl, ok := s.assets.Island("quickbuy")
	if !ok {
		return
	}
	q := views.QuickBuyView{Script: "/static/" + isl.JS, Props: views.QuickBuyProps{EventCode: ev.Code, Date: slug}}
	for i, tt := range ev.TicketTypes {
		if i >= len(view.Tickets) || !view.Tickets[i].Available || view.Tickets[i].PickDate || tt.Seated || tt.SeniorPWDDiscount || // its discount is on the form
			(slug != "" && tt.IsPass()) {
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
