package palaro

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Messages of the account forms (SPEC.md section 5; quoted texts word for word).
const (
	MsgEmailRequired       = "Email is required"
	MsgEmailInvalid        = "Invalid E-mail address"
	MsgPasswordInvalid     = "The password is not valid. It must contain only letters and numbers, min. 8 characters"
	MsgPasswordsDiffer     = "The passwords do not match"
	MsgFirstNameRequired   = "First Name is required"
	MsgLastNameRequired    = "Lastname is required"
	MsgMobileRequired      = "Mobile Number is required"
	MsgMobileInvalid       = "The mobile phone number is not valid"
	MsgTermsRequired       = "Please accept the Terms and Conditions to sign up"
	MsgEmailTaken          = "An account with this e-mail address already exists. Sign in or reset your password."
	MsgMobileTaken         = "This mobile number is already used by another account"
	MsgMobileCodeInvalid   = "The code is not valid or has expired. Save your new number again to get a new code."
	MsgSignInFailed        = "The e-mail address or password is not correct"
	MsgResetCodeInvalid    = "The code is not valid or has expired. Request a new code."
	MsgTokenInvalid        = "This link is not valid or has expired."
	MsgTooLong             = "This is too long"
	MsgUsernameInvalid     = "Username must be 3 to 30 letters, numbers, dots, hyphens or underscores"
	MsgUsernameTaken       = "This username is already taken"
	MsgOrganizationMissing = "Organization is required"
	MsgNameRequired        = "Name is required"
	MsgMessageRequired     = "Please describe the problem"
	MsgAlreadyActive       = "Your account is already active. Sign in to continue."
	// MsgAlreadyConfirmed answers a code asked for a participant whose number is confirmed.
	MsgAlreadyConfirmed = "Your mobile number is confirmed."
	// MsgConfirmCodeInvalid refuses a wrong, used or expired code confirming a participant's number.
	MsgConfirmCodeInvalid = "The code is not valid or has expired. Ask for a new code."
	// MsgNothingToConfirm answers a code asked for an account whose number is confirmed or missing.
	MsgNothingToConfirm     = "Your mobile number is already confirmed. To use another one, change it in your details."
	MsgCurrentPasswordWrong = "The current password is not correct"
	MsgCurrentPasswordUnset = "Your account has no password yet. Set one with a code sent to your mobile number."
)

// Account form field names, shared by the forms, the JSON calls and the Fields of validation errors.
const (
	FieldPassword        = "password"
	FieldRepeatPassword  = "repeatPassword"
	FieldTerms           = "terms"
	FieldCode            = "code"
	FieldCurrentPassword = "currentPassword"
	FieldUsername        = "username"
	FieldName            = "name"
	FieldOrganization    = "organization"
	FieldMessage         = "message"
)

// More account field names.
const (
	FieldSubject = "subject"
	FieldPageURL = "pageUrl"
)

// TextRule is the length limit (in characters) and the character rule (TextLine, TextName or
// TextBlock) of a text field.
type TextRule struct {
	Max  int
	Kind string
}

// AccountTextRules are the rules of the text fields of the account forms and calls (sign-up,
// profile, registrations, report), by field name. The forms take their maxlength from here.
var AccountTextRules = map[string]TextRule{
	FieldEmail:        {MaxEmailLength, TextLine},
	FieldFirstName:    {100, TextName},
	FieldLastName:     {100, TextName},
	FieldName:         {200, TextName},
	FieldMobileNumber: {30, TextLine},
	FieldTitle:        {100, TextLine},
	FieldBirthDate:    {10, TextLine},
	FieldAge:          {3, TextLine},
	FieldBio:          {500, TextBlock},
	FieldCountry:      {100, TextLine},
	FieldCity:         {100, TextLine},
	FieldCompanyName:  {200, TextLine},
	FieldDesignation:  {200, TextLine},
	FieldInterests:    {300, TextLine},
	FieldUsername:     {30, TextLine},
	FieldOrganization: {200, TextLine},
	FieldSource:       {100, TextLine},
	FieldSubject:      {200, TextLine},
	FieldMessage:      {5000, TextBlock},
	FieldPageURL:      {500, TextLine},
	FieldPassword:     {128, TextLine},
	FieldCode:         {6, TextLine},
}

// MaxLength returns the longest accepted value of an account field, in characters.
func MaxLength(field string) int { return AccountTextRules[field].Max }

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9._-]{3,30}$`)

// NormalizeMobileNumber turns a mobile number as typed into E.164 (+639171234567). It accepts the
// spec's pattern (digits, hyphens, optional leading plus; spaces and brackets are ignored) in the
// Philippine forms 09XXXXXXXXX, 9XXXXXXXXX, 639XXXXXXXXX and +639XXXXXXXXX, and other countries'
// numbers written with a leading plus. It reports false for anything else.
func NormalizeMobileNumber(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '(', ')', '.', '\u00a0', '\t':
			return -1
		}
		return r
	}, s)
	if len(s) > 24 || !matchMobilePattern(s) || strings.Contains(s, "--") {
		return "", false
	}
	plus := strings.HasPrefix(s, "+")
	digits := strings.ReplaceAll(strings.TrimPrefix(s, "+"), "-", "")
	switch {
	case !plus && len(digits) == 11 && strings.HasPrefix(digits, "09"):
		return "+63" + digits[1:], true
	case !plus && len(digits) == 10 && strings.HasPrefix(digits, "9"):
		return "+63" + digits, true
	case strings.HasPrefix(digits, "63"):
		if len(digits) == 12 && digits[2] == '9' {
			return "+" + digits, true
		}
		return "", false
	case plus && len(digits) >= 8 && len(digits) <= 15 && digits[0] != '0':
		return "+" + digits, true
	}
	return "", false
}

// ValidPassword reports whether a password follows the spec's rule: only letters and numbers, at
// least 8 characters, with at least one letter and one digit (at most 128 characters).
func ValidPassword(p string) bool {
	if len(p) < 8 || len(p) > 128 {
		return false
	}
	var letter, digit bool
	for _, r := range p {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9':
			digit = true
		default:
			return false
		}
	}
	return letter && digit
}

// NormalizeEmail returns an address's canonical form (CanonicalEmail); an address that is not
// acceptable is only trimmed and lower-cased, for the form to show it again and refuse it.
func NormalizeEmail(s string) string {
	if c, ok := CanonicalEmail(s); ok {
		return c
	}
	return strings.ToLower(strings.TrimSpace(s))
}

// fieldErrors collects per-field messages in form order.
type fieldErrors struct {
	first  string
	fields map[string]string
}

func (f *fieldErrors) add(field, msg string) {
	if f.fields == nil {
		f.fields = map[string]string{}
	}
	if _, ok := f.fields[field]; ok {
		return
	}
	f.fields[field] = msg
	if f.first == "" {
		f.first = msg
	}
}

func (f *fieldErrors) err() *Error {
	if f.first == "" {
		return nil
	}
	return &Error{Code: EINVALID, Message: f.first, Fields: f.fields}
}

// text adds requiredMsg (when not "") for a blank value; otherwise it checks the field's rule of
// AccountTextRules: its length limit and its characters. It reports whether value is filled.
func (f *fieldErrors) text(field, value, requiredMsg string) bool {
	if strings.TrimSpace(value) == "" {
		if requiredMsg != "" {
			f.add(field, requiredMsg)
		}
		return false
	}
	rule, ok := AccountTextRules[field]
	if !ok {
		rule = TextRule{Max: 200, Kind: TextLine}
	}
	if utf8.RuneCountInString(value) > rule.Max {
		f.add(field, MsgTooLong)
	} else if !ValidText(rule.Kind, value) {
		f.add(field, textMessage(rule.Kind))
	}
	return true
}

func (f *fieldErrors) email(value string) {
	if f.text(FieldEmail, value, MsgEmailRequired) && !ValidEmail(value) {
		f.add(FieldEmail, MsgEmailInvalid)
	}
}

// mobile checks a number and returns its normalized form ("" when missing or invalid).
func (f *fieldErrors) mobile(value string) string {
	if !f.text(FieldMobileNumber, value, MsgMobileRequired) {
		return ""
	}
	n, ok := NormalizeMobileNumber(value)
	if !ok {
		f.add(FieldMobileNumber, MsgMobileInvalid)
	}
	return n
}

func (f *fieldErrors) passwords(password, repeat string) {
	if !ValidPassword(password) || utf8.RuneCountInString(repeat) > MaxLength(FieldPassword) {
		f.add(FieldPassword, MsgPasswordInvalid)
	}
	if password != repeat {
		f.add(FieldRepeatPassword, MsgPasswordsDiffer)
	}
}

// Normalize trims the sign-up's text fields, lower-cases the e-mail and normalizes the mobile number
// when it is valid (an invalid one is kept as typed, for the form to show it again).
func (s SignUp) Normalize() SignUp {
	s.Email = NormalizeEmail(s.Email)
	s.FirstName, s.LastName = strings.TrimSpace(s.FirstName), strings.TrimSpace(s.LastName)
	if s.ExistingUser { // the form hides the name fields from existing users: what they hold is not kept
		s.FirstName, s.LastName = "", ""
	}
	s.MobileNumber = strings.TrimSpace(s.MobileNumber)
	if n, ok := NormalizeMobileNumber(s.MobileNumber); ok {
		s.MobileNumber = n
	}
	return s
}

// Validate checks a normalized sign-up. It returns nil or an EINVALID error with per-field messages.
func (s SignUp) Validate() *Error {
	var f fieldErrors
	f.email(s.Email)
	f.passwords(s.Password, s.RepeatPassword)
	// An existing user's name is on their earlier tickets: optional (they add it on /profile when
	// they wish), but checked when given.
	firstMsg, lastMsg := MsgFirstNameRequired, MsgLastNameRequired
	if s.ExistingUser {
		firstMsg, lastMsg = "", ""
	}
	f.text(FieldFirstName, s.FirstName, firstMsg)
	f.text(FieldLastName, s.LastName, lastMsg)
	f.mobile(s.MobileNumber)
	if !s.AcceptTerms {
		f.add(FieldTerms, MsgTermsRequired)
	}
	return f.err()
}

// ValidateNewPassword checks a new password and its repetition.
func ValidateNewPassword(password, repeat string) *Error {
	var f fieldErrors
	f.passwords(password, repeat)
	return f.err()
}

// Profile field names of the /profile form.
const (
	FieldTitle     = "title"
	FieldBio       = "bio"
	FieldCountry   = "country"
	FieldCity      = "city"
	FieldInterests = "interests"
)

// Normalize trims the profile's text fields and normalizes a valid mobile number.
func (u ProfileUpdate) Normalize() ProfileUpdate {
	for _, s := range []*string{&u.FirstName, &u.LastName, &u.MobileNumber, &u.Profile.Title, &u.Profile.BirthDate,
		&u.Profile.Age, &u.Profile.Bio, &u.Profile.Country, &u.Profile.City, &u.Profile.CompanyName,
		&u.Profile.Designation, &u.Profile.Interests, &u.Profile.Username, &u.Profile.Organization} {
		*s = strings.TrimSpace(*s)
	}
	if n, ok := NormalizeMobileNumber(u.MobileNumber); ok {
		u.MobileNumber = n
	}
	return u
}

// Validate checks a normalized profile update against the person-field rules, with now used for
// the birthdate's range. It returns nil or an EINVALID error with per-field messages.
func (u ProfileUpdate) Validate(now time.Time) *Error {
	var f fieldErrors
	p := u.Profile
	f.text(FieldFirstName, u.FirstName, MsgFirstNameRequired)
	f.text(FieldLastName, u.LastName, MsgLastNameRequired)
	f.mobile(u.MobileNumber)
	f.text(FieldTitle, p.Title, "")
	if f.text(FieldBirthDate, p.BirthDate, "") {
		d, err := time.Parse("2006-01-02", p.BirthDate)
		if !matchBirthDatePattern(p.BirthDate) || err != nil || d.After(now) || d.Year() < now.Year()-120 {
			f.add(FieldBirthDate, "Invalid Birthdate")
		}
	}
	f.text(FieldAge, p.Age, "")
	if p.Age != "" && (!matches(agePattern, p.Age) || p.Age == "0" || len(strings.TrimLeft(p.Age, "0")) > 3 || atoi(p.Age) > 120) {
		f.add(FieldAge, "Invalid Age")
	}
	f.text(FieldBio, p.Bio, "")
	f.text(FieldCountry, p.Country, "")
	f.text(FieldCity, p.City, "")
	f.text(FieldCompanyName, p.CompanyName, "")
	f.text(FieldDesignation, p.Designation, "")
	f.text(FieldInterests, p.Interests, "")
	if f.text(FieldUsername, p.Username, "") && !usernameRE.MatchString(p.Username) {
		f.add(FieldUsername, MsgUsernameInvalid)
	}
	f.text(FieldOrganization, p.Organization, "")
	return f.err()
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// Normalize trims the participant's fields and normalizes a valid mobile number.
func (p ParticipantSignUp) Normalize() ParticipantSignUp {
	p.FirstName, p.LastName = strings.TrimSpace(p.FirstName), strings.TrimSpace(p.LastName)
	p.MobileNumber = strings.TrimSpace(p.MobileNumber)
	if n, ok := NormalizeMobileNumber(p.MobileNumber); ok {
		p.MobileNumber = n
	}
	return p
}

// Validate checks a normalized participant registration.
func (p ParticipantSignUp) Validate() *Error {
	var f fieldErrors
	f.text(FieldFirstName, p.FirstName, MsgFirstNameRequired)
	f.text(FieldLastName, p.LastName, MsgLastNameRequired)
	f.mobile(p.MobileNumber)
	return f.err()
}

// Normalize trims the organizer's fields, lower-cases the e-mail and normalizes a valid mobile number.
func (o OrganizerSignUp) Normalize() OrganizerSignUp {
	o.Email = NormalizeEmail(o.Email)
	o.Username, o.Name = strings.TrimSpace(o.Username), strings.TrimSpace(o.Name)
	o.Organization, o.Source = strings.TrimSpace(o.Organization), strings.TrimSpace(o.Source)
	o.MobileNumber = strings.TrimSpace(o.MobileNumber)
	if n, ok := NormalizeMobileNumber(o.MobileNumber); ok {
		o.MobileNumber = n
	}
	return o
}

// Validate checks a normalized organizer registration. The password is checked only when given.
func (o OrganizerSignUp) Validate() *Error {
	var f fieldErrors
	f.email(o.Email)
	if f.text(FieldUsername, o.Username, "Username is required") && !usernameRE.MatchString(o.Username) {
		f.add(FieldUsername, MsgUsernameInvalid)
	}
	f.text(FieldName, o.Name, MsgNameRequired)
	f.text(FieldOrganization, o.Organization, MsgOrganizationMissing)
	f.mobile(o.MobileNumber)
	f.text(FieldSource, o.Source, "")
	if o.Password != "" || o.RepeatPassword != "" {
		f.passwords(o.Password, o.RepeatPassword)
	}
	return f.err()
}

// Normalize trims the report's fields.
func (r ProblemReport) Normalize() ProblemReport {
	r.Email = NormalizeEmail(r.Email)
	r.Name, r.Subject = strings.TrimSpace(r.Name), strings.TrimSpace(r.Subject)
	r.Message, r.PageURL = strings.TrimSpace(r.Message), strings.TrimSpace(r.PageURL)
	return r
}

// Validate checks a normalized problem report; the e-mail is needed to answer the reporter.
func (r ProblemReport) Validate() *Error {
	var f fieldErrors
	f.email(r.Email)
	f.text(FieldName, r.Name, "")
	f.text(FieldSubject, r.Subject, "")
	f.text(FieldMessage, r.Message, MsgMessageRequired)
	f.text(FieldPageURL, r.PageURL, "")
	return f.err()
}
