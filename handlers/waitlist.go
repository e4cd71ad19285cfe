package handlers

import (
	"fmt"
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

// offerTimeFormat is how an offer's end is shown (Manila time).
const offerTimeFormat = "Mon 2 Jan, 3:04 PM"

// waitlistJoin builds the waiting-list section of a ticket type (tt and ev as on the series date
// d, whose list it joins; nil for an event of one date or a pass): the join form (with the values
// and error of a refused join), or why the list cannot be joined now.
func waitlistJoin(tt *palaro.TicketType, ev *palaro.Event, d *dated, now time.Time, email, quantity, problem string) views.WaitlistView {
	v := views.WaitlistView{}
	if err := palaro.WaitlistRefusal(*tt, ev, now); err != nil {
		v.Message = palaro.ErrorMessage(err)
		return v
	}
	if left := tt.Available(); left > 0 && problem == "" {
		v.Message = fmt.Sprintf("%s of %s can be bought now: no need to wait.", palaro.Tickets(left), tt.Name)
		return v
	}
	most := palaro.WaitlistMax(*tt)
	v.Intro = "Tell us your e-mail address and how many tickets you want. When tickets come back, we offer them to the people on the list in order, by e-mail."
	if tt.Seated {
		v.Intro = "Tell us your e-mail address and how many seats you want. When seats come back, we hold them for the people on the list in order (together where we can) and e-mail a link to buy them."
	}
	if d != nil {
		v.Intro = "You wait for " + palaro.DateSlugLabel(d.Slug) + " only. " + v.Intro
	}
	f := &views.Form{ID: "waitlist-form", Action: palaro.WaitlistDatePath(tt.Code, d.slug()), Submit: "Join the waiting list", Error: problem,
		Fields: []views.FormField{{Name: "email", Label: "E-mail", Type: "email", Value: email, Autocomplete: "email", MaxLength: 254, Required: true}}}
	if most == 1 {
		f.Hidden = [][2]string{{"quantity", "1"}}
		v.Intro = "Tell us your e-mail address. When a ticket comes back, we offer it to the people on the list in order, by e-mail."
		if tt.Seated {
			v.Intro = "Tell us your e-mail address. When a seat comes back, we hold it for the people on the list in order and e-mail a link to buy it."
		}
		if d != nil {
			v.Intro = "You wait for " + palaro.DateSlugLabel(d.Slug) + " only. " + v.Intro
		}
	} else {
		if quantity == "" {
			quantity = "1"
		}
		f.Fields = append(f.Fields, views.FormField{Name: "quantity", Label: "No. of tickets", Type: "text", Value: quantity,
			InputMode: "numeric", MaxLength: 3, Required: true, Hint: fmt.Sprintf("Max. %d per person", most)})
	}
	v.Form = f
	return v
}

// waitlistPage serves /waitlist/{ticketTypeCode}: GET shows the join form, POST joins (or updates
// the quantity of an address already waiting) and answers with the confirmation page.
// A series' day ticket waits for the date of ?date= (without one, waitlistPickDate).
func (s *Server) waitlistPage(c *echo.Context) error {
	tt, ev, d, err := s.findTicketOnDate(c)
	if err == errPickDate && ev != nil {
		return s.waitlistPickDate(c, tt, ev)
	} else if err != nil {
		return err
	}
	now := s.Now()
	header := s.ticketHeader(tt, ev, d, now)
	name := ev.Name
	if d != nil {
		name = dateName(ev, *d)
	}
	p := s.waitlistMeta(c, "Waiting list · "+tt.Name+" · "+name, "Join the waiting list for "+tt.Name+" tickets to "+name+".")
	if c.Request().Method != http.MethodPost {
		v := waitlistJoin(tt, ev, d, now, "", "", "")
		v.TicketHeader = header
		return render(c, http.StatusOK, views.WaitlistPage(p, v))
	}
	email, quantity := strings.TrimSpace(c.FormValue("email")), strings.TrimSpace(c.FormValue("quantity"))
	if err := s.throttleMail(c, mailRecipient(email)); err != nil {
		return err // a join e-mails its address: one visitor cannot flood an inbox
	}
	n, convErr := strconv.Atoi(quantity)
	if convErr != nil {
		n = 0 // refused below with the range
	}
	j, err := s.services.Waitlist.Join(c.Request().Context(), palaro.WaitlistJoin{TicketCode: tt.Code, Email: email, Quantity: n,
		Date: d.slug()}, now)
	if err != nil {
		code := palaro.ErrorCode(err)
		if code == palaro.EINTERNAL || code == palaro.ENOTFOUND {
			return err
		}
		status := http.StatusUnprocessableEntity
		if code == palaro.ECONFLICT {
			status = http.StatusConflict
		}
		v := waitlistJoin(tt, ev, d, now, email, quantity, palaro.ErrorMessage(err))
		v.TicketHeader = header
		return render(c, status, views.WaitlistPage(p, v))
	}
	what := tt.Name
	if d != nil {
		what += " on " + palaro.DateSlugLabel(d.Slug)
	}
	v := views.WaitlistJoinedView{TicketHeader: header, Email: j.Entry.Email, Position: j.Entry.Position,
		Heading: "You are on the waiting list",
		Message: fmt.Sprintf("We will let you know when %s of %s come back.", palaro.Tickets(j.Entry.Quantity), what)}
	if j.Updated {
		v.Heading = "You were on the waiting list already"
		v.Message = fmt.Sprintf("We now wait for %s of %s for you; your place is kept.", palaro.Tickets(j.Entry.Quantity), what)
	}
	p.Title = "On the waiting list · " + tt.Name + " · Palaro"
	return render(c, http.StatusOK, views.WaitlistJoinedPage(p, v))
}

// waitlistPickDate is the waiting-list page of a series' day ticket asked for without a date
// (a POST is not joined: 422): each date has its own list, so it says so and links the lists of
// the dates to come that are on as scheduled, or their buy page where the ticket is on sale.
func (s *Server) waitlistPickDate(c *echo.Context, tt *palaro.TicketType, ev *palaro.Event) error {
	dates, err := s.seriesDates(c.Request().Context(), ev)
	if err != nil {
		return err
	}
	now := s.Now()
	v := views.WaitlistView{TicketHeader: s.ticketHeader(tt, ev, nil, now),
		Message: "Each date has its own waiting list: pick the date you want to wait for."}
	for _, d := range dates {
		if d.Date.Status != palaro.DateScheduled || d.Date.Past(now) {
			continue
		}
		l := views.Link{Label: palaro.DateSlugLabel(d.Slug), Href: palaro.WaitlistDatePath(tt.Code, d.Slug)}
		if d.Label != "" {
			l.Label += " · " + d.Label
		}
		if i := slices.IndexFunc(d.Event.TicketTypes, func(t palaro.TicketType) bool { return t.ID == tt.ID }); i >= 0 &&
			d.Event.TicketTypes[i].Available() > 0 {
			l.Label, l.Href = l.Label+" · on sale", views.WithDate("/b/"+tt.Code, d.Slug)
		}
		v.Dates = append(v.Dates, l)
	}
	if len(v.Dates) == 0 {
		v.Message = "This event has no dates to come."
	}
	status := http.StatusOK
	if c.Request().Method == http.MethodPost {
		status = http.StatusUnprocessableEntity
	}
	p := s.waitlistMeta(c, "Waiting list · "+tt.Name+" · "+ev.Name, "Join the waiting list for "+tt.Name+" tickets to "+ev.Name+".")
	return render(c, status, views.WaitlistPage(p, v))
}

// waitlistOfferPage serves an offer's link: the tickets held and a button to buy them on the
// normal purchase form; a used or expired offer says so.
func (s *Server) waitlistOfferPage(c *echo.Context) error {
	o, err := s.services.Waitlist.FindOffer(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	now := s.Now()
	tt, ev, d := o.TicketType, o.Event, (*dated)(nil)
	if o.DateSlug != "" { // an offer for a series date: the head names the date, the link buys for it
		if tt, ev, err = s.services.TicketTypes.FindTicketType(c.Request().Context(), tt.Code); err != nil {
			return err // the event with all its ticket types, as the date's pages show it
		}
		if tt, ev, d, err = s.ticketOnDate(c.Request().Context(), tt, ev, o.DateSlug); err != nil {
			return err
		}
	}
	what, rejoin := tt.Name, palaro.WaitlistDatePath(tt.Code, o.DateSlug)
	if d != nil {
		what += " on " + palaro.DateSlugLabel(d.Slug)
	}
	v := views.WaitlistOfferView{TicketHeader: s.ticketHeader(tt, ev, d, now)}
	if d == nil || d.Date.Status == palaro.DateScheduled { // the header speaks of the offer, not of the sale
		v.Ticket.Available, v.Ticket.Unavailable = true, ""
	} // else it says the date is cancelled or postponed
	v.Ticket.WaitlistHref = ""
	switch {
	case o.Claimable(now):
		v.Heading = "Tickets held for you"
		v.Message = fmt.Sprintf("%s of %s %s held for you (%s) until %s, Manila time. Buy them before then, or they go to the next person on the waiting list.",
			palaro.Tickets(o.Quantity), what, isAre(o.Quantity), o.Email, o.ExpiresAt.In(palaro.Manila).Format(offerTimeFormat))
		v.BuyHref = views.WithDate("/b/"+tt.Code+"?offer="+url.QueryEscape(c.Param("token")), o.DateSlug)
		if len(o.Seats) > 0 {
			v.Heading = seatsWord(len(o.Seats)) + " held for you"
			v.Message = fmt.Sprintf("%s %s of %s %s held for you (%s) until %s, Manila time. Buy them before then, or they go to the next person on the waiting list.",
				seatsWord(len(o.Seats)), strings.Join(o.Seats, ", "), what, isAre(o.Quantity), o.Email, o.ExpiresAt.In(palaro.Manila).Format(offerTimeFormat))
			v.Seats = o.Seats
			v.BuyHref = views.WithDate("/b/"+tt.Code+"?seats="+url.QueryEscape(strings.Join(o.Seats, ","))+"&offer="+url.QueryEscape(c.Param("token")), o.DateSlug)
		}
		v.DeclineAction = palaro.WaitlistOfferPath(c.Param("token")) + "/decline"
		v.DeclineLabel = "Pass these tickets on"
		if len(o.Seats) > 0 {
			v.DeclineLabel = "Pass these seats on"
		}
	case o.Declined:
		v.Heading = "You passed this offer on"
		v.Message = "The tickets went to the next person on the waiting list, or back on sale. You can join the list again."
		v.Links = []views.Link{{Label: "Join the waiting list again", Href: rejoin}}
	case o.Status == palaro.OfferClaimed:
		v.Heading = "You used this offer"
		v.Message = "These tickets went to your order. If you did not pay in time, they went back to the waiting list."
		v.Links = []views.Link{{Label: "Open your order", Href: palaro.OrderPath(o.OrderPublicID)}}
	case d != nil && d.Date.Status != palaro.DateScheduled: // closed when the date was called off; the header says so
		v.Heading = "Your offer has ended"
		v.Message = "The date's waiting list has ended and the tickets held for you were released."
		if d.Date.Status == palaro.DatePostponed {
			v.Message = "The tickets held for you were released. You keep your place on the date's waiting list: when it has a new date and tickets come back, we offer them to the list in order."
		}
	default:
		v.Heading = "This offer has expired"
		v.Message = "It was not used in time, so the tickets went to the next person on the waiting list. You can join the list again."
		v.Links = []views.Link{{Label: "Join the waiting list again", Href: rejoin}}
	}
	p := s.waitlistMeta(c, v.Heading+" · "+tt.Name, v.Heading)
	return render(c, http.StatusOK, views.WaitlistOfferPage(p, v))
}

// waitlistDecline gives up an offer from its link (a form on the offer page): its tickets go to
// the next person at once; the offer page then says so.
func (s *Server) waitlistDecline(c *echo.Context) error {
	token := c.Param("token")
	if err := s.services.Waitlist.Decline(c.Request().Context(), token, s.Now()); err != nil && palaro.ErrorCode(err) != palaro.ECONFLICT {
		return err // an offer used or ended meanwhile: its page says what became of it
	}
	s.eventsChanged() // tickets may be back on sale
	return c.Redirect(http.StatusSeeOther, palaro.WaitlistOfferPath(token))
}

// waitlistMeta is the Page of a waiting-list page: a back arrow, never indexed (it is personal
// or changes with the sale).
func (s *Server) waitlistMeta(c *echo.Context, title, description string) views.Page {
	p := s.page(c, title+" · Palaro", description)
	p.Nav = views.NavDefaultBack
	p.NoIndex = true
	return p
}

// seatsWord says "Seat" or "Seats".
func seatsWord(n int) string {
	if n == 1 {
		return "Seat"
	}
	return "Seats"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// withWaitlist gives a sold-out ticket type's row its waiting list, when the server keeps waiting
// lists: the row's button becomes 'Join the waiting list'.
func (s *Server) withWaitlist(tv views.TicketView, tt palaro.TicketType) views.TicketView {
	if !tv.Available && tv.Unavailable == "Sold out" {
		tv.WaitlistHref = palaro.WaitlistPath(tt.Code)
	}
	return tv
}

// heldOffer returns the waiting-list offer of a link token when it can be used now to buy the
// ticket type with code ticketCode on the series date slug date ("" for none), else nil. Such an
// offer holds its tickets already, so its holder skips the event's queue (queueDetour,
// queueGate) like an admitted visitor.
func (s *Server) heldOffer(c *echo.Context, ticketCode, token, date string) *palaro.WaitlistOffer {
	if token == "" {
		return nil
	}
	o, err := s.services.Waitlist.FindOffer(c.Request().Context(), token)
	if err != nil || o.TicketType.Code != ticketCode || !o.Claimable(s.Now()) || o.DateSlug != strings.TrimSpace(date) {
		return nil // a series date's offer buys for its date only
	}
	return o
}

// buyOffer applies the waiting-list offer of the buy page's ?offer= link (or of its form, which
// posts it back): while it can be used, its tickets (held for it, so the type reads sold out) can
// be bought on the form. It returns the offer, or nil (with a notice on the page when the link no
// longer works).
func (s *Server) buyOffer(c *echo.Context, tt *palaro.TicketType, view *views.BuyView) *views.OfferJSON {
	token := c.FormValue("offer")
	if token == "" {
		return nil
	}
	o := s.heldOffer(c, tt.Code, token, c.FormValue("date"))
	if o == nil {
		view.OfferNotice = "This waiting-list offer can no longer be used."
		return nil
	}
	view.Ticket.Available, view.Ticket.Unavailable, view.Ticket.WaitlistHref = true, "", ""
	what := palaro.Tickets(o.Quantity)
	if len(o.Seats) > 0 {
		what = fmt.Sprintf("%s (seats %s)", what, strings.Join(o.Seats, ", "))
	}
	view.OfferNotice = fmt.Sprintf("%s %s held for you (%s) until %s, Manila time.", what, isAre(o.Quantity),
		o.Email, o.ExpiresAt.In(palaro.Manila).Format(offerTimeFormat))
	return &views.OfferJSON{Token: token, Quantity: o.Quantity, Email: o.Email}
}

// offeredSeats returns the seats the request's waiting-list offer holds (query or form value
// "offer"), or else those of its best-available hold ("hold") on the series date d (nil: the
// event itself), for ticket type tt while they can be used; nil otherwise. Those seats are taken (by the offer or the hold) yet free for their
// holder: an offer's all together, a hold's any of them (chosenSeats).
func (s *Server) offeredSeats(c *echo.Context, tt *palaro.TicketType, d *dated) (offer, held []string) {
	if !tt.Seated {
		return nil, nil
	}
	if o := s.heldOffer(c, tt.Code, c.FormValue("offer"), c.FormValue("date")); o != nil {
		return o.Seats, nil
	}
	held, _ = s.services.Seats.HeldSeats(c.Request().Context(), tt.ID, d.id(), c.FormValue("hold"))
	return nil, held
}

// withOffer fixes the purchase form to an offer: its e-mail address and quantity, from the
// tickets held for it; the server-drawn form posts the offer back with its action.
func withOffer(props *views.PurchaseProps, form *views.PurchaseForm, offer *views.OfferJSON) {
	if offer == nil {
		return
	}
	props.Offer = offer
	props.Ticket.Quantity = offer.Quantity
	for i := range props.Rules {
		if f := props.Rules[i].Field; f == palaro.FieldEmail || f == palaro.FieldQuantity {
			props.Rules[i].Locked = true
		}
	}
	form.Action += "?offer=" + url.QueryEscape(offer.Token)
	if form.Values == nil {
		form.Values = map[string]string{}
	}
	form.Values[palaro.FieldEmail], form.Values[palaro.FieldQuantity] = offer.Email, strconv.Itoa(offer.Quantity)
}
