package palaro

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTicketQR_Verify(t *testing.T) {
	key := []byte("gate-key")
	payload := TicketQR(key, "MLBB-7K3Q9")

	t.Run("OK", func(t *testing.T) {
		code, ok := VerifyTicketQR(key, payload)
		require.True(t, ok)
		require.Equal(t, "MLBB-7K3Q9", code)
	})

	t.Run("ErrForged", func(t *testing.T) {
		for _, p := range []string{
			TicketQR([]byte("other-key"), "MLBB-7K3Q9"),
			"PLR1.MLBB-7K3Q8" + payload[len("PLR1.MLBB-7K3Q9"):],
			"MLBB-7K3Q9",
			"PLR1.",
			"PLR1..sig",
		} {
			_, ok := VerifyTicketQR(key, p)
			require.False(t, ok, p)
		}
	})
}
