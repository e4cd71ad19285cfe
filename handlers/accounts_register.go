package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// apiOK answers a successful /v1 call in the shape the islands read (responseCode, message, redirectUrl).
func apiOK(c *echo.Context, message, redirect string, extra map[string]any) error {
	body := map[string]any{"responseCode": http.StatusOK, "message": message, "redirectUrl": redirect}
	for k, v := range extra {
		body[k] = v
	}
	return c.JSON(http.StatusOK, body)
}

// ---- Participant registration

// participantForm is the registration form; next is where a successful registration goes (a
// booth's scan page that sent the visitor here), "" for the participant's QR page.
func participantForm(req palaro.ParticipantSignUp, next string, err error) views.Form {
	fields := nameFields(req.FirstName, req.LastName, err)
	fields = append(fields, mobileField(req.MobileNumber, err))
	f := views.Form{ID: "register", Action: "/register", Submit: "Register", Error: formError(err), Fields: fields}
	if next != "" {
		f.Hidden = [][2]string{{"next", next}}
	}
	return f
}

func (s *Server) renderRegister(c *echo.Context, req palaro.ParticipantSignUp, err error) error {
	return render(c, statusOfForm(err), views.AccountScreen(s.accountPage(c, "Register", true), views.AccountPage{
		Heading: "Register as a participant",
		Intro:   "Get your participant QR code: show it at event booths to join activities, win prizes and earn leaderboard points.",
		Form:    participantForm(req, safeNext(c.FormValue("next")), err),
		Links:   []views.Link{{Label: "Are you an event organizer? Register here", Href: "/register/organizer"}},
	}))
}

func (s *Server) registerPage(c *echo.Context) error {
	var req palaro.ParticipantSignUp
	if u := currentUser(c); u != nil {
		req = palaro.ParticipantSignUp{FirstName: u.FirstName, LastName: u.LastName, MobileNumber: u.MobileNumber}
	}
	return s.renderRegister(c, req, nil)
}

func (s *Server) registerForm(c *echo.Context) error {
	req := palaro.ParticipantSignUp{FirstName: c.FormValue(palaro.FieldFirstName), LastName: c.FormValue(palaro.FieldLastName),
		MobileNumber: c.FormValue(palaro.FieldMobileNumber)}
	p, err := s.services.Accounts.RegisterParticipant(c.Request().Context(), req)
	if _, ok := userFacing(err); ok {
		return s.renderRegister(c, req, err)
	} else if err != nil {
		return err
	}
	if err := s.rememberParticipant(c, p.PublicID); err != nil {
		return err
	}
	if next := safeNext(c.FormValue("next")); next != "" {
		return c.Redirect(http.StatusSeeOther, next)
	}
	return c.Redirect(http.StatusSeeOther, "/register/success/"+p.PublicID)
}

func (s *Server) registerAPI(c *echo.Context) error {
	var req palaro.ParticipantSignUp
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	p, err := s.services.Accounts.RegisterParticipant(c.Request().Context(), req)
	if err != nil {
		return err
	}
	if err := s.rememberParticipant(c, p.PublicID); err != nil {
		return err
	}
	return apiOK(c, "Registration successful", "/register/success/"+p.PublicID, map[string]any{"participantId": p.PublicID})
}

func (s *Server) registeredPage(c *echo.Context) error {
	return render(c, http.StatusOK, views.Message(s.accountPage(c, "Registration complete", false), views.MessagePage{
		Heading: "Thank you for registering!", Message: "Your registration has been received.",
		Links: []views.Link{{Label: "Explore events", Href: "/"}},
	}))
}

func (s *Server) participantPage(c *echo.Context) error {
	p, err := s.services.Accounts.FindParticipant(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	qr, err := qrDataURI(p.PublicID, 300, 5)
	if err != nil {
		return err
	}
	links := []views.Link{{Label: "Explore events", Href: "/"}, {Label: "See activities", Href: "/activities"}}
	if !p.Confirmed {
		links = append(links, views.Link{Label: "Confirm your number to play for prizes", Href: "/activities#confirm"})
	}
	return render(c, http.StatusOK, views.Message(s.accountPage(c, "Registration complete", false), views.MessagePage{
		Heading:   "You're registered, " + p.FirstName + "!",
		Message:   "Show this QR code at event booths to join activities. Save this page or take a screenshot.",
		QRDataURI: qr, QRAlt: "Participant QR code of " + p.FirstName + " " + p.LastName, Detail: p.PublicID,
		Links: links,
	}))
}

// ---- Organizer registration

func organizerForm(req palaro.OrganizerSignUp, err error) views.Form {
	text := func(name, label, value, autocomplete string, required bool) views.FormField {
		return views.FormField{Name: name, Label: label, Type: "text", Value: value, Autocomplete: autocomplete,
			MaxLength: palaro.MaxLength(name), Required: required, Error: fieldError(err, name)}
	}
	fields := []views.FormField{
		emailField(req.Email, fieldError(err, palaro.FieldEmail)),
		text(palaro.FieldUsername, "Username", req.Username, "username", true),
		text(palaro.FieldName, "Name", req.Name, "name", true),
		text(palaro.FieldOrganization, "Organization", req.Organization, "organization", true),
		mobileField(req.MobileNumber, err),
		text(palaro.FieldSource, "How did you hear about Palaro?", req.Source, "", false),
	}
	fields = append(fields, passwordFields(req.Password, req.RepeatPassword, err, "new-password")...)
	return views.Form{ID: "register-organizer", Action: "/register/organizer", Submit: "Register as organizer",
		Error: formError(err), Fields: fields}
}

func (s *Server) renderOrganizer(c *echo.Context, req palaro.OrganizerSignUp, err error) error {
	return render(c, statusOfForm(err), views.AccountScreen(s.accountPage(c, "Organizer registration", true), views.AccountPage{
		Heading: "Register as an organizer",
		Intro:   "Run your events on Palaro: sell tickets, run booth activities and follow your sales.",
		Form:    organizerForm(req, err),
		Links:   []views.Link{{Label: "Register as a participant instead", Href: "/register"}},
	}))
}

func (s *Server) organizerPage(c *echo.Context) error {
	return s.renderOrganizer(c, palaro.OrganizerSignUp{Source: c.QueryParam("source")}, nil)
}

func (s *Server) organizerForm(c *echo.Context) error {
	req := palaro.OrganizerSignUp{
		Email: c.FormValue(palaro.FieldEmail), Username: c.FormValue(palaro.FieldUsername), Name: c.FormValue(palaro.FieldName),
		Organization: c.FormValue(palaro.FieldOrganization), MobileNumber: c.FormValue(palaro.FieldMobileNumber),
		Source: c.FormValue("source"), Password: c.FormValue(palaro.FieldPassword), RepeatPassword: c.FormValue(palaro.FieldRepeatPassword),
	}
	if req.Password == "" && req.RepeatPassword == "" {
		// The form requires a password; the JSON call may leave it out.
		err := &palaro.Error{Code: palaro.EINVALID, Message: palaro.MsgPasswordInvalid,
			Fields: map[string]string{palaro.FieldPassword: palaro.MsgPasswordInvalid}}
		return s.renderOrganizer(c, req, err)
	}
	u, err := s.services.Accounts.SignUpOrganizer(c.Request().Context(), req)
	if _, ok := userFacing(err); ok {
		return s.renderOrganizer(c, req, err)
	} else if err != nil {
		return err
	}
	if err := s.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/register/success/organizer")
}

func (s *Server) organizerAPI(c *echo.Context) error {
	var req palaro.OrganizerSignUp
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if _, err := s.services.Accounts.SignUpOrganizer(c.Request().Context(), req); err != nil {
		return err
	}
	return apiOK(c, "Organizer registration successful", "/register/success/organizer", nil)
}

func (s *Server) organizerRegisteredPage(c *echo.Context) error {
	m := views.MessagePage{
		Heading: "Welcome, organizer!",
		Message: "Your organizer account has been created. We sent you an e-mail: open its link to confirm your address. Your organization now waits for our approval: we e-mail you when it is approved, and your events are then run from the organizer console (/organizer).",
		Links:   []views.Link{{Label: "Organizer console", Href: "/organizer"}, {Label: "Go to your profile", Href: "/profile"}},
	}
	if currentUser(c) == nil {
		m.Links = []views.Link{{Label: "Sign in", Href: "/sign-in"}, {Label: "Set a password", Href: "/reset-password"}}
	}
	return render(c, http.StatusOK, views.Message(s.accountPage(c, "Organizer registration", false), m))
}

// ---- Report a problem

func reportForm(req palaro.ProblemReport, err error) views.Form {
	return views.Form{ID: "report", Action: "/report", Submit: "Send report", Error: formError(err),
		Hidden: [][2]string{{"pageUrl", req.PageURL}},
		Fields: []views.FormField{
			emailField(req.Email, fieldError(err, palaro.FieldEmail)),
			{Name: palaro.FieldName, Label: "Name", Type: "text", Value: req.Name, Autocomplete: "name", MaxLength: palaro.MaxLength(palaro.FieldName),
				Error: fieldError(err, palaro.FieldName)},
			{Name: palaro.FieldSubject, Label: "Subject", Type: "text", Value: req.Subject, MaxLength: palaro.MaxLength(palaro.FieldSubject), Error: fieldError(err, palaro.FieldSubject)},
			{Name: palaro.FieldMessage, Label: "What went wrong?", Type: "textarea", Value: req.Message, MaxLength: palaro.MaxLength(palaro.FieldMessage),
				Required: true, Error: fieldError(err, palaro.FieldMessage)},
		}}
}

func (s *Server) renderReport(c *echo.Context, req palaro.ProblemReport, err error) error {
	return render(c, statusOfForm(err), views.AccountScreen(s.accountPage(c, "Report a problem", true), views.AccountPage{
		Heading: "Report a problem",
		Intro:   "Tell us what went wrong. We answer by e-mail, usually within one working day.",
		Form:    reportForm(req, err),
	}))
}

func (s *Server) reportPage(c *echo.Context) error {
	req := palaro.ProblemReport{PageURL: safeNext(c.QueryParam("page"))}
	if u := currentUser(c); u != nil {
		req.Email, req.Name = u.Email, u.FullName()
	}
	return s.renderReport(c, req, nil)
}

func (s *Server) reportForm(c *echo.Context) error {
	req := palaro.ProblemReport{Email: c.FormValue(palaro.FieldEmail), Name: c.FormValue(palaro.FieldName),
		Subject: c.FormValue("subject"), Message: c.FormValue(palaro.FieldMessage), PageURL: safeNext(c.FormValue("pageUrl"))}
	var userID int64
	if u := currentUser(c); u != nil {
		userID = u.ID
	}
	r, err := s.services.Accounts.CreateReport(c.Request().Context(), req, userID)
	if _, ok := userFacing(err); ok {
		return s.renderReport(c, req, err)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/report/success/"+r.Reference)
}

func (s *Server) reportedPage(c *echo.Context) error {
	r, err := s.services.Accounts.FindReport(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Message(s.accountPage(c, "Report sent", false), views.MessagePage{
		Heading: "Thank you for your report",
		Message: "We received your report and will answer by e-mail. Quote this reference if you contact us about it:",
		Detail:  r.Reference,
		Links:   []views.Link{{Label: "Back to events", Href: "/"}},
	}))
}
