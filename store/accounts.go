package store

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"strings"
	"time"

	"palaro"
)

// AccountService implements palaro.AccountService.
type AccountService struct {
	db *DB
	// codeKey keys the HMAC under which password reset codes are stored.
	codeKey  []byte
	composer palaro.AccountComposer
}

var _ palaro.AccountService = (*AccountService)(nil)

// NewAccountService returns the account service backed by db. secret keys the reset codes' HMAC;
// composer writes the e-mails and SMS, which go to the outbox with the change that causes them.
func NewAccountService(db *DB, secret []byte, composer palaro.AccountComposer) *AccountService {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("palaro reset codes"))
	return &AccountService{db: db, codeKey: mac.Sum(nil), composer: composer}
}

// queue writes a message to the outbox inside tx.
func (s *AccountService) queue(ctx context.Context, tx *sql.Tx, m palaro.Message) error {
	return enqueue(ctx, tx, m, "", s.db.Now())
}

// AppSecret returns the named secret of size bytes, generating and storing it on first use, so
// that it survives restarts and every app server of the database reads the same one. Servers that
// start together may each generate one: the first stored wins, and every one returns it.
func (db *DB) AppSecret(ctx context.Context, name string, size int) (_ []byte, err error) {
	defer wrapErr(&err, "store: AppSecret(%q)", name)

	return write(ctx, db, func(ctx context.Context, tx *sql.Tx) ([]byte, error) {
		var value []byte
		err := tx.QueryRowContext(ctx, `SELECT value FROM app_secrets WHERE name = ?`, name).Scan(&value)
		if err == nil {
			return value, nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		value = make([]byte, size)
		if _, err := rand.Read(value); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO app_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
			name, value); err != nil {
			return nil, err
		}
		if err := tx.QueryRowContext(ctx, `SELECT value FROM app_secrets WHERE name = ?`, name).Scan(&value); err != nil {
			return nil, err
		}
		return value, nil
	})
}

const userColumns = `id, email, password_hash, first_name, last_name, mobile_number, role, status, existing_user,
	session_version, title, birth_date, age, bio, country, city, company_name, designation, interests,
	COALESCE(username, ''), organization, source, picture_version, created_at, activated_at, mobile_confirmed_at`

// noMobilePrefix starts the stand-in that users.mobile_number (NOT NULL UNIQUE) holds while a new
// account's number waits for its SMS code: never a number (numbers are E.164, "+…"), read as "".
const noMobilePrefix = "~"

// noMobile returns a unique stand-in for an account without a confirmed number yet.
func noMobile() string { return noMobilePrefix + newPublicID() }

// accountMobile returns a stored users.mobile_number as the account's number ("" for the stand-in).
func accountMobile(stored string) string {
	if strings.HasPrefix(stored, noMobilePrefix) {
		return ""
	}
	return stored
}

// scanUser reads a users row selected with userColumns, returning the password hash beside it.
func scanUser(row rowScanner) (*palaro.User, string, error) {
	var u palaro.User
	var hash, created string
	var activated, mobileConfirmed sql.NullString
	p := &u.Profile
	err := row.Scan(&u.ID, &u.Email, &hash, &u.FirstName, &u.LastName, &u.MobileNumber, &u.Role, &u.Status,
		&u.ExistingUser, &u.SessionVersion, &p.Title, &p.BirthDate, &p.Age, &p.Bio, &p.Country, &p.City,
		&p.CompanyName, &p.Designation, &p.Interests, &p.Username, &p.Organization, &p.Source, &u.PictureVersion,
		&created, &activated, &mobileConfirmed)
	if err != nil {
		return nil, "", err
	}
	u.MobileNumber = accountMobile(u.MobileNumber)
	u.MobileConfirmed = mobileConfirmed.Valid && u.MobileNumber != ""
	if u.CreatedAt, err = time.Parse(timeFormat, created); err != nil {
		return nil, "", err
	}
	if u.ActivatedAt, err = parseTime(activated); err != nil {
		return nil, "", err
	}
	return &u, hash, nil
}

var errUserNotFound = palaro.Errorf(palaro.ENOTFOUND, "Account not found.")

func findUser(ctx context.Context, tx *sql.Tx, where string, arg any) (*palaro.User, string, error) {
	u, hash, err := scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", errUserNotFound
	}
	return u, hash, err
}

// fieldErr is an error about one field of a form.
func fieldErr(code, field, msg string) *palaro.Error {
	return &palaro.Error{Code: code, Message: msg, Fields: map[string]string{field: msg}}
}

// conflictOf turns a UNIQUE violation on users into the matching ECONFLICT error.
func conflictOf(err error) error {
	if !isUniqueViolation(err) {
		return err
	}
	msg, field := palaro.MsgEmailTaken, palaro.FieldEmail
	switch s := err.Error(); {
	case strings.Contains(s, "mobile_number"):
		msg, field = palaro.MsgMobileTaken, palaro.FieldMobileNumber
	case strings.Contains(s, "username"):
		msg, field = palaro.MsgUsernameTaken, palaro.FieldUsername
	}
	return fieldErr(palaro.ECONFLICT, field, msg)
}

// SignUp creates a pending account and queues the welcome e-mail with its activation link. The
// mobile number waits for its SMS code like a changed one (requestMobileChange): the answer is the
// same whether or not another account uses it, so sign-up tells nobody which numbers are taken.
func (s *AccountService) SignUp(ctx context.Context, req palaro.SignUp) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: SignUp")

	req = req.Normalize()
	if err := req.Validate(); err != nil {
		return nil, err
	}
	hash, err := palaro.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.User, error) {
		now := formatTime(s.db.Now())
		id, err := insertID(ctx, tx, `INSERT INTO users (email, password_hash, first_name, last_name, mobile_number,
		existing_user, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			req.Email, hash, req.FirstName, req.LastName, noMobile(), req.ExistingUser, now, now)
		if err != nil {
			return nil, conflictOf(err)
		}
		if err := s.requestMobileChange(ctx, tx, id, req.MobileNumber); err != nil {
			return nil, err
		}
		u, err := s.welcome(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		return u, nil
	})
}

// welcome reads a new account and queues its welcome e-mail with an activation link.
func (s *AccountService) welcome(ctx context.Context, tx *sql.Tx, id int64) (*palaro.User, error) {
	u, _, err := findUser(ctx, tx, `id = ?`, id)
	if err != nil {
		return nil, err
	}
	token, err := s.createToken(ctx, tx, "activate", id, u.Email, palaro.ActivationTTL)
	if err != nil {
		return nil, err
	}
	return u, s.queue(ctx, tx, s.composer.Welcome(u, palaro.ActivatePath(token)))
}

// Authenticate returns the account with that e-mail and password.
func (s *AccountService) Authenticate(ctx context.Context, email, password string) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: Authenticate")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	u, hash, err := findUser(ctx, tx, `lower(email) = ?`, palaro.NormalizeEmail(email))
	if palaro.ErrorCode(err) == palaro.ENOTFOUND || (err == nil && hash == "") {
		palaro.SpendPasswordCheck(password)
		return nil, palaro.Errorf(palaro.EUNAUTHORIZED, palaro.MsgSignInFailed)
	} else if err != nil {
		return nil, err
	}
	if !palaro.CheckPassword(hash, password) {
		return nil, palaro.Errorf(palaro.EUNAUTHORIZED, palaro.MsgSignInFailed)
	}
	return u, nil
}

// FindUserByID returns an account.
func (s *AccountService) FindUserByID(ctx context.Context, id int64) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: FindUserByID(%d)", id)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	u, _, err := findUser(ctx, tx, `id = ?`, id)
	return u, err
}

// createToken stores a one-time link token and returns it; only its SHA-256 is kept.
func (s *AccountService) createToken(ctx context.Context, tx *sql.Tx, purpose string, userID int64, email string, ttl time.Duration) (string, error) {
	token, hash := newToken()
	now := s.db.Now()
	_, err := tx.ExecContext(ctx, `INSERT INTO account_tokens (token_hash, purpose, user_id, email, expires_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, hash, purpose, userID, email, formatTime(now.Add(ttl)), formatTime(now))
	return token, err
}

// useToken marks a live token of the purpose used and returns its user id and e-mail address.
func (s *AccountService) useToken(ctx context.Context, tx *sql.Tx, purpose, token string) (int64, string, error) {
	var id, userID int64
	var email string
	now := formatTime(s.db.Now())
	err := tx.QueryRowContext(ctx, `SELECT id, user_id, email FROM account_tokens
		WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?`, hashToken(token), purpose, now).
		Scan(&id, &userID, &email)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", palaro.Errorf(palaro.EINVALID, palaro.MsgTokenInvalid)
	} else if err != nil {
		return 0, "", err
	}
	_, err = tx.ExecContext(ctx, `UPDATE account_tokens SET used_at = ? WHERE id = ?`, now, id)
	return userID, email, err
}

// Activate confirms the e-mail address of the account the activation token belongs to.
func (s *AccountService) Activate(ctx context.Context, token string) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: Activate")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.User, error) {
		userID, email, err := s.useToken(ctx, tx, "activate", token)
		if palaro.ErrorCode(err) == palaro.EINVALID {
			// A used or expired link of an account that is active by now (a second click): say so.
			var status string
			if qerr := tx.QueryRowContext(ctx, `SELECT u.status FROM account_tokens t JOIN users u ON u.id = t.user_id
			WHERE t.token_hash = ? AND t.purpose = 'activate'`, hashToken(token)).Scan(&status); qerr == nil &&
				status == palaro.AccountActive {
				return nil, palaro.Errorf(palaro.ECONFLICT, palaro.MsgAlreadyActive)
			} else if qerr != nil && !errors.Is(qerr, sql.ErrNoRows) {
				return nil, qerr
			}
			return nil, err
		} else if err != nil {
			return nil, err
		}
		now := formatTime(s.db.Now())
		if _, err := tx.ExecContext(ctx, `UPDATE users SET status = 'active', activated_at = COALESCE(activated_at, ?),
		updated_at = ? WHERE id = ? AND email = ?`, now, now, userID, email); err != nil {
			return nil, err
		}
		u, _, err := findUser(ctx, tx, `id = ?`, userID)
		if err != nil {
			return nil, err
		}
		return u, nil
	})
}

// ResendActivation queues the welcome e-mail again, with a new activation link.
func (s *AccountService) ResendActivation(ctx context.Context, userID int64) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: ResendActivation(%d)", userID)

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.User, error) {
		u, _, err := findUser(ctx, tx, `id = ?`, userID)
		if err != nil {
			return nil, err
		}
		if u.Status == palaro.AccountActive {
			return nil, palaro.Errorf(palaro.ECONFLICT, palaro.MsgAlreadyActive)
		}
		if u, err = s.welcome(ctx, tx, userID); err != nil {
			return nil, err
		}
		return u, nil
	})
}

// EndSessions bumps the account's session version and returns the new one.
func (s *AccountService) EndSessions(ctx context.Context, userID int64) (_ int, err error) {
	defer wrapErr(&err, "store: EndSessions(%d)", userID)

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (int, error) {
		var v int
		err := tx.QueryRowContext(ctx, `UPDATE users SET session_version = session_version + 1 WHERE id = ?
		RETURNING session_version`, userID).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, errUserNotFound
		} else if err != nil {
			return 0, err
		}
		return v, nil
	})
}

// UpdateProfile saves the person fields but the mobile number; a new number gets a code
// (requestMobileChange) and is saved by ConfirmMobileChange.
func (s *AccountService) UpdateProfile(ctx context.Context, userID int64, upd palaro.ProfileUpdate) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: UpdateProfile(%d)", userID)

	upd = upd.Normalize()
	if err := upd.Validate(s.db.Now()); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.User, error) {
		p := upd.Profile
		var username any
		if p.Username != "" {
			username = p.Username
		}
		res, err := tx.ExecContext(ctx, `UPDATE users SET first_name = ?, last_name = ?, title = ?,
		birth_date = ?, age = ?, bio = ?, country = ?, city = ?, company_name = ?, designation = ?, interests = ?,
		username = ?, organization = ?, updated_at = ? WHERE id = ?`,
			upd.FirstName, upd.LastName, p.Title, p.BirthDate, p.Age, p.Bio, p.Country, p.City,
			p.CompanyName, p.Designation, p.Interests, username, p.Organization, formatTime(s.db.Now()), userID)
		if err != nil {
			return nil, conflictOf(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil, errUserNotFound
		}
		u, _, err := findUser(ctx, tx, `id = ?`, userID)
		if err != nil {
			return nil, err
		}
		if upd.MobileNumber != u.MobileNumber {
			if err := s.requestMobileChange(ctx, tx, u.ID, upd.MobileNumber); err != nil {
				return nil, err
			}
		}
		return u, nil
	})
}

// requestMobileChange records a pending change of an account's mobile number (or the
// confirmation of its own) and sends its code by SMS. When another account confirmed the number,
// the change is recorded as blocked and nothing is sent: the caller answers the same, and
// ConfirmMobileChange refuses every code with the same message as a wrong one, so the number's
// owner is not revealed. A number another account only typed (never confirmed) gets its code:
// whoever proves it gets it (ConfirmMobileChange).
func (s *AccountService) requestMobileChange(ctx context.Context, tx *sql.Tx, userID int64, number string) error {
	var taken int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE mobile_number = ? AND id <> ?
		AND mobile_confirmed_at IS NOT NULL`, number, userID).Scan(&taken); err != nil {
		return err
	}
	code, err := s.issueCode(ctx, tx, codeOwner{"user_id", userID}, number, taken > 0)
	if err != nil || taken > 0 {
		return err
	}
	return s.queue(ctx, tx, s.composer.MobileCode(number, code))
}

// codeOwner is whose SMS codes a mobile_changes row holds: an account's (column user_id) or a
// participant's (participant_id).
type codeOwner struct {
	column string
	id     int64
}

// hash is the stored form of a code sent to number for the owner: an HMAC bound to both.
func (s *AccountService) ownerCodeHash(o codeOwner, number, code string) []byte {
	if o.column == "user_id" {
		return s.codeHash(o.id, "mobile:"+number+":"+code)
	}
	mac := hmac.New(sha256.New, s.codeKey)
	fmt.Fprintf(mac, "participant:%d:mobile:%s:%s", o.id, number, code)
	return mac.Sum(nil)
}

// issueCode replaces the owner's live code with a new 6-digit code for number and returns it;
// a blocked code can never be confirmed (its number belongs to someone else).
func (s *AccountService) issueCode(ctx context.Context, tx *sql.Tx, o codeOwner, number string, blocked bool) (string, error) {
	now := s.db.Now()
	if _, err := tx.ExecContext(ctx, `UPDATE mobile_changes SET used_at = ? WHERE `+o.column+` = ? AND used_at IS NULL`,
		formatTime(now), o.id); err != nil {
		return "", err
	}
	code := randomDigits(6)
	_, err := tx.ExecContext(ctx, `INSERT INTO mobile_changes (`+o.column+`, mobile_number, code_hash, blocked, expires_at,
		created_at) VALUES (?, ?, ?, ?, ?, ?)`, o.id, number, s.ownerCodeHash(o, number, code), blocked,
		formatTime(now.Add(palaro.MobileCodeTTL)), formatTime(now))
	return code, err
}

// checkCode uses the owner's live code when code is it and returns its number; a wrong code (or
// a blocked one) costs one of its tries and returns "". sql.ErrNoRows: no live code.
func (s *AccountService) checkCode(ctx context.Context, tx *sql.Tx, o codeOwner, code string) (string, error) {
	now := formatTime(s.db.Now())
	var id int64
	var number string
	var stored []byte
	var blocked bool
	err := tx.QueryRowContext(ctx, `SELECT id, mobile_number, code_hash, blocked FROM mobile_changes WHERE `+o.column+` = ?
		AND used_at IS NULL AND expires_at > ? AND attempts < ? ORDER BY id DESC LIMIT 1`, o.id, now, palaro.ResetCodeMaxTries).
		Scan(&id, &number, &stored, &blocked)
	if err != nil {
		return "", err
	}
	if blocked || !hmac.Equal(stored, s.ownerCodeHash(o, number, code)) {
		_, err := tx.ExecContext(ctx, `UPDATE mobile_changes SET attempts = attempts + 1 WHERE id = ?`, id)
		return "", err
	}
	_, err = tx.ExecContext(ctx, `UPDATE mobile_changes SET used_at = ? WHERE id = ?`, now, id)
	return number, err
}

// pendingChange returns the number of the account's live code, or "".
func pendingChange(ctx context.Context, tx *sql.Tx, userID int64, now time.Time) (string, error) {
	var number string
	err := tx.QueryRowContext(ctx, `SELECT mobile_number FROM mobile_changes WHERE user_id = ? AND used_at IS NULL
		AND expires_at > ? AND attempts < ? ORDER BY id DESC LIMIT 1`, userID, formatTime(now), palaro.ResetCodeMaxTries).
		Scan(&number)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return number, err
}

// RequestMobileCode sends a new code for the number awaiting one, else for the account's own
// unconfirmed number.
func (s *AccountService) RequestMobileCode(ctx context.Context, userID int64) (_ string, err error) {
	defer wrapErr(&err, "store: RequestMobileCode(%d)", userID)

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (string, error) {
		u, _, err := findUser(ctx, tx, `id = ?`, userID)
		if err != nil {
			return "", err
		}
		number, err := pendingChange(ctx, tx, userID, s.db.Now())
		if err != nil {
			return "", err
		}
		if number == "" && !u.MobileConfirmed {
			number = u.MobileNumber
		}
		if number == "" {
			return "", palaro.Errorf(palaro.EINVALID, palaro.MsgNothingToConfirm)
		}
		return number, s.requestMobileChange(ctx, tx, userID, number)
	})
}

// PendingMobileChange returns the new number awaiting its code, or "".
func (s *AccountService) PendingMobileChange(ctx context.Context, userID int64) (_ string, err error) {
	defer wrapErr(&err, "store: PendingMobileChange(%d)", userID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	return pendingChange(ctx, tx, userID, s.db.Now())
}

// ConfirmMobileChange saves the pending new number when code is the one sent to it.
func (s *AccountService) ConfirmMobileChange(ctx context.Context, userID int64, code string) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: ConfirmMobileChange(%d)", userID)

	invalid := fieldErr(palaro.EINVALID, palaro.FieldCode, palaro.MsgMobileCodeInvalid)
	code = strings.TrimSpace(code)
	if len(code) != 6 {
		return nil, invalid
	}
	// A wrong code's attempt is counted and committed; the caller then hears invalid.
	wrong := false
	u, err := write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.User, error) {
		wrong = false
		number, err := s.checkCode(ctx, tx, codeOwner{"user_id", userID}, code)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, invalid
		} else if err != nil {
			return nil, err
		}
		if number == "" {
			wrong = true
			return nil, nil
		}
		now := formatTime(s.db.Now())
		// An account that only typed this number (never proved it) gives it up to the one proving it.
		if _, err := tx.ExecContext(ctx, `UPDATE users SET mobile_number = ?, updated_at = ? WHERE mobile_number = ? AND id <> ?
		AND mobile_confirmed_at IS NULL`, noMobile(), now, number, userID); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET mobile_number = ?, mobile_confirmed_at = ?, updated_at = ? WHERE id = ?`,
			number, now, now, userID); err != nil {
			if isUniqueViolation(err) { // taken since the code was sent
				return nil, invalid
			}
			return nil, err
		}
		u, _, err := findUser(ctx, tx, `id = ?`, userID)
		if err != nil {
			return nil, err
		}
		return u, nil
	})
	if err == nil && wrong {
		return nil, invalid
	}
	return u, err
}

// SetPicture stores an already re-encoded profile picture.
func (s *AccountService) SetPicture(ctx context.Context, userID int64, pic palaro.Picture) (err error) {
	defer wrapErr(&err, "store: SetPicture(%d)", userID)

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		now := s.db.Now()
		res, err := tx.ExecContext(ctx, `UPDATE users SET picture_version = ?, updated_at = ? WHERE id = ?`,
			now.UnixNano(), formatTime(now), userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errUserNotFound
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_pictures (user_id, content_type, data, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET content_type = excluded.content_type, data = excluded.data,
		updated_at = excluded.updated_at`, userID, pic.ContentType, pic.Data, formatTime(now)); err != nil {
			return err
		}
		return nil
	})
}

// FindPicture returns the user's picture.
func (s *AccountService) FindPicture(ctx context.Context, userID int64) (_ *palaro.Picture, err error) {
	defer wrapErr(&err, "store: FindPicture(%d)", userID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var pic palaro.Picture
	err = tx.QueryRowContext(ctx, `SELECT p.content_type, p.data, u.picture_version FROM user_pictures p
		JOIN users u ON u.id = p.user_id WHERE p.user_id = ?`, userID).Scan(&pic.ContentType, &pic.Data, &pic.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "No picture.")
	}
	return &pic, err
}

// RequestEmailChange queues a confirmation e-mail to newEmail.
func (s *AccountService) RequestEmailChange(ctx context.Context, userID int64, newEmail string) (err error) {
	defer wrapErr(&err, "store: RequestEmailChange(%d)", userID)

	newEmail, err = palaro.CheckEmail(newEmail)
	if err != nil {
		return fieldErr(palaro.EINVALID, palaro.FieldEmail, palaro.ErrorMessage(err))
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		u, _, err := findUser(ctx, tx, `id = ?`, userID)
		if err != nil {
			return err
		}
		if taken, _, err := findUser(ctx, tx, `lower(email) = ?`, newEmail); err == nil && taken.ID != userID {
			return fieldErr(palaro.ECONFLICT, palaro.FieldEmail, palaro.MsgEmailTaken)
		} else if err == nil {
			return fieldErr(palaro.EINVALID, palaro.FieldEmail, "This is already your e-mail address")
		}
		token, err := s.createToken(ctx, tx, "change_email", userID, newEmail, palaro.EmailChangeTTL)
		if err != nil {
			return err
		}
		if err := s.queue(ctx, tx, s.composer.AccountEmailChange(u, newEmail, palaro.AccountEmailConfirmPath(token))); err != nil {
			return err
		}
		return nil
	})
}

// ConfirmEmailChange moves the account to the address the token was sent to.
func (s *AccountService) ConfirmEmailChange(ctx context.Context, token string) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: ConfirmEmailChange")

	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.User, error) {
		userID, email, err := s.useToken(ctx, tx, "change_email", token)
		if err != nil {
			return nil, err
		}
		now := formatTime(s.db.Now())
		if _, err := tx.ExecContext(ctx, `UPDATE users SET email = ?, status = 'active', activated_at = COALESCE(activated_at, ?),
		updated_at = ? WHERE id = ?`, email, now, now, userID); err != nil {
			return nil, conflictOf(err)
		}
		u, _, err := findUser(ctx, tx, `id = ?`, userID)
		if err != nil {
			return nil, err
		}
		return u, nil
	})
}

// RequestPasswordReset sends a 6-digit code by SMS when an account uses the number.
func (s *AccountService) RequestPasswordReset(ctx context.Context, mobileNumber string) (err error) {
	defer wrapErr(&err, "store: RequestPasswordReset")

	number, ok := palaro.NormalizeMobileNumber(mobileNumber)
	if !ok {
		msg := palaro.MsgMobileInvalid
		if strings.TrimSpace(mobileNumber) == "" {
			msg = palaro.MsgMobileRequired
		}
		return fieldErr(palaro.EINVALID, palaro.FieldMobileNumber, msg)
	}
	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		u, _, err := findUser(ctx, tx, `mobile_number = ?`, number)
		if palaro.ErrorCode(err) == palaro.ENOTFOUND {
			return nil
		} else if err != nil {
			return err
		}
		code := randomDigits(6)
		now := s.db.Now()
		// A new code replaces any earlier one.
		if _, err := tx.ExecContext(ctx, `UPDATE reset_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL`,
			formatTime(now), u.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO reset_codes (user_id, code_hash, expires_at, created_at) VALUES (?, ?, ?, ?)`,
			u.ID, s.codeHash(u.ID, code), formatTime(now.Add(palaro.ResetCodeTTL)), formatTime(now)); err != nil {
			return err
		}
		if err := s.queue(ctx, tx, s.composer.ResetCode(number, code)); err != nil {
			return err
		}
		return nil
	})
}

// ResetPassword sets a new password when code is the live code sent to the number.
func (s *AccountService) ResetPassword(ctx context.Context, mobileNumber, code, password, repeat string) (err error) {
	defer wrapErr(&err, "store: ResetPassword")

	if err := palaro.ValidateNewPassword(password, repeat); err != nil {
		return err
	}
	invalid := fieldErr(palaro.EINVALID, palaro.FieldCode, palaro.MsgResetCodeInvalid)
	number, ok := palaro.NormalizeMobileNumber(mobileNumber)
	code = strings.TrimSpace(code)
	if !ok || len(code) != 6 {
		return invalid
	}
	hash, err := palaro.HashPassword(password)
	if err != nil {
		return err
	}
	// A wrong code's attempt is counted and committed; the caller then hears invalid.
	wrong := false
	err = s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		wrong = false
		u, _, err := findUser(ctx, tx, `mobile_number = ?`, number)
		if palaro.ErrorCode(err) == palaro.ENOTFOUND {
			return invalid
		} else if err != nil {
			return err
		}
		now := formatTime(s.db.Now())
		var id int64
		var stored []byte
		err = tx.QueryRowContext(ctx, `SELECT id, code_hash FROM reset_codes WHERE user_id = ? AND used_at IS NULL
		AND expires_at > ? AND attempts < ? ORDER BY id DESC LIMIT 1`, u.ID, now, palaro.ResetCodeMaxTries).Scan(&id, &stored)
		if errors.Is(err, sql.ErrNoRows) {
			return invalid
		} else if err != nil {
			return err
		}
		if !hmac.Equal(stored, s.codeHash(u.ID, code)) {
			if _, err := tx.ExecContext(ctx, `UPDATE reset_codes SET attempts = attempts + 1 WHERE id = ?`, id); err != nil {
				return err
			}
			wrong = true
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE reset_codes SET used_at = ? WHERE id = ?`, now, id); err != nil {
			return err
		}
		// The code came by SMS to the account's number: that proves the number too.
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ?, session_version = session_version + 1,
		mobile_confirmed_at = COALESCE(mobile_confirmed_at, ?), updated_at = ? WHERE id = ?`, hash, now, now, u.ID); err != nil {
			return err
		}
		return nil
	})
	if err == nil && wrong {
		return invalid
	}
	return err
}

// ChangePassword sets a new password when current is the account's password and ends the
// account's sessions; the caller starts a new one for the visitor who changed it.
func (s *AccountService) ChangePassword(ctx context.Context, userID int64, current, password, repeat string) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: ChangePassword(%d)", userID)

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	_, oldHash, err := findUser(ctx, tx, `id = ?`, userID)
	tx.Rollback()
	if err != nil {
		return nil, err
	}
	// The current password's message comes first; the new password's rules are checked too, so
	// that one answer names every field to fix.
	fields := map[string]string{}
	msg := ""
	switch {
	case oldHash == "":
		msg = palaro.MsgCurrentPasswordUnset
	case len(current) > palaro.MaxLength(palaro.FieldPassword) || !palaro.CheckPassword(oldHash, current):
		msg = palaro.MsgCurrentPasswordWrong
	}
	if msg != "" {
		fields[palaro.FieldCurrentPassword] = msg
	}
	if e := palaro.ValidateNewPassword(password, repeat); e != nil {
		msg = cmp.Or(msg, e.Message)
		maps.Copy(fields, e.Fields)
	}
	if len(fields) > 0 {
		return nil, &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: fields}
	}
	hash, err := palaro.HashPassword(password)
	if err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, wtx *sql.Tx) (*palaro.User, error) {
		// The old hash in the condition makes a concurrent change (or reset) win over this one.
		res, err := wtx.ExecContext(ctx, `UPDATE users SET password_hash = ?, session_version = session_version + 1,
		updated_at = ? WHERE id = ? AND password_hash = ?`, hash, formatTime(s.db.Now()), userID, oldHash)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil, fieldErr(palaro.EINVALID, palaro.FieldCurrentPassword, palaro.MsgCurrentPasswordWrong)
		}
		u, _, err := findUser(ctx, wtx, `id = ?`, userID)
		if err != nil {
			return nil, err
		}
		return u, nil
	})
}

// codeHash is the stored form of a reset code: an HMAC bound to the account.
func (s *AccountService) codeHash(userID int64, code string) []byte {
	mac := hmac.New(sha256.New, s.codeKey)
	fmt.Fprintf(mac, "%d:%s", userID, code)
	return mac.Sum(nil)
}

// RegisterParticipant stores a new, unconfirmed participant. It never returns an earlier
// registration of the number: that would hand a participant's QR code, points and prizes to
// whoever types its number. The number's owner proves it with an SMS code (ConfirmParticipant).
func (s *AccountService) RegisterParticipant(ctx context.Context, req palaro.ParticipantSignUp) (_ *palaro.Participant, err error) {
	defer wrapErr(&err, "store: RegisterParticipant")

	req = req.Normalize()
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Participant, error) {
		publicID := newPublicID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO participants (public_id, first_name, last_name, mobile_number, created_at)
		VALUES (?, ?, ?, ?, ?)`, publicID, req.FirstName, req.LastName, req.MobileNumber, formatTime(s.db.Now())); err != nil {
			return nil, err
		}
		return findParticipant(ctx, tx, `public_id = ?`, publicID)
	})
}

// RequestParticipantCode sends a code by SMS to an unconfirmed participant's number.
func (s *AccountService) RequestParticipantCode(ctx context.Context, publicID string) (err error) {
	defer wrapErr(&err, "store: RequestParticipantCode")

	return s.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
		p, err := findParticipant(ctx, tx, `public_id = ?`, publicID)
		if err != nil {
			return err
		}
		if p.Confirmed {
			return palaro.Errorf(palaro.EINVALID, palaro.MsgAlreadyConfirmed)
		}
		code, err := s.issueCode(ctx, tx, codeOwner{"participant_id", p.ID}, p.MobileNumber, false)
		if err != nil {
			return err
		}
		return s.queue(ctx, tx, s.composer.MobileCode(p.MobileNumber, code))
	})
}

// ConfirmParticipant confirms a participant's number with its code and returns the number's
// confirmed participant: the one confirmed before, else this one.
func (s *AccountService) ConfirmParticipant(ctx context.Context, publicID, code string) (_ *palaro.Participant, err error) {
	defer wrapErr(&err, "store: ConfirmParticipant")

	invalid := fieldErr(palaro.EINVALID, palaro.FieldCode, palaro.MsgConfirmCodeInvalid)
	code = strings.TrimSpace(code)
	if len(code) != 6 {
		return nil, invalid
	}
	wrong := false
	p, err := write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Participant, error) {
		wrong = false
		p, err := findParticipant(ctx, tx, `public_id = ?`, publicID)
		if err != nil {
			return nil, err
		}
		if p.Confirmed {
			return p, nil
		}
		number, err := s.checkCode(ctx, tx, codeOwner{"participant_id", p.ID}, code)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, invalid
		} else if err != nil {
			return nil, err
		}
		if number == "" {
			wrong = true
			return nil, nil
		}
		return confirmParticipant(ctx, tx, p, s.db.Now())
	})
	if err == nil && wrong {
		return nil, invalid
	}
	return p, err
}

// confirmParticipant marks p's number confirmed, unless the number has a confirmed participant
// already: that one is returned (its owner just proved the number), p stays as it was.
func confirmParticipant(ctx context.Context, tx *sql.Tx, p *palaro.Participant, now time.Time) (*palaro.Participant, error) {
	owner, err := findParticipant(ctx, tx, `mobile_number = ? AND confirmed_at IS NOT NULL`, p.MobileNumber)
	if err == nil {
		return owner, nil
	} else if palaro.ErrorCode(err) != palaro.ENOTFOUND {
		return nil, err
	}
	// The partial unique index keeps one confirmed participant per number under any concurrency.
	if _, err := tx.ExecContext(ctx, `UPDATE participants SET confirmed_at = ? WHERE id = ? AND confirmed_at IS NULL`,
		formatTime(now), p.ID); err != nil {
		return nil, err
	}
	return findParticipant(ctx, tx, `id = ?`, p.ID)
}

// FindParticipant returns a participant by public id.
func (s *AccountService) FindParticipant(ctx context.Context, publicID string) (_ *palaro.Participant, err error) {
	defer wrapErr(&err, "store: FindParticipant")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findParticipant(ctx, tx, `public_id = ?`, publicID)
}

func findParticipant(ctx context.Context, tx *sql.Tx, where string, args ...any) (*palaro.Participant, error) {
	var p palaro.Participant
	var created string
	var confirmed sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT id, public_id, first_name, last_name, mobile_number, created_at, confirmed_at
		FROM participants WHERE `+where, args...).Scan(&p.ID, &p.PublicID, &p.FirstName, &p.LastName, &p.MobileNumber, &created, &confirmed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Participant not found.")
	} else if err != nil {
		return nil, err
	}
	p.Confirmed = confirmed.Valid
	p.CreatedAt, err = time.Parse(timeFormat, created)
	return &p, err
}

// SignUpOrganizer creates an organizer account.
func (s *AccountService) SignUpOrganizer(ctx context.Context, req palaro.OrganizerSignUp) (_ *palaro.User, err error) {
	defer wrapErr(&err, "store: SignUpOrganizer")

	req = req.Normalize()
	if err := req.Validate(); err != nil {
		return nil, err
	}
	hash := ""
	if req.Password != "" {
		var err error
		if hash, err = palaro.HashPassword(req.Password); err != nil {
			return nil, err
		}
	}
	first, last, _ := strings.Cut(req.Name, " ")
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.User, error) {
		now := formatTime(s.db.Now())
		id, err := insertID(ctx, tx, `INSERT INTO users (email, password_hash, first_name, last_name, mobile_number, role,
		username, organization, source, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'organizer', ?, ?, ?, ?, ?)`,
			req.Email, hash, first, strings.TrimSpace(last), noMobile(), req.Username, req.Organization, req.Source, now, now)
		if err != nil {
			return nil, conflictOf(err)
		}
		// The number waits for its code, as at sign-up: a taken one is not revealed. An organizer
		// registered without a password sets one by an SMS code to the number (/reset-password),
		// so a free number is kept as the account's, unconfirmed, until a code proves it.
		if req.Password == "" {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET mobile_number = ? WHERE id = ? AND NOT EXISTS
			(SELECT 1 FROM users WHERE mobile_number = ?)`, req.MobileNumber, id, req.MobileNumber); err != nil {
				return nil, err
			}
		}
		if err := s.requestMobileChange(ctx, tx, id, req.MobileNumber); err != nil {
			return nil, err
		}
		if err := createOrganization(ctx, tx, id, req.Organization, req.Email, s.db.Now()); err != nil {
			return nil, err
		}
		u, err := s.welcome(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		return u, nil
	})
}

// CreateReport stores a problem report.
func (s *AccountService) CreateReport(ctx context.Context, req palaro.ProblemReport, userID int64) (_ *palaro.Report, err error) {
	defer wrapErr(&err, "store: CreateReport(%d)", userID)

	req = req.Normalize()
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return write(ctx, s.db, func(ctx context.Context, tx *sql.Tx) (*palaro.Report, error) {
		r := &palaro.Report{ProblemReport: req, UserID: userID, CreatedAt: s.db.Now().UTC().Truncate(time.Second)}
		var user any
		if userID != 0 {
			user = userID
		}
		for try := 0; ; try++ {
			r.Reference = reportReference()
			id, err := insertID(ctx, tx, `INSERT INTO problem_reports (reference, email, name, subject, message, page_url,
			user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, r.Reference, req.Email, req.Name, req.Subject,
				req.Message, req.PageURL, user, formatTime(r.CreatedAt))
			if errors.Is(err, sql.ErrNoRows) && try < 3 {
				continue // the reference is taken: draw again
			} else if err != nil {
				return nil, err
			}
			r.ID = id
			break
		}
		return r, nil
	})
}

const reportColumns = `id, reference, email, name, subject, message, page_url, COALESCE(user_id, 0), created_at`

func scanReport(row rowScanner) (*palaro.Report, error) {
	var r palaro.Report
	var created string
	if err := row.Scan(&r.ID, &r.Reference, &r.Email, &r.Name, &r.Subject, &r.Message, &r.PageURL, &r.UserID, &created); err != nil {
		return nil, err
	}
	var err error
	r.CreatedAt, err = time.Parse(timeFormat, created)
	return &r, err
}

// FindReport returns a report by reference.
func (s *AccountService) FindReport(ctx context.Context, reference string) (_ *palaro.Report, err error) {
	defer wrapErr(&err, "store: FindReport")

	tx, err := s.db.beginRead(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	r, err := scanReport(tx.QueryRowContext(ctx, `SELECT `+reportColumns+` FROM problem_reports WHERE reference = ?`, reference))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, palaro.Errorf(palaro.ENOTFOUND, "Report not found.")
	}
	return r, err
}

// ListReports returns every report, newest first.
func (s *AccountService) ListReports(ctx context.Context) (_ []palaro.Report, err error) {
	defer wrapErr(&err, "store: ListReports")

	return queryRows(ctx, s.db.read, `SELECT `+reportColumns+` FROM problem_reports ORDER BY id DESC`, nil,
		func(r rowScanner) (palaro.Report, error) {
			rep, err := scanReport(r)
			if err != nil {
				return palaro.Report{}, err
			}
			return *rep, nil
		})
}

// randomDigits returns n uniformly random decimal digits.
func randomDigits(n int) string {
	max := big.NewInt(1)
	for range n {
		max.Mul(max, big.NewInt(10))
	}
	v, _ := rand.Int(rand.Reader, max)
	return fmt.Sprintf("%0*d", n, v)
}

// reportReference returns a reference such as R-7KQ2-M9XD, in the letters of ticket codes.
func reportReference() string {
	code := newTicketCode()
	return "R-" + code[:4] + "-" + code[4:8]
}
