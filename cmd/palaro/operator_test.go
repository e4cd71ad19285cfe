package main

import (
	"bytes"
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

	var out bytes.Buffer
	require.NoError(t, printOutbox(ctx, &out, a.Outbox(), palaro.OutboxFilter{To: "op@x.ph"}))
	require.Contains(t, out.String(), "PENDING  email  order_confirmation  to=op@x.ph")
	require.Contains(t, out.String(), "Subject: Your tickets for Valorant Night Market: BGC Open")
	require.Contains(t, out.String(), a.URL+"/t/")
	require.Equal(t, 1, strings.Count(out.String(), "Subject:"), "exactly one confirmation e-mail")

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

	out.Reset()
	require.NoError(t, printOrders(ctx, &out, a.Purchases(), palaro.OrderFilter{}))
	require.Contains(t, out.String(), "paid")
	require.Contains(t, out.String(), "1 × Watch Party")
	out.Reset()
	require.NoError(t, printOrders(ctx, &out, a.Purchases(), palaro.OrderFilter{Status: palaro.OrderRefund}))
	require.Equal(t, "No orders.\n", out.String())

	// a payment event for no checkout session of ours is refused, and the operator sees why
	_, err := a.Purchases().ConfirmPayment(ctx, "sandbox", false, palaro.PaymentEvent{ID: "evt_stray", SessionID: "cs_stray",
		Status: palaro.PaymentPaid, Amount: 100, Currency: palaro.PaymentCurrency})
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	out.Reset()
	require.NoError(t, printPayments(ctx, &out, a.Purchases(), palaro.PaymentEventFilter{Refused: true}))
	require.Contains(t, out.String(), "evt_stray")
	require.Contains(t, out.String(), `no order has checkout session "cs_stray"`)
}
