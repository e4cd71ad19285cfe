package handlers

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
)

// qrDataURI renders value as a QR code PNG data URI: size pixels square including a margin of
// margin modules, error correction level L, black on white (SPEC.md's QR popup defaults).
func qrDataURI(value string, size, margin int) (string, error) {
	code, err := qr.Encode(value, qr.L, qr.Auto)
	if err != nil {
		return "", err
	}
	modules := code.Bounds().Dx() + 2*margin
	scale := max(1, size/modules)
	inner, err := barcode.Scale(code, code.Bounds().Dx()*scale, code.Bounds().Dy()*scale)
	if err != nil {
		return "", err
	}
	full := (code.Bounds().Dx() + 2*margin) * scale
	img := image.NewGray(image.Rect(0, 0, full, full))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	off := image.Pt(margin*scale, margin*scale)
	draw.Draw(img, inner.Bounds().Add(off), inner, inner.Bounds().Min, draw.Src)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
