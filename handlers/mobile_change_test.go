package handlers

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// smsTo returns the texts of the SMS messages sent to a number, newest first.
func (ts *testServer) smsTo(t *testing.T, number string) []string {
	t.Helper()
	msgs, err := store.NewOutboxService(ts.db).ListOutbox(context.Background(), palaro.OutboxFilter{To: number})
	require.NoError(t, err)
	var texts []string
	for _, m := range msgs {
		if m.Channel == palaro.ChannelSMS {
			texts = append(texts, m.Text)
		}
	}
	return texts
}

var smsCode = regexp.MustCompile(`is ([0-9]{6})\.`)

// profileForm is the profile form of a signed-in user with a new mobile number.
func profileWithNumber(number string) url.Values {
	return url.Values{"firstName": {"Juan"}, "lastName": {"Dela Cruz"}, "mobileNumber": {number}, "city": {"Cebu"}}
}

// TestProfile_MobileChangeNeedsCode checks that a new mobile number is saved only with the code
// sent to it by SMS, and that a number another account uses gets the very same answer (and no
// SMS) but can never be confirmed: the page never says the number is taken.
func TestProfile_MobileChangeNeedsCode(t *testing.T) {
	ts := newTestServer(t)
	now := ts.Now()
	ts.Server.Now = func() time.Time { return now }
	bob := ts.client(t, "10.0.5.2")
	bob.signUp("bob@example.ph", "09171110002")
	alice := ts.client(t, "10.0.5.1")
	alice.signUp("alice@example.ph", "09171110001")

	t.Run("OK free number", func(t *testing.T) {
		r := alice.post("/profile", profileWithNumber("0917 111 0003"))
		require.Equal(t, http.StatusSeeOther, r.Code)
		require.Equal(t, "/profile?mobile=sent#mobile", r.Header().Get("Location"))
		u, err := ts.accounts.FindUserByID(t.Context(), 2)
		require.NoError(t, err)
		require.Equal(t, "+639171110001", u.MobileNumber, "not saved before the code")
		require.Equal(t, "Cebu", u.Profile.City, "the other details are saved")
		page := alice.get("/profile?mobile=sent").body
		require.Contains(t, page, "We sent a 6-digit code by SMS to your new number.")
		require.Contains(t, page, "Code sent to +639171110003")

		sms := ts.smsTo(t, "+639171110003")
		require.Len(t, sms, 1)
		code := smsCode.FindStringSubmatch(sms[0])[1]
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		r = alice.post("/profile/mobile", url.Values{"code": {wrong}})
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
		require.Contains(t, r.body, palaro.MsgMobileCodeInvalid)
		r = alice.post("/profile/mobile", url.Values{"code": {code}})
		require.Equal(t, http.StatusSeeOther, r.Code)
		u, err = ts.accounts.FindUserByID(t.Context(), 2)
		require.NoError(t, err)
		require.Equal(t, "+639171110003", u.MobileNumber)
		require.NotContains(t, alice.get("/profile").body, "Confirm your new mobile number", "nothing pending any more")
	})

	t.Run("ErrTakenNumberAnsweredAlike", func(t *testing.T) {
		now = now.Add(time.Hour)
		bobs := len(ts.smsTo(t, "+639171110002")) // the code bob confirmed his number with at sign-up
		free := alice.post("/profile", profileWithNumber("09171110004"))
		freePage := alice.get("/profile?mobile=sent").body
		taken := alice.post("/profile", profileWithNumber("09171110002")) // bob's
		takenPage := alice.get("/profile?mobile=sent").body
		require.Equal(t, free.Code, taken.Code)
		require.Equal(t, free.Header().Get("Location"), taken.Header().Get("Location"))
		require.NotContains(t, taken.body+takenPage, "already used")
		normalize := func(s string) string {
			s = regexp.MustCompile(`content="[^"]*"|value="[^"]*"|nonce="[^"]*"`).ReplaceAllString(s, "")
			return strings.NewReplacer("+639171110004", "N", "+639171110002", "N").Replace(s)
		}
		require.Equal(t, normalize(freePage), normalize(takenPage), "the same page, the number aside")
		require.Len(t, ts.smsTo(t, "+639171110002"), bobs, "no SMS goes to the number's owner")

		for i := range palaro.ResetCodeMaxTries {
			code := []string{"123456", "654321", "000000", "999999", "424242"}[i]
			r := alice.post("/profile/mobile", url.Values{"code": {code}})
			require.Equal(t, http.StatusUnprocessableEntity, r.Code)
			require.Contains(t, r.body, palaro.MsgMobileCodeInvalid, "the message of a wrong code, whatever the code")
		}
		u, err := ts.accounts.FindUserByID(t.Context(), 2)
		require.NoError(t, err)
		require.Equal(t, "+639171110003", u.MobileNumber, "bob's number never moves to alice")
		require.NotContains(t, alice.get("/profile").body, "Confirm your new mobile number", "the tries are used up")
	})
}

// TestProfile_RateLimited checks that profile changes are limited per account (control: the
// limit refills with time), and codes per new number.
func TestProfile_RateLimited(t *testing.T) {
	ts := newTestServer(t)
	now := ts.Now()
	ts.Server.Now = func() time.Time { return now }
	c := ts.client(t, "10.0.6.1")
	c.signUp("rl@example.ph", "09171110009")
	for i := range limitProfileAccount.Burst {
		require.Equal(t, http.StatusSeeOther, c.post("/profile", profileWithNumber("09171110009")).Code, "change %d", i+1)
	}
	r := c.post("/profile", profileWithNumber("09171110009"))
	require.Equal(t, http.StatusTooManyRequests, r.Code)
	require.Contains(t, r.body, MsgTooManyRequests)
	now = now.Add(limitProfileAccount.Every)
	require.Equal(t, http.StatusSeeOther, c.post("/profile", profileWithNumber("09171110009")).Code)

	// Codes to one number are limited, so a profile cannot be used to flood a phone with SMS.
	now = now.Add(time.Hour)
	for i := range limitResetNumber.Burst {
		require.Equal(t, http.StatusSeeOther, c.post("/profile", profileWithNumber("09171119999")).Code, "code %d", i+1)
	}
	require.Equal(t, http.StatusTooManyRequests, c.post("/profile", profileWithNumber("09171119999")).Code)
	require.Len(t, ts.smsTo(t, "+639171119999"), limitResetNumber.Burst)
	require.Equal(t, http.StatusSeeOther, c.post("/profile", profileWithNumber("09171118888")).Code, "another number is not held up")
}

// TestSignUp_TakenNumberAnsweredAlike: signing up with a number another account uses gets the
// answer and the profile page of a free number (the number awaiting its code), and no SMS goes
// to the number's owner: sign-up does not tell which numbers are registered.
func TestSignUp_TakenNumberAnsweredAlike(t *testing.T) {
	ts := newTestServer(t)
	owner := ts.client(t, "10.0.7.1")
	owner.signUp("owner@example.ph", "09171117777")
	sent := len(ts.smsTo(t, "+639171117777"))
	signUp := func(c *client, email, mobile string) (response, string) {
		r := c.post("/sign-up", url.Values{"email": {email}, "password": {"secret123"}, "repeatPassword": {"secret123"},
			"firstName": {"Juan"}, "lastName": {"Dela Cruz"}, "mobileNumber": {mobile}, "terms": {"1"}})
		return r, c.get(r.Header().Get("Location")).body
	}
	free, freePage := signUp(ts.client(t, "10.0.7.2"), "free@example.ph", "09171118888")
	taken, takenPage := signUp(ts.client(t, "10.0.7.3"), "taken@example.ph", "0917 111 7777")
	require.Equal(t, http.StatusSeeOther, taken.Code, taken.body)
	require.Equal(t, free.Header().Get("Location"), taken.Header().Get("Location"))
	require.NotContains(t, taken.body+takenPage, palaro.MsgMobileTaken)
	normalize := func(s string) string {
		s = regexp.MustCompile(`content="[^"]*"|value="[^"]*"|nonce="[^"]*"`).ReplaceAllString(s, "")
		return strings.NewReplacer("+639171117777", "N", "+639171118888", "N", "taken@example.ph", "E", "free@example.ph", "E").Replace(s)
	}
	require.Equal(t, normalize(freePage), normalize(takenPage), "the same page, the number and address aside")
	require.Contains(t, takenPage, "Code sent to +639171117777")
	require.Len(t, ts.smsTo(t, "+639171117777"), sent, "no SMS goes to the number's owner")
	require.Len(t, ts.smsTo(t, "+639171118888"), 1, "a free number gets its code")
}
