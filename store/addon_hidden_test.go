package store

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestOrganizerService_HiddenAndDeletedAddOns(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "addon-hide", 0, 10, 5)
	org := NewOrganizerService(f.db, nil)
	ev, err := org.FindEvent(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	kept, err := org.SaveAddOn(ctx, ev.ID, "owner@x.ph", palaro.AddOn{Name: "Ordered pin", Price: 0, Category: "Extras"})
	require.NoError(t, err)
	req := freeRequest(code, 1, "pin@x.ph")
	req.AddOns = []int64{kept.ID}
	_, err = f.purchases.CreateOrder(ctx, req, f.now)
	require.NoError(t, err)

	t.Run("ErrInvalid a hidden add-on cannot be ordered", func(t *testing.T) {
		kept.Hidden = true
		_, err := org.SaveAddOn(ctx, ev.ID, "owner@x.ph", *kept)
		require.NoError(t, err)
		req := freeRequest(code, 1, "late@x.ph")
		req.AddOns = []int64{kept.ID}
		_, err = f.purchases.CreateOrder(ctx, req, f.now)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		all, err := org.ListAddOns(ctx, ev.ID)
		require.NoError(t, err)
		require.True(t, all[slices.IndexFunc(all, func(a palaro.AddOn) bool { return a.ID == kept.ID })].Hidden, "the console still lists it")
	})
	t.Run("ErrConflict an ordered add-on cannot be deleted", func(t *testing.T) {
		err := org.DeleteAddOn(ctx, ev.ID, kept.ID, "owner@x.ph")
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
		require.Equal(t, "Ordered pin was ordered, so it cannot be deleted; hide it instead.", palaro.ErrorMessage(err))
	})
	t.Run("ErrNotFound another event's add-on", func(t *testing.T) {
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(org.DeleteAddOn(ctx, ev.ID+1000, kept.ID, "owner@x.ph")))
	})
}
