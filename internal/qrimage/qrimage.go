// Package qrimage draws QR codes as PNG images, for the pages that show them as pictures and the
// e-mails that carry them inline.
package qrimage

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
)

// PNG renders value as a QR code PNG about size pixels square including a quiet zone of margin
// modules (a whole number of pixels per module, so never larger than size unless a module needs
// one pixel), error correction level L, black on white (SPEC.md's QR popup defaults).
func PNG(value string, size, margin int) ([]byte, error) {
	code, err := qr.Encode(value, qr.L, qr.Auto)
	if err != nil {
		return nil, err
	}
	modules := code.Bounds().Dx() + 2*margin
	scale := max(1, size/modules)
	inner, err := barcode.Scale(code, code.Bounds().Dx()*scale, code.Bounds().Dy()*scale)
	if err != nil {
		return nil, err
	}
	full := modules * scale
	img := image.NewGray(image.Rect(0, 0, full, full))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	off := image.Pt(margin*scale, margin*scale)
	draw.Draw(img, inner.Bounds().Add(off), inner, inner.Bounds().Min, draw.Src)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
