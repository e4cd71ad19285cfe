package e2e

import (
	"context"
	"crypto/ed25519"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
)

// TestKeysCommand_RotateTicketKey: "palaro keys rotate-ticket-key" makes a new signing key and
// keeps the old one's public key, so a QR code signed before still verifies.
func TestKeysCommand_RotateTicketKey(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "palaro.db")
	db, err := app.OpenDB(ctx, app.Config{DBPath: dbPath})
	require.NoError(t, err)
	before, _, err := db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	out, err := runCommand(t, dbPath, siteURL, "keys", "rotate-ticket-key")
	require.NoError(t, err)

	db, err = app.OpenDB(ctx, app.Config{DBPath: dbPath})
	require.NoError(t, err)
	defer db.Close()
	after, previous, err := db.TicketSigningKeys(ctx)
	require.NoError(t, err)
	require.NotEqual(t, before, after)
	require.Contains(t, out, "New ticket signing key "+palaro.TicketKeyID(after.Public().(ed25519.PublicKey)))
	keys := palaro.NewTicketKeys(append(previous, after.Public().(ed25519.PublicKey))...)
	_, forged := palaro.ParseTicketInput(keys, palaro.SignedTicketQR(before, "7K3Q9ABCDE"))
	require.False(t, forged, "a QR code shown before the rotation")

	_, err = runCommand(t, dbPath, siteURL, "keys", "rotate")
	require.Error(t, err)
}
