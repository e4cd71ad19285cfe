package views

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQRSVG_Render(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		c, err := QRSVG("PLR3.kid12345.ABC-123.signature", 300, 5, "Ticket QR code")
		require.NoError(t, err)
		var b strings.Builder
		require.NoError(t, c.Render(context.Background(), &b))
		svg := b.String()
		require.Contains(t, svg, `width="300" height="300"`)
		require.Contains(t, svg, `fill="#ffffff"`)
		require.Contains(t, svg, `viewBox="0 0 35 35"`, "a version 3 code (29 modules) plus a quiet zone of 5 on each side")
	})

	t.Run("ErrDataTooLong", func(t *testing.T) {
		_, err := QRSVG(strings.Repeat("x", 8000), 300, 5, "")
		require.ErrorContains(t, err, "Data too long")
	})
}
