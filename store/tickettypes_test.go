package store

import (
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestEventService_FindTicketType(t *testing.T) {
	s, ctx := fixtureService(t)

	t.Run("OK", func(t *testing.T) {
		tt, ev, err := s.FindTicketType(ctx, "this-saturday-vip")
		require.NoError(t, err)
		require.Equal(t, "VIP", tt.Name)
		require.Equal(t, palaro.Money(150000), tt.Price)
		require.Equal(t, "this-saturday", ev.Code)
		require.Len(t, ev.AddOns, 2, "the event comes with its add-ons")
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		for _, code := range []string{"no-such-ticket", "Bad Code", "draft-event-regular"} {
			_, _, err := s.FindTicketType(ctx, code)
			require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err), code)
		}
	})
}
