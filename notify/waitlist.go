package notify

import (
	"strconv"
	"strings"

	"palaro"
)

var _ palaro.WaitlistComposer = Composer{}

// WaitlistJoined confirms a place on a ticket type's waiting list.
func (c Composer) WaitlistJoined(j palaro.WaitlistJoined) palaro.Message {
	name, ticket := j.Event.Name+onDate(j.Entry.DateSlug), j.TicketType.Name
	intro := "You are on the waiting list for " + palaro.Tickets(j.Entry.Quantity) + " of " + ticket + " for " + name + "."
	if j.Updated {
		intro = "You were on the waiting list already: we now wait for " + palaro.Tickets(j.Entry.Quantity) + " of " +
			ticket + " for " + name + " for you. Your place is kept."
	}
	v := emailView{
		Support: c.Support,
		Title:   "You are on the waiting list",
		Intro: []string{intro, "When tickets come back (an unpaid order expires, someone cancels or is refunded), we offer " +
			"them to the people on the list in order: you will get an e-mail with a link that holds the tickets for you for a while."},
		Rows:   withDate([][2]string{{"Event", j.Event.Name}}, j.Entry.DateSlug, [2]string{"Ticket", ticket}, [2]string{"Tickets wanted", palaro.Tickets(j.Entry.Quantity)}),
		Button: emailLink{Label: "See the event", URL: c.url(eventPage(j.Event.Code, j.Entry.DateSlug))},
		Outro:  []string{"Nothing to do until then. To change how many tickets you wait for, join again with this address."},
	}
	if j.Entry.Position > 0 {
		v.Rows = append(v.Rows, [2]string{"Your place", strconv.Itoa(j.Entry.Position)})
	}
	return c.message(palaro.MessageWaitlistJoined, j.Entry.Email, "You are on the waiting list for "+name, v)
}

// WaitlistOffer tells a person on the waiting list that tickets are held for them, with the link.
func (c Composer) WaitlistOffer(o *palaro.WaitlistOffer, token string) palaro.Message {
	name, ticket := "", ""
	if o.Event != nil {
		name = o.Event.Name
	}
	if o.TicketType != nil {
		ticket = o.TicketType.Name
	}
	until := o.ExpiresAt.In(palaro.Manila).Format("Mon, 2 Jan 2006, 3:04 PM")
	what := palaro.Tickets(o.Quantity)
	rows := withDate([][2]string{{"Event", name}}, o.DateSlug, [2]string{"Ticket", ticket}, [2]string{"Tickets", palaro.Tickets(o.Quantity)})
	name += onDate(o.DateSlug)
	if len(o.Seats) > 0 {
		what += " (seats " + strings.Join(o.Seats, ", ") + ")"
		rows = append(rows, [2]string{"Seats", strings.Join(o.Seats, ", ")})
	}
	v := emailView{
		Support: c.Support,
		Title:   "Tickets are waiting for you",
		Intro: []string{"Good news: " + what + " of " + ticket + " for " + name +
			" came back, and we are holding them for you until " + until + " (Manila time).",
			"Open the link to buy them. If you do not buy them in time, they go to the next person on the waiting list."},
		Rows:   append(rows, [2]string{"Held until", until}),
		Button: emailLink{Label: "Buy your tickets", URL: c.url(palaro.WaitlistOfferPath(token))},
		Outro:  []string{"The link is for you (" + o.Email + ") and works once."},
	}
	return c.message(palaro.MessageWaitlistOffer, o.Email, "Your tickets for "+name+" are held for you", v)
}

// WaitlistOfferExpired tells a person on the waiting list that the tickets held for them were not
// bought in time and went to the next person, with the way back onto the list.
func (c Composer) WaitlistOfferExpired(o *palaro.WaitlistOffer) palaro.Message {
	name, ticket, code := "", "", ""
	if o.Event != nil {
		name = o.Event.Name + onDate(o.DateSlug)
	}
	if o.TicketType != nil {
		ticket, code = o.TicketType.Name, o.TicketType.Code
	}
	v := emailView{
		Support: c.Support,
		Title:   "Your held tickets were released",
		Intro: []string{"The " + palaro.Tickets(o.Quantity) + " of " + ticket + " for " + name + " held for you were not bought in time, " +
			"so they went to the next person on the waiting list.", "If you still want tickets, join the waiting list again: you join at its end."},
		Button: emailLink{Label: "Join the waiting list again", URL: c.url(palaro.WaitlistDatePath(code, o.DateSlug))},
	}
	return c.message(palaro.MessageWaitlistOfferExpired, o.Email, "Your held tickets for "+name+" were released", v)
}

// WaitlistDateOff tells a person waiting for a series date that the date was cancelled (they are
// off its list) or postponed (they keep their place until it is back on sale), and that the
// tickets held for them, if any, were released.
func (c Composer) WaitlistDateOff(w palaro.WaitlistDateOff) palaro.Message {
	day := palaro.DateSlugLabel(w.Date.Slug)
	name := w.Event.Name + " on " + day
	status, then := "postponed", "You keep your place on its waiting list: when it has a new date "+
		"and tickets come back, we offer them to the list in order."
	if w.Date.Status == palaro.DateCancelled {
		status, then = "cancelled", "Its waiting list has ended: you are no longer on it. Nothing was charged."
	}
	intro := []string{name + " is " + status + ".", then}
	if w.Released > 0 {
		were := " were"
		if w.Released == 1 {
			were = " was"
		}
		intro = append(intro, "The "+palaro.Tickets(w.Released)+" held for you"+were+" released: the link of that offer no longer works.")
	}
	v := emailView{
		Support: c.Support,
		Title:   "This date is " + status,
		Intro:   intro,
		Rows:    [][2]string{{"Event", w.Event.Name}, {"Date", day}, {"Ticket", w.TicketType.Name}, {"Tickets wanted", palaro.Tickets(w.Entry.Quantity)}},
		Button:  emailLink{Label: "See the other dates", URL: c.url("/e/" + w.Event.Code + "#dates")},
	}
	return c.message(palaro.MessageWaitlistDateOff, w.Entry.Email, name+" is "+status, v)
}

// onDate names a series date after an event's name (" on Sat 9 Jan 2027"); "" for no date.
func onDate(slug string) string {
	if slug == "" {
		return ""
	}
	return " on " + palaro.DateSlugLabel(slug)
}

// withDate is an e-mail's rows: the first ones, a "Date" row for a series date (slug set), the rest.
func withDate(rows [][2]string, slug string, rest ...[2]string) [][2]string {
	if slug != "" {
		rows = append(rows, [2]string{"Date", palaro.DateSlugLabel(slug)})
	}
	return append(rows, rest...)
}

// eventPage is the page of an event, or of one date of its series.
func eventPage(code, slug string) string {
	if slug == "" {
		return "/e/" + code
	}
	return "/e/" + code + "/" + slug
}
