package palaro

import (
	"crypto/ed25519"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseTicketInput(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	keys := TicketKeys{HMAC: []byte("hmac-key"), Public: pub}
	t.Run("OK", func(t *testing.T) {
		for input, want := range map[string]string{
			SignedTicketQR(priv, "7K3Q9ABCDE"): "7K3Q9ABCDE",
			TicketQR(keys.HMAC, "7K3Q9ABCDE"):  "7K3Q9ABCDE",
			" 7k3q9 abcde ":                    "7K3Q9ABCDE",
		} {
			code, forged := ParseTicketInput(keys, input)
			require.False(t, forged, input)
			require.Equal(t, want, code, input)
		}
	})
	t.Run("ErrForged", func(t *testing.T) {
		_, other, _ := ed25519.GenerateKey(nil)
		good := SignedTicketQR(priv, "7K3Q9ABCDE")
		for _, input := range []string{
			SignedTicketQR(other, "7K3Q9ABCDE"),
			"PLR2.7K3Q9ABCDF" + good[len("PLR2.7K3Q9ABCDE"):],
			"PLR2.7K3Q9ABCDE.",
			"PLR2.",
			TicketQR([]byte("other"), "7K3Q9ABCDE"),
		} {
			_, forged := ParseTicketInput(keys, input)
			require.True(t, forged, input)
		}
		_, forged := ParseTicketInput(TicketKeys{HMAC: keys.HMAC}, good)
		require.True(t, forged, "no public key: nothing verifies")
	})
}
