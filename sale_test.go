package palaro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestTicketType_SaleState(t *testing.T) {
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, Manila)
	tt := TicketType{Capacity: 10, Sold: 4, Held: 2, SalesStart: now.Add(-time.Hour), SalesEnd: now.Add(time.Hour)}
	ev := &Event{Status: EventScheduled}

	t.Run("OK", func(t *testing.T) {
		require.Equal(t, SaleOpen, tt.SaleState(ev, now))
		require.Equal(t, SaleOpen, tt.SaleState(nil, now), "no event: only the ticket type's own window counts")
		open := TicketType{Capacity: 1}
		require.Equal(t, SaleOpen, open.SaleState(ev, now), "no sales window: always on sale")
	})
	t.Run("NotStarted", func(t *testing.T) {
		require.Equal(t, SaleNotStarted, tt.SaleState(ev, now.Add(-2*time.Hour)))
	})
	t.Run("EndedAtSalesEnd", func(t *testing.T) {
		require.Equal(t, SaleEnded, tt.SaleState(ev, tt.SalesEnd), "the end is exclusive")
		require.Equal(t, SaleOpen, tt.SaleState(ev, tt.SalesEnd.Add(-time.Second)))
	})
	t.Run("EndedWhenCancelled", func(t *testing.T) {
		require.Equal(t, SaleEnded, tt.SaleState(&Event{Status: EventCancelled}, now))
	})
	t.Run("SoldOut", func(t *testing.T) {
		full := tt
		full.Held = 6
		require.Equal(t, SaleSoldOut, full.SaleState(ev, now), "held tickets count against the capacity")
	})
}

// TestTicketType_SaleState_Instants: a sale that ends at midnight in Manila (the first of April,
// New Year) is open at 23:59 and over at 00:01 there, and one that starts at midnight has not
// started at 23:59, whatever zone the clock reads in.
func TestTicketType_SaleState_Instants(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, time.UTC) }
	april, newYear := time.Date(2026, 4, 1, 0, 0, 0, 0, Manila), time.Date(2027, 1, 1, 0, 0, 0, 0, Manila)
	ev := &Event{Status: EventScheduled}
	for name, tc := range map[string]struct {
		tt   TicketType
		now  time.Time
		want string
	}{
		"ends at month end, 23:59":         {TicketType{SalesEnd: april}, time.Date(2026, 3, 31, 23, 59, 0, 0, Manila), SaleOpen},
		"ends at month end, 00:01":         {TicketType{SalesEnd: april}, time.Date(2026, 4, 1, 0, 1, 0, 0, Manila), SaleEnded},
		"ends at month end, 23:59 in UTC":  {TicketType{SalesEnd: april}, utc(2026, 3, 31, 15, 59), SaleOpen},
		"ends at month end, 00:01 in UTC":  {TicketType{SalesEnd: april}, utc(2026, 3, 31, 16, 1), SaleEnded},
		"ends at New Year, 23:59":          {TicketType{SalesEnd: newYear}, time.Date(2026, 12, 31, 23, 59, 0, 0, Manila), SaleOpen},
		"ends at New Year, 00:01 in UTC":   {TicketType{SalesEnd: newYear}, utc(2026, 12, 31, 16, 1), SaleEnded},
		"starts at New Year, 23:59 in UTC": {TicketType{SalesStart: newYear}, utc(2026, 12, 31, 15, 59), SaleNotStarted},
		"starts at New Year, 00:01 in UTC": {TicketType{SalesStart: newYear}, utc(2026, 12, 31, 16, 1), SaleOpen},
	} {
		t.Run(name, func(t *testing.T) {
			tc.tt.Capacity = 10
			require.Equal(t, tc.want, tc.tt.SaleState(ev, tc.now))
		})
	}
}
