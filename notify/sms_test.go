package notify

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// fakeSemaphore is a local stand-in for Semaphore's message endpoint that records the forms posted.
func fakeSemaphore(t *testing.T, status int, answer string) (*httptest.Server, *[]url.Values) {
	var got []url.Values
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, http.MethodPost, r.Method)
		require.Equal(t, "/api/v4/messages", r.URL.Path)
		require.NoError(t, r.ParseForm())
		got = append(got, r.PostForm)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestSemaphoreSender_Send(t *testing.T) {
	sms := palaro.Message{Channel: palaro.ChannelSMS, Kind: palaro.MessagePasswordResetCode, To: "+639171234567",
		Text: "Your Palaro password reset code is 123456."}
	t.Run("OK", func(t *testing.T) {
		srv, got := fakeSemaphore(t, http.StatusOK, `[{"message_id":1234,"recipient":"639171234567","status":"Pending"}]`)
		s := &SemaphoreSender{APIKey: "k3y", SenderName: "PALARO", URL: srv.URL + "/api/v4/messages"}
		require.NoError(t, s.Send(context.Background(), sms))
		require.Len(t, *got, 1)
		require.Equal(t, url.Values{"apikey": {"k3y"}, "number": {"639171234567"}, "message": {sms.Text}, "sendername": {"PALARO"}}, (*got)[0])
	})
	t.Run("ErrRejected", func(t *testing.T) {
		srv, _ := fakeSemaphore(t, http.StatusUnprocessableEntity, `{"number":["The number format is invalid."],"apikey":"k3y"}`)
		s := &SemaphoreSender{APIKey: "k3y", URL: srv.URL + "/api/v4/messages"}
		err := s.Send(context.Background(), sms)
		require.ErrorContains(t, err, "status 422")
		require.NotContains(t, err.Error(), "k3y", "the API key never shows in errors")
	})
	t.Run("ErrFailedStatus", func(t *testing.T) {
		srv, _ := fakeSemaphore(t, http.StatusOK, `[{"message_id":9,"status":"Failed"}]`)
		err := (&SemaphoreSender{APIKey: "k", URL: srv.URL + "/api/v4/messages"}).Send(context.Background(), sms)
		require.ErrorContains(t, err, "failed")
	})
	t.Run("ErrEmail", func(t *testing.T) {
		err := (&SemaphoreSender{APIKey: "k"}).Send(context.Background(), palaro.Message{Channel: palaro.ChannelEmail})
		require.Error(t, err)
	})
	t.Run("ErrNoKey", func(t *testing.T) {
		_, err := NewSemaphoreSender("", "")
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
}

// recordingSender remembers the messages it was given.
type recordingSender struct{ got []palaro.Message }

func (r *recordingSender) Send(_ context.Context, m palaro.Message) error {
	r.got = append(r.got, m)
	return nil
}

func TestByChannel_Send(t *testing.T) {
	email, sms := &recordingSender{}, &recordingSender{}
	b := ByChannel{Email: email, SMS: sms}
	ctx := context.Background()
	require.NoError(t, b.Send(ctx, palaro.Message{Channel: palaro.ChannelSMS, To: "+639171234567"}))
	require.NoError(t, b.Send(ctx, palaro.Message{Channel: palaro.ChannelEmail, To: "a@b.ph"}))
	require.NoError(t, b.Send(ctx, palaro.Message{To: "c@d.ph"}))
	require.Error(t, b.Send(ctx, palaro.Message{Channel: "pigeon"}))
	require.Len(t, sms.got, 1)
	require.Len(t, email.got, 2)
	require.NoError(t, LogSender{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}.Send(ctx, palaro.Message{Channel: palaro.ChannelSMS}))
}
