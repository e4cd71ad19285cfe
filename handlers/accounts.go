package handlers

import (
	"cmp"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

// accountPage returns a Page for an account screen: never indexed, navigation as SPEC.md lists it.
func (s *Server) accountPage(c *echo.Context, title string, nav bool) views.Page {
	p := s.page(c, title+" · Palaro", title)
	p.NoIndex = true
	p.ShowNav = nav
	p.Nav = views.NavDefaultBack
	c.Response().Header().Set("Cache-Control", "no-store")
	return p
}

// fieldError returns err's message for a field, or "".
func fieldError(err error, field string) string {
	if e, ok := err.(*palaro.Error); ok && e != nil {
		return e.Fields[field]
	}
	return ""
}

// formError returns err's message when it is not about one field (such as a conflict), or "".
func formError(err error) string {
	e, ok := err.(*palaro.Error)
	if !ok || e == nil || len(e.Fields) > 0 {
		return ""
	}
	return e.Message
}

// statusOfForm is the status of a re-rendered form after err.
func statusOfForm(err error) int {
	if err == nil {
		return http.StatusOK
	}
	if code := palaro.ErrorCode(err); code == palaro.EINVALID {
		return http.StatusUnprocessableEntity
	} else if code != palaro.EINTERNAL {
		return statusOf(code)
	}
	return http.StatusInternalServerError
}

// userFacing returns err when it is a domain error a person may see, else nil after passing it on
// as the request's error (the caller returns it).
func userFacing(err error) (*palaro.Error, bool) {
	e, ok := err.(*palaro.Error)
	return e, ok && e.Code != palaro.EINTERNAL
}

// safeNext returns next when it is a path on this site, else "".
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil || u.Host != "" || u.Scheme != "" {
		return ""
	}
	return next
}

func emailField(value, errMsg string) views.FormField {
	return views.FormField{Name: palaro.FieldEmail, Label: "E-mail", Type: "email", Value: value, Error: errMsg,
		Autocomplete: "email", MaxLength: palaro.MaxLength(palaro.FieldEmail), Required: true}
}

func passwordFields(password, repeat string, err error, autocomplete string) []views.FormField {
	return []views.FormField{
		{Name: palaro.FieldPassword, Label: "Password", Type: "password", Value: password, Autocomplete: autocomplete,
			Error: fieldError(err, palaro.FieldPassword), Hint: "Letters and numbers only, at least 8 characters.",
			MaxLength: palaro.MaxLength(palaro.FieldPassword), Required: true},
		{Name: palaro.FieldRepeatPassword, Label: "Repeat password", Type: "password", Value: repeat,
			Autocomplete: autocomplete, Error: fieldError(err, palaro.FieldRepeatPassword), MaxLength: palaro.MaxLength(palaro.FieldPassword), Required: true},
	}
}

func nameFields(first, last string, err error) []views.FormField {
	return []views.FormField{
		{Name: palaro.FieldFirstName, Label: "First Name", Type: "text", Value: first, Autocomplete: "given-name",
			Error: fieldError(err, palaro.FieldFirstName), MaxLength: palaro.MaxLength(palaro.FieldFirstName), Required: true},
		{Name: palaro.FieldLastName, Label: "Last Name", Type: "text", Value: last, Autocomplete: "family-name",
			Error: fieldError(err, palaro.FieldLastName), MaxLength: palaro.MaxLength(palaro.FieldLastName), Required: true},
	}
}

func mobileField(value string, err error) views.FormField {
	return views.FormField{Name: palaro.FieldMobileNumber, Label: "Mobile Number", Type: "tel", Value: value,
		Autocomplete: "tel", InputMode: "tel", Error: fieldError(err, palaro.FieldMobileNumber),
		Hint: "Such as 0917 123 4567 or +63 917 123 4567.", MaxLength: palaro.MaxLength(palaro.FieldMobileNumber), Required: true}
}

// ---- Sign up

func signUpForm(req palaro.SignUp, next string, err error) views.Form {
	fields := []views.FormField{emailField(req.Email, fieldError(err, palaro.FieldEmail))}
	fields = append(fields, passwordFields(req.Password, req.RepeatPassword, err, "new-password")...)
	for _, f := range nameFields(req.FirstName, req.LastName, err) {
		f.Class = "personal-detail" // hidden (by CSS, without scripts) while 'I am an existing user' is ticked
		fields = append(fields, f)
	}
	fields = append(fields, mobileField(req.MobileNumber, err))
	var hidden [][2]string
	if next != "" {
		hidden = [][2]string{{"next", next}}
	}
	return views.Form{
		ID: "sign-up", Action: "/sign-up", Submit: "Sign up", Error: formError(err), Fields: fields, Hidden: hidden,
		Lead: []views.FormCheckbox{
			{Name: "existingUser", Label: "I am an existing user", Checked: req.ExistingUser, Class: "existing-user",
				Hint: existingUserHint},
		},
		Checkboxes: []views.FormCheckbox{
			{Name: palaro.FieldTerms, Label: "I accept the ", LinkText: "Terms & Conditions", LinkHref: "/terms",
				LinkPopup: "terms-and-conditions", Checked: req.AcceptTerms, Error: fieldError(err, palaro.FieldTerms)},
		},
	}
}

// existingUserHint tells a buyer who ticks 'I am an existing user' what signing up does for them.
const existingUserHint = "Sign up with the e-mail address you bought your tickets with: once you confirm it, " +
	"those tickets appear under Tickets. Your name is not needed; we keep your mobile number for password resets."

// withNext returns path with ?next= when next is set.
func withNext(path, next string) string {
	if next == "" {
		return path
	}
	return path + "?next=" + url.QueryEscape(next)
}

// renderSignUp renders the sign-up form; next (a path of this site, or "") is where a successful
// sign-up goes, such as the team invitation that sent the visitor here.
func (s *Server) renderSignUp(c *echo.Context, req palaro.SignUp, next string, err error) error {
	return render(c, statusOfForm(err), views.AccountScreen(s.accountPage(c, "Sign up", true), views.AccountPage{
		Heading: "Create your account",
		Intro:   "Sign up to keep your tickets in one place, join activities and climb the leaderboard.",
		Form:    signUpForm(req, next, err),
		Links:   []views.Link{{Label: "Already have an account? Sign in", Href: withNext("/sign-in", next)}},
	}))
}

func (s *Server) signUpPage(c *echo.Context) error {
	next := safeNext(c.QueryParam("next"))
	if currentUser(c) != nil {
		return c.Redirect(http.StatusSeeOther, cmp.Or(next, "/profile"))
	}
	return s.renderSignUp(c, palaro.SignUp{}, next, nil)
}

func (s *Server) signUp(c *echo.Context) error {
	req := palaro.SignUp{
		Email: c.FormValue(palaro.FieldEmail), Password: c.FormValue(palaro.FieldPassword),
		RepeatPassword: c.FormValue(palaro.FieldRepeatPassword), FirstName: c.FormValue(palaro.FieldFirstName),
		LastName: c.FormValue(palaro.FieldLastName), MobileNumber: c.FormValue(palaro.FieldMobileNumber),
		AcceptTerms: c.FormValue(palaro.FieldTerms) != "", ExistingUser: c.FormValue("existingUser") != "",
	}
	next := safeNext(c.FormValue("next"))
	u, err := s.services.Accounts.SignUp(c.Request().Context(), req)
	if _, ok := userFacing(err); ok {
		return s.renderSignUp(c, req, next, err)
	} else if err != nil {
		return err
	}
	if err := s.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, cmp.Or(next, "/profile?welcome=1"))
}

// ---- Sign in and out

func (s *Server) renderSignIn(c *echo.Context, status int, email, next, formErr, notice string, fieldErrs map[string]string) error {
	var hidden [][2]string
	if next != "" {
		hidden = append(hidden, [2]string{"next", next})
	}
	return render(c, status, views.AccountScreen(s.accountPage(c, "Sign in", true), views.AccountPage{
		Heading: "Sign in",
		Intro:   "Welcome back! Sign in with your e-mail address and password.",
		Form: views.Form{
			ID: "sign-in", Action: "/sign-in", Submit: "Sign in", Error: formErr, Notice: notice, Hidden: hidden,
			Fields: []views.FormField{
				emailField(email, fieldErrs[palaro.FieldEmail]),
				{Name: palaro.FieldPassword, Label: "Password", Type: "password", Autocomplete: "current-password",
					Error: fieldErrs[palaro.FieldPassword], MaxLength: palaro.MaxLength(palaro.FieldPassword), Required: true},
			},
		},
		Links: []views.Link{
			{Label: "Forgot your password?", Href: "/reset-password"},
			{Label: "New to Palaro? Sign up", Href: withNext("/sign-up", next)},
		},
	}))
}

func (s *Server) signInPage(c *echo.Context) error {
	next := safeNext(c.QueryParam("next"))
	if currentUser(c) != nil {
		return c.Redirect(http.StatusSeeOther, cmp.Or(next, "/profile"))
	}
	notice := ""
	switch {
	case c.QueryParam("reset") == "1":
		notice = "Your password has been changed. Sign in with your new password."
	case c.QueryParam("signed-out") == "1":
		notice = "You have signed out."
	}
	return s.renderSignIn(c, http.StatusOK, "", next, "", notice, nil)
}

func (s *Server) signIn(c *echo.Context) error {
	email := palaro.NormalizeEmail(c.FormValue(palaro.FieldEmail))
	password := c.FormValue(palaro.FieldPassword)
	next := safeNext(c.FormValue("next"))
	fieldErrs := map[string]string{}
	switch {
	case email == "":
		fieldErrs[palaro.FieldEmail] = palaro.MsgEmailRequired
	case !palaro.ValidEmail(email):
		fieldErrs[palaro.FieldEmail] = palaro.MsgEmailInvalid
	}
	if password == "" {
		fieldErrs[palaro.FieldPassword] = "Password is required"
	} else if len(password) > palaro.MaxLength(palaro.FieldPassword) {
		fieldErrs[palaro.FieldPassword] = palaro.MsgTooLong
	}
	if len(fieldErrs) > 0 {
		return s.renderSignIn(c, http.StatusUnprocessableEntity, email, next, "", "", fieldErrs)
	}
	ip := c.RealIP()
	if err := s.throttle(c, limitCheck{limitSignInPair, "sign-in|" + ip + "|" + email},
		limitCheck{limitSignInIP, "sign-in|" + ip}); err != nil {
		return s.renderSignIn(c, http.StatusTooManyRequests, email, next, MsgTooManyRequests, "", nil)
	}
	u, err := s.services.Accounts.Authenticate(c.Request().Context(), email, password)
	if palaro.ErrorCode(err) == palaro.EUNAUTHORIZED {
		return s.renderSignIn(c, http.StatusUnauthorized, email, next, palaro.ErrorMessage(err), "", nil)
	} else if err != nil {
		return err
	}
	if err := s.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, cmp.Or(next, "/profile"))
}

// signOut ends every session of the account (the server-side version changes), starts a fresh
// anonymous one and tells the browser to drop what it kept for the account (Clear-Site-Data).
func (s *Server) signOut(c *echo.Context) error {
	if u := currentUser(c); u != nil {
		if _, err := s.services.Accounts.EndSessions(c.Request().Context(), u.ID); err != nil {
			return err
		}
	}
	if err := s.endSession(c); err != nil {
		return err
	}
	// a shared phone keeps nothing of the account: not the pages the service worker kept (tickets,
	// the gate's scanner) nor what the gate kept in storage (its list of holders). The sign-in
	// page's script clears the same where the browser ignores this header (no https).
	c.Response().Header().Set("Clear-Site-Data", `"cache", "storage"`)
	return c.Redirect(http.StatusSeeOther, "/sign-in?signed-out=1")
}

// activate confirms the e-mail address from the welcome e-mail's link.
func (s *Server) activate(c *echo.Context) error {
	u, err := s.services.Accounts.Activate(c.Request().Context(), c.QueryParam("token"))
	if palaro.ErrorCode(err) == palaro.ECONFLICT {
		// A second click on the link: the account is active, nothing failed.
		m := views.MessagePage{Heading: "Your account is already active",
			Message: "This link was used before: your e-mail address is confirmed. Sign in to see your tickets and profile.",
			Links:   []views.Link{{Label: "Sign in", Href: "/sign-in"}}}
		if currentUser(c) != nil {
			m.Message = "This link was used before: your e-mail address is confirmed."
			m.Links = []views.Link{{Label: "See your tickets", Href: "/tickets"}, {Label: "Go to your profile", Href: "/profile"}}
		}
		return render(c, http.StatusOK, views.Message(s.accountPage(c, "Account already active", false), m))
	} else if e, ok := userFacing(err); ok {
		return render(c, http.StatusBadRequest, views.Message(s.accountPage(c, "Activate your account", false), views.MessagePage{
			Heading: "Activation failed", Message: e.Message + " Sign in and ask for a new link from your profile.",
			Links: []views.Link{{Label: "Sign in", Href: "/sign-in"}},
		}))
	} else if err != nil {
		return err
	}
	links := []views.Link{{Label: "Sign in", Href: "/sign-in"}}
	if cu := currentUser(c); cu != nil && cu.ID == u.ID {
		links = []views.Link{{Label: "Go to your profile", Href: "/profile"}}
	}
	return render(c, http.StatusOK, views.Message(s.accountPage(c, "Account activated", false), views.MessagePage{
		Heading: "Your account is active", Message: "Thank you for confirming your e-mail address.", Detail: u.Email,
		Links: links,
	}))
}

// resendActivation sends the welcome e-mail again with a new activation link, then returns to
// /tickets or /profile (the form's next), which say that it was sent.
func (s *Server) resendActivation(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	next := "/profile"
	if c.FormValue("next") == "/tickets" {
		next = "/tickets"
	}
	if err := s.throttle(c, limitCheck{limitActivationMail, "activation|" + strconv.FormatInt(u.ID, 10)}); err != nil {
		return render(c, http.StatusTooManyRequests, views.Message(s.accountPage(c, "Activation e-mail", true), views.MessagePage{
			Heading: "Activation e-mail not sent", Message: palaro.ErrorMessage(err),
			Links: []views.Link{{Label: "Back", Href: next}},
		}))
	}
	_, err = s.services.Accounts.ResendActivation(c.Request().Context(), u.ID)
	if palaro.ErrorCode(err) == palaro.ECONFLICT {
		return c.Redirect(http.StatusSeeOther, next) // active meanwhile: the page shows it
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, next+"?activation=sent")
}

// ---- Reset password by SMS code

func (s *Server) renderResetRequest(c *echo.Context, status int, number string, err error) error {
	return render(c, status, views.AccountScreen(s.accountPage(c, "Reset password", true), views.AccountPage{
		Heading: "Reset password",
		Intro:   "Enter the mobile number of your account. We will send you a code by SMS, then you create a new password.",
		Form: views.Form{ID: "reset-request", Action: "/reset-password", Submit: "Send code", Error: formError(err),
			Fields: []views.FormField{mobileField(number, err)}},
		Links: []views.Link{{Label: "I already have a code", Href: "/reset-password/new"}, {Label: "Back to sign in", Href: "/sign-in"}},
	}))
}

func (s *Server) renderNewPassword(c *echo.Context, status int, number, code, notice string, err error) error {
	fields := []views.FormField{
		mobileField(number, err),
		{Name: palaro.FieldCode, Label: "Code from the SMS", Type: "text", Value: code, InputMode: "numeric",
			Autocomplete: "one-time-code", MaxLength: palaro.MaxLength(palaro.FieldCode), Required: true, Error: fieldError(err, palaro.FieldCode)},
	}
	fields = append(fields, passwordFields("", "", err, "new-password")...)
	return render(c, status, views.AccountScreen(s.accountPage(c, "Create a new password", true), views.AccountPage{
		Heading: "Create a new password",
		Form: views.Form{ID: "reset-confirm", Action: "/reset-password/new", Submit: "Save new password",
			Error: formError(err), Notice: notice, Fields: fields},
		Links: []views.Link{{Label: "Send a new code", Href: "/reset-password"}},
	}))
}

func (s *Server) resetPasswordPage(c *echo.Context) error {
	number := ""
	if u := currentUser(c); u != nil {
		number = u.MobileNumber
	}
	return s.renderResetRequest(c, http.StatusOK, number, nil)
}

func (s *Server) requestResetCode(c *echo.Context) error {
	raw := strings.TrimSpace(c.FormValue(palaro.FieldMobileNumber))
	number, ok := palaro.NormalizeMobileNumber(raw)
	if !ok {
		err := s.services.Accounts.RequestPasswordReset(c.Request().Context(), raw) // the same EINVALID as always
		if _, ok := userFacing(err); ok || err == nil {
			return s.renderResetRequest(c, statusOfForm(err), raw, err)
		}
		return err
	}
	if err := s.throttle(c, limitCheck{limitResetNumber, "reset-number|" + number}); err != nil {
		return s.renderResetRequest(c, http.StatusTooManyRequests, raw, err)
	}
	if err := s.services.Accounts.RequestPasswordReset(c.Request().Context(), number); err != nil {
		return err
	}
	notice := "If an account uses " + number + ", we have sent it a 6-digit code by SMS. The code is valid for 10 minutes."
	return s.renderNewPassword(c, http.StatusOK, number, "", notice, nil)
}

func (s *Server) newPasswordPage(c *echo.Context) error {
	return s.renderNewPassword(c, http.StatusOK, c.QueryParam(palaro.FieldMobileNumber), "", "", nil)
}

func (s *Server) resetPassword(c *echo.Context) error {
	number, code := strings.TrimSpace(c.FormValue(palaro.FieldMobileNumber)), strings.TrimSpace(c.FormValue(palaro.FieldCode))
	err := s.services.Accounts.ResetPassword(c.Request().Context(), number, code,
		c.FormValue(palaro.FieldPassword), c.FormValue(palaro.FieldRepeatPassword))
	if _, ok := userFacing(err); ok {
		if fieldError(err, palaro.FieldCode) != "" {
			code = ""
		}
		return s.renderNewPassword(c, statusOfForm(err), number, code, "", err)
	} else if err != nil {
		return err
	}
	if err := s.endSession(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/sign-in?reset=1")
}

// ---- Features that need sign-in

// signInRequired renders the 'Register or Sign In' prompt for a feature that needs an account.
func (s *Server) signInRequired(c *echo.Context, title, message string) error {
	return render(c, http.StatusOK, views.Message(s.accountPage(c, title, true), views.MessagePage{
		Heading: title, Message: message, SignInPrompt: true, Next: c.Request().URL.Path,
	}))
}
