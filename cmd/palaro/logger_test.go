package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNewLogger(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct{ format, command, want string }{
			{"", "serve", "json"}, {"", "orders", "text"}, {"text", "serve", "text"}, {"json", "backup", "json"},
		} {
			var out bytes.Buffer
			logger, err := newLogger(&out, tc.format, tc.command)
			require.NoError(t, err)
			logger.Info("hello", "n", 1)
			isJSON := json.Valid(out.Bytes())
			require.Equal(t, tc.want == "json", isJSON, "%+v: %s", tc, out.String())
			if !isJSON {
				require.Contains(t, out.String(), "msg=hello n=1")
			}
		}
	})
	t.Run("ErrUnknownFormat", func(t *testing.T) {
		_, err := newLogger(&bytes.Buffer{}, "xml", "serve")
		require.ErrorContains(t, err, "PALARO_LOG")
	})
}
