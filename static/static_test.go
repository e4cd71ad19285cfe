package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

func TestAssets_Gzipped(t *testing.T) {
	css := bytes.Repeat([]byte("body{color:#111}"), 200)
	a, err := Load(fstest.MapFS{
		"css/app.css":    {Data: css},
		"img/photo.webp": {Data: []byte("RIFF....WEBP")},
	})
	require.NoError(t, err)

	t.Run("OK", func(t *testing.T) {
		gz, ok := a.Gzipped("css/app.css")
		require.True(t, ok)
		require.Less(t, len(gz), len(css)/10)
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		require.NoError(t, err)
		plain, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.Equal(t, css, plain)
		again, _ := a.Gzipped("css/app.css")
		require.Same(t, &gz[0], &again[0], "compressed once, then served from memory")
	})
	t.Run("ErrNotCompressible", func(t *testing.T) {
		_, ok := a.Gzipped("img/photo.webp")
		require.False(t, ok)
	})
	t.Run("ErrMissing", func(t *testing.T) {
		_, ok := a.Gzipped("css/gone.css")
		require.False(t, ok)
	})
}
