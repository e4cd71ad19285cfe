package store

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// A driver error from an exported method names the method and its key argument; a *palaro.Error
// passes unchanged, so handlers map its code and show its message as before.
func TestWrapErr_NamesTheOperation(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	events := NewEventService(db)

	_, err := events.FindEventByCode(ctx, "no-such-event")
	var pe *palaro.Error
	require.True(t, errors.As(err, &pe))
	require.Same(t, pe, err, "a *palaro.Error is returned as it is")
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(err))
	require.NotContains(t, palaro.ErrorMessage(err), "store:")

	require.NoError(t, db.read.Close()) // every read now fails in the driver's database/sql
	_, err = events.FindEventByCode(ctx, "mlbb-manila-2026")
	require.ErrorContains(t, err, `store: FindEventByCode("mlbb-manila-2026"): `)
	require.Equal(t, palaro.EINTERNAL, palaro.ErrorCode(err))
	_, err = NewPurchaseService(db, nil, 0).FindOrderByPublicID(ctx, "x")
	require.ErrorContains(t, err, "store: FindOrderByPublicID: ")
}

func TestWrapErr_KeepsTheChain(t *testing.T) {
	err := func() (err error) {
		defer wrapErr(&err, "store: Op(%d)", 7)
		return context.Canceled
	}()
	require.EqualError(t, err, "store: Op(7): context canceled")
	require.ErrorIs(t, err, context.Canceled)

	wrapped := func() (err error) {
		defer wrapErr(&err, "store: Op")
		return palaro.Errorf(palaro.ECONFLICT, "Sold out.")
	}()
	require.Equal(t, "Sold out.", palaro.ErrorMessage(wrapped))
	require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(wrapped))

	var nilErr error
	wrapErr(&nilErr, "store: Op")
	require.NoError(t, nilErr)
}
