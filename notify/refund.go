package notify

import (
	"strings"

	"palaro"
)

var _ palaro.RefundComposer = Composer{}

// RefundStarted tells the buyer of order o that refund r of its tickets is on its way.
func (c Composer) RefundStarted(o *palaro.Order, r palaro.Refund) palaro.Message {
	eventName := orderEventName(o)
	why := "The organizer of " + eventName + " is refunding your order."
	switch r.Reason {
	case palaro.RefundEventCancelled:
		why = eventName + " is cancelled, so the organizer is refunding your order."
	case palaro.RefundBuyerCancelled:
		why = "You cancelled your order for " + eventName + ": here is your refund."
	case palaro.RefundReturnedTickets:
		why = "Your returned ticket for " + eventName + " found a new buyer: here is your refund."
	case palaro.RefundDateCancelled:
		if w := palaro.RefundWhy(eventName, r); w != "" {
			why = w + ", so the organizer is refunding your order."
			if len(r.TicketCodes) == 0 && len(r.PassCodes) > 0 {
				why = w + ", so the organizer is refunding your pass's share for that date."
			}
		}
	}
	rows := [][2]string{{"Order", o.PublicID}, {"Refund", r.Amount.Display()}}
	intro := []string{why}
	if len(r.PassCodes) > 0 {
		label := "Pass"
		if len(r.PassCodes) > 1 {
			label = "Passes"
		}
		rows = append(rows, [2]string{label, strings.Join(r.PassCodes, ", ")})
		intro = append(intro, "This is part of what you paid for the pass: it stays valid on the series' other dates.")
	}
	if len(r.TicketCodes) > 0 {
		label, void := "Ticket", "This ticket is cancelled: it no longer admits anyone at the gate."
		if len(r.TicketCodes) > 1 {
			label, void = "Tickets", "These "+palaro.Plural(len(r.TicketCodes), "ticket", "tickets")+" are cancelled: they no longer admit anyone at the gate."
		}
		rows = append(rows, [2]string{label, strings.Join(r.TicketCodes, ", ")})
		intro = append(intro, void)
	}
	v := emailView{
		Support: c.Support,
		Title:   "Your refund is on its way",
		Intro:   intro,
		Rows:    rows,
		Outro: []string{"The money goes back the way you paid, through our payment provider. It can take a few days " +
			"(up to a few weeks for some banks and cards) to show. If it does not arrive, write to us."},
	}
	return c.message(palaro.MessageRefundStarted, o.Email, "Your refund for "+eventName, v)
}

// RefundEnded tells the buyer of order o how refund r ended: done (the money went back the way
// they paid) or failed (the organizer sees it and can try again; the gateway's reason is theirs).
func (c Composer) RefundEnded(o *palaro.Order, r palaro.Refund) palaro.Message {
	eventName := orderEventName(o)
	rows := [][2]string{{"Order", o.PublicID}, {"Refund", r.Amount.Display()}}
	switch len(r.TicketCodes) {
	case 0:
	case 1:
		rows = append(rows, [2]string{"Ticket", r.TicketCodes[0]})
	default:
		rows = append(rows, [2]string{"Tickets", strings.Join(r.TicketCodes, ", ")})
	}
	v := emailView{Support: c.Support, Button: emailLink{Label: "See your order", URL: c.url(palaro.OrderPath(o.PublicID))}}
	if w := palaro.RefundWhy(eventName, r); w != "" {
		rows = append([][2]string{{"Why", w}}, rows...)
	}
	if len(r.PassCodes) > 0 {
		rows = append(rows, [2]string{"Pass (still valid)", strings.Join(r.PassCodes, ", ")})
	}
	v.Rows = rows
	if r.Status == palaro.RefundFailed {
		v.Title = "Your refund did not go through"
		v.Intro = []string{"Our payment provider could not give back " + r.Amount.Display() + " for your order for " + eventName + ".",
			"The organizer sees this and can try again or refund you another way. If you do not hear from them within a few days, write to us."}
		return c.message(palaro.MessageRefundFailed, o.Email, "Your refund for "+eventName+" did not go through", v)
	}
	v.Title = "Your refund is done"
	v.Intro = []string{r.Amount.Display() + " for your order for " + eventName + " has gone back the way you paid.",
		"Your bank, card or wallet can take a few days to show it. The order page links the credit note."}
	return c.message(palaro.MessageRefundDone, o.Email, "Your refund for "+eventName+" is done", v)
}
