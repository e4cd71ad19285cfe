package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSecret_SurvivesRestarts(t *testing.T) {
	ctx := context.Background()
	cfg := Config{DBPath: filepath.Join(t.TempDir(), "palaro.db")}
	read := func(configured []byte) ([]byte, error) {
		db, err := OpenDB(ctx, cfg)
		require.NoError(t, err)
		defer db.Close()
		return secret(ctx, db, "PALARO_PAYMENT_SECRET", configured, "sandbox-webhook-secret", 32)
	}

	t.Run("OK", func(t *testing.T) {
		first, err := read(nil)
		require.NoError(t, err)
		require.Len(t, first, 32)
		again, err := read(nil)
		require.NoError(t, err)
		require.Equal(t, first, again, "a generated secret is the same after a restart")
	})

	t.Run("Configured", func(t *testing.T) {
		key := []byte(strings.Repeat("k", 40))
		got, err := read(key)
		require.NoError(t, err)
		require.Equal(t, key, got)
	})

	t.Run("ErrTooShort", func(t *testing.T) {
		_, err := read([]byte("short"))
		require.EqualError(t, err, "PALARO_PAYMENT_SECRET must be at least 32 characters")
	})
}
