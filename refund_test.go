package palaro

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRefundedTicketStatuses(t *testing.T) {
	got := RefundedTicketStatuses([]Refund{
		{Status: RefundFailed, TicketCodes: []string{"A"}},
		{Status: RefundPending, TicketCodes: []string{"C"}},
		{Status: RefundRefunded, TicketCodes: []string{"B", "D"}},
		{Status: RefundRefunded}, // an add-on order's: no tickets
	})
	require.Equal(t, map[string]string{"A": TicketRefundFailed, "B": TicketRefunded, "C": TicketRefundPending, "D": TicketRefunded}, got)
	require.Empty(t, RefundedTicketStatuses(nil))
}
