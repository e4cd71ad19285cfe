package notify

import (
	"testing"

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
