package handlers

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestAuditRow_Readable turns stored details, old and new, into lines of words: a zero time reads
// 'none' or is left out, times are in Manila, money in pesos, text that is not JSON stays.
func TestAuditRow_Readable(t *testing.T) {
	at := time.Date(2026, 3, 18, 2, 0, 0, 0, time.UTC)
	row := auditRow(palaro.AuditEntry{Actor: "ana@x.ph", Action: "ticket type created", CreatedAt: at,
		Detail: `{"code":"ga","salesStart":"0001-01-01T00:00:00Z","salesEnd":"2026-12-05T09:00:00Z","price":25000,"seated":false,"discount":0.1,"paymentTypes":["QR","CARD"]}`})
	require.Equal(t, "Wed 18 Mar 2026, 10:00 AM", row.When)
	require.Equal(t, []string{"Code: ga", "Discount: 10%", "Payment types: QR, CARD", "Price: ₱250.00", "Sales end: Sat 5 Dec 2026, 5:00 PM"}, row.Changes)

	row = auditRow(palaro.AuditEntry{Action: "ticket type ga updated", Detail: `{"salesStart":{"from":"0001-01-01T00:00:00Z","to":"2026-12-01T02:00:00Z"},"capacity":{"from":100,"to":120}}`})
	require.Equal(t, []string{"Capacity: 100 → 120", "Sales start: none → Tue 1 Dec 2026, 10:00 AM"}, row.Changes)

	row = auditRow(palaro.AuditEntry{Action: "box_office.sale", Detail: `{"amount":30000,"payment":"CASH","ticket":"AB12","type":"ga"}`})
	require.Equal(t, "sold at the box office", row.Action)
	require.Equal(t, []string{"Amount: ₱300.00", "Payment: cash", "Ticket: AB12", "Ticket type: ga"}, row.Changes)

	row = auditRow(palaro.AuditEntry{Action: "queue changed", Detail: "opens 2026-12-01 20:00, 50 visitors let in a minute"})
	require.Equal(t, "opens 2026-12-01 20:00, 50 visitors let in a minute", row.Detail)
	require.Empty(t, row.Changes)
}
