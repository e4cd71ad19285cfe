package palaro

import (
	"context"
	"time"
)

// Account roles.
const (
	RoleUser      = "user"      // a visitor who signed up
	RoleOrganizer = "organizer" // an event organizer (signed up through /register/organizer)
)

// Account statuses.
const (
	AccountPending = "pending" // signed up, e-mail address not confirmed yet
	AccountActive  = "active"  // e-mail address confirmed through the welcome e-mail's link
)

// SignInRequiredMessage tells a visitor that a feature needs an account (SPEC.md section 1).
const SignInRequiredMessage = "Register or Sign In to unlock all application features"

// User is an account that can sign in.
type User struct {
	ID        int64
	Email     string
	FirstName string
	LastName  string
	// MobileNumber is the account's number (E.164, such as +639171234567), "" while a new account's
	// number waits for its SMS code.
	MobileNumber string
	// MobileConfirmed is true once an SMS code proved the number (confirmation, change or password
	// reset); only then does the account get the participant of that number.
	MobileConfirmed bool
	Role            string
	Status          string
	// ExistingUser is true when the visitor ticked 'I am an existing user' at sign-up.
	ExistingUser bool
	// SessionVersion is bumped to end every session of the account (sign-out, password change).
	SessionVersion int
	Profile        Profile
	// PictureVersion changes whenever the picture does (0: no picture); it busts the image cache.
	PictureVersion int64
	CreatedAt      time.Time
	ActivatedAt    time.Time
}

// FullName is the user's first and last name.
func (u *User) FullName() string {
	if u.LastName == "" {
		return u.FirstName
	}
	return u.FirstName + " " + u.LastName
}

// Profile holds the person fields of SPEC.md section 3 that a user edits on /profile.
type Profile struct {
	Title        string
	BirthDate    string // YYYY-MM-DD, or ""
	Age          string // digits, or ""
	Bio          string
	Country      string
	City         string
	CompanyName  string
	Designation  string
	Interests    string
	Username     string
	Organization string
	Source       string // organizer sign-up's source (how they heard of Palaro)
}

// SignUp is what the /sign-up form sends.
type SignUp struct {
	Email          string
	Password       string
	RepeatPassword string
	FirstName      string
	LastName       string
	MobileNumber   string
	AcceptTerms    bool
	ExistingUser   bool
}

// ProfileUpdate is what the /profile form sends.
type ProfileUpdate struct {
	FirstName    string
	LastName     string
	MobileNumber string
	Profile      Profile
}

// ParticipantSignUp is the participant registration payload of SPEC.md section 7.
type ParticipantSignUp struct {
	FirstName    string `json:"firstName"`
	LastName     string `json:"lastName"`
	MobileNumber string `json:"mobileNumber"`
}

// Participant is a person registered for booth activities; their QR code carries PublicID.
type Participant struct {
	ID           int64
	PublicID     string // unguessable id used in /register/success/{PublicID} and in the QR code
	FirstName    string
	LastName     string
	MobileNumber string
	// Confirmed is true once an SMS code sent to MobileNumber was entered: only a confirmed
	// participant owns its number (one per number) and plays for prizes.
	Confirmed bool
	CreatedAt time.Time
}

// OrganizerSignUp is the organizer registration payload of SPEC.md section 7.
type OrganizerSignUp struct {
	Email        string `json:"email"`
	Username     string `json:"username"`
	Name         string `json:"name"`
	Organization string `json:"organization"`
	MobileNumber string `json:"mobileNumber"`
	Source       string `json:"source"`
	// Password is optional in the JSON call (then the organizer sets one through /reset-password);
	// the /register/organizer form asks for one.
	Password       string `json:"password,omitempty"`
	RepeatPassword string `json:"repeatPassword,omitempty"`
}

// ProblemReport is what /report sends.
type ProblemReport struct {
	Email   string
	Name    string
	Subject string
	Message string
	PageURL string
}

// Report is a stored problem report.
type Report struct {
	ID        int64
	Reference string // shown to the reporter, such as R-7KQ2-M9XD
	ProblemReport
	UserID    int64
	CreatedAt time.Time
}

// Picture is a user's profile picture as stored: re-encoded image bytes.
type Picture struct {
	ContentType string
	Data        []byte
	Version     int64
}

// AccountService manages accounts, sessions' versions, e-mail confirmation and password resets.
type AccountService interface {
	// SignUp creates a pending account and queues the welcome e-mail with its activation link. The
	// mobile number is not the account's until the SMS code sent to it is entered
	// (ConfirmMobileChange); a number another account uses gets no code, and the answer is the same.
	// Returns EINVALID (with Fields) for bad input, ECONFLICT when the e-mail is taken.
	SignUp(ctx context.Context, req SignUp) (*User, error)
	// Authenticate returns the account with that e-mail and password.
	// Returns EUNAUTHORIZED when either is wrong (without saying which).
	Authenticate(ctx context.Context, email, password string) (*User, error)
	// FindUserByID returns an account. Returns ENOTFOUND.
	FindUserByID(ctx context.Context, id int64) (*User, error)
	// Activate confirms the e-mail address of the account the activation token belongs to.
	// Returns ECONFLICT (MsgAlreadyActive) for a used or expired token of an account that is active,
	// EINVALID when the token is unknown, or used or expired while the account is still pending.
	Activate(ctx context.Context, token string) (*User, error)
	// ResendActivation sends the welcome e-mail again with a new activation link, to the account's
	// address. Returns ECONFLICT (MsgAlreadyActive) when the account is active, ENOTFOUND.
	ResendActivation(ctx context.Context, userID int64) (*User, error)
	// EndSessions bumps the account's session version, ending every session signed in with the old one,
	// and returns the new version. Returns ENOTFOUND.
	EndSessions(ctx context.Context, userID int64) (int, error)
	// UpdateProfile saves the person fields but the mobile number. A new mobile number is not
	// saved: a 6-digit code is sent to it by SMS (ConfirmMobileChange saves it), except when another
	// account uses it, when nothing is sent and the change can never be confirmed; the caller
	// answers the same either way. Returns EINVALID (with Fields), ECONFLICT for a taken username.
	UpdateProfile(ctx context.Context, userID int64, upd ProfileUpdate) (*User, error)
	// RequestMobileCode sends a new code for the account's number awaiting one (a new number, else
	// its own unconfirmed number), like UpdateProfile does, and returns that number. Returns
	// EINVALID when there is no number to confirm, ENOTFOUND.
	RequestMobileCode(ctx context.Context, userID int64) (string, error)
	// PendingMobileChange returns the new number awaiting its code, or "" when there is none.
	PendingMobileChange(ctx context.Context, userID int64) (string, error)
	// ConfirmMobileChange saves the pending new number when code is the one sent to it. Returns
	// EINVALID (Fields: code) for a wrong, used, expired or exhausted code, or a change that cannot
	// complete, always with the same message.
	ConfirmMobileChange(ctx context.Context, userID int64, code string) (*User, error)
	// SetPicture stores an already re-encoded profile picture. Returns ENOTFOUND.
	SetPicture(ctx context.Context, userID int64, pic Picture) error
	// FindPicture returns the user's picture. Returns ENOTFOUND when there is none.
	FindPicture(ctx context.Context, userID int64) (*Picture, error)
	// RequestEmailChange queues a confirmation e-mail to newEmail; the change happens on confirmation.
	// Returns EINVALID for a malformed address, ECONFLICT when another account uses it.
	RequestEmailChange(ctx context.Context, userID int64, newEmail string) error
	// ConfirmEmailChange moves the account to the address the token was sent to and marks it confirmed.
	// Returns EINVALID when the token is unknown, used or expired, ECONFLICT when the address was taken meanwhile.
	ConfirmEmailChange(ctx context.Context, token string) (*User, error)
	// RequestPasswordReset sends a 6-digit code by SMS when an account uses the mobile number, and does
	// nothing otherwise (the caller answers the same either way). Returns EINVALID for a malformed number.
	RequestPasswordReset(ctx context.Context, mobileNumber string) error
	// ResetPassword sets a new password when code is the live code sent to the number, and ends every
	// session of the account. Returns EINVALID (with Fields) for a bad password or a wrong, used,
	// expired or exhausted code.
	ResetPassword(ctx context.Context, mobileNumber, code, password, repeat string) error
	// ChangePassword sets a new password when current is the account's password, ends every other
	// session of the account (the session version changes) and returns the account with its new
	// session version. Returns EINVALID (with Fields) for a wrong current password or a bad new one.
	ChangePassword(ctx context.Context, userID int64, current, password, repeat string) (*User, error)
	// RegisterParticipant stores a new, unconfirmed participant, whatever participants the number
	// has: it never returns another registration. Returns EINVALID (with Fields).
	RegisterParticipant(ctx context.Context, req ParticipantSignUp) (*Participant, error)
	// RequestParticipantCode sends a 6-digit code by SMS to an unconfirmed participant's number.
	// Returns ENOTFOUND, EINVALID (MsgAlreadyConfirmed) for a confirmed participant.
	RequestParticipantCode(ctx context.Context, publicID string) error
	// ConfirmParticipant confirms a participant's number with the code sent to it and returns the
	// participant of that number from now on: the one confirmed before (the number's owner, who
	// just proved it), else this one. Returns EINVALID (Fields: code) for a wrong, used, expired or
	// exhausted code, ENOTFOUND.
	ConfirmParticipant(ctx context.Context, publicID, code string) (*Participant, error)
	// FindParticipant returns a participant by public id. Returns ENOTFOUND.
	FindParticipant(ctx context.Context, publicID string) (*Participant, error)
	// SignUpOrganizer creates an organizer account. Returns EINVALID (with Fields), ECONFLICT when
	// the e-mail, username or mobile number is taken.
	SignUpOrganizer(ctx context.Context, req OrganizerSignUp) (*User, error)
	// CreateReport stores a problem report, linked to userID when not 0. Returns EINVALID (with Fields).
	CreateReport(ctx context.Context, req ProblemReport, userID int64) (*Report, error)
	// FindReport returns a report by reference. Returns ENOTFOUND.
	FindReport(ctx context.Context, reference string) (*Report, error)
	// ListReports returns every report, newest first.
	ListReports(ctx context.Context) ([]Report, error)
}

// Message kinds of the account service.
const (
	MessageWelcome           = "welcome"
	MessageAccountEmail      = "account_email_change"
	MessagePasswordResetCode = "password_reset_code"
	MessageMobileCode        = "mobile_change_code"
)

// AccountComposer writes the messages of the account service; the store calls it inside the
// transaction that causes the message.
type AccountComposer interface {
	// Welcome greets a new account and carries its activation link (to activatePath).
	Welcome(u *User, activatePath string) Message
	// AccountEmailChange asks a new address to confirm that the account moves to it (confirmPath).
	AccountEmailChange(u *User, newEmail, confirmPath string) Message
	// ResetCode is the SMS with a password reset code.
	ResetCode(mobileNumber, code string) Message
	// MobileCode is the SMS with the code that confirms a new mobile number for an account.
	MobileCode(mobileNumber, code string) Message
}

// Timings of account tokens and codes.
const (
	ActivationTTL     = 7 * 24 * time.Hour
	EmailChangeTTL    = 24 * time.Hour
	ResetCodeTTL      = 10 * time.Minute
	ResetCodeMaxTries = 5
	// MobileCodeTTL is how long a code confirming a new mobile number is valid (ResetCodeMaxTries tries).
	MobileCodeTTL      = 10 * time.Minute
	SessionMaxLifetime = 30 * 24 * time.Hour
)

// ActivatePath is the activation link of the welcome e-mail.
func ActivatePath(token string) string { return "/activate?token=" + token }

// AccountEmailConfirmPath is the link that confirms an account's new e-mail address.
func AccountEmailConfirmPath(token string) string { return "/profile/email/confirm?token=" + token }
