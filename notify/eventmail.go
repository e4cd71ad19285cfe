package notify

import (
	"cmp"
	"fmt"
	"strings"

	"palaro"
)

var _ palaro.EventEmailComposer = Composer{}

// eventVars are the placeholders' values for an e-mail about ev to the person named name.
func eventVars(ev *palaro.Event, name string) palaro.EmailVars {
	return palaro.EmailVars{Name: cmp.Or(strings.TrimSpace(name), "there"), Event: ev.Name, Date: when(ev.StartsAt), Venue: palaro.VenueLine(ev.Venue)}
}

// buyerName is the name of an order's buyer, as they gave it.
func buyerName(o *palaro.Order) string {
	return cmp.Or(o.Buyer.FullName, strings.TrimSpace(o.Buyer.FirstName+" "+o.Buyer.LastName))
}

// organizerWords are the paragraphs of the organizer's words (or of def when they wrote none)
// with the placeholders filled; the e-mail's HTML escapes them like any text.
func organizerWords(words, def string, vars palaro.EmailVars) []string {
	return palaro.EmailParagraphs(palaro.FillEmailWords(cmp.Or(strings.TrimSpace(words), def), vars))
}

// eventRows are the rows of an e-mail about ev: its name, start (Manila time) and venue.
func eventRows(ev *palaro.Event) [][2]string {
	return [][2]string{{"Event", ev.Name}, {"When", when(ev.StartsAt)}, {"Where", palaro.VenueLine(ev.Venue)}}
}

// Reminder reminds a ticket's holder of its event: the organizer's words (or Palaro's), the
// event's facts, the ticket's QR code inline and link, and the calendar links.
func (c Composer) Reminder(t *palaro.Ticket, words string) palaro.Message {
	ev := t.Event
	v := emailView{Support: c.Support, Title: ev.Name + " is coming up"}
	v.Intro = organizerWords(words, palaro.DefaultReminderWords, eventVars(ev, t.HolderName))
	v.Rows = eventRows(ev)
	if t.TicketType.Name != "" {
		v.Rows = append(v.Rows, [2]string{"Ticket", t.TicketType.Name})
	}
	if t.Seat != "" {
		v.Rows = append(v.Rows, [2]string{"Seat", t.Seat})
	}
	label := "Your ticket"
	if t.Code != "" {
		label += " · " + t.Code
	}
	link := emailLink{Label: label, URL: c.url(palaro.TicketPath(t.PublicID))}
	var images []palaro.InlineImage
	if img, ok := c.ticketQRImage(*t); ok {
		link.QR = img.ContentID
		images = append(images, img)
	}
	v.Links = []emailLink{link,
		{Label: "Add to your calendar (.ics)", URL: c.url(palaro.EventICSPath(ev.Code))},
		{Label: "Add to Google Calendar", URL: palaro.GoogleCalendarURL(ev, c.BaseURL)}}
	v.Outro = []string{"Keep this e-mail: its QR code is your ticket and shows without a connection. Anyone with the QR code or link can use that ticket."}
	m := c.message(palaro.MessageReminder, t.Email, "Reminder: "+ev.Name+" on "+ev.StartsAt.In(palaro.Manila).Format("Mon, 2 Jan"), v)
	m.Images = images
	return m
}

// OrganizerMessage is an organizer's message to the holder of tickets of ev: their words, then
// the event's facts and links to the holder's tickets.
func (c Composer) OrganizerMessage(ev *palaro.Event, msg palaro.OrganizerMessage, to string, tickets []*palaro.Ticket) palaro.Message {
	name := ""
	if len(tickets) > 0 {
		name = tickets[0].HolderName
	}
	v := emailView{Support: c.Support, Title: msg.Subject}
	v.Intro = organizerWords(msg.Body, "", eventVars(ev, name))
	v.Rows = eventRows(ev)
	for i, t := range tickets {
		v.Links = append(v.Links, emailLink{Label: fmt.Sprintf("Ticket %d of %d · %s", i+1, len(tickets), t.Code), URL: c.url(palaro.TicketPath(t.PublicID))})
	}
	v.Outro = []string{"This message is from " + cmp.Or(ev.Organizer.Name, "the organizer") + ", the organizer of " + ev.Name +
		", to the holders of its tickets. Palaro sent it for them."}
	return c.message(palaro.MessageOrganizerMessage, to, msg.Subject, v)
}
