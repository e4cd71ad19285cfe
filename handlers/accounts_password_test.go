package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// changePassword posts the profile's change-password form.
func (c *client) changePassword(current, password, repeat string) response {
	c.t.Helper()
	return c.post("/profile/password", url.Values{palaro.FieldCurrentPassword: {current},
		palaro.FieldPassword: {password}, palaro.FieldRepeatPassword: {repeat}})
}

func TestChangePassword(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("pw@example.ph", "09381234567")
	require.Contains(t, c.get("/profile").body, `id="password-form"`, "the profile has the form")

	cases := []struct {
		name                      string
		current, password, repeat string
		field, msg                string
	}{
		{"ErrWrongCurrent", "wrong1234", "brandnew1", "brandnew1", palaro.FieldCurrentPassword, palaro.MsgCurrentPasswordWrong},
		{"ErrMismatch", "secret123", "brandnew1", "brandnew2", palaro.FieldRepeatPassword, palaro.MsgPasswordsDiffer},
		{"ErrInvalid", "secret123", "short", "short", palaro.FieldPassword, palaro.MsgPasswordInvalid},
		{"ErrSymbols", "secret123", "brand-new-1", "brand-new-1", palaro.FieldPassword, palaro.MsgPasswordInvalid},
		{"ErrEmptyCurrent", "", "brandnew1", "brandnew1", palaro.FieldCurrentPassword, palaro.MsgCurrentPasswordWrong},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.changePassword(tc.current, tc.password, tc.repeat)
			require.Equal(t, http.StatusUnprocessableEntity, r.Code)
			require.Contains(t, r.body, `<p class="field-error" id="f-`+tc.field+`-error">`+tc.msg+`</p>`)
			require.NotContains(t, r.body, `value="`+tc.password+`"`, "passwords are not written back")
			require.Equal(t, http.StatusSeeOther, ts.client(t, fmt.Sprintf("10.0.1.%d", i)).signIn("pw@example.ph", "secret123").Code,
				"the password is unchanged")
		})
	}

	t.Run("OK", func(t *testing.T) {
		c := ts.client(t, "10.0.0.5") // a fresh account: the failures above used up the first one's attempts
		c.signUp("pw2@example.ph", "09411234567")
		other := c.withCookie(c.sessionCookie()) // the same account signed in on another device
		require.Contains(t, other.get("/profile").body, "pw2@example.ph")

		r := c.changePassword("secret123", "brandnew1", "brandnew1")
		require.Equal(t, http.StatusSeeOther, r.Code, r.body)
		require.Equal(t, "/profile?password=1", r.Header().Get("Location"))
		page := c.get("/profile?password=1").body
		require.Contains(t, page, "pw2@example.ph", "this session stays signed in")
		require.Contains(t, page, "Your password has been changed.")

		ended := other.get("/profile").body
		require.Contains(t, ended, palaro.SignInRequiredMessage, "the other session ended")
		require.NotContains(t, ended, "pw2@example.ph")

		s := ts.client(t, "10.0.0.8")
		require.Equal(t, http.StatusUnauthorized, s.signIn("pw2@example.ph", "secret123").Code, "the old password is refused")
		require.Equal(t, http.StatusSeeOther, s.signIn("pw2@example.ph", "brandnew1").Code)
	})

	t.Run("ErrSignedOut", func(t *testing.T) {
		r := ts.client(t, "10.0.0.7").changePassword("brandnew1", "another12", "another12")
		require.Equal(t, "/sign-in?next=/profile", r.Header().Get("Location"))
	})
}

func TestChangePassword_Throttled(t *testing.T) {
	ts := newTestServer(t)
	thief := ts.client(t, "10.6.6.6") // holds a signed-in session and guesses the current password
	thief.signUp("guess@example.ph", "09391234567")
	control := ts.client(t, "10.0.0.2")
	control.signUp("control@example.ph", "09401234567")

	for i := range limitSignInPair.Burst {
		r := thief.changePassword("guess0000"+string(rune('a'+i)), "brandnew1", "brandnew1")
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
	}
	r := thief.changePassword("secret123", "brandnew1", "brandnew1") // even the right password is refused now
	require.Equal(t, http.StatusTooManyRequests, r.Code)
	require.Contains(t, r.body, MsgTooManyRequests)
	require.NotEmpty(t, r.Header().Get("Retry-After"))
	require.Equal(t, http.StatusSeeOther, ts.client(t, "10.0.0.3").signIn("guess@example.ph", "secret123").Code,
		"the throttled change did not happen")

	// Another account, from another address, changes its password as usual.
	r = control.changePassword("secret123", "brandnew1", "brandnew1")
	require.Equal(t, http.StatusSeeOther, r.Code, r.body)
}
