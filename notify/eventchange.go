package notify

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"palaro"
)

var _ palaro.EventChangeComposer = Composer{}

// when formats an event's start in Manila time for an e-mail.
func when(t time.Time) string { return t.In(palaro.Manila).Format("Mon, 2 Jan 2006, 3:04 PM") }

// EventChanged tells a ticket holder that their event, or one date of its series (ch.Date), is
// postponed, rescheduled or cancelled, what it means for their tickets and money, with links to
// their tickets.
func (c Composer) EventChanged(ch palaro.EventChange, ev *palaro.Event, to string, tickets []*palaro.Ticket) palaro.Message {
	name, page := ev.Name, "/e/"+ev.Code
	contact := cmp.Or(ev.Organizer.Email, c.Support)
	void := "Your tickets below are no longer needed."
	money := []string{"Your money: you are refunded in full, to the way you paid, within 30 days. You need not do anything; " +
		"if you have a question about your refund, write to " + contact + "."}
	if ch.Date != "" {
		name, page = ev.Name+" ("+cmp.Or(ch.DateName, palaro.DateSlugLabel(ch.Date))+")", page+"/"+ch.Date
		void, money = "Tickets for this date are no longer needed.", dateCancelledMoney(tickets, contact)
	}
	v := emailView{Support: c.Support}
	var subject string
	switch ch.Kind {
	case palaro.EventCancelled:
		subject = name + " is cancelled"
		v.Title = name + " is cancelled"
		v.Intro = append([]string{"We are sorry: " + ev.Organizer.Name + " cancelled " + name + ", planned for " +
			when(ch.Old.StartsAt) + " at " + ch.Old.Venue + ". " + void}, money...)
		v.Rows = [][2]string{{"Event", name}, {"Was planned for", when(ch.Old.StartsAt)}, {"Status", "Cancelled"}}
	case palaro.EventPostponed:
		subject = name + " is postponed"
		v.Title = name + " is postponed"
		v.Intro = []string{name + " will not take place on " + when(ch.Old.StartsAt) + ": " + ev.Organizer.Name +
			" postponed it. The new date is not set yet; we will e-mail you as soon as it is.",
			"Your tickets stay valid for the new date: keep them. If you would rather have your money back, write to " + contact +
				" within 14 days of this e-mail."}
		v.Rows = [][2]string{{"Event", name}, {"Was planned for", when(ch.Old.StartsAt)}, {"Status", "Postponed, new date to follow"}}
	default:
		subject = name + " has a new date"
		v.Title = name + ": new date"
		intro := name + " now takes place on " + when(ch.New.StartsAt) + " at " + ch.New.Venue + "."
		if ch.Old.Venue != ch.New.Venue && ch.Old.StartsAt.Equal(ch.New.StartsAt) {
			subject, v.Title = name+" moves to a new place", name+": new place"
		}
		v.Intro = []string{intro, "Your tickets stay valid: show the same QR codes at the gate. If you cannot come then, write to " +
			contact + " to ask for your money back."}
		v.Rows = [][2]string{{"Event", name}, {"New date", when(ch.New.StartsAt)}, {"Where", ch.New.Venue},
			{"Was", when(ch.Old.StartsAt) + " at " + ch.Old.Venue}}
	}
	for i, t := range tickets {
		label := fmt.Sprintf("Ticket %d of %d · %s", i+1, len(tickets), t.Code)
		if t.TicketType.Name != "" {
			label += " · " + t.TicketType.Name
		}
		v.Links = append(v.Links, emailLink{Label: label, URL: c.url(palaro.TicketPath(t.PublicID))})
	}
	v.Button = emailLink{Label: "See the event", URL: c.url(page)}
	if ch.Kind != palaro.EventCancelled {
		v.Outro = []string{"If you added the event to your calendar, add it again from your ticket page to get the change."}
	}
	return c.message(palaro.MessageEventChanged, to, subject, v)
}

// dateCancelledMoney says what a cancelled date of a series means for the money of a holder of
// tickets: day tickets of the date are refunded in full, with their add-ons (the date's refund
// starts with its cancellation); a pass stays valid on the other dates and its share for the
// date is refunded (store.passDateShare): always for a pass valid on every date (for a date it
// covered when bought), for a pass for some dates only when it can no longer be used in full.
func dateCancelledMoney(tickets []*palaro.Ticket, contact string) []string {
	var out []string
	if slices.ContainsFunc(tickets, func(t *palaro.Ticket) bool { return !t.TicketType.IsPass() }) {
		out = append(out, "Your money for the day tickets of this date: you are refunded in full, add-ons included, to the way "+
			"you paid, within 30 days. You need not do anything; if you have a question about your refund, write to "+contact+".")
	}
	if slices.ContainsFunc(tickets, func(t *palaro.Ticket) bool { return t.TicketType.PassKind == palaro.PassEvery }) {
		out = append(out, "Your season pass stays valid on the series' other dates, and you get back its share for this date: "+
			"what you paid for the pass divided by the number of dates it covered when you bought it, to the way you paid, "+
			"within 30 days (a date added after you bought the pass was not paid for and is not refunded). You need not do "+
			"anything; if you have a question, write to "+contact+".")
	}
	if slices.ContainsFunc(tickets, func(t *palaro.Ticket) bool { return t.TicketType.PassKind == palaro.PassCount }) {
		out = append(out, "Your pass stays valid for the dates still to come. If fewer dates are left than the uses left on "+
			"your pass, so it can no longer be used in full, you get back the share of one use (what you paid divided by its "+
			"number of dates), to the way you paid, within 30 days; otherwise your pass keeps all its uses. You need not do "+
			"anything; if you have a question, write to "+contact+".")
	}
	return out
}
