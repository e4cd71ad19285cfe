package store

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/testdb"
	"palaro/notify"
)

// newAccountsFixture returns an account service on a fresh database whose clock tests move.
func newAccountsFixture(t *testing.T) (*AccountService, *DB, *time.Time) {
	t.Helper()
	db, err := Open(testdb.URL(t))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	require.NoError(t, db.Migrate(context.Background()))
	now := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	return NewAccountService(db, []byte("0123456789abcdef0123456789abcdef"), notify.NewComposer("https://palaro.test", "")), db, &now
}

// signUpUser signs up an account and confirms its mobile number with the code sent to it.
func signUpUser(t *testing.T, s *AccountService, email, mobile string) *palaro.User {
	t.Helper()
	u, err := s.SignUp(context.Background(), palaro.SignUp{Email: email, Password: "secret123", RepeatPassword: "secret123",
		FirstName: "Rica", LastName: "Reyes", MobileNumber: mobile, AcceptTerms: true})
	require.NoError(t, err)
	number, _ := palaro.NormalizeMobileNumber(mobile)
	u, err = s.ConfirmMobileChange(context.Background(), u.ID, mobileCode(t, s.db, number))
	require.NoError(t, err)
	return u
}

// mobileCode reads the newest code SMS confirming a mobile number sent to number.
func mobileCode(t *testing.T, db *DB, number string) string {
	t.Helper()
	msgs, err := NewOutboxService(db).ListOutbox(context.Background(), palaro.OutboxFilter{To: number})
	require.NoError(t, err)
	for _, m := range msgs {
		if m.Channel == palaro.ChannelSMS && m.Kind == palaro.MessageMobileCode {
			return sixDigits.FindString(m.Text)
		}
	}
	t.Fatal("no mobile code SMS")
	return ""
}

// countCodes counts the code SMS confirming a number sent to number.
func countCodes(t *testing.T, db *DB, number string) int {
	t.Helper()
	msgs, err := NewOutboxService(db).ListOutbox(context.Background(), palaro.OutboxFilter{To: number})
	require.NoError(t, err)
	n := 0
	for _, m := range msgs {
		if m.Kind == palaro.MessageMobileCode {
			n++
		}
	}
	return n
}

var codeRE = regexp.MustCompile(`code is ([0-9]{6})\.`)

// sixDigits finds the code in an SMS.
var sixDigits = regexp.MustCompile(`[0-9]{6}`)

// lastCode reads the newest reset code SMS sent to number from the outbox.
func lastCode(t *testing.T, db *DB, number string) string {
	t.Helper()
	msgs, err := NewOutboxService(db).ListOutbox(context.Background(), palaro.OutboxFilter{To: number})
	require.NoError(t, err)
	for _, m := range msgs {
		if m.Channel == palaro.ChannelSMS && m.Kind == palaro.MessagePasswordResetCode {
			return codeRE.FindStringSubmatch(m.Text)[1]
		}
	}
	t.Fatal("no reset code SMS")
	return ""
}

func otherCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

func TestResetPassword(t *testing.T) {
	ctx := context.Background()
	s, db, now := newAccountsFixture(t)
	u := signUpUser(t, s, "rica@example.ph", "09171112222")
	number := "+639171112222"

	t.Run("OK", func(t *testing.T) {
		require.NoError(t, s.RequestPasswordReset(ctx, "0917-111-2222"))
		code := lastCode(t, db, number)
		require.Len(t, code, 6)
		require.NoError(t, s.ResetPassword(ctx, "639171112222", code, "newpass99", "newpass99"))
		_, err := s.Authenticate(ctx, "rica@example.ph", "newpass99")
		require.NoError(t, err)
		after, err := s.FindUserByID(ctx, u.ID)
		require.NoError(t, err)
		require.Greater(t, after.SessionVersion, u.SessionVersion, "a password change ends the other sessions")
	})
	t.Run("StoredOnlyAsHash", func(t *testing.T) {
		require.NoError(t, s.RequestPasswordReset(ctx, number))
		code := lastCode(t, db, number)
		var stored []byte
		require.NoError(t, db.read.QueryRow(`SELECT code_hash FROM reset_codes ORDER BY id DESC LIMIT 1`).Scan(&stored))
		require.Len(t, stored, 32)
		require.NotContains(t, string(stored), code)
	})
	t.Run("ErrReused", func(t *testing.T) {
		require.NoError(t, s.RequestPasswordReset(ctx, number))
		code := lastCode(t, db, number)
		require.NoError(t, s.ResetPassword(ctx, number, code, "again123", "again123"))
		err := s.ResetPassword(ctx, number, code, "again456", "again456")
		require.Equal(t, palaro.MsgResetCodeInvalid, palaro.ErrorMessage(err))
	})
	t.Run("ErrExpired", func(t *testing.T) {
		require.NoError(t, s.RequestPasswordReset(ctx, number))
		code := lastCode(t, db, number)
		*now = now.Add(palaro.ResetCodeTTL + time.Second)
		err := s.ResetPassword(ctx, number, code, "late1234", "late1234")
		require.Equal(t, palaro.MsgResetCodeInvalid, palaro.ErrorMessage(err))
	})
	t.Run("ErrGuessing", func(t *testing.T) {
		require.NoError(t, s.RequestPasswordReset(ctx, number))
		code := lastCode(t, db, number)
		for range palaro.ResetCodeMaxTries {
			err := s.ResetPassword(ctx, number, otherCode(code), "guess1234", "guess1234")
			require.Equal(t, palaro.MsgResetCodeInvalid, palaro.ErrorMessage(err))
		}
		err := s.ResetPassword(ctx, number, code, "right1234", "right1234")
		require.Equal(t, palaro.MsgResetCodeInvalid, palaro.ErrorMessage(err), "after 5 wrong tries even the right code is dead")
	})
	t.Run("ErrOlderCode", func(t *testing.T) {
		require.NoError(t, s.RequestPasswordReset(ctx, number))
		first := lastCode(t, db, number)
		*now = now.Add(time.Second)
		require.NoError(t, s.RequestPasswordReset(ctx, number))
		second := lastCode(t, db, number)
		if first != second {
			err := s.ResetPassword(ctx, number, first, "older123", "older123")
			require.Equal(t, palaro.MsgResetCodeInvalid, palaro.ErrorMessage(err), "a new code replaces the old one")
		}
		require.NoError(t, s.ResetPassword(ctx, number, second, "newer123", "newer123"))
	})
	t.Run("UnknownNumberSilent", func(t *testing.T) {
		require.NoError(t, s.RequestPasswordReset(ctx, "09999999999"))
		msgs, err := NewOutboxService(db).ListOutbox(ctx, palaro.OutboxFilter{To: "+639999999999"})
		require.NoError(t, err)
		require.Empty(t, msgs)
		err = s.ResetPassword(ctx, "09999999999", "123456", "whatever1", "whatever1")
		require.Equal(t, palaro.MsgResetCodeInvalid, palaro.ErrorMessage(err), "the same answer as a wrong code")
	})
	t.Run("ErrBadPassword", func(t *testing.T) {
		err := s.ResetPassword(ctx, number, "123456", "short", "other")
		e := err.(*palaro.Error)
		require.Equal(t, palaro.MsgPasswordInvalid, e.Fields[palaro.FieldPassword])
		require.Equal(t, palaro.MsgPasswordsDiffer, e.Fields[palaro.FieldRepeatPassword])
	})
}

func TestResetPassword_ConcurrentGuesses(t *testing.T) {
	ctx := context.Background()
	s, db, _ := newAccountsFixture(t)
	signUpUser(t, s, "con@example.ph", "09173334444")
	number := "+639173334444"
	require.NoError(t, s.RequestPasswordReset(ctx, number))
	code := lastCode(t, db, number)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { _ = s.ResetPassword(ctx, number, otherCode(code), "guess1234", "guess1234") })
	}
	wg.Wait()
	var attempts int
	require.NoError(t, db.read.QueryRow(`SELECT attempts FROM reset_codes ORDER BY id DESC LIMIT 1`).Scan(&attempts))
	require.Equal(t, palaro.ResetCodeMaxTries, attempts, "concurrent guesses count, and stop at the limit")
	require.Error(t, s.ResetPassword(ctx, number, code, "right1234", "right1234"))
}

func TestAccounts_Tokens(t *testing.T) {
	ctx := context.Background()
	s, db, now := newAccountsFixture(t)
	u := signUpUser(t, s, "tok@example.ph", "09175556666")
	msgs, err := NewOutboxService(db).ListOutbox(ctx, palaro.OutboxFilter{To: "tok@example.ph"})
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	require.Equal(t, palaro.MessageWelcome, msgs[0].Kind)
	token := msgs[0].Text[strings.Index(msgs[0].Text, "token=")+6:]
	token = strings.Fields(token)[0]

	t.Run("ErrExpired", func(t *testing.T) {
		saved := *now
		*now = now.Add(palaro.ActivationTTL + time.Minute)
		_, err := s.Activate(ctx, token)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		*now = saved
	})
	t.Run("OK", func(t *testing.T) {
		a, err := s.Activate(ctx, token)
		require.NoError(t, err)
		require.Equal(t, palaro.AccountActive, a.Status)
		_, err = s.Activate(ctx, token)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "a second click: already active")
		_, err = s.Activate(ctx, "nosuchtoken")
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		_, err = s.ResendActivation(ctx, u.ID)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "no new link for an active account")
	})
	t.Run("EmailChange", func(t *testing.T) {
		require.NoError(t, s.RequestEmailChange(ctx, u.ID, "New@Example.PH"))
		msgs, err := NewOutboxService(db).ListOutbox(ctx, palaro.OutboxFilter{To: "new@example.ph"})
		require.NoError(t, err)
		require.Len(t, msgs, 1)
		link := msgs[0].Text[strings.Index(msgs[0].Text, "token=")+6:]
		changed, err := s.ConfirmEmailChange(ctx, strings.Fields(link)[0])
		require.NoError(t, err)
		require.Equal(t, "new@example.ph", changed.Email)
		_, err = s.ConfirmEmailChange(ctx, strings.Fields(link)[0])
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "single use")
	})
	t.Run("ErrEmailTaken", func(t *testing.T) {
		signUpUser(t, s, "other@example.ph", "09177778888")
		err := s.RequestEmailChange(ctx, u.ID, "other@example.ph")
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
	})
}

// TestRegisterParticipant_NeverRevealsAnother: registering a number, with any name, never returns
// another registration of it; only the SMS code sent to the number confirms one, and the number's
// owner who confirms again (another device) gets the participant confirmed before.
func TestRegisterParticipant_NeverRevealsAnother(t *testing.T) {
	ctx := context.Background()
	s, db, _ := newAccountsFixture(t)
	number := "+639171234567"
	first, err := s.RegisterParticipant(ctx, palaro.ParticipantSignUp{FirstName: "Pia", LastName: "Lim", MobileNumber: "0917 123 4567"})
	require.NoError(t, err)
	require.False(t, first.Confirmed)
	var wg sync.WaitGroup
	ids := make([]string, 20)
	for i := range ids {
		wg.Go(func() {
			n := []string{"+63 917 123 4567", "639171234567", "0917-123-4567", "9171234567"}[i%4]
			p, err := s.RegisterParticipant(ctx, palaro.ParticipantSignUp{FirstName: "PIA", LastName: " lim", MobileNumber: n})
			if err == nil {
				ids[i] = p.PublicID
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{first.PublicID: true}
	for _, id := range ids {
		require.NotEmpty(t, id)
		require.False(t, seen[id], "every registration is its own: none finds another")
		seen[id] = true
	}
	t.Run("ErrWrongCode", func(t *testing.T) {
		require.NoError(t, s.RequestParticipantCode(ctx, ids[0]))
		code := mobileCode(t, db, number) // sent to the number, which a stranger does not hold
		_, err := s.ConfirmParticipant(ctx, ids[0], otherCode(code))
		require.Equal(t, palaro.MsgConfirmCodeInvalid, palaro.ErrorMessage(err))
		_, err = s.ConfirmParticipant(ctx, first.PublicID, code)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "a code is bound to the registration it was asked for")
	})
	t.Run("OK", func(t *testing.T) {
		require.NoError(t, s.RequestParticipantCode(ctx, first.PublicID))
		p, err := s.ConfirmParticipant(ctx, first.PublicID, mobileCode(t, db, number))
		require.NoError(t, err)
		require.Equal(t, first.PublicID, p.PublicID)
		require.True(t, p.Confirmed)
		require.Equal(t, palaro.MsgAlreadyConfirmed, palaro.ErrorMessage(s.RequestParticipantCode(ctx, first.PublicID)))
	})
	t.Run("OwnerOnAnotherDevice", func(t *testing.T) {
		again, err := s.RegisterParticipant(ctx, palaro.ParticipantSignUp{FirstName: "Pia", LastName: "Lim", MobileNumber: number})
		require.NoError(t, err)
		require.NotEqual(t, first.PublicID, again.PublicID)
		require.NoError(t, s.RequestParticipantCode(ctx, again.PublicID))
		p, err := s.ConfirmParticipant(ctx, again.PublicID, mobileCode(t, db, number))
		require.NoError(t, err)
		require.Equal(t, first.PublicID, p.PublicID, "who proves the number gets its confirmed participant")
	})
	t.Run("OneConfirmedPerNumber", func(t *testing.T) {
		_, err := db.write.Exec(`UPDATE participants SET confirmed_at = '2026-11-02T08:00:00Z' WHERE public_id = ?`, ids[1])
		require.True(t, isUniqueViolation(err), "%v", err)
	})
}

// TestSignUp_MobileNumberNotRevealed: signing up with a number another account uses answers as for
// a free number; no code goes to the number, and no code ever gives the number to the new account.
func TestSignUp_MobileNumberNotRevealed(t *testing.T) {
	ctx := context.Background()
	s, db, _ := newAccountsFixture(t)
	owner := signUpUser(t, s, "owner@example.ph", "09175550000")
	require.True(t, owner.MobileConfirmed)
	require.Equal(t, "+639175550000", owner.MobileNumber)
	sent := countCodes(t, db, "+639175550000")
	u, err := s.SignUp(ctx, palaro.SignUp{Email: "mallory@example.ph", Password: "secret123", RepeatPassword: "secret123",
		FirstName: "Mal", LastName: "Lory", MobileNumber: "0917 555 0000", AcceptTerms: true})
	require.NoError(t, err, "the same answer as for a free number")
	require.Equal(t, "", u.MobileNumber)
	require.False(t, u.MobileConfirmed)
	pending, err := s.PendingMobileChange(ctx, u.ID)
	require.NoError(t, err)
	require.Equal(t, "+639175550000", pending, "the form shows the number typed, as for a free one")
	require.Equal(t, sent, countCodes(t, db, "+639175550000"), "nothing is sent to the owner's number")
	for _, code := range []string{"000000", "123456", mobileCode(t, db, "+639175550000")} {
		_, err := s.ConfirmMobileChange(ctx, u.ID, code)
		require.Equal(t, palaro.MsgMobileCodeInvalid, palaro.ErrorMessage(err))
	}
	_, err = s.SignUpOrganizer(ctx, palaro.OrganizerSignUp{Email: "org@example.ph", Username: "orgy", Name: "Org Y",
		Organization: "Org", MobileNumber: "09175550000"})
	require.NoError(t, err, "organizer sign-up does not tell either")
	t.Run("FreeNumberConfirmed", func(t *testing.T) {
		free, err := s.SignUp(ctx, palaro.SignUp{Email: "free@example.ph", Password: "secret123", RepeatPassword: "secret123",
			FirstName: "Fe", LastName: "Ree", MobileNumber: "09175551111", AcceptTerms: true})
		require.NoError(t, err)
		require.Equal(t, "", free.MobileNumber, "not the account's until its code")
		got, err := s.ConfirmMobileChange(ctx, free.ID, mobileCode(t, db, "+639175551111"))
		require.NoError(t, err)
		require.Equal(t, "+639175551111", got.MobileNumber)
		require.True(t, got.MobileConfirmed)
	})
}

func TestReports(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newAccountsFixture(t)
	r, err := s.CreateReport(ctx, palaro.ProblemReport{Email: "x@example.ph", Message: "The page froze"}, 0)
	require.NoError(t, err)
	require.Regexp(t, `^R-[0-9A-Z]{4}-[0-9A-Z]{4}$`, r.Reference)
	got, err := s.FindReport(ctx, r.Reference)
	require.NoError(t, err)
	require.Equal(t, "The page froze", got.Message)
	list, err := s.ListReports(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	_, err = s.CreateReport(ctx, palaro.ProblemReport{}, 0)
	e := err.(*palaro.Error)
	require.Equal(t, palaro.MsgEmailRequired, e.Fields[palaro.FieldEmail])
	require.Equal(t, palaro.MsgMessageRequired, e.Fields[palaro.FieldMessage])
}

func TestChangePassword(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newAccountsFixture(t)
	u := signUpUser(t, s, "chg@example.ph", "09176667777")
	t.Run("OK", func(t *testing.T) {
		changed, err := s.ChangePassword(ctx, u.ID, "secret123", "newpass99", "newpass99")
		require.NoError(t, err)
		require.Equal(t, u.SessionVersion+1, changed.SessionVersion, "every session of the account ends")
		_, err = s.Authenticate(ctx, "chg@example.ph", "newpass99")
		require.NoError(t, err)
		_, err = s.Authenticate(ctx, "chg@example.ph", "secret123")
		require.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
	})
	t.Run("ErrEveryField", func(t *testing.T) {
		_, err := s.ChangePassword(ctx, u.ID, "wrong", "short", "other")
		var e *palaro.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, palaro.MsgCurrentPasswordWrong, e.Message, "the current password's message first")
		require.Equal(t, map[string]string{palaro.FieldCurrentPassword: palaro.MsgCurrentPasswordWrong,
			palaro.FieldPassword: palaro.MsgPasswordInvalid, palaro.FieldRepeatPassword: palaro.MsgPasswordsDiffer}, e.Fields)
	})
	t.Run("ErrNoPasswordYet", func(t *testing.T) {
		// An organizer registered by the JSON call has no password until they set one by SMS code.
		o, err := s.SignUpOrganizer(ctx, palaro.OrganizerSignUp{Email: "org@example.ph", Username: "orgx", Name: "Org X",
			Organization: "Org", MobileNumber: "09178889999"})
		require.NoError(t, err)
		_, err = s.ChangePassword(ctx, o.ID, "", "newpass99", "newpass99")
		var e *palaro.Error
		require.ErrorAs(t, err, &e)
		require.Equal(t, palaro.MsgCurrentPasswordUnset, e.Fields[palaro.FieldCurrentPassword])
	})
}

// TestMobileNumber_ProvenBeatsTyped: an organizer registered by the JSON call without a password
// keeps a free number (unconfirmed) to set a password by SMS code; someone who proves a number
// that another account only typed gets it, and that account gives it up.
func TestMobileNumber_ProvenBeatsTyped(t *testing.T) {
	ctx := context.Background()
	s, db, _ := newAccountsFixture(t)
	o, err := s.SignUpOrganizer(ctx, palaro.OrganizerSignUp{Email: "org@example.ph", Username: "orgz", Name: "Org Z",
		Organization: "Org", MobileNumber: "09175552222"})
	require.NoError(t, err)
	require.Equal(t, "+639175552222", o.MobileNumber)
	require.False(t, o.MobileConfirmed)
	require.NoError(t, s.RequestPasswordReset(ctx, "+639175552222"))
	require.NoError(t, s.ResetPassword(ctx, "+639175552222", lastCode(t, db, "+639175552222"), "newpass99", "newpass99"),
		"the organizer sets a password with the code, which proves the number")
	o, err = s.FindUserByID(ctx, o.ID)
	require.NoError(t, err)
	require.True(t, o.MobileConfirmed)

	typed, err := s.SignUpOrganizer(ctx, palaro.OrganizerSignUp{Email: "typed@example.ph", Username: "typed", Name: "Ty Ped",
		Organization: "Org", MobileNumber: "09175553333"})
	require.NoError(t, err)
	require.Equal(t, "+639175553333", typed.MobileNumber)
	owner, err := s.SignUp(ctx, palaro.SignUp{Email: "owner@example.ph", Password: "secret123", RepeatPassword: "secret123",
		FirstName: "Own", LastName: "Er", MobileNumber: "09175553333", AcceptTerms: true})
	require.NoError(t, err)
	owner, err = s.ConfirmMobileChange(ctx, owner.ID, mobileCode(t, db, "+639175553333"))
	require.NoError(t, err, "a number only typed by another account is not theirs")
	require.Equal(t, "+639175553333", owner.MobileNumber)
	typed, err = s.FindUserByID(ctx, typed.ID)
	require.NoError(t, err)
	require.Equal(t, "", typed.MobileNumber)
}
