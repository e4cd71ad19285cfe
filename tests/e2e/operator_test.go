package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestOperator_OutboxAndOrders(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	body := `{"ticketCode":"valorant-night-market-bgc-watch","quantity":1,"email":"op@x.ph","fullName":"Op Erator","mobileNumber":"0917-000-0000"}`
	v := newVisitor(t, a)
	v.get("/")
	_, raw := v.postJSON("/v1/ticket/buy", body)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &res))
	require.EqualValues(t, 200, res["responseCode"], res)

	out, err := command(t, a, "outbox", "--to", "op@x.ph")
	require.NoError(t, err)
	require.Contains(t, out, "PENDING  email  order_confirmation  to=op@x.ph")
	require.Contains(t, out, "Subject: Your tickets for Valorant Night Market: BGC Open")
	require.Contains(t, out, a.URL+"/t/")
	require.Equal(t, 1, strings.Count(out, "Subject:"), "exactly one confirmation e-mail")

	// the background jobs send it (log sender) and stop cleanly
	jobs, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { a.RunJobs(jobs); close(done) }()
	require.Eventually(t, func() bool {
		msgs, _ := a.Outbox().ListOutbox(ctx, palaro.OutboxFilter{To: "op@x.ph", Status: palaro.MessageSent})
		return len(msgs) == 1
	}, 10*time.Second, 50*time.Millisecond)
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("background jobs did not stop")
	}

	out, err = command(t, a, "orders")
	require.NoError(t, err)
	require.Contains(t, out, "paid")
	require.Contains(t, out, "1 × Watch Party")
	out, err = command(t, a, "orders", "--refunds")
	require.NoError(t, err)
	require.Equal(t, "No orders.\n", out)

	// a payment event for no checkout session of ours is refused, and the operator sees why
	_, err = a.Purchases().ConfirmPayment(ctx, "sandbox", false, palaro.PaymentEvent{ID: "evt_stray", SessionID: "cs_stray",
		Status: palaro.PaymentPaid, Amount: 100, Currency: palaro.PaymentCurrency})
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	out, err = command(t, a, "payments", "--refused")
	require.NoError(t, err)
	require.Contains(t, out, "evt_stray")
	require.Contains(t, out, `no order has checkout session "cs_stray"`)
}
