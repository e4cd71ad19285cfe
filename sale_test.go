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
