package main

import (
	"context"
	"crypto/ed25519"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestKeysCommand_RotateTicketKey: "palaro keys rotate-ticket-key" makes a new signing key and
// keeps the old one's public key, so a QR code signed before still verifies.
func TestKeysCommand_RotateTicketKey(t *testing.T) {
	ctx := context.Background()
	cfg := commandConfig(t, filepath.Join(t.TempDir(), "palaro.db"), siteURL)
	db, err := openDB(ctx, cfg)
	require.NoError(t, err)
	before, _, err := db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	out, err := runCommand(t, cfg, "keys", "rotate-ticket-key")
	require.NoError(t, err)

	db, err = openDB(ctx, cfg)
	require.NoError(t, err)
	defer db.Close()
	after, previous, err := db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.NotEqual(t, before, after)
	require.Contains(t, out, "New ticket signing key "+palaro.TicketKeyID(after.Public().(ed25519.PublicKey)))
	keys := palaro.NewTicketKeys(append(previous, after.Public().(ed25519.PublicKey))...)
	_, forged := palaro.ParseTicketInput(keys, palaro.SignedTicketQR(before, "7K3Q9ABCDE"))
	require.False(t, forged, "a QR code shown before the rotation")

	_, err = runCommand(t, cfg, "keys", "rotate")
	require.Error(t, err)
}
