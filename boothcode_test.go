package palaro

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestBoothCode(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	at := time.Date(2026, 3, 18, 2, 0, 10, 0, time.UTC) // 10 s into a period
	code := BoothCode(key, "ev", "scratch", at)
	t.Run("OK", func(t *testing.T) {
		require.True(t, CheckBoothCode(key, "ev", "scratch", code, at))
		require.True(t, CheckBoothCode(key, "ev", "scratch", code, at.Add(BoothCodePeriod+BoothCodeGrace-11*time.Second)), "within the grace")
	})
	t.Run("ErrStale", func(t *testing.T) {
		require.False(t, CheckBoothCode(key, "ev", "scratch", code, at.Add(BoothCodePeriod+BoothCodeGrace-10*time.Second)))
		require.False(t, CheckBoothCode(key, "ev", "scratch", code, at.Add(time.Hour)))
	})
	t.Run("ErrFuture", func(t *testing.T) {
		require.False(t, CheckBoothCode(key, "ev", "scratch", BoothCode(key, "ev", "scratch", at.Add(BoothCodePeriod)), at))
	})
	t.Run("ErrForged", func(t *testing.T) {
		require.False(t, CheckBoothCode(key, "ev", "booth", code, at), "another activity")
		require.False(t, CheckBoothCode(key, "ev2", "scratch", code, at), "another event")
		require.False(t, CheckBoothCode([]byte("another key, just as long as it is"), "ev", "scratch", code, at))
		for _, c := range []string{"", ".", "zz", code + "x", "1." + code[len(code)-16:]} {
			require.False(t, CheckBoothCode(key, "ev", "scratch", c, at), c)
		}
	})
}
