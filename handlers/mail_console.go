package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// sampleBuyer is the name previews and test e-mails put in {name}.
const sampleBuyer = "Juan Dela Cruz"

// emailsForm reads the e-mails page's form; a reminder time that is not a number is in fe.
func emailsForm(c *echo.Context, fe formErrors) palaro.EventEmails {
	e := palaro.EventEmails{Confirmation: c.FormValue(palaro.FieldConfirmationWords), Reminder: c.FormValue(palaro.FieldReminderWords),
		ReminderHours: fe.int(c, palaro.FieldReminderHours, "Reminder time")}
	if strings.TrimSpace(c.FormValue(palaro.FieldReminderHours)) == "" {
		e.ReminderHours = palaro.DefaultReminderHours
	}
	return e
}

func (s *Server) orgEmailsPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	e, err := s.services.Mail.EventEmails(c.Request().Context(), ev.ID)
	if err != nil {
		return err
	}
	return s.renderOrgEmails(c, caller, ev, e, nil, nil, http.StatusOK)
}

// renderOrgEmails renders the console's e-mails page with the values e, a refused form's err,
// the previews and a notice (instead of the one the URL names).
func (s *Server) renderOrgEmails(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, e palaro.EventEmails, err error,
	previews []views.OrgEmailPreview, status int, notice ...string) error {
	base := "/organizer/events/" + ev.Code + "/emails"
	hours := strconv.Itoa(e.ReminderHours)
	if v := c.FormValue(palaro.FieldReminderHours); c.Request().Method == http.MethodPost && v != "" {
		hours = v
	}
	v := views.OrgEmailsView{Frame: eventFrame(c, caller, ev, "E-mails · "+ev.Name), Previews: previews}
	if len(notice) > 0 {
		v.Frame.Notice = notice[0]
	}
	v.Form = views.OrgForm{Action: base, Submit: "Save", Error: formError(err), Sections: []views.OrgFormSection{{
		Title: "Confirmation e-mail",
		Fields: []views.FormField{withHint(views.FormField{Name: palaro.FieldConfirmationWords, Label: "Your words", Type: "textarea",
			Value: e.Confirmation, MaxLength: palaro.MaxEmailWords, Error: fieldError(err, palaro.FieldConfirmationWords)},
			"Sent when the tickets are issued. Empty: “Thank you for your order! Open each ticket on your phone and show its QR code at the gate.”")},
	}, {
		Title: "Reminder e-mail",
		Fields: []views.FormField{
			withHint(views.FormField{Name: palaro.FieldReminderWords, Label: "Your words", Type: "textarea", Value: e.Reminder,
				MaxLength: palaro.MaxEmailWords, Error: fieldError(err, palaro.FieldReminderWords)},
				"Sent once to each ticket holder, with the ticket's QR code and calendar links. Empty: “"+palaro.DefaultReminderWords+"”"),
			withHint(views.FormField{Name: palaro.FieldReminderHours, Label: "Hours before the start", Type: "text", InputMode: "numeric",
				Value: hours, MaxLength: 3, Required: true, Error: fieldError(err, palaro.FieldReminderHours)},
				"0 to "+strconv.Itoa(palaro.MaxReminderHours)+"; 0 sends no reminders."),
		},
	}}, Also: []views.OrgAction{{Label: "Preview", Action: base + "/preview"}, {Label: "Send me a test", Action: base + "/test"}}}
	return render(c, status, views.OrgEmails(s.orgPage(c, "E-mails · "+ev.Name), v))
}

// readEmailsForm reads and checks the e-mails form; a refusal is re-rendered by the caller.
func readEmailsForm(c *echo.Context) (palaro.EventEmails, error) {
	fe := formErrors{}
	e := emailsForm(c, fe)
	if len(fe) > 0 {
		return e, &palaro.Error{Code: palaro.EINVALID, Message: "Please correct the highlighted fields.", Fields: fe}
	}
	return e, e.Check()
}

func (s *Server) orgSaveEmails(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	e, err := readEmailsForm(c)
	if err == nil {
		err = s.services.Mail.SaveEventEmails(c.Request().Context(), ev.ID, caller.Actor(), e, s.Now())
	}
	if _, ok := userFacing(err); ok {
		return s.renderOrgEmails(c, caller, ev, e, err, nil, http.StatusUnprocessableEntity)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/emails?notice=saved")
}

// emailKinds are the e-mails whose words the page edits, with their titles and words.
func emailKinds(e palaro.EventEmails) []struct{ kind, title, words string } {
	return []struct{ kind, title, words string }{{palaro.EmailConfirmation, "Confirmation", e.Confirmation},
		{palaro.EmailReminder, "Reminder", e.Reminder}}
}

func (s *Server) orgPreviewEmails(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	e, err := readEmailsForm(c)
	if err != nil {
		if _, ok := userFacing(err); ok {
			return s.renderOrgEmails(c, caller, ev, e, err, nil, http.StatusUnprocessableEntity)
		}
		return err
	}
	var previews []views.OrgEmailPreview
	for _, k := range emailKinds(e) {
		m, err := s.services.Mail.SampleEmail(c.Request().Context(), ev, k.kind, k.words, caller.Email, sampleBuyer)
		if err != nil {
			return err
		}
		previews = append(previews, views.OrgEmailPreview{Title: k.title, Subject: m.Subject, Text: m.Text})
	}
	return s.renderOrgEmails(c, caller, ev, e, nil, previews, http.StatusOK)
}

func (s *Server) orgTestEmails(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	e, err := readEmailsForm(c)
	if err == nil && caller.Email == "" {
		err = palaro.Errorf(palaro.EINVALID, "A test goes to your own e-mail address: sign in to the console to send one.")
	}
	if err == nil {
		err = s.throttleMail(c, mailRecipient(caller.Email))
	}
	for _, k := range emailKinds(e) {
		if err != nil {
			break
		}
		err = s.services.Mail.SendTestEmail(c.Request().Context(), ev, k.kind, k.words, caller.Email, sampleBuyer, s.Now())
	}
	if _, ok := userFacing(err); ok {
		return s.renderOrgEmails(c, caller, ev, e, err, nil, http.StatusUnprocessableEntity)
	} else if err != nil {
		return err
	}
	return s.renderOrgEmails(c, caller, ev, e, nil, nil, http.StatusOK, noticeText("tested"))
}

func (s *Server) orgMessagesPage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	return s.renderOrgMessages(c, caller, ev, palaro.OrganizerMessage{}, nil, http.StatusOK)
}

// audience names who gets a message: every holder or the holders of a ticket type.
func audience(m palaro.OrganizerMessage) string {
	if m.TicketTypeCode == "" {
		return "Every ticket holder"
	}
	return "Holders of " + m.TicketTypeName
}

// renderOrgMessages renders the console's messages page with a refused form's values and error.
func (s *Server) renderOrgMessages(c *echo.Context, caller *palaro.Caller, ev *palaro.Event, in palaro.OrganizerMessage, err error, status int) error {
	sent, lerr := s.services.Mail.ListMessages(c.Request().Context(), ev.ID)
	if lerr != nil {
		return lerr
	}
	v := views.OrgMessagesView{Frame: eventFrame(c, caller, ev, "Messages · "+ev.Name)}
	options := []views.SelectOption{{Value: "", Label: "Every ticket holder", Selected: in.TicketTypeCode == ""}}
	for _, tt := range ev.TicketTypes {
		options = append(options, views.SelectOption{Value: tt.Code, Label: "Holders of " + tt.Name, Selected: in.TicketTypeCode == tt.Code})
	}
	v.Form = views.OrgForm{Action: "/organizer/events/" + ev.Code + "/messages", Submit: "Review and send", Error: formError(err),
		Sections: []views.OrgFormSection{{
			Title:        "New message",
			SelectsFirst: true,
			Selects:      []views.OrgSelect{{Name: palaro.FieldMessageTicketType, Label: "To", Options: options, Error: fieldError(err, palaro.FieldMessageTicketType)}},
			Fields: []views.FormField{
				{Name: palaro.FieldMessageSubject, Label: "Subject", Type: "text", Value: in.Subject, MaxLength: 120, Required: true,
					Error: fieldError(err, palaro.FieldMessageSubject)},
				withHint(views.FormField{Name: palaro.FieldMessageBody, Label: "Message", Type: "textarea", Value: in.Body, MaxLength: palaro.MaxEmailWords,
					Required: true, Error: fieldError(err, palaro.FieldMessageBody)}, "Plain text; {name}, {event}, {date} and {venue} are filled in for each person."),
			},
		}}}
	for _, m := range sent {
		people := "people"
		if m.Recipients == 1 {
			people = "person"
		}
		v.Sent = append(v.Sent, views.OrgMessageRow{When: manilaTime(m.CreatedAt), Subject: m.Subject, Audience: audience(m),
			Recipients: strconv.Itoa(m.Recipients), People: people, By: m.SentBy})
	}
	return render(c, status, views.OrgMessages(s.orgPage(c, "Messages · "+ev.Name), v))
}

func (s *Server) orgSendMessage(c *echo.Context, caller *palaro.Caller) error {
	ev, err := s.orgEvent(c, caller)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	m := palaro.OrganizerMessage{TicketTypeCode: strings.TrimSpace(c.FormValue(palaro.FieldMessageTicketType)),
		Subject: strings.TrimSpace(c.FormValue(palaro.FieldMessageSubject)), Body: strings.TrimSpace(c.FormValue(palaro.FieldMessageBody))}
	err = m.Check()
	n := 0
	if err == nil {
		if n, err = s.services.Mail.CountRecipients(ctx, ev.ID, m.TicketTypeCode); palaro.ErrorCode(err) == palaro.ENOTFOUND {
			err = fieldFailure(palaro.FieldMessageTicketType, "Choose who gets it from the list.")
		} else if err == nil && n == 0 {
			err = fieldFailure(palaro.FieldMessageTicketType, "Nobody holds these tickets yet: there is nobody to send it to.")
		}
	}
	if err == nil && c.FormValue("confirm") == "yes" {
		_, err = s.services.Mail.SendMessage(ctx, ev.ID, caller.Actor(), m, s.Now())
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/organizer/events/"+ev.Code+"/messages?notice=messageSent")
		}
	}
	if _, ok := userFacing(err); ok {
		return s.renderOrgMessages(c, caller, ev, m, err, http.StatusUnprocessableEntity)
	} else if err != nil {
		return err
	}
	for _, tt := range ev.TicketTypes {
		if tt.Code == m.TicketTypeCode {
			m.TicketTypeName = tt.Name
		}
	}
	people := palaro.Plural(n, "person", "people")
	v := views.OrgConfirmView{Frame: eventFrame(c, caller, ev, "Send this message to "+people+"?"),
		Lines: []string{audience(m) + " of " + ev.Name + ": " + people + " (one e-mail per address, however many tickets it holds). " +
			"It cannot be called back once sent.", "Subject: " + m.Subject},
		Confirm: views.OrgAction{Label: "Send to " + people, Action: "/organizer/events/" + ev.Code + "/messages",
			Hidden: [][2]string{{palaro.FieldMessageTicketType, m.TicketTypeCode}, {palaro.FieldMessageSubject, m.Subject},
				{palaro.FieldMessageBody, m.Body}, {"confirm", "yes"}}},
		Keep: views.Link{Label: "Don't send", Href: "/organizer/events/" + ev.Code + "/messages"}}
	v.Lines = append(v.Lines, palaro.EmailParagraphs(m.Body)...)
	return render(c, http.StatusOK, views.OrgConfirm(s.orgPage(c, "Send the message? · "+ev.Name), v))
}
