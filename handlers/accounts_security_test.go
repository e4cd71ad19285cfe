package handlers

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// upload posts a picture to /profile/picture as the form does.
func (c *client) upload(filename string, data []byte) response {
	c.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	require.NoError(c.t, w.WriteField("_csrf", c.csrf))
	fw, err := w.CreateFormFile("picture", filename)
	require.NoError(c.t, err)
	_, _ = fw.Write(data)
	require.NoError(c.t, w.Close())
	req := httptest.NewRequest(http.MethodPost, "/profile/picture", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return c.follow(c.do(req))
}

func testJPEG(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{200, 50, 90, 255})
	}
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, img, nil))
	return b.Bytes()
}

// hugePNG is a tiny file whose header claims 60000×60000 pixels (a decompression bomb).
func hugePNG() []byte { return pngHeader(60000, 60000) }

func TestProfilePicture(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("pic@example.ph", "09241234567")

	t.Run("OK", func(t *testing.T) {
		r := c.upload("me.jpg", testJPEG(t, 1200, 800))
		require.Equal(t, http.StatusSeeOther, r.Code, r.body)
		page := c.get("/profile")
		src := regexp.MustCompile(`src="(/profile/picture\?v=[0-9]+)"`).FindStringSubmatch(page.body)
		require.NotNil(t, src, "the profile shows the picture")
		pic := c.get(src[1])
		require.Equal(t, http.StatusOK, pic.Code)
		require.Equal(t, "image/jpeg", pic.Header().Get("Content-Type"))
		cfg, format, err := image.DecodeConfig(strings.NewReader(pic.body))
		require.NoError(t, err)
		require.Equal(t, "jpeg", format)
		require.Equal(t, 512, cfg.Width, "resized to fit 512 pixels")
		require.Equal(t, 341, cfg.Height)
	})
	t.Run("PNGStaysPNG", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, 40, 30))))
		require.Equal(t, http.StatusSeeOther, c.upload("a.png", b.Bytes()).Code)
		pic, err := ts.accounts.FindPicture(t.Context(), 1)
		require.NoError(t, err)
		require.Equal(t, "image/png", pic.ContentType)
	})
	attacks := []struct {
		name, file string
		data       []byte
		status     int
		msg        string
	}{
		{"ErrOversized", "big.jpg", append(testJPEG(t, 10, 10), make([]byte, 5<<20)...), http.StatusRequestEntityTooLarge, "The picture is too large"},
		{"ErrSVG", "x.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>`), http.StatusUnsupportedMediaType, "SVG images are not accepted"},
		{"ErrSVGWithXMLHeader", "x.png", []byte("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), http.StatusUnsupportedMediaType, "SVG images are not accepted"},
		{"ErrNotAnImage", "notes.jpg", []byte("just some text, not a picture"), http.StatusUnsupportedMediaType, "not a picture we can read"},
		{"ErrHTML", "page.png", []byte("<html><script>alert(1)</script></html>"), http.StatusUnsupportedMediaType, "not a picture we can read"},
		{"ErrHugeDimensions", "bomb.png", hugePNG(), http.StatusUnprocessableEntity, "too many pixels"},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			r := c.upload(a.file, a.data)
			require.Equal(t, a.status, r.Code)
			require.Contains(t, r.body, a.msg)
		})
	}
	t.Run("PolyglotLosesItsPayload", func(t *testing.T) {
		payload := []byte("<script>alert(document.cookie)</script><?php system($_GET['c']); ?>")
		poly := append(testJPEG(t, 64, 64), payload...)
		require.Equal(t, http.StatusSeeOther, c.upload("poly.jpg", poly).Code)
		pic, err := ts.accounts.FindPicture(t.Context(), 1)
		require.NoError(t, err)
		require.False(t, bytes.Contains(pic.Data, []byte("<script>")), "re-encoding drops what follows the image")
		require.False(t, bytes.Contains(pic.Data, []byte("<?php")))
		served := c.get("/profile/picture")
		require.Equal(t, "nosniff", served.Header().Get("X-Content-Type-Options"))
		require.Contains(t, served.Header().Get("Content-Security-Policy"), "sandbox")
	})
}

func TestProfile_OwnerOnly(t *testing.T) {
	ts := newTestServer(t)
	alice := ts.client(t, "10.0.0.1")
	alice.signUp("alice@example.ph", "09251234567")
	require.Equal(t, http.StatusSeeOther, alice.upload("a.jpg", testJPEG(t, 50, 50)).Code)

	bob := ts.client(t, "10.0.0.2")
	bob.signUp("bob@example.ph", "09261234567")
	r := bob.get("/profile")
	require.NotContains(t, r.body, "alice@example.ph")
	require.Equal(t, http.StatusNotFound, bob.get("/profile/picture?user=1").Code, "bob has no picture; alice's is not reachable")

	anon := ts.client(t, "10.0.0.3")
	r = anon.get("/profile")
	require.Contains(t, r.body, palaro.SignInRequiredMessage)
	require.NotContains(t, r.body, "alice@example.ph")
	require.Equal(t, http.StatusNotFound, anon.get("/profile/picture").Code)
	r = anon.post("/profile", url.Values{"firstName": {"Mallory"}, "lastName": {"X"}, "mobileNumber": {"09251234567"}})
	require.Equal(t, "/sign-in?next=/profile", r.Header().Get("Location"))
	u, err := ts.accounts.FindUserByID(t.Context(), 1)
	require.NoError(t, err)
	require.Equal(t, "Juan", u.FirstName, "an anonymous post changes nothing")
}

func TestProfile_Update(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("upd@example.ph", "09271234567")
	t.Run("ErrInvalid", func(t *testing.T) {
		r := c.post("/profile", url.Values{"firstName": {"Juan"}, "lastName": {""}, "mobileNumber": {"abc"},
			"age": {"x1"}, "birthDate": {"3000-01-01"}, "bio": {strings.Repeat("b", 501)}, "city": {"Cebu"}})
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
		for _, msg := range []string{"Lastname is required", "The mobile phone number is not valid", "Invalid Age",
			"Invalid Birthdate", palaro.MsgTooLong} {
			require.Contains(t, r.body, msg)
		}
		require.Contains(t, r.body, `value="Cebu"`, "what was typed is kept")
	})
	t.Run("OK", func(t *testing.T) {
		r := c.post("/profile", url.Values{"firstName": {"Juan"}, "lastName": {"Luna"}, "mobileNumber": {"+63 927 123 4567"},
			"age": {"30"}, "birthDate": {"1996-05-04"}, "country": {"Philippines"}, "interests": {"Valorant, MLBB"}})
		require.Equal(t, http.StatusSeeOther, r.Code, r.body)
		p := c.get("/profile?saved=1").body
		require.Contains(t, p, "Your details have been saved.")
		require.Contains(t, p, `value="Valorant, MLBB"`)
	})
	t.Run("EmailChange", func(t *testing.T) {
		r := c.post("/profile/email", url.Values{"email": {"nope"}})
		require.Contains(t, r.body, palaro.MsgEmailInvalid)
		r = c.post("/profile/email", url.Values{"email": {"luna@example.ph"}})
		require.Equal(t, http.StatusOK, r.Code)
		require.Contains(t, r.body, "We sent a confirmation link to luna@example.ph")
		require.Contains(t, r.body, "upd@example.ph", "the currently registered address is shown")
		m := ts.lastMessage(t, palaro.ChannelEmail, "luna@example.ph")
		link := m.Text[strings.Index(m.Text, "/profile/email/confirm"):]
		r = c.get(strings.Fields(link)[0])
		require.Equal(t, http.StatusOK, r.Code)
		require.Contains(t, r.body, "luna@example.ph")
	})
}

func TestResetPassword_Flow(t *testing.T) {
	ts := newTestServer(t)
	owner := ts.client(t, "10.0.0.1")
	owner.signUp("reset@example.ph", "09281234567")
	other := owner.withCookie(owner.sessionCookie()) // a second signed-in device

	c := ts.client(t, "10.0.0.2")
	known := c.post("/reset-password", url.Values{"mobileNumber": {"0928-123-4567"}})
	unknown := c.post("/reset-password", url.Values{"mobileNumber": {"09290000000"}})
	require.Equal(t, known.Code, unknown.Code)
	strip := regexp.MustCompile(`\+63[0-9]+|value="[^"]*"|content="[^"]*"|nonce="[^"]*"`)
	kb, ub := strip.ReplaceAllString(known.body, ""), strip.ReplaceAllString(unknown.body, "")
	require.True(t, kb == ub,
		"the answer does not tell whether the number has an account")
	require.Contains(t, known.body, "we have sent it a 6-digit code by SMS")

	sms := ts.lastMessage(t, palaro.ChannelSMS, "+639281234567")
	code := regexp.MustCompile(`[0-9]{6}`).FindString(sms.Text)
	r := c.post("/reset-password/new", url.Values{"mobileNumber": {"+639281234567"}, "code": {"000000"},
		"password": {"short"}, "repeatPassword": {"x"}})
	require.Equal(t, http.StatusUnprocessableEntity, r.Code)
	require.Contains(t, r.body, palaro.MsgPasswordInvalid)
	r = c.post("/reset-password/new", url.Values{"mobileNumber": {"+639281234567"}, "code": {code},
		"password": {"brandnew1"}, "repeatPassword": {"brandnew1"}})
	require.Equal(t, "/sign-in?reset=1", r.Header().Get("Location"))
	require.Equal(t, http.StatusSeeOther, c.signIn("reset@example.ph", "brandnew1").Code)
	require.Contains(t, other.get("/profile").body, palaro.SignInRequiredMessage, "the password change ended the other sessions")

	t.Run("ErrMobileMessages", func(t *testing.T) {
		require.Contains(t, c.post("/reset-password", url.Values{"mobileNumber": {""}}).body, palaro.MsgMobileRequired)
		require.Contains(t, c.post("/reset-password", url.Values{"mobileNumber": {"12-ab"}}).body, palaro.MsgMobileInvalid)
	})
	t.Run("Throttled", func(t *testing.T) {
		var last response
		for range limitResetNumber.Burst + 1 {
			last = ts.client(t, "10.9.9.9").post("/reset-password", url.Values{"mobileNumber": {"09281234567"}})
		}
		require.Equal(t, http.StatusTooManyRequests, last.Code)
	})
}

// TestInjection_Escaped submits a script in every text field a visitor can fill and checks that
// each page showing it escapes it.
func TestInjection_Escaped(t *testing.T) {
	const evil = `<script>alert(1)</script>`
	const escaped = `&lt;script&gt;alert(1)&lt;/script&gt;`
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	check := func(t *testing.T, body string) {
		t.Helper()
		require.NotContains(t, body, evil)
		require.Contains(t, body, escaped)
	}
	t.Run("SignUpForm", func(t *testing.T) {
		form := url.Values{}
		for _, f := range []string{"email", "password", "repeatPassword", "firstName", "lastName", "mobileNumber"} {
			form.Set(f, evil)
		}
		r := c.post("/sign-up", form)
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
		require.Equal(t, 6, strings.Count(r.body, `value="`+escaped+`"`), "each field shows the input escaped")
		require.NotContains(t, r.body, evil)
	})
	// Names take only letters, marks, spaces, apostrophes, hyphens and periods: markup in them is
	// refused (and shown escaped); the other text fields keep it, escaped wherever it is shown.
	c.post("/sign-up", url.Values{"email": {"inj@example.ph"}, "password": {"secret123"}, "repeatPassword": {"secret123"},
		"firstName": {"Juan"}, "lastName": {"O'Brien"}, "mobileNumber": {"09301234567"}, "terms": {"1"}})
	t.Run("Profile", func(t *testing.T) {
		form := url.Values{"firstName": {"Juan"}, "lastName": {"O'Brien"}, "mobileNumber": {"09301234567"}}
		for _, f := range []string{"title", "bio", "country", "city", "companyName", "designation", "interests"} {
			form.Set(f, evil)
		}
		r := c.post("/profile", form)
		require.Equal(t, http.StatusSeeOther, r.Code, r.body)
		p := c.get("/profile").body
		check(t, p)
		require.GreaterOrEqual(t, strings.Count(p, escaped), 7)
		require.NotContains(t, c.get("/activities").body, evil) // the menu's "Signed in as"
		r = c.post("/profile", url.Values{"firstName": {evil}, "lastName": {evil}, "mobileNumber": {"09301234567"}})
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
		check(t, r.body)
	})
	t.Run("WelcomeEmail", func(t *testing.T) {
		m := ts.lastMessage(t, palaro.ChannelEmail, "inj@example.ph")
		require.NotContains(t, m.HTML, evil)
	})
	t.Run("Participant", func(t *testing.T) {
		r := c.post("/register", url.Values{"firstName": {evil}, "lastName": {evil}, "mobileNumber": {"09301234567"}})
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
		check(t, r.body)
		r = c.postJSON("/v1/participant/register", `{"firstName":"<script>alert(1)</script>","lastName":"","mobileNumber":"1"}`)
		require.NotContains(t, r.body, evil)
	})
	t.Run("Organizer", func(t *testing.T) {
		form := url.Values{"email": {evil}, "username": {evil}, "name": {evil}, "organization": {evil},
			"mobileNumber": {evil}, "source": {evil}, "password": {"secret123"}, "repeatPassword": {"secret123"}}
		r := ts.client(t, "10.0.0.4").post("/register/organizer", form)
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
		require.Equal(t, 6, strings.Count(r.body, `value="`+escaped+`"`))
		require.NotContains(t, r.body, evil)
	})
	t.Run("Report", func(t *testing.T) {
		form := url.Values{"email": {evil}, "name": {evil}, "subject": {evil}, "message": {evil}}
		r := c.post("/report", form)
		require.Equal(t, http.StatusUnprocessableEntity, r.Code)
		check(t, r.body)
		require.GreaterOrEqual(t, strings.Count(r.body, escaped), 4)
	})
	t.Run("SignIn", func(t *testing.T) {
		r := ts.client(t, "10.0.0.5").signIn(evil, "x")
		require.NotContains(t, r.body, evil)
	})
}

func TestRegistrations(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	t.Run("ParticipantForm", func(t *testing.T) {
		r := c.post("/register", url.Values{})
		for _, msg := range []string{palaro.MsgFirstNameRequired, palaro.MsgLastNameRequired, palaro.MsgMobileRequired} {
			require.Contains(t, r.body, msg)
		}
		r = c.post("/register", url.Values{"firstName": {"Pia"}, "lastName": {"Lim"}, "mobileNumber": {"639171234567"}})
		require.Equal(t, http.StatusSeeOther, r.Code)
		page := c.get(r.Header().Get("Location"))
		require.Contains(t, page.body, "You&#39;re registered, Pia!")
		require.Contains(t, page.body, `src="data:image/png;base64,`)

		// Typing a registered number, with the same name or another, never hands out the first
		// registration's QR code: each registration is its own until an SMS code confirms the number.
		first := r.Header().Get("Location")
		again := ts.client(t, "10.0.0.2").post("/register", url.Values{"firstName": {"pia"}, "lastName": {"Lim "},
			"mobileNumber": {"0917-123-4567"}})
		require.Equal(t, http.StatusSeeOther, again.Code)
		require.NotEqual(t, first, again.Header().Get("Location"), "the same number and name do not find the first QR code")
		api := c.postJSON("/v1/participant/register", `{"firstName":"Pia","lastName":"Lim","mobileNumber":"+63 917 123 4567"}`)
		require.NotContains(t, api.body, first)
		other := ts.client(t, "10.0.0.3").post("/register", url.Values{"firstName": {"Mallory"}, "lastName": {"X"}, "mobileNumber": {"09171234567"}})
		require.Equal(t, http.StatusSeeOther, other.Code, "the same answer as for a free number")
		require.NotEqual(t, first, other.Header().Get("Location"))
	})
	t.Run("ParticipantAPI", func(t *testing.T) {
		r := c.postJSON("/v1/participant/register", `{"firstName":"Leo","lastName":"Tan","mobileNumber":"+639181234567"}`)
		require.Equal(t, http.StatusOK, r.Code, r.body)
		require.Regexp(t, `"redirectUrl":"/register/success/[a-z2-7]{24}"`, r.body)
		r = c.postJSON("/v1/participant/register", `{"firstName":"","lastName":"Tan","mobileNumber":"x"}`)
		require.Equal(t, http.StatusBadRequest, r.Code)
		require.Contains(t, r.body, `"mobileNumber":"The mobile phone number is not valid"`)
		require.Equal(t, http.StatusNotFound, c.get("/register/success/nosuchparticipant").Code)
		require.Equal(t, http.StatusOK, c.get("/register/success").Code)
	})
	t.Run("OrganizerAPI", func(t *testing.T) {
		r := c.postJSON("/v1/user/signup", `{"email":"org@example.ph","username":"esports.ph","name":"Ana Cruz",
			"organization":"Esports PH","mobileNumber":"09321234567","source":"facebook"}`)
		require.Equal(t, http.StatusOK, r.Code, r.body)
		require.Contains(t, r.body, `"redirectUrl":"/register/success/organizer"`)
		r = c.postJSON("/v1/user/signup", `{"email":"org@example.ph","username":"other","name":"B","organization":"O","mobileNumber":"09331234567"}`)
		require.Equal(t, http.StatusConflict, r.Code)
	})
	t.Run("OrganizerFormSignsIn", func(t *testing.T) {
		o := ts.client(t, "10.0.0.2")
		r := o.post("/register/organizer", url.Values{"email": {"org2@example.ph"}, "username": {"org2"}, "name": {"Ben Go"},
			"organization": {"Go Events"}, "mobileNumber": {"09341234567"}, "password": {"organizer1"}, "repeatPassword": {"organizer1"}})
		require.Equal(t, "/register/success/organizer", r.Header().Get("Location"))
		p := o.get("/profile").body
		require.Contains(t, p, "Organizer account")
		require.Contains(t, p, `value="Go Events"`)
		o.post("/sign-out", url.Values{})
		require.Equal(t, http.StatusSeeOther, o.signIn("org2@example.ph", "organizer1").Code)
	})
	t.Run("Report", func(t *testing.T) {
		r := c.post("/report", url.Values{"email": {"rep@example.ph"}, "message": {"Checkout froze"}, "pageUrl": {"https://evil.test"}})
		require.Equal(t, http.StatusSeeOther, r.Code)
		loc := r.Header().Get("Location")
		require.Regexp(t, `^/report/success/R-[0-9A-Z]{4}-[0-9A-Z]{4}$`, loc)
		require.Contains(t, c.get(loc).body, strings.TrimPrefix(loc, "/report/success/"))
		reports, err := ts.accounts.ListReports(t.Context())
		require.NoError(t, err)
		require.Equal(t, "", reports[0].PageURL, "only paths on this site are kept")
	})
}
