package handlers_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/handlers"
	"palaro/static"
	"palaro/store"
)

// TestGateList_TicketKeys: the gate list gives the gate every public key that verifies a ticket
// QR code, by key id (the current signing key's and a rotated one's), so a phone verifies offline
// a code signed before a rotation as well as one signed after.
func TestGateList_TicketKeys(t *testing.T) {
	ctx := context.Background()
	_, current, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	oldPub, old, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	ts := newTestServer(t)
	organizers := store.NewOrganizerService(ts.DB, nil)
	services := handlers.Services{Events: ts.Events, Organizers: organizers, CheckIns: store.NewCheckInService(ts.DB)}
	handlers.CompleteServices(t, ts.DB, &services) // the services this test does not look at
	srv := handlers.New(handlers.Config{BaseURL: testBaseURL, TicketSigningKey: current, PreviousTicketKeys: []ed25519.PublicKey{oldPub}},
		services, static.Default(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	ev, err := ts.Events.FindEventByCode(ctx, "mlbb-manila-showdown")
	require.NoError(t, err)
	secret, _, err := organizers.CreateToken(ctx, ev.Organizer.ID, palaro.MemberGate, "gate phone", "test", 0)
	require.NoError(t, err)

	req := httptest.NewRequest(http.MethodGet, "/v1/organizer/events/mlbb-manila-showdown/gate-list", nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var list struct {
		PublicKey  string            `json:"publicKey"`
		PublicKeys map[string]string `json:"publicKeys"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &list))
	b64 := base64.RawURLEncoding.EncodeToString
	pub := current.Public().(ed25519.PublicKey)
	require.Equal(t, b64(pub), list.PublicKey, "the current key")
	require.Equal(t, map[string]string{palaro.TicketKeyID(pub): b64(pub), palaro.TicketKeyID(oldPub): b64(oldPub)}, list.PublicKeys)

	// what the gate does offline: the key the QR code names verifies it
	keys := palaro.TicketKeys{}
	for kid, k := range list.PublicKeys {
		raw, err := base64.RawURLEncoding.DecodeString(k)
		require.NoError(t, err)
		keys[kid] = raw
	}
	for _, key := range []ed25519.PrivateKey{current, old} {
		code, forged := palaro.ParseTicketInput(keys, palaro.SignedTicketQR(key, "7K3Q9ABCDE"))
		require.False(t, forged)
		require.Equal(t, "7K3Q9ABCDE", code)
	}
}
