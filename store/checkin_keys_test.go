package store

import (
	"context"
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestRotateTicketKey: the signing key survives restarts; a rotation makes a new one and keeps
// the retired key's public half, so the QR codes it signed still verify.
func TestRotateTicketKey(t *testing.T) {
	ctx := context.Background()
	db := openTestDB(t)
	first, previous, err := db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.Empty(t, previous)
	again, _, err := db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.Equal(t, first, again, "the key is kept")
	shown := palaro.SignedTicketQR(first, "7K3Q9ABCDE")

	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	pub, err := db.RotateTicketKey(ctx, now)
	require.NoError(t, err)
	current, previous, err := db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.Equal(t, pub, current.Public())
	require.NotEqual(t, first, current)
	require.Equal(t, []ed25519.PublicKey{first.Public().(ed25519.PublicKey)}, previous)

	keys := palaro.NewTicketKeys(append(previous, pub)...)
	for _, qr := range []string{shown, palaro.SignedTicketQR(current, "7K3Q9ABCDE")} {
		code, forged := palaro.ParseTicketInput(keys, qr)
		require.False(t, forged, qr)
		require.Equal(t, "7K3Q9ABCDE", code)
	}

	_, err = db.RotateTicketKey(ctx, now.Add(time.Hour))
	require.NoError(t, err)
	_, previous, err = db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.Equal(t, []ed25519.PublicKey{current.Public().(ed25519.PublicKey), first.Public().(ed25519.PublicKey)}, previous,
		"newest first")
}
