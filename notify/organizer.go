package notify

import "palaro"

var _ palaro.OrganizerComposer = Composer{}

// OrganizerApproved tells an owner that their organization may now run events on Palaro.
func (c Composer) OrganizerApproved(org palaro.Organization) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "Your organization is approved",
		Intro: []string{"Good news: " + org.Name + " can now run its events on Palaro. Sign in to the organizer " +
			"console to create your first event, add ticket types and publish it."},
		Button: emailLink{Label: "Open the organizer console", URL: c.url("/organizer")},
		Outro:  []string{"Invite your team from the console: managers, gate staff and booth staff."},
	}
	return c.message(palaro.MessageOrganizerApproved, org.OwnerEmail, org.Name+" is approved on Palaro", v)
}

// TeamInvitation invites an address to join an organization's team on Palaro.
func (c Composer) TeamInvitation(org, role, invitedBy, email, token string) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "Join " + org + " on Palaro",
		Intro: []string{invitedBy + " invites you to the team of " + org + " as " + role + ". Sign in (or sign up) with this " +
			"address, " + email + ", then open the link below."},
		Button: emailLink{Label: "Join the team", URL: c.url(palaro.InvitationPath(token))},
		Outro:  []string{"The link works for 7 days. If you do not know " + org + ", ignore this e-mail."},
	}
	return c.message(palaro.MessageTeamInvitation, email, "Join "+org+" on Palaro", v)
}

// TicketCancelled tells the holder (or the buyer) of a ticket that the organizer cancelled it.
func (c Composer) TicketCancelled(t *palaro.Ticket, to string) palaro.Message {
	eventName := ticketEventName(t)
	v := emailView{
		Support: c.Support,
		Title:   "Your ticket was cancelled",
		Intro:   []string{"The organizer of " + eventName + " cancelled this ticket. It no longer admits anyone at the gate."},
		Rows:    [][2]string{{"Ticket", t.TicketType.Name}, {"Code", t.Code}, {"Holder", t.Email}},
		Outro: []string{"Cancelling a ticket does not by itself return what was paid for it: if a refund is due, the " +
			"organizer makes it, and you get another e-mail when they mark the order refunded. Questions: write to us."},
	}
	return c.message(palaro.MessageTicketCancelled, to, "Your ticket for "+eventName+" was cancelled", v)
}

// OrderRefunded tells the buyer that the organizer marked their order refunded and cancelled its tickets.
func (c Composer) OrderRefunded(o *palaro.Order) palaro.Message {
	eventName := orderEventName(o)
	v := emailView{
		Support: c.Support,
		Title:   "Your order was refunded",
		Intro: []string{"The organizer of " + eventName + " marked your order refunded. Its tickets are cancelled: they " +
			"no longer admit anyone at the gate."},
		Rows: [][2]string{{"Order", o.PublicID}, {"Amount", o.Total.Display()}},
		Outro: []string{"The organizer returns the money to you themselves, not through Palaro, so it can take a few " +
			"days to reach you. If it does not arrive, write to us."},
	}
	return c.message(palaro.MessageOrderRefunded, o.Email, "Your order for "+eventName+" was refunded", v)
}

var _ palaro.WebhookComposer = Composer{}

// WebhookPaused tells an organization's owner that a webhook endpoint was paused after its
// deliveries failed for three days.
func (c Composer) WebhookPaused(to string, e *palaro.WebhookEndpoint) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "A webhook endpoint was paused",
		Intro: []string{"Palaro could not deliver events to " + e.URL + " for three days, so the endpoint is paused: " +
			"no more events are sent to it."},
		Button: emailLink{Label: "Open the webhooks", URL: c.url("/organizer/webhooks")},
		Outro: []string{"Once the receiver answers again, resume the endpoint in the console: the events queued " +
			"meanwhile are sent then, and any one can be sent again from its list of deliveries."},
	}
	return c.message(palaro.MessageWebhookPaused, to, "Webhook endpoint paused", v)
}
