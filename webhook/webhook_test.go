package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// fakeResolver answers every name with its addresses, as a DNS that rebinds would.
type fakeResolver []netip.Addr

func (r fakeResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return r, nil
}

// TestSend_SignsAndFollowsNoRedirect: the receiver gets the body with a signature it can check
// the documented way; a redirect is an answer (a failure), never followed.
func TestSend_SignsAndFollowsNoRedirect(t *testing.T) {
	var got []byte
	var sig string
	followed := false
	mux := http.NewServeMux()
	mux.HandleFunc("/hook", func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		sig = r.Header.Get("Palaro-Signature")
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/elsewhere", http.StatusFound) })
	mux.HandleFunc("/elsewhere", func(http.ResponseWriter, *http.Request) { followed = true })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	now := time.Unix(1773800000, 0)
	d := &palaro.WebhookDelivery{ID: 1, EventID: "evt_1", URL: srv.URL + "/hook", Secret: "whsec_x", Body: []byte(`{"id":"evt_1"}`)}
	s := &Sender{AllowPrivate: true}
	code, err := s.Send(context.Background(), d, now)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, code)
	require.Equal(t, d.Body, got)
	// the check the docs show: t and v1 from the header, HMAC-SHA256 of "<t>.<body>"
	parts := strings.Split(sig, ",")
	require.Equal(t, "t=1773800000", parts[0])
	mac := hmac.New(sha256.New, []byte("whsec_x"))
	mac.Write([]byte("1773800000." + string(got)))
	require.Equal(t, "v1="+hex.EncodeToString(mac.Sum(nil)), parts[1])

	d.URL = srv.URL + "/moved"
	code, err = s.Send(context.Background(), d, now)
	require.Error(t, err)
	require.Equal(t, http.StatusFound, code)
	require.False(t, followed, "no redirect is followed")
}

// TestSend_RefusesInsideAddresses: without AllowPrivate, a loopback, private, link-local or
// metadata address is refused before anything is dialled, also when a public-looking name
// resolves to one at send time; plain HTTP is refused.
func TestSend_RefusesInsideAddresses(t *testing.T) {
	hit := false
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hit = true }))
	defer srv.Close()
	s := &Sender{}
	for _, u := range []string{srv.URL, "https://127.0.0.1/x", "https://10.1.2.3/x", "https://[::1]/x", "https://169.254.169.254/latest",
		"https://192.168.1.1/", "https://[fd00:ec2::254]/", "https://0.0.0.0/", "https://100.64.0.1/"} {
		_, err := s.Send(context.Background(), &palaro.WebhookDelivery{URL: u}, time.Now())
		require.Error(t, err, u)
	}
	rebinding := &Sender{Resolver: fakeResolver{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("127.0.0.1")}}
	_, err := rebinding.Send(context.Background(), &palaro.WebhookDelivery{URL: "https://hooks.example.com/x"}, time.Now())
	require.ErrorContains(t, err, "private, loopback or link-local")
	require.False(t, hit)

	_, err = palaro.CheckWebhookURL(context.Background(), fakeResolver{netip.MustParseAddr("93.184.216.34")}, "https://hooks.example.com/x", false)
	require.NoError(t, err, "a public address is fine")
	_, err = palaro.CheckWebhookURL(context.Background(), fakeResolver{netip.MustParseAddr("93.184.216.34")}, "http://hooks.example.com/x", false)
	require.Error(t, err, "HTTPS only")
}
