package notify

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestRefundEmails_NameTheEvent: the buyer's refund e-mails name the order's event in the subject
// and the words, and are still written when the event was not loaded.
func TestRefundEmails_NameTheEvent(t *testing.T) {
	c := NewComposer("https://palaro.test", "help@palaro.test")
	o := &palaro.Order{PublicID: "ord1", Email: "ana@x.ph", Event: sampleEvent(), Total: 80000}
	r := palaro.Refund{Amount: 80000, Reason: palaro.RefundEventCancelled, TicketCodes: []string{"ABC-123"}}

	started := c.RefundStarted(o, r)
	require.Equal(t, "Your refund for Fiesta <i>Live</i>", started.Subject)
	require.Contains(t, started.Text, "Fiesta <i>Live</i> is cancelled, so the organizer is refunding your order.")
	require.Contains(t, started.Text, "This ticket is cancelled")
	marked := c.OrderRefunded(o)
	require.Equal(t, "Your order for Fiesta <i>Live</i> was refunded", marked.Subject)
	require.Contains(t, marked.Text, "The organizer of Fiesta <i>Live</i> marked your order refunded.")

	o.Event = nil
	require.Equal(t, "Your refund for ", c.RefundStarted(o, r).Subject)
	require.Equal(t, "Your order for  was refunded", c.OrderRefunded(o).Subject)
}

// TestRefundEmails_CancelledDate: a refund for a cancelled date of a series says which date, in
// Manila time, was cancelled; a pass's part refund names the pass and says it stays valid.
func TestRefundEmails_CancelledDate(t *testing.T) {
	c := NewComposer("https://palaro.test", "help@palaro.test")
	o := &palaro.Order{PublicID: "ord1", Email: "ana@x.ph", Event: sampleEvent(), Total: 100001}
	date := &palaro.RefundDate{ID: 1, Slug: "2027-01-02", StartsAt: time.Date(2027, 1, 1, 16, 0, 0, 0, time.UTC)} // midnight in Manila
	day := palaro.Refund{Amount: 65000, Reason: palaro.RefundDateCancelled, Date: date, TicketCodes: []string{"ABC-123"}}
	started := c.RefundStarted(o, day)
	require.Contains(t, started.Text, "Fiesta <i>Live</i>, Sat 2 Jan 2027, 12:00 AM was cancelled, so the organizer is refunding your order.")
	require.Contains(t, started.Text, "This ticket is cancelled")

	pass := palaro.Refund{Amount: 14286, Reason: palaro.RefundDateCancelled, Date: date, PassCodes: []string{"PASS-1"}, Status: palaro.RefundRefunded}
	started = c.RefundStarted(o, pass)
	require.Contains(t, started.Text, "was cancelled, so the organizer is refunding your pass's share for that date.")
	require.Contains(t, started.Text, "PASS-1")
	require.Contains(t, started.Text, "it stays valid on the series' other dates")
	require.NotContains(t, started.Text, "cancelled: it no longer admits")
	done := c.RefundEnded(o, pass)
	require.Contains(t, done.Text, "Fiesta <i>Live</i>, Sat 2 Jan 2027, 12:00 AM was cancelled")
	require.Contains(t, done.Text, "PASS-1")
}
