package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// buyFormPost handles POST /b/{code}, the purchase form without JavaScript (or sent before the
// island arrived), and the widget's framed form after embedBuyPost checked its token: the same order as POST /v1/ticket/buy, answered with a redirect to the
// checkout (or the free order's page), or the form again with its messages. A stepper button of
// an add-on posts too: the form comes back with that add-on's count changed, nothing ordered.
func (s *Server) buyFormPost(c *echo.Context) error {
	tt, ev, d, err := s.findTicketOnDate(c)
	if to := pickDateFirst(err, ev); to != "" {
		return c.Redirect(http.StatusSeeOther, to)
	} else if err != nil {
		return err
	}
	if err := c.Request().ParseForm(); err != nil {
		return palaro.Errorf(palaro.EINVALID, "The form could not be read. Please try again.")
	}
	seats, err := palaro.ParseSeats(c.Request().PostForm["seats"])
	if err != nil {
		return c.Redirect(http.StatusSeeOther, seatsHref(tt.Code, nil, "", d.slug()))
	}
	source := cleanSource(c.FormValue("source"))
	req, form := s.purchaseFromForm(c, tt, ev, seats)
	req.Date, form.Action = d.slug(), views.WithDate(form.Action, d.slug())
	var discountAt []int // the form's ticket of each of the payload's discounts
	if tt.SeniorPWDDiscount {
		req.Discounts, discountAt = discountsFromForm(c.FormValue, req.Quantity)
		for i := range min(max(req.Quantity, 1), 50) {
			for _, f := range []string{"type", "holderName", "idNumber"} {
				form.Values[palaro.DiscountField(i, f)] = c.FormValue(palaro.DiscountField(i, f))
			}
		}
	}
	req.Offer = c.FormValue("offer")   // a waiting-list offer's form posts its token back (withOffer)
	req.SeatHold = c.FormValue("hold") // and best available's hold, its seats
	if step := c.FormValue("step"); step != "" {
		stepAddOn(form.Counts, ev.AddOns, req.Quantity, step)
		return s.renderBuyPage(c, tt, ev, d, http.StatusOK, form, seats, source)
	}
	if promo, _, err := s.usablePromo(c.Request().Context(), cleanSource(req.Source), tt, ev); err != nil {
		return err
	} else if promo != nil && !strings.EqualFold(c.FormValue("promoShown"), promo.Code) {
		// a code typed without JavaScript: the discounted total first, then the buyer pays
		form.Error = fmt.Sprintf("Promo %s applied: %s. Check your total below, then pay.", promo.Code, promo.Description)
		return s.renderBuyPage(c, tt, ev, d, http.StatusOK, form, seats, source)
	}
	redirect, err := s.placeOrder(c, req)
	if err == nil && framedBuy(c) {
		// the widget's overlay shows the order in the frame: a free one's tickets, a pending one's
		// button to the checkout, which opens in a new tab
		return c.Redirect(http.StatusSeeOther, "/embed/o/"+redirect.order)
	} else if err == nil {
		return c.Redirect(http.StatusSeeOther, redirect.url)
	}
	var appErr *palaro.Error
	if !errors.As(err, &appErr) {
		return err
	}
	form.Error = appErr.Message
	form.UnpaidLink = appErr.Fields[palaro.FieldUnpaidOrder]
	form.SeatsInstead, form.SeatMap = appErr.Fields[palaro.FieldSeatsInstead], appErr.Fields[palaro.FieldSeatMap]
	if form.UnpaidLink != "" {
		form.Error = "You have an unpaid order waiting"
	}
	form.Shown = map[string]string{}
	for f, msg := range formDiscountFields(appErr.Fields, discountAt) {
		if f != palaro.FieldUnpaidOrder && f != palaro.FieldExistingUser && f != palaro.FieldSeatsTaken &&
			f != palaro.FieldSeatsInstead && f != palaro.FieldSeatMap {
			form.Shown[f] = msg
		}
	}
	if appErr.Fields[palaro.FieldExistingUser] != "" {
		// no details are known for this e-mail: the personal fields again, with their messages
		form.Existing = false
		for _, r := range palaro.PurchaseRules(*tt, ev, len(seats)) {
			if r.RequiredWhen == palaro.RequiredNewBuyer {
				if msg := r.Check(form.Values[r.Field], false); msg != "" {
					form.Shown[r.Field] = msg
				}
			}
		}
	}
	return s.renderBuyPage(c, tt, ev, d, statusOf(appErr.Code), form, seats, source)
}

// purchaseFromForm reads the purchase form: the order it asks for and the form's state to draw
// again. Personal details are left out for an existing user, as the island leaves them out.
func (s *Server) purchaseFromForm(c *echo.Context, tt *palaro.TicketType, ev *palaro.Event, seats []string) (palaro.PurchaseRequest, views.PurchaseForm) {
	action, token := s.formTarget(c, tt)
	form := views.PurchaseForm{Action: action, CSRF: token, Values: map[string]string{}, Counts: map[int64]int{}}
	form.Existing = c.FormValue(palaro.FieldExistingUser) != ""
	for _, f := range purchaseFormFields {
		form.Values[f] = c.FormValue(f)
	}
	if fixed := palaro.FixedQuantity(*tt, len(seats)); fixed > 0 {
		form.Values[palaro.FieldQuantity] = strconv.Itoa(fixed)
	}
	qty, _ := strconv.Atoi(strings.TrimSpace(form.Values[palaro.FieldQuantity]))
	personal := func(f string) string {
		if form.Existing {
			return ""
		}
		return strings.TrimSpace(form.Values[f])
	}
	req := palaro.PurchaseRequest{
		EventCode: ev.Code, TicketCode: tt.Code, Quantity: qty,
		Email: strings.TrimSpace(form.Values[palaro.FieldEmail]), ExistingUser: form.Existing,
		FirstName: personal(palaro.FieldFirstName), LastName: personal(palaro.FieldLastName), FullName: personal(palaro.FieldFullName),
		MobileNumber: personal(palaro.FieldMobileNumber), Gender: personal(palaro.FieldGender), BirthDate: personal(palaro.FieldBirthDate),
		Age: personal(palaro.FieldAge), CompanyName: personal(palaro.FieldCompanyName), Designation: personal(palaro.FieldDesignation),
		EconomicClass: personal(palaro.FieldEconomicClass), SurveyAnswer: form.Values[palaro.FieldSurveyAnswer],
		Seats: palaro.NonNilStrings(seats), Source: strings.TrimSpace(form.Values[palaro.FieldSource]), AddOns: []int64{},
		PaymentType: c.FormValue("paymentType"), DisclaimerAccepted: form.Values[palaro.FieldDisclaimer] != "",
	}
	for _, a := range ev.AddOns {
		n := addOnDefault(a, qty)
		if v := c.FormValue(fmt.Sprintf("addOn%d", a.ID)); v != "" {
			n, _ = strconv.Atoi(v)
			n = max(n, 0)
			form.Counts[a.ID] = n
		}
		if n = min(n, max(qty, 1)); n > 0 {
			req.AddOnQuantities = append(req.AddOnQuantities, palaro.AddOnQuantity{ID: a.ID, Quantity: n})
		}
	}
	return req, form
}

// addOnDefault is an add-on's count until the buyer sets one, as the island has it: a free
// add-on goes with every ticket, a paid one is not taken.
func addOnDefault(a palaro.AddOn, qty int) int {
	if a.Price == 0 {
		return max(qty, 1)
	}
	return 0
}

// purchaseFormFields are the purchase form's text and choice fields, by payload name.
var purchaseFormFields = []string{
	palaro.FieldEmail, palaro.FieldQuantity, palaro.FieldFirstName, palaro.FieldLastName, palaro.FieldFullName,
	palaro.FieldMobileNumber, palaro.FieldGender, palaro.FieldBirthDate, palaro.FieldAge, palaro.FieldCompanyName,
	palaro.FieldDesignation, palaro.FieldEconomicClass, palaro.FieldSurveyAnswer, palaro.FieldSource, palaro.FieldDisclaimer,
}

// stepAddOn applies a stepper button's value, "{id}+" or "{id}-", to the add-on counts, from the
// add-on's default when the buyer set none; the form bounds the count to one per ticket.
func stepAddOn(counts map[int64]int, addOns []palaro.AddOn, qty int, step string) {
	if len(step) < 2 {
		return
	}
	id, err := strconv.ParseInt(step[:len(step)-1], 10, 64)
	i := slices.IndexFunc(addOns, func(a palaro.AddOn) bool { return a.ID == id })
	if err != nil || i < 0 {
		return
	}
	n, set := counts[id]
	if !set {
		n = addOnDefault(addOns[i], qty)
	}
	n = min(n, max(qty, 1))
	switch step[len(step)-1] {
	case '+':
		counts[id] = min(n+1, max(qty, 1))
	case '-':
		counts[id] = max(n-1, 0)
	}
}
