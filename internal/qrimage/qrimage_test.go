package qrimage

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"testing"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
	"github.com/stretchr/testify/require"
)

// scaledDraw is how PNG drew the code before it wrote the pixels itself: barcode.Scale, then
// image/draw onto a white square with the quiet zone.
func scaledDraw(t *testing.T, value string, size, margin int) []byte {
	t.Helper()
	code, err := qr.Encode(value, qr.L, qr.Auto)
	require.NoError(t, err)
	modules := code.Bounds().Dx() + 2*margin
	scale := max(1, size/modules)
	inner, err := barcode.Scale(code, code.Bounds().Dx()*scale, code.Bounds().Dy()*scale)
	require.NoError(t, err)
	full := modules * scale
	img := image.NewGray(image.Rect(0, 0, full, full))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	off := image.Pt(margin*scale, margin*scale)
	draw.Draw(img, inner.Bounds().Add(off), inner, inner.Bounds().Min, draw.Src)
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// TestPNG_SameImageAsScaledDraw proves PNG's pixels written block by block make the very bytes the
// scaled drawing made, for a ticket's code in an e-mail and a page's, a long value, several scales
// and quiet zones, and a size smaller than the modules (one pixel each).
func TestPNG_SameImageAsScaledDraw(t *testing.T) {
	for _, c := range []struct {
		value        string
		size, margin int
	}{
		{"palaro:tkt:AB12CD34EF", 240, 4},
		{"https://palaro.test/t/8KQ2-ZX9P-4MWA", 180, 2},
		{"https://palaro.test/checkin?code=" + string(bytes.Repeat([]byte("Z9"), 60)), 512, 4},
		{"x", 21, 0},
		{"tiny", 10, 1},
	} {
		got, err := PNG(c.value, c.size, c.margin)
		require.NoError(t, err)
		require.Equal(t, scaledDraw(t, c.value, c.size, c.margin), got, "%q at %d px, margin %d", c.value, c.size, c.margin)
	}
}

// BenchmarkPNG and BenchmarkScaledDraw compare PNG with the drawing it replaced, for a ticket's
// code at the e-mail's size: `go test ./internal/qrimage -run XXX -bench .`.
func BenchmarkPNG(b *testing.B) {
	for b.Loop() {
		if _, err := PNG("palaro:tkt:AB12CD34EF", 400, 4); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScaledDraw(b *testing.B) {
	t := &testing.T{}
	for b.Loop() {
		scaledDraw(t, "palaro:tkt:AB12CD34EF", 400, 4)
	}
}
