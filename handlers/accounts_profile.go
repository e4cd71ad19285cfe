package handlers

import (
	"cmp"
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"palaro"
	"palaro/views"
)

func profileForm(u *palaro.User, upd palaro.ProfileUpdate, err error) views.Form {
	p := upd.Profile
	text := func(name, label, value, autocomplete string) views.FormField {
		return views.FormField{Name: name, Label: label, Type: "text", Value: value, MaxLength: palaro.MaxLength(name),
			Autocomplete: autocomplete, Error: fieldError(err, name)}
	}
	fields := nameFields(upd.FirstName, upd.LastName, err)
	fields = append(fields, mobileField(upd.MobileNumber, err),
		text(palaro.FieldTitle, "Title", p.Title, "honorific-prefix"),
		views.FormField{Name: palaro.FieldBirthDate, Label: "Birthdate", Type: "date", Value: p.BirthDate,
			Autocomplete: "bday", Error: fieldError(err, palaro.FieldBirthDate)},
		views.FormField{Name: palaro.FieldAge, Label: "Age", Type: "text", InputMode: "numeric", Value: p.Age,
			MaxLength: palaro.MaxLength(palaro.FieldAge), Error: fieldError(err, palaro.FieldAge)},
		text(palaro.FieldCountry, "Country", p.Country, "country-name"),
		text(palaro.FieldCity, "City", p.City, "address-level2"),
		text(palaro.FieldCompanyName, "Company Name", p.CompanyName, "organization"),
		text(palaro.FieldDesignation, "Designation", p.Designation, "organization-title"),
		text(palaro.FieldInterests, "Interests", p.Interests, ""),
		views.FormField{Name: palaro.FieldBio, Label: "Bio", Type: "textarea", Value: p.Bio, MaxLength: palaro.MaxLength(palaro.FieldBio),
			Error: fieldError(err, palaro.FieldBio)},
		text(palaro.FieldUsername, "Username", p.Username, "username"),
	)
	if u.Role == palaro.RoleOrganizer {
		fields = append(fields, text(palaro.FieldOrganization, "Organization", p.Organization, "organization"))
	}
	return views.Form{ID: "profile-form", Action: "/profile", Submit: "Save details", Error: formError(err), Fields: fields}
}

func emailChangeForm(value, notice string, err error) views.Form {
	f := emailField(value, fieldError(err, palaro.FieldEmail))
	f.Label = "Preferred e-mail"
	return views.Form{ID: "email-form", Action: "/profile/email", Submit: "Send confirmation link",
		Error: formError(err), Notice: notice, Fields: []views.FormField{f}}
}

// passwordChangeForm is the change-password form; passwords are never written back into it.
func passwordChangeForm(notice string, err error) views.Form {
	fields := []views.FormField{{Name: palaro.FieldCurrentPassword, Label: "Current password", Type: "password",
		Autocomplete: "current-password", Error: fieldError(err, palaro.FieldCurrentPassword), MaxLength: 128, Required: true}}
	fields = append(fields, passwordFields("", "", err, "new-password")...)
	fields[1].Label, fields[2].Label = "New password", "Repeat new password"
	// The fragment brings the visitor back to this form, on an error and (kept through the redirect) on success.
	return views.Form{ID: "password-form", Action: "/profile/password#password", Submit: "Change password",
		Error: formError(err), Notice: notice, Fields: fields}
}

// mobileConfirmForm asks for the code sent to a new mobile number.
func mobileConfirmForm(number, notice string, err error) views.Form {
	return views.Form{ID: "mobile-form", Action: "/profile/mobile#mobile", Submit: "Confirm new number",
		Error: formError(err), Notice: notice, Fields: []views.FormField{{Name: palaro.FieldCode,
			Label: "Code sent to " + number, Type: "text", InputMode: "numeric", Autocomplete: "one-time-code",
			MaxLength: palaro.MaxLength(palaro.FieldCode), Required: true, Error: fieldError(err, palaro.FieldCode)}}}
}

// profileView is the profile page of u; form and email form errors and values override the stored ones.
type profileView struct {
	upd            *palaro.ProfileUpdate
	err            error
	email          string
	emailErr       error
	emailNotice    string
	passwordErr    error
	passwordNotice string
	pictureError   string
	notice         string
	mobileNotice   string
	mobileErr      error
}

func (s *Server) renderProfile(c *echo.Context, status int, u *palaro.User, pv profileView) error {
	pending, err := s.services.Accounts.PendingMobileChange(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	// A new account's number waits for its code: the form shows it all the same.
	upd := palaro.ProfileUpdate{FirstName: u.FirstName, LastName: u.LastName, MobileNumber: cmp.Or(u.MobileNumber, pending), Profile: u.Profile}
	if pv.upd != nil {
		upd = *pv.upd
	}
	v := views.ProfilePage{
		Name: u.FullName(), Email: u.Email, Status: u.Status, Role: u.Role, Notice: pv.notice,
		PictureError: pv.pictureError, PictureMaxBytes: maxPictureBytes, PictureTooLarge: errPictureTooLarge.msg,
		Form:         profileForm(u, upd, pv.err),
		EmailForm:    emailChangeForm(pv.email, pv.emailNotice, pv.emailErr),
		PasswordForm: passwordChangeForm(pv.passwordNotice, pv.passwordErr),
	}
	if u.PictureVersion != 0 {
		v.PictureURL = "/profile/picture?v=" + strconv.FormatInt(u.PictureVersion, 10)
	}
	if pending != "" || pv.mobileErr != nil { // a refused code is shown even when no tries are left
		f := mobileConfirmForm(cmp.Or(pending, "your number"), pv.mobileNotice, pv.mobileErr)
		v.MobileForm = &f
	}
	switch {
	case pending != "":
		v.MobileResend = "/profile/mobile/code"
		if u.MobileNumber == "" || pending == u.MobileNumber {
			v.MobileText = "Confirm your mobile number with the code we sent it by SMS: it then links your account to your participant QR code, points and prizes."
		}
	case !u.MobileConfirmed && u.MobileNumber != "":
		v.MobileResend = "/profile/mobile/code"
		v.MobileText = "Your mobile number " + u.MobileNumber + " is not confirmed yet. Confirm it with a code we send by SMS: it then links your account to your participant QR code, points and prizes."
	}
	return render(c, status, views.Profile(s.accountPage(c, "Profile", true), v))
}

func (s *Server) profilePage(c *echo.Context) error {
	u := currentUser(c)
	if u == nil {
		return s.signInRequired(c, "Profile", "Your profile keeps your details, picture and tickets in one place.")
	}
	notice, passwordNotice := "", ""
	switch {
	case c.QueryParam("welcome") == "1":
		notice = "Welcome to Palaro! We sent you an e-mail: open its link to activate your account. We also sent a code by SMS to your mobile number: enter it below to confirm the number."
	case c.QueryParam("saved") == "1":
		notice = "Your details have been saved."
	case c.QueryParam("mobile") == "saved":
		notice = "Your mobile number is confirmed and saved."
	case c.QueryParam("picture") == "1":
		notice = "Your picture has been changed."
	case c.QueryParam("activation") == "sent":
		notice = "We sent a new activation link to " + u.Email + ". Open it to activate your account. We also sent a code by SMS to your mobile number: enter it below to confirm the number."
	case c.QueryParam("password") == "1":
		passwordNotice = "Your password has been changed. Any other device signed in to your account has been signed out."
	}
	mobileNotice := ""
	if c.QueryParam("mobile") == "sent" {
		notice = "Your details have been saved."
		mobileNotice = "We sent a 6-digit code by SMS to your new number. Enter it here to confirm the number; until then your account keeps " +
			cmp.Or(u.MobileNumber, "no number") + "."
	}
	if c.QueryParam("mobile") == "code" {
		mobileNotice = "We sent a new 6-digit code by SMS. Enter it here to confirm the number."
	}
	return s.renderProfile(c, http.StatusOK, u, profileView{notice: notice, passwordNotice: passwordNotice, mobileNotice: mobileNotice})
}

// requireUser returns the signed-in user, or sends the visitor to sign in and returns nil.
func requireUser(c *echo.Context) (*palaro.User, error) {
	if u := currentUser(c); u != nil {
		return u, nil
	}
	return nil, c.Redirect(http.StatusSeeOther, "/sign-in?next=/profile")
}

func (s *Server) updateProfile(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	upd := palaro.ProfileUpdate{
		FirstName: c.FormValue(palaro.FieldFirstName), LastName: c.FormValue(palaro.FieldLastName),
		MobileNumber: c.FormValue(palaro.FieldMobileNumber),
		Profile: palaro.Profile{
			Title: c.FormValue(palaro.FieldTitle), BirthDate: c.FormValue(palaro.FieldBirthDate),
			Age: c.FormValue(palaro.FieldAge), Bio: c.FormValue(palaro.FieldBio), Country: c.FormValue(palaro.FieldCountry),
			City: c.FormValue(palaro.FieldCity), CompanyName: c.FormValue(palaro.FieldCompanyName),
			Designation: c.FormValue(palaro.FieldDesignation), Interests: c.FormValue(palaro.FieldInterests),
			Username: c.FormValue(palaro.FieldUsername), Organization: c.FormValue(palaro.FieldOrganization),
		},
	}
	if u.Role != palaro.RoleOrganizer {
		upd.Profile.Organization = u.Profile.Organization
	}
	checks := []limitCheck{{limitProfileAccount, "profile|" + strconv.FormatInt(u.ID, 10)}}
	newNumber := func() bool {
		n, ok := palaro.NormalizeMobileNumber(upd.MobileNumber)
		return ok && n != u.MobileNumber
	}
	if n, ok := palaro.NormalizeMobileNumber(upd.MobileNumber); newNumber() && ok {
		// codes to one number are limited like reset codes, whether or not the number is taken
		checks = append(checks, limitCheck{limitResetNumber, "mobile-code|" + n})
	}
	if err := s.throttle(c, checks...); err != nil {
		return s.renderProfile(c, http.StatusTooManyRequests, u, profileView{upd: &upd, err: err})
	}
	_, err = s.services.Accounts.UpdateProfile(c.Request().Context(), u.ID, upd)
	if _, ok := userFacing(err); ok {
		return s.renderProfile(c, statusOfForm(err), u, profileView{upd: &upd, err: err})
	} else if err != nil {
		return err
	}
	// A new number is saved only with the code sent to it; the answer is the same whether or not
	// another account uses it (then no code is sent, and no code confirms it).
	if newNumber() {
		return c.Redirect(http.StatusSeeOther, "/profile?mobile=sent#mobile")
	}
	return c.Redirect(http.StatusSeeOther, "/profile?saved=1")
}

// confirmMobile handles POST /profile/mobile: the code sent to a new mobile number.
func (s *Server) confirmMobile(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	if err := s.throttle(c, limitCheck{limitResetCheck, "mobile-code|" + strconv.FormatInt(u.ID, 10)}); err != nil {
		return s.renderProfile(c, http.StatusTooManyRequests, u, profileView{mobileErr: err})
	}
	_, err = s.services.Accounts.ConfirmMobileChange(c.Request().Context(), u.ID, c.FormValue(palaro.FieldCode))
	if _, ok := userFacing(err); ok {
		return s.renderProfile(c, statusOfForm(err), u, profileView{mobileErr: err})
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/profile?mobile=saved")
}

// resendMobileCode handles POST /profile/mobile/code: a new code for the number awaiting one, or
// for the account's own unconfirmed number. Codes to one number are limited like reset codes.
func (s *Server) resendMobileCode(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	number, err := s.services.Accounts.PendingMobileChange(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	number = cmp.Or(number, u.MobileNumber)
	if err := s.throttle(c, limitCheck{limitProfileAccount, "profile|" + strconv.FormatInt(u.ID, 10)},
		limitCheck{limitResetNumber, "mobile-code|" + number}); err != nil {
		return s.renderProfile(c, http.StatusTooManyRequests, u, profileView{mobileErr: err})
	}
	if _, err := s.services.Accounts.RequestMobileCode(c.Request().Context(), u.ID); palaro.ErrorCode(err) == palaro.EINVALID {
		return c.Redirect(http.StatusSeeOther, "/profile")
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/profile?mobile=code#mobile")
}

func (s *Server) uploadPicture(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	if pictureTooLarge(c) {
		return s.renderProfile(c, errPictureTooLarge.status, u, profileView{pictureError: errPictureTooLarge.msg})
	}
	if err := s.throttle(c, limitCheck{limitPictureAccount, "picture|" + strconv.FormatInt(u.ID, 10)}); err != nil {
		return s.renderProfile(c, http.StatusTooManyRequests, u, profileView{pictureError: MsgTooManyRequests})
	}
	done, ok := s.pictureUploads.begin(u.ID)
	if !ok {
		return s.renderProfile(c, errPictureTwice.status, u, profileView{pictureError: errPictureTwice.msg})
	}
	defer done()
	fh, err := c.FormFile("picture")
	if err != nil {
		return s.renderProfile(c, http.StatusUnprocessableEntity, u, profileView{pictureError: "Choose a picture to upload."})
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	pic, err := processPicture(f)
	var perr *pictureError
	if errors.As(err, &perr) {
		return s.renderProfile(c, perr.status, u, profileView{pictureError: perr.msg})
	} else if err != nil {
		return err
	}
	if err := s.services.Accounts.SetPicture(c.Request().Context(), u.ID, pic); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/profile?picture=1")
}

// picture serves the signed-in user's own picture; nobody else's is reachable.
func (s *Server) picture(c *echo.Context) error {
	u := currentUser(c)
	if u == nil {
		return palaro.Errorf(palaro.ENOTFOUND, "Page Not Found")
	}
	pic, err := s.services.Accounts.FindPicture(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "private, max-age=31536000, immutable")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox; frame-ancestors 'none'")
	h.Set("Content-Disposition", "inline")
	return c.Blob(http.StatusOK, pic.ContentType, pic.Data)
}

// changePassword sets a new password after checking the current one. The account's other sessions
// end (its session version changes); this visitor gets a new session with the new version.
// Attempts are throttled like sign-in: per account, and per address together with sign-in.
func (s *Server) changePassword(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	if err := s.throttle(c, limitCheck{limitSignInPair, "change-password|" + strconv.FormatInt(u.ID, 10)},
		limitCheck{limitSignInIP, "sign-in|" + c.RealIP()}); err != nil {
		return s.renderProfile(c, http.StatusTooManyRequests, u, profileView{passwordErr: err})
	}
	nu, err := s.services.Accounts.ChangePassword(c.Request().Context(), u.ID, c.FormValue(palaro.FieldCurrentPassword),
		c.FormValue(palaro.FieldPassword), c.FormValue(palaro.FieldRepeatPassword))
	if _, ok := userFacing(err); ok {
		return s.renderProfile(c, statusOfForm(err), u, profileView{passwordErr: err})
	} else if err != nil {
		return err
	}
	if err := s.startSession(c, nu); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/profile?password=1")
}

func (s *Server) requestEmailChange(c *echo.Context) error {
	u, err := requireUser(c)
	if u == nil {
		return err
	}
	email := palaro.NormalizeEmail(c.FormValue(palaro.FieldEmail))
	err = s.throttleMail(c, mailRecipient(email))
	if err == nil {
		err = s.services.Accounts.RequestEmailChange(c.Request().Context(), u.ID, email)
	}
	if _, ok := userFacing(err); ok {
		return s.renderProfile(c, statusOfForm(err), u, profileView{email: email, emailErr: err})
	} else if err != nil {
		return err
	}
	notice := "We sent a confirmation link to " + email + ". Your e-mail address changes when you open it."
	return s.renderProfile(c, http.StatusOK, u, profileView{emailNotice: notice})
}

func (s *Server) confirmAccountEmail(c *echo.Context) error {
	u, err := s.services.Accounts.ConfirmEmailChange(c.Request().Context(), c.QueryParam("token"))
	if e, ok := userFacing(err); ok {
		return render(c, statusOfForm(err), views.Message(s.accountPage(c, "Change e-mail", true), views.MessagePage{
			Heading: "E-mail not changed", Message: e.Message,
			Links: []views.Link{{Label: "Go to your profile", Href: "/profile#email"}},
		}))
	} else if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.Message(s.accountPage(c, "Change e-mail", true), views.MessagePage{
		Heading: "E-mail changed", Message: "Your account now uses this e-mail address:", Detail: u.Email,
		Links: []views.Link{{Label: "Go to your profile", Href: "/profile"}},
	}))
}
