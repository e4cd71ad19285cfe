package store

import (
	"context"
	"database/sql"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestOrganizerService_PromoCodeEditPauseDelete changes a promo code's terms, pauses it (refused at
// purchase with its own message, also when paused between the look-up and the order's write),
// resumes it, deletes an unused one and retires one that an order used.
func TestOrganizerService_PromoCodeEditPauseDelete(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	paid := f.addTicketType(t, "promo-manage", 10000, 50, 5)
	org := NewOrganizerService(f.db, nil)
	ev, err := org.FindEvent(ctx, "tekken-tuesdays-cubao")
	require.NoError(t, err)
	p, err := org.CreatePromoCode(ctx, ev.ID, "owner@x.ph", palaro.PromoCode{Code: "LEAKED", Kind: palaro.PromoPercent, Percent: 50})
	require.NoError(t, err)
	buy := func(email string) (*palaro.Order, error) {
		req := freeRequest(paid, 1, email)
		req.Source = "leaked"
		return f.purchases.CreateOrder(ctx, req, f.now)
	}
	find := func(id int64) palaro.PromoCode {
		codes, err := org.ListPromoCodes(ctx, ev.ID)
		require.NoError(t, err)
		i := slices.IndexFunc(codes, func(pc palaro.PromoCode) bool { return pc.ID == id })
		require.GreaterOrEqual(t, i, 0)
		return codes[i]
	}

	t.Run("OK edit the terms, the code stays", func(t *testing.T) {
		edited := *p
		edited.Code = "OTHER"
		edited.Kind, edited.Percent, edited.Amount, edited.UsageLimit = palaro.PromoFixed, 0, 2500, 3
		_, err := org.UpdatePromoCode(ctx, ev.ID, "owner@x.ph", edited)
		require.NoError(t, err)
		got := find(p.ID)
		require.Equal(t, "LEAKED", got.Code)
		require.Equal(t, palaro.PromoFixed, got.Kind)
		require.Equal(t, palaro.Money(2500), got.Amount)
		require.Equal(t, 3, got.UsageLimit)
		o, err := buy("first@x.ph")
		require.NoError(t, err)
		require.Equal(t, palaro.Money(2500), o.PromoDiscount)
		require.Equal(t, 1, f.countRows(t, `SELECT count(*) FROM audit_log WHERE action = 'promo code LEAKED changed'
			AND detail LIKE '%"from":"50% off"%'`), "the audit log keeps from and to")
	})
	t.Run("ErrInvalid a paused code is refused at purchase", func(t *testing.T) {
		require.NoError(t, org.SetPromoCodePaused(ctx, ev.ID, p.ID, true, "owner@x.ph"))
		require.True(t, find(p.ID).Paused)
		_, err := buy("second@x.ph")
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Equal(t, "Promo code LEAKED is paused by the organizer and cannot be used right now.", palaro.ErrorMessage(err))
		_, err = f.purchases.FindPromoCode(ctx, "LEAKED", ev.ID, f.now)
		require.Equal(t, palaro.ErrorMessage(err), "Promo code LEAKED is paused by the organizer and cannot be used right now.")
	})
	t.Run("ErrInvalid paused between the look-up and the write", func(t *testing.T) {
		err := f.db.inWrite(ctx, func(ctx context.Context, tx *sql.Tx) error {
			return usePromo(ctx, tx, p)
		})
		require.Equal(t, "Promo code LEAKED is paused by the organizer and cannot be used right now.", palaro.ErrorMessage(err))
	})
	t.Run("OK resumed, it works again", func(t *testing.T) {
		require.NoError(t, org.SetPromoCodePaused(ctx, ev.ID, p.ID, false, "owner@x.ph"))
		o, err := buy("third@x.ph")
		require.NoError(t, err)
		require.Equal(t, "LEAKED", o.PromoCode)
	})
	t.Run("OK an unused code is deleted", func(t *testing.T) {
		unused, err := org.CreatePromoCode(ctx, ev.ID, "owner@x.ph", palaro.PromoCode{Code: "NEVER", Kind: palaro.PromoPercent, Percent: 5,
			TicketTypeIDs: []int64{ev.TicketTypes[0].ID}})
		require.NoError(t, err)
		retired, err := org.DeletePromoCode(ctx, ev.ID, unused.ID, "owner@x.ph")
		require.NoError(t, err)
		require.False(t, retired)
		require.Zero(t, f.countRows(t, `SELECT count(*) FROM promo_codes WHERE code = 'NEVER'`))
	})
	t.Run("OK a used code is retired, its orders keep it", func(t *testing.T) {
		retired, err := org.DeletePromoCode(ctx, ev.ID, p.ID, "owner@x.ph")
		require.NoError(t, err)
		require.True(t, retired)
		require.True(t, find(p.ID).Retired)
		require.Equal(t, 2, f.countRows(t, `SELECT count(*) FROM orders o JOIN promo_codes p ON p.id = o.promo_code_id WHERE p.code = 'LEAKED'`))
		_, err = buy("fourth@x.ph")
		require.Equal(t, "Promo code LEAKED is no longer valid.", palaro.ErrorMessage(err))
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(org.SetPromoCodePaused(ctx, ev.ID, p.ID, true, "owner@x.ph")), "a retired code cannot change")
		_, err = org.UpdatePromoCode(ctx, ev.ID, "owner@x.ph", *p)
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
	t.Run("ErrNotFound another event's code", func(t *testing.T) {
		_, err := org.DeletePromoCode(ctx, ev.ID+1000, p.ID, "owner@x.ph")
		require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	})
}
