package paymongo_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment/paymongo"
)

// fakeRefunds answers a paid checkout session, its payment (with the refunds made of it) and the
// Refunds API, as PayMongo documents them.
type fakeRefunds struct {
	mu      sync.Mutex
	refunds []map[string]any // refund resources, in order made
	posts   []http.Header
}

func (f *fakeRefunds) handler(t *testing.T) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v2/checkout_sessions/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != "cs_paid" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"errors":[{"code":"resource_not_found","detail":"No such checkout_session"}]}`)
			return
		}
		io.WriteString(w, `{"data":{"id":"cs_paid","type":"checkout_session","attributes":{"payments":[{"id":"pay_1","type":"payment","attributes":{"amount":325000,"status":"paid"}}]}}}`)
	})
	mux.HandleFunc("GET /v1/payments/pay_1", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		out, _ := json.Marshal(map[string]any{"data": map[string]any{"id": "pay_1", "type": "payment", "attributes": map[string]any{"amount": 325000, "refunds": f.refunds}}})
		w.Write(out)
	})
	mux.HandleFunc("POST /v1/refunds", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Data struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"data"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&in))
		a := in.Data.Attributes
		if a["payment_id"] != "pay_1" || a["amount"].(float64) < 100 {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"errors":[{"code":"parameter_invalid","detail":"amount is below the minimum."}]}`)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.posts = append(f.posts, r.Header.Clone())
		a["status"] = "pending"
		ref := map[string]any{"id": "ref_" + string(rune('a'+len(f.refunds))), "type": "refund", "attributes": a}
		f.refunds = append(f.refunds, ref)
		out, _ := json.Marshal(map[string]any{"data": ref})
		w.Write(out)
	})
	return mux
}

func TestProvider_Refund(t *testing.T) {
	ctx := context.Background()
	f := &fakeRefunds{}
	server := httptest.NewServer(f.handler(t))
	t.Cleanup(server.Close)
	p, err := paymongo.New(paymongo.Config{APIBase: server.URL, SecretKey: secretKey, WebhookSecret: webhookSecret})
	require.NoError(t, err)
	req := palaro.RefundRequest{Key: "rf_abc", SessionID: "cs_paid", OrderID: "ord_1", Amount: 150000, Reason: palaro.RefundByOrganizer}

	t.Run("OK one refund per key, pending until PayMongo settles it", func(t *testing.T) {
		r, err := p.Refund(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, palaro.RefundResult{ID: "ref_a", Status: palaro.RefundPending}, r)
		require.Len(t, f.posts, 1)
		assert.Equal(t, "rf_abc", f.posts[0].Get("Idempotency-Key"))
		attrs := f.refunds[0]["attributes"].(map[string]any)
		assert.Equal(t, "others", attrs["reason"])
		assert.Equal(t, map[string]any{paymongo.MetadataRefundKey: "rf_abc", "order": "ord_1"}, attrs["metadata"])

		again, err := p.Refund(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, r, again)
		assert.Len(t, f.posts, 1, "asked again: no second refund")

		attrs["status"] = "succeeded"
		done, err := p.Refund(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, palaro.RefundRefunded, done.Status)
	})
	t.Run("OK a failed refund is asked anew on a retry", func(t *testing.T) {
		retry := req
		retry.Key = "rf_retry"
		first, err := p.Refund(ctx, retry)
		require.NoError(t, err)
		f.refunds[len(f.refunds)-1]["attributes"].(map[string]any)["status"] = "failed"
		failed, err := p.Refund(ctx, retry)
		require.NoError(t, err)
		assert.NotEqual(t, first.ID, failed.ID, "a new refund")
		assert.Equal(t, "rf_retry-again", f.posts[len(f.posts)-1].Get("Idempotency-Key"))
	})
	t.Run("ErrInvalid PayMongo refuses, or no such session", func(t *testing.T) {
		bad := req
		bad.Key, bad.Amount = "rf_small", 50
		_, err := p.Refund(ctx, bad)
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		assert.Contains(t, palaro.ErrorMessage(err), "PayMongo refused the refund")
		bad.SessionID, bad.Amount = "cs_nope", 100
		_, err = p.Refund(ctx, bad)
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	})
}
