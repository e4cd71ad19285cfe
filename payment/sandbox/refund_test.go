package sandbox_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment/paymenttest"
	"palaro/payment/sandbox"
)

func TestSandbox_Refund(t *testing.T) {
	ctx := context.Background()
	paid := func(f *fixture) palaro.CheckoutSession {
		s := f.checkout(palaro.PaymentCard)
		resp, _ := f.post(s.URL+"/card", card("4343434343434345", future(), "9999"))
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		return s
	}
	count := func(f *fixture) int {
		n, err := sandbox.NewSQLStoreIn(f.db.Reader(), f.db.Write).CountRefunds(ctx)
		require.NoError(t, err)
		return n
	}
	t.Run("OK the same key refunds once, even asked at once", func(t *testing.T) {
		f := newFixture(t)
		s := paid(f)
		req := palaro.RefundRequest{Key: "rf_one", SessionID: s.ID, OrderID: paymenttest.OrderID, Amount: 150000, Reason: palaro.RefundByOrganizer}
		var wg sync.WaitGroup
		results := make([]palaro.RefundResult, 4)
		for i := range results {
			wg.Go(func() {
				var err error
				results[i], err = f.provider.Refund(ctx, req)
				assert.NoError(t, err)
			})
		}
		wg.Wait()
		for _, r := range results {
			assert.Equal(t, palaro.RefundRefunded, r.Status, "the sandbox confirms at once")
			assert.Equal(t, results[0].ID, r.ID, "one refund")
		}
		assert.Equal(t, 1, count(f))

		// A second refund (another key) of the rest is fine; more than paid is refused.
		req.Key, req.Amount = "rf_two", paymenttest.Total-150000
		r, err := f.provider.Refund(ctx, req)
		require.NoError(t, err)
		assert.NotEqual(t, results[0].ID, r.ID)
		req.Key, req.Amount = "rf_three", 100
		_, err = f.provider.Refund(ctx, req)
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "nothing is left to refund")
		assert.Equal(t, 2, count(f))
		// Asking again with a used key still answers, even with nothing left.
		req.Key = "rf_two"
		again, err := f.provider.Refund(ctx, req)
		require.NoError(t, err)
		assert.Equal(t, r.ID, again.ID)
	})
	t.Run("ErrInvalid unpaid or unknown session", func(t *testing.T) {
		f := newFixture(t)
		s := f.checkout(palaro.PaymentCard)
		_, err := f.provider.Refund(ctx, palaro.RefundRequest{Key: "k", SessionID: s.ID, Amount: 100})
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		_, err = f.provider.Refund(ctx, palaro.RefundRequest{Key: "k", SessionID: "cs_nope", Amount: 100})
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		assert.Equal(t, 0, count(f))
	})
}
