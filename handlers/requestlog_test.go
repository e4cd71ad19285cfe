package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/handlers"
	"palaro/static"
)

func TestRequestLog(t *testing.T) {
	f := newAPIFixture(t)
	var logs bytes.Buffer
	f.server = handlers.New(handlers.Config{BaseURL: f.http.URL}, f.services, static.Default(), slog.New(slog.NewJSONHandler(&logs, nil)))
	f.server.Now = func() time.Time { return f.now }
	o, err := f.purchases.CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: "valorant-night-market-bgc-watch",
		Quantity: 1, Email: "private.buyer@mail.ph", FullName: "Pri Vate", MobileNumber: "0917-000-0000"}, f.now)
	require.NoError(t, err)
	require.NotEmpty(t, o.Tickets)
	ticketID := o.Tickets[0].PublicID

	// serve runs the request to its end, so its log line is written when it returns.
	serve := func(method, target string) map[string]any {
		t.Helper()
		logs.Reset()
		rec := httptest.NewRecorder()
		f.server.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
		line := strings.TrimSpace(logs.String())
		require.Equal(t, 1, strings.Count(line, "\n")+1, "one line per request: %s", line)
		var entry map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &entry), "the line is JSON: %s", line)
		for _, secret := range []string{ticketID, "secret@mail", "secret%40mail", "private.buyer", "x="} {
			require.NotContains(t, line, secret)
		}
		require.Equal(t, "request", entry["msg"])
		require.Equal(t, method, entry["method"])
		require.NotEmpty(t, entry["time"])
		require.NotEmpty(t, entry["request_id"])
		require.Equal(t, rec.Header().Get("X-Request-Id"), entry["request_id"], "the id the answer carries")
		require.Contains(t, entry, "duration_ms")
		require.EqualValues(t, rec.Code, entry["status"])
		require.EqualValues(t, rec.Body.Len(), entry["bytes"])
		return entry
	}

	t.Run("OK", func(t *testing.T) {
		entry := serve(http.MethodGet, "/t/"+ticketID+"?x=secret@mail")
		require.Equal(t, "/t/:id", entry["route"])
		require.EqualValues(t, http.StatusOK, entry["status"])
		require.Positive(t, entry["bytes"])
	})
	t.Run("NotFound", func(t *testing.T) {
		entry := serve(http.MethodGet, "/no-such-page/"+ticketID+"/secret@mail?x=secret@mail")
		require.Equal(t, "/*", entry["route"], "a missing page logs the catch-all pattern, not the path")
		require.EqualValues(t, http.StatusNotFound, entry["status"])
	})
	t.Run("ClientRequestID", func(t *testing.T) {
		for id, want := range map[string]string{
			"proxy-7f3a.1:2":        "proxy-7f3a.1:2",
			"secret@mail":           "(invalid)",
			strings.Repeat("a", 65): "(invalid)",
		} {
			logs.Reset()
			req := httptest.NewRequest(http.MethodGet, "/about", nil)
			req.Header.Set("X-Request-Id", id)
			f.server.ServeHTTP(httptest.NewRecorder(), req)
			var entry map[string]any
			require.NoError(t, json.Unmarshal(logs.Bytes(), &entry), logs.String())
			require.Equal(t, want, entry["request_id"])
		}
	})
	t.Run("APIError", func(t *testing.T) {
		entry := serve(http.MethodGet, "/v1/ticket/status?ticketCode="+ticketID+"&key=secret@mail")
		require.Equal(t, "/v1/ticket/status", entry["route"])
		require.GreaterOrEqual(t, entry["status"], float64(400))
	})
}
