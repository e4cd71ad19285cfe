package handlers

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProfilePicture_TooLarge: a picture far over the limit is answered on the profile page with
// the picture field's message (not a dead-end error page), whether the browser said the body's
// length up front or not; a picture within the limit is still taken.
func TestProfilePicture_TooLarge(t *testing.T) {
	ts := newTestServer(t)
	c := ts.client(t, "10.0.0.1")
	c.signUp("big@example.ph", "09421234567")
	huge := append(testJPEG(t, 20, 20), make([]byte, 8<<20)...) // an 8 MB photo

	check := func(t *testing.T, r response) {
		t.Helper()
		require.Equal(t, http.StatusRequestEntityTooLarge, r.Code)
		require.Contains(t, r.body, `<p class="field-error" id="f-picture-error" role="alert">`+errPictureTooLarge.msg+`</p>`)
		require.Contains(t, r.body, `action="/profile/picture"`, "the profile page, with the form to try again")
		require.Contains(t, r.body, "big@example.ph")
		require.NotContains(t, r.body, "The request is too large.")
	}
	t.Run("ErrWithLength", func(t *testing.T) {
		check(t, c.upload("huge.jpg", huge))
	})
	t.Run("ErrWithoutLength", func(t *testing.T) {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		require.NoError(t, w.WriteField("_csrf", c.csrf))
		fw, err := w.CreateFormFile("picture", "huge.jpg")
		require.NoError(t, err)
		_, _ = fw.Write(huge)
		require.NoError(t, w.Close())
		req := httptest.NewRequest(http.MethodPost, "/profile/picture", io.MultiReader(&body)) // no length known
		req.Header.Set("Content-Type", w.FormDataContentType())
		require.EqualValues(t, -1, req.ContentLength)
		check(t, c.do(req))
	})
	t.Run("ErrSignedOut", func(t *testing.T) {
		r := ts.client(t, "10.0.0.2").upload("huge.jpg", huge)
		require.Equal(t, "/sign-in?next=/profile", r.Header().Get("Location"))
	})
	t.Run("OK within the limit", func(t *testing.T) {
		r := c.upload("me.jpg", testJPEG(t, 300, 200))
		require.Equal(t, http.StatusSeeOther, r.Code, r.body)
		_, err := ts.accounts.FindPicture(t.Context(), 1)
		require.NoError(t, err)
	})
	t.Run("PageCarriesTheLimit", func(t *testing.T) {
		p := c.get("/profile").body
		require.Contains(t, p, `data-max-bytes="5242880"`)
		require.Contains(t, p, `data-too-large="`+errPictureTooLarge.msg+`"`)
	})
}
