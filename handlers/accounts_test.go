package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestSignUp_Messages(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	cases := []struct {
		name string
		form url.Values
		want []string
	}{
		{"empty", url.Values{}, []string{palaro.MsgEmailRequired, palaro.MsgPasswordInvalid, palaro.MsgFirstNameRequired,
			palaro.MsgLastNameRequired, palaro.MsgMobileRequired, palaro.MsgTermsRequired}},
		{"invalid", url.Values{"email": {"juan@"}, "password": {"short"}, "repeatPassword": {"other"},
			"mobileNumber": {"12ab"}}, []string{palaro.MsgEmailInvalid, palaro.MsgPasswordInvalid, palaro.MsgPasswordsDiffer,
			palaro.MsgMobileInvalid}},
		{"password with symbols", url.Values{"password": {"secret-123"}, "repeatPassword": {"secret-123"}},
			[]string{"The password is not valid. It must contain only letters and numbers, min. 8 characters"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.post("/sign-up", tc.form)
			require.Equal(t, http.StatusUnprocessableEntity, r.Code)
			for _, msg := range tc.want {
				require.Contains(t, r.body, msg)
			}
		})
	}
	t.Run("KeepsInput", func(t *testing.T) {
		r := c.post("/sign-up", url.Values{"email": {"juan@example.ph"}, "firstName": {"Juan"}, "lastName": {"Cruz"},
			"mobileNumber": {"0917-123-4567"}, "existingUser": {"1"}})
		require.Contains(t, r.body, `value="juan@example.ph"`)
		require.Contains(t, r.body, `value="Juan"`)
		require.Contains(t, r.body, `value="0917-123-4567"`)
		require.Regexp(t, `id="f-existingUser"[^>]*checked`, r.body)
		require.Contains(t, r.body, "Please accept the Terms and Conditions")
	})
	t.Run("OK", func(t *testing.T) {
		r := c.signUp("Juan@Example.PH", "09171234567")
		require.Equal(t, "/profile?welcome=1", r.Header().Get("Location"))
		r = c.get("/profile")
		require.Contains(t, r.body, "juan@example.ph")
		require.Contains(t, r.body, "+639171234567")
		m := ts.lastMessage(t, "email", "juan@example.ph")
		require.Contains(t, m.Text, "http://palaro.test/activate?token=")
	})
	t.Run("ErrTaken", func(t *testing.T) {
		o := ts.client(t, "10.0.0.2")
		r := o.post("/sign-up", url.Values{"email": {"juan@example.ph"}, "password": {"secret123"}, "repeatPassword": {"secret123"},
			"firstName": {"J"}, "lastName": {"C"}, "mobileNumber": {"+639170000000"}, "terms": {"1"}})
		require.Equal(t, http.StatusConflict, r.Code)
		require.Contains(t, r.body, "already exists")
	})
}

func TestActivate(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("ana@example.ph", "09181234567")
	link := ts.lastMessage(t, "email", "ana@example.ph").Text
	i := strings.Index(link, "/activate?token=")
	token := strings.Fields(link[i:])[0]
	r := c.get(token)
	require.Equal(t, http.StatusOK, r.Code, r.body)
	require.Contains(t, r.body, "Your account is active")
	t.Run("AgainSaysActive", func(t *testing.T) {
		r := c.get(token)
		require.Equal(t, http.StatusOK, r.Code)
		require.Contains(t, r.body, "Your account is already active")
		require.NotContains(t, r.body, "Activation failed")
		require.Contains(t, r.body, `href="/profile"`)
		r = ts.client(t, "10.0.0.2").get(token) // another browser, signed out
		require.Contains(t, r.body, "Your account is already active")
		require.Contains(t, r.body, `<a href="/sign-in">Sign in</a>`)
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		r := c.get("/activate?token=nosuchtoken")
		require.Equal(t, http.StatusBadRequest, r.Code)
		require.Contains(t, r.body, palaro.MsgTokenInvalid)
	})
}

// activationLink returns the path of the newest activation link e-mailed to email.
func activationLink(t *testing.T, ts *testServer, email string) string {
	t.Helper()
	text := ts.lastMessage(t, palaro.ChannelEmail, email).Text
	return strings.Fields(text[strings.Index(text, "/activate?token="):])[0]
}

func TestResendActivation(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("again@example.ph", "09192223333")
	first := activationLink(t, ts, "again@example.ph")

	r := c.get("/tickets")
	require.Contains(t, r.body, "is not confirmed yet")
	require.Contains(t, r.body, `action="/profile/activation"`)
	require.NotContains(t, r.body, "Have an account?", "a signed-in visitor is not asked to sign in")

	r = c.post("/profile/activation", url.Values{"next": {"/tickets"}})
	require.Equal(t, "/tickets?activation=sent", r.Header().Get("Location"))
	require.Contains(t, c.get("/tickets?activation=sent").body, "We sent a new activation link to again@example.ph")
	second := activationLink(t, ts, "again@example.ph")
	require.NotEqual(t, first, second, "a new link")

	r = c.post("/profile/activation", url.Values{"next": {"https://evil.test"}})
	require.Equal(t, "/profile?activation=sent", r.Header().Get("Location"), "only /tickets or /profile")
	require.Contains(t, c.get("/profile?activation=sent").body, "We sent a new activation link")

	t.Run("Throttled", func(t *testing.T) {
		require.Equal(t, 3, limitActivationMail.Burst)
		require.Equal(t, http.StatusSeeOther, c.post("/profile/activation", url.Values{}).Code, "the third e-mail")
		r := c.post("/profile/activation", url.Values{})
		require.Equal(t, http.StatusTooManyRequests, r.Code, "three e-mails, then wait")
		require.Contains(t, r.body, MsgTooManyRequests)
	})
	t.Run("ErrActive", func(t *testing.T) {
		require.Contains(t, c.get(second).body, "Your account is active")
		o := ts.client(t, "10.0.0.2")
		o.signUp("other@example.ph", "09193334444")
		require.Contains(t, o.get(activationLink(t, ts, "other@example.ph")).body, "Your account is active")
		r := o.post("/profile/activation", url.Values{"next": {"/tickets"}})
		require.Equal(t, "/tickets", r.Header().Get("Location"), "an active account gets no e-mail")
	})
	t.Run("ErrSignedOut", func(t *testing.T) {
		r := ts.client(t, "10.0.0.3").post("/profile/activation", url.Values{})
		require.Equal(t, "/sign-in?next=/profile", r.Header().Get("Location"))
	})
}

func TestSignIn(t *testing.T) {
	ts := newTestServer(t)
	owner := ts.client(t, "10.0.0.1")
	owner.signUp("ben@example.ph", "09191234567")
	owner.post("/sign-out", url.Values{})

	t.Run("OK", func(t *testing.T) {
		r := owner.signIn("ben@example.ph", "secret123")
		require.Equal(t, http.StatusSeeOther, r.Code, r.body)
		require.Contains(t, owner.get("/profile").body, "Signed in as")
	})
	t.Run("ErrWrongPassword", func(t *testing.T) {
		c := ts.client(t, "10.0.0.9")
		r := c.signIn("ben@example.ph", "wrong1234")
		require.Equal(t, http.StatusUnauthorized, r.Code)
		require.Contains(t, r.body, palaro.MsgSignInFailed)
		require.Contains(t, r.body, `value="ben@example.ph"`)
		r = c.signIn("nobody@example.ph", "wrong1234")
		require.Contains(t, r.body, palaro.MsgSignInFailed)
	})
	t.Run("ErrMissing", func(t *testing.T) {
		r := ts.client(t, "10.0.0.9").signIn("", "")
		require.Contains(t, r.body, palaro.MsgEmailRequired)
		require.Contains(t, r.body, "Password is required")
	})
	t.Run("NextStaysOnSite", func(t *testing.T) {
		for next, want := range map[string]string{"/activities": "/activities", "//evil.test/x": "/profile",
			"https://evil.test": "/profile", "/\\evil.test": "/profile"} {
			c := ts.client(t, "10.0.0.3")
			r := c.post("/sign-in", url.Values{"email": {"ben@example.ph"}, "password": {"secret123"}, "next": {next}})
			require.Equal(t, want, r.Header().Get("Location"), next)
		}
	})
}

func TestSession_Fixation(t *testing.T) {
	ts := newTestServer(t)
	attacker := ts.client(t, "10.0.0.66")
	attacker.get("/sign-in")
	planted := attacker.sessionCookie()
	require.NotEmpty(t, planted)
	plantedToken := attacker.csrf

	victim := attacker.withCookie(planted)
	victim.csrf = plantedToken
	victim.signUp("vic@example.ph", "09201234567")
	require.NotEqual(t, planted, victim.sessionCookie(), "sign-in must start a new session")
	victim.get("/profile")
	require.NotEqual(t, plantedToken, victim.csrf, "sign-in must change the CSRF token")

	// The attacker's planted cookie is still anonymous.
	r := attacker.get("/profile")
	require.Contains(t, r.body, palaro.SignInRequiredMessage)
	require.NotContains(t, r.body, "vic@example.ph")
}

func TestSession_LogoutReplay(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("lia@example.ph", "09211234567")
	stolen := c.sessionCookie()
	other := c.withCookie(stolen) // a second device (or a thief) with the same signed-in cookie
	require.Contains(t, other.get("/profile").body, "lia@example.ph")

	r := c.post("/sign-out", url.Values{})
	require.Equal(t, http.StatusSeeOther, r.Code)
	require.Contains(t, c.get("/profile").body, palaro.SignInRequiredMessage)

	replay := c.withCookie(stolen)
	r = replay.get("/profile")
	require.Contains(t, r.body, palaro.SignInRequiredMessage)
	require.NotContains(t, r.body, "lia@example.ph")
}

func TestSignIn_Throttled(t *testing.T) {
	ts := newTestServer(t)
	owner := ts.client(t, "10.0.0.1")
	owner.signUp("cara@example.ph", "09221234567")
	owner.post("/sign-out", url.Values{})

	attacker := ts.client(t, "10.6.6.6")
	for i := range limitSignInPair.Burst {
		r := attacker.signIn("cara@example.ph", "guess0000"+string(rune('a'+i)))
		require.Equal(t, http.StatusUnauthorized, r.Code)
	}
	r := attacker.signIn("cara@example.ph", "secret123") // even the right password is refused now
	require.Equal(t, http.StatusTooManyRequests, r.Code)
	require.Contains(t, r.body, MsgTooManyRequests)
	require.NotEmpty(t, r.Header().Get("Retry-After"))

	// The owner, from their own address, still signs in.
	r = owner.signIn("cara@example.ph", "secret123")
	require.Equal(t, http.StatusSeeOther, r.Code)

	t.Run("PerIP", func(t *testing.T) {
		sprayer := ts.client(t, "10.7.7.7")
		var last int
		for i := range limitSignInIP.Burst + 1 {
			last = sprayer.signIn("user"+string(rune('a'+i%26))+string(rune('a'+i/26))+"@example.ph", "guess0000").Code
		}
		require.Equal(t, http.StatusTooManyRequests, last)
	})
}

func TestRegistration_Throttled(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.5")
	var last response
	for range limitRegistration.Burst + 1 {
		last = c.postJSON("/v1/participant/register", `{"firstName":"A","lastName":"B","mobileNumber":"09171234567"}`)
	}
	require.Equal(t, http.StatusTooManyRequests, last.Code)
	require.JSONEq(t, `{"message":"`+MsgTooManyRequests+`","responseCode":429}`, last.body)
}
