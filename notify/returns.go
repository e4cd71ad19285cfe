package notify

import "palaro"

var _ palaro.ReturnsComposer = Composer{}

// SelfCancelled tells the buyer that they cancelled their order, what is refunded and what the
// organizer keeps.
func (c Composer) SelfCancelled(o *palaro.Order, q *palaro.SelfCancelQuote) palaro.Message {
	eventName := orderEventName(o)
	v := emailView{
		Support: c.Support,
		Title:   "Your order is cancelled",
		Intro: []string{"You cancelled your order for " + eventName + ". Its tickets no longer admit anyone at the gate.",
			"We are refunding " + q.Refund.String() + " to the way you paid; the organizer keeps " + q.Fee.String() +
				" as their cancellation fee. The refund can take a few days to reach you."},
		Rows: [][2]string{{"Order", o.PublicID}, {"Tickets cancelled", palaro.Tickets(q.Tickets)},
			{"Paid for them", q.Paid.String()}, {"Cancellation fee", q.Fee.String()}, {"Refund", q.Refund.String()}},
		Button: emailLink{Label: "See your order", URL: c.url(palaro.OrderPath(o.PublicID))},
	}
	return c.message(palaro.MessageSelfCancelled, o.Email, "Your order for "+eventName+" is cancelled", v)
}

// ReturnSold tells the buyer that the ticket they returned was bought by someone else, so its
// face value is being refunded to them.
func (c Composer) ReturnSold(o *palaro.Order, code string, amount palaro.Money) palaro.Message {
	eventName := orderEventName(o)
	v := emailView{
		Support: c.Support,
		Title:   "Your returned ticket was bought",
		Intro: []string{"Someone bought the ticket you returned for " + eventName + ", so we are refunding what you paid " +
			"for it, " + amount.String() + ", to the way you paid. It can take a few days to reach you.",
			"Ticket " + code + " no longer admits anyone at the gate."},
		Rows:   [][2]string{{"Order", o.PublicID}, {"Ticket", code}, {"Refund", amount.String()}},
		Button: emailLink{Label: "See your order", URL: c.url(palaro.OrderPath(o.PublicID))},
	}
	return c.message(palaro.MessageReturnSold, o.Email, "Your returned ticket for "+eventName+" was bought", v)
}
