package handlers

import (
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// seatPattern is what one seat label looks like: a row of letters and a number, such as "A12".
var seatPattern = regexp.MustCompile(`^[A-Z]{1,3}[0-9]{1,3}$`)

// parseSeats reads the seats query: comma-separated labels (or repeated parameters), upper-cased,
// without duplicates. It returns nil when any label is malformed.
func parseSeats(values []string) []string {
	var seats []string
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			s = strings.ToUpper(strings.TrimSpace(s))
			if s == "" {
				continue
			}
			if !seatPattern.MatchString(s) || len(seats) >= 50 {
				return nil
			}
			if !slices.Contains(seats, s) {
				seats = append(seats, s)
			}
		}
	}
	return seats
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

// buyPage renders /b/{ticketTypeCode}: the ticket's summary and the purchase form island, whose
// props carry the ticket details and the validation rules, so the form needs no fetch on load.
func (s *Server) buyPage(c *echo.Context) error {
	code := c.Param("code")
	if !palaro.ValidCode(code) {
		return palaro.Errorf(palaro.ENOTFOUND, "Ticket type not found.")
	}
	tt, ev, err := s.services.TicketTypes.FindTicketType(c.Request().Context(), code)
	if err != nil {
		return err
	}
	now := s.Now()
	var seats []string
	if tt.Seated {
		seats = parseSeats(c.QueryParams()["seats"])
	}
	source := cleanSource(c.QueryParam("source"))
	ended := !now.Before(ev.EndsAt) || ev.Status == palaro.EventCancelled
	tv := ticketView(*tt, now, ended)
	view := views.BuyView{
		EventName: ev.Name,
		EventHref: "/e/" + ev.Code,
		ImageURL:  s.imageURL(ev.ImageURL),
		When:      formatWhen(ev.StartsAt, ev.EndsAt),
		Place:     ev.Venue.Name + ", " + ev.Venue.City,
		Ticket:    tv,
	}
	if tt.Seated && len(seats) == 0 && tv.Available {
		view.SeatsHref = "/s/" + tt.Code
	}
	p := s.page(c, "Buy "+tt.Name+" · "+ev.Name+" · Palaro", "Buy "+tt.Name+" tickets for "+ev.Name+", "+view.When+" at "+view.Place+".")
	p.Nav = views.NavDefaultBack
	p.NoIndex = true
	if tv.Available {
		p.Islands = []string{"purchase"}
		view.Props = views.PurchaseProps{
			Ticket:   s.ticketDetails(tt, ev),
			Rules:    palaro.PurchaseRules(*tt, ev, len(seats)),
			Payments: paymentOptions(tt.PaymentTypes),
			Seats:    orEmpty(seats),
			Source:   source,
		}
	}
	return render(c, http.StatusOK, views.BuyPage(p, view))
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
