// Package notify writes Palaro's e-mails and delivers the outbox: a Composer builds messages
// (text and HTML), a Sender delivers one, and a Worker drains the outbox with retries.
package notify

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"palaro"
	"palaro/internal/qrimage"
)

// Composer implements palaro.Composer with absolute links to the site.
type Composer struct {
	// BaseURL is the site's absolute URL without a trailing slash.
	BaseURL string
	// Support is the address people can write to.
	Support string
	// TicketQR returns what a ticket's QR code holds (palaro.SignedTicketQR with the server's
	// key); when set, a confirmation carries each ticket's QR code as an inline PNG, so the
	// ticket works from the mail app without a connection.
	TicketQR func(code string) string
}

var _ palaro.Composer = Composer{}

// NewComposer returns a composer that links to baseURL.
func NewComposer(baseURL, support string) Composer {
	if support == "" {
		support = "support@palaro.ph"
	}
	return Composer{BaseURL: strings.TrimRight(baseURL, "/"), Support: support}
}

func (c Composer) url(path string) string { return c.BaseURL + path }

// OrderConfirmation lists an order's tickets (or the add-ons bought for a ticket) with links.
func (c Composer) OrderConfirmation(o *palaro.Order) palaro.Message {
	return c.OrderConfirmationWith(o, "")
}

// orderEventName is the name of an order's event ("" when it was not loaded).
func orderEventName(o *palaro.Order) string {
	if o.Event == nil {
		return ""
	}
	return o.Event.Name
}

// OrderConfirmationWith is OrderConfirmation opening with the organizer's words, their
// placeholders filled ("" for Palaro's words); the order's facts and tickets stay Palaro's.
func (c Composer) OrderConfirmationWith(o *palaro.Order, words string) palaro.Message {
	eventName := orderEventName(o)
	v := emailView{Support: c.Support}
	var rows [][2]string
	if o.Event != nil {
		rows = append(rows, [2]string{"Event", o.Event.Name},
			[2]string{"When", o.Event.StartsAt.In(palaro.Manila).Format("Mon, 2 Jan 2006, 3:04 PM")},
			[2]string{"Where", o.Event.Venue.Name})
	}
	kind, subject := palaro.MessageOrderConfirmation, "Your tickets for "+eventName
	if o.Kind == palaro.OrderKindAddOns {
		kind, subject = palaro.MessageAddOnReceipt, "Your add-ons for "+eventName
		v.Title = "Your add-ons are confirmed"
		v.Intro = []string{"Thank you! These add-ons are now on your ticket. Show the ticket at the venue to claim them."}
	} else {
		v.Title = "Your tickets are confirmed"
		v.Intro = []string{"Thank you for your order! Open each ticket on your phone and show its QR code at the gate."}
		if words != "" && o.Event != nil {
			v.Intro = palaro.EmailParagraphs(palaro.FillEmailWords(words, eventVars(o.Event, buyerName(o))))
		}
		if o.TicketType != nil {
			rows = append(rows, [2]string{"Ticket", fmt.Sprintf("%d × %s", o.Quantity, o.TicketType.Name)})
		}
	}
	for _, a := range o.AddOns {
		label := "Add-on: " + a.Name
		if a.Count() > 1 {
			label += fmt.Sprintf(" × %d", a.Count())
		}
		rows = append(rows, [2]string{label, (a.Price * palaro.Money(a.Count())).Display()})
	}
	if o.PromoDiscount > 0 {
		rows = append(rows, [2]string{"Promo " + o.PromoCode, "-" + o.PromoDiscount.String()})
	}
	if o.SeniorPWDDiscount > 0 {
		rows = append(rows, [2]string{"Senior citizen / PWD discount", "-" + o.SeniorPWDDiscount.String()})
	}
	rows = append(rows, [2]string{"Total", o.Total.Display()}, [2]string{"Order", o.PublicID})
	v.Rows = rows
	var images []palaro.InlineImage
	for i, t := range o.Tickets {
		label := fmt.Sprintf("Ticket %d of %d · %s", i+1, len(o.Tickets), t.Code)
		if o.Kind == palaro.OrderKindAddOns {
			label = "Your ticket · " + t.Code
		}
		if len(t.AddOns) > 0 { // which ticket carries which add-ons
			names := make([]string, 0, len(t.AddOns))
			for _, a := range t.AddOns {
				names = append(names, a.Name)
			}
			label += " · with " + strings.Join(names, ", ")
		}
		if t.Discount.Type != "" { // the gate checks the holder's ID
			label += " · " + palaro.DiscountLabel(t.Discount.Type) + ", " + t.Discount.HolderName + " — bring your ID"
		}
		link := emailLink{Label: label, URL: c.url(palaro.TicketPath(t.PublicID))}
		if img, ok := c.ticketQRImage(t); ok {
			link.QR = img.ContentID
			images = append(images, img)
		}
		v.Links = append(v.Links, link)
	}
	for _, ref := range o.Invoices {
		if ref.Kind == palaro.InvoiceKindInvoice {
			v.Links = append(v.Links, emailLink{Label: "Sales invoice No. " + ref.Number, URL: c.url(palaro.InvoicePath(ref.PublicID))})
		}
	}
	v.Button = emailLink{Label: "View your order", URL: c.url(palaro.OrderPath(o.PublicID))}
	v.Outro = []string{"Keep this e-mail: the links are your tickets. Anyone with a link can open that ticket."}
	if len(images) > 0 {
		v.Outro[0] = "Keep this e-mail: its QR codes and links are your tickets, and the QR codes show without a connection. Anyone with a link or QR code can use that ticket."
	}
	m := c.message(kind, o.Email, subject, v)
	m.Images = images
	return m
}

// ticketQRSize is the width in pixels of a ticket's QR code in an e-mail (drawn at 200 CSS px).
const ticketQRSize = 400

// ticketQRImage is a ticket's QR code as an inline PNG, when the composer knows what it holds.
func (c Composer) ticketQRImage(t palaro.Ticket) (palaro.InlineImage, bool) {
	if c.TicketQR == nil || t.Code == "" || t.Status == palaro.TicketCancelled {
		return palaro.InlineImage{}, false
	}
	png, err := qrimage.PNG(c.TicketQR(t.Code), ticketQRSize, 4)
	if err != nil {
		return palaro.InlineImage{}, false // the link still opens the ticket
	}
	return palaro.InlineImage{ContentID: "ticket-" + t.PublicID + "@palaro", Name: "ticket-" + t.PublicID + ".png", PNG: png}, true
}

// EmailChangeConfirmation asks a ticket's current holder to consent to its move to newEmail.
func (c Composer) EmailChangeConfirmation(t *palaro.Ticket, newEmail, token string) palaro.Message {
	eventName := ticketEventName(t)
	v := emailView{
		Support: c.Support,
		Title:   "Move your ticket to another address?",
		Intro: []string{"Someone asked to move your ticket " + t.Code + " for " + eventName + " from this address (" +
			t.Email + ") to " + newEmail + ". Open the link below only if you want to give the ticket away.",
			"Once you confirm, " + newEmail + " confirms receipt; the ticket is then reissued there with a new code, " +
				"QR code and link, and your current ones stop working."},
		Button: emailLink{Label: "Yes, move my ticket", URL: c.url(palaro.EmailChangeConfirmPath(token))},
		Outro:  []string{"The link works once, for 24 hours. If you did not ask for this, ignore this e-mail: your ticket stays yours."},
	}
	return c.message(palaro.MessageEmailChange, t.Email, "Confirm moving your ticket for "+eventName, v)
}

// TransferReceipt asks the new address to confirm that it receives a ticket.
func (c Composer) TransferReceipt(t *palaro.Ticket, newEmail, token string) palaro.Message {
	eventName := ticketEventName(t)
	v := emailView{
		Support: c.Support,
		Title:   "A ticket is waiting for you",
		Intro: []string{"The holder of a ticket for " + eventName + " (" + t.TicketType.Name + ") wants to move it to this address (" +
			newEmail + "). Open the link below to accept it: the ticket is then reissued to you with a new code, QR code and link."},
		Button: emailLink{Label: "Accept the ticket", URL: c.url(palaro.EmailChangeConfirmPath(token))},
		Outro:  []string{"The link works once, for 24 hours. If you do not know about this ticket, ignore this e-mail."},
	}
	return c.message(palaro.MessageTransferReceipt, newEmail, "Accept your ticket for "+eventName, v)
}

// TransferDone tells the old or the new holder that a ticket was reissued to t.Email.
func (c Composer) TransferDone(t *palaro.Ticket, to, fromEmail string) palaro.Message {
	eventName := ticketEventName(t)
	v := emailView{Support: c.Support}
	if to == t.Email {
		v.Title = "Your ticket for " + eventName
		v.Intro = []string{"The ticket from " + fromEmail + " is yours now. Open it on your phone and show its QR code at the gate."}
		v.Rows = [][2]string{{"Ticket", t.TicketType.Name}, {"Code", t.Code}}
		v.Button = emailLink{Label: "Open your ticket", URL: c.url(palaro.TicketPath(t.PublicID))}
		v.Outro = []string{"Keep this e-mail: the link is your ticket. Anyone with the link can open it."}
		return c.message(palaro.MessageTransferDone, to, "Your ticket for "+eventName, v)
	}
	v.Title = "Your ticket was moved"
	v.Intro = []string{"Your " + t.TicketType.Name + " ticket for " + eventName + " now belongs to " + t.Email +
		". It was reissued there: its old code, QR code and link no longer work."}
	v.Outro = []string{"If you did not agree to this, write to us at once."}
	return c.message(palaro.MessageTransferDone, to, "Your ticket for "+eventName+" was moved", v)
}

// ticketEventName is the name of a ticket's event, or "" when it is not loaded.
func ticketEventName(t *palaro.Ticket) string {
	if t.Event != nil {
		return t.Event.Name
	}
	return ""
}

// TicketsLink sends an address the link to its tickets.
func (c Composer) TicketsLink(email, token string, tickets []*palaro.Ticket) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "Your Palaro tickets",
		Intro:   []string{fmt.Sprintf("Here is the link to the %s of %s.", palaro.Plural(len(tickets), "ticket", "tickets"), email)},
		Button:  emailLink{Label: "Open my tickets", URL: c.url(palaro.TicketsLinkPath(token))},
		Outro:   []string{"The link works for 24 hours. If you did not ask for it, ignore this e-mail."},
	}
	return c.message(palaro.MessageTicketsLink, email, "Your Palaro tickets", v)
}

// message renders a view as text and HTML.
func (c Composer) message(kind, to, subject string, v emailView) palaro.Message {
	var html bytes.Buffer
	if err := emailHTML(v).Render(context.Background(), &html); err != nil {
		html.Reset() // rendering into a buffer only fails on a broken template; text still goes out
	}
	return palaro.Message{Channel: palaro.ChannelEmail, Kind: kind, To: to, Subject: subject, Text: plainText(v), HTML: html.String()}
}

// plainText renders a view as the text part of an e-mail.
func plainText(v emailView) string {
	var b strings.Builder
	b.WriteString(v.Title + "\n\n")
	for _, p := range v.Intro {
		b.WriteString(p + "\n\n")
	}
	for _, r := range v.Rows {
		b.WriteString(r[0] + ": " + r[1] + "\n")
	}
	if len(v.Rows) > 0 {
		b.WriteString("\n")
	}
	if v.Button.URL != "" {
		b.WriteString(v.Button.Label + ": " + v.Button.URL + "\n")
	}
	for _, l := range v.Links {
		b.WriteString(l.Label + ": " + l.URL + "\n")
	}
	for _, p := range v.Outro {
		b.WriteString("\n" + p + "\n")
	}
	b.WriteString("\nQuestions? Write to " + v.Support + ".\n")
	return b.String()
}

var _ palaro.AccountComposer = Composer{}

// Welcome greets a new account and asks it to confirm its e-mail address.
func (c Composer) Welcome(u *palaro.User, activatePath string) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "Welcome to Palaro, " + u.FirstName + "!",
		Intro:   []string{"Thank you for signing up. Confirm your e-mail address to activate your account: your tickets bought with this address then show in your account."},
		Button:  emailLink{Label: "Activate my account", URL: c.url(activatePath)},
		Outro:   []string{"The link works for 7 days. If you did not sign up, ignore this e-mail."},
	}
	return c.message(palaro.MessageWelcome, u.Email, "Welcome to Palaro: activate your account", v)
}

// AccountEmailChange asks a new address to confirm that an account moves to it.
func (c Composer) AccountEmailChange(u *palaro.User, newEmail, confirmPath string) palaro.Message {
	v := emailView{
		Support: c.Support,
		Title:   "Confirm your new e-mail address",
		Intro: []string{"Hi " + u.FirstName + ", you asked your Palaro account to use this address (" + newEmail +
			") from now on. Open the link below to confirm."},
		Button: emailLink{Label: "Confirm the new address", URL: c.url(confirmPath)},
		Outro:  []string{"The link works once, for 24 hours. If you did not ask for this, ignore this e-mail."},
	}
	return c.message(palaro.MessageAccountEmail, newEmail, "Confirm your new e-mail address for Palaro", v)
}

// MobileCode is the SMS carrying the code that confirms a new mobile number.
func (c Composer) MobileCode(mobileNumber, code string) palaro.Message {
	return palaro.Message{Channel: palaro.ChannelSMS, Kind: palaro.MessageMobileCode, To: mobileNumber,
		Text: "Your Palaro code to confirm this mobile number is " + code + ". It expires in 10 minutes. Never share this code."}
}

// ResetCode is the SMS carrying a password reset code.
func (c Composer) ResetCode(mobileNumber, code string) palaro.Message {
	return palaro.Message{Channel: palaro.ChannelSMS, Kind: palaro.MessagePasswordResetCode, To: mobileNumber,
		Text: "Your Palaro password reset code is " + code + ". It expires in 10 minutes. Never share this code."}
}
