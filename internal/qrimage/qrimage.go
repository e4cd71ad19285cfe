// Package qrimage draws QR codes as PNG images, for the pages that show them as pictures and the
// e-mails that carry them inline.
package qrimage

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"sync"

	"github.com/boombuler/barcode/qr"
)

// PNG renders value as a QR code PNG about size pixels square including a quiet zone of margin
// modules (a whole number of pixels per module, so never larger than size unless a module needs
// one pixel), error correction level L, black on white (SPEC.md's QR popup defaults).
//
// The modules are written straight into the image's pixels, a block of scale × scale each: drawn
// through barcode.Scale and image/draw (a color interface call per pixel) the same image cost
// about half the time of a confirmation e-mail's QR code, which the outbox worker composes on the
// same CPUs as a rush of buyers. TestPNG_SameImageAsScaledDraw holds it to that drawing.
func PNG(value string, size, margin int) ([]byte, error) {
	code, err := qr.Encode(value, qr.L, qr.Auto)
	if err != nil {
		return nil, err
	}
	b := code.Bounds()
	modules := b.Dx() + 2*margin
	scale := max(1, size/modules)
	full := modules * scale
	img := image.NewGray(image.Rect(0, 0, full, full))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y := range b.Dy() {
		for x := range b.Dx() {
			v := color.GrayModel.Convert(code.At(b.Min.X+x, b.Min.Y+y)).(color.Gray).Y
			if v == 0xff {
				continue
			}
			px, py := (margin+x)*scale, (margin+y)*scale
			for row := py; row < py+scale; row++ {
				line := img.Pix[row*img.Stride+px : row*img.Stride+px+scale]
				for i := range line {
					line[i] = v
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := encoder.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// encoder is png.Encode's encoder (the same compression, so the same bytes) with its buffers and
// deflate state kept for the next image: a new one allocated about 1 MB per image.
var encoder = png.Encoder{BufferPool: &encoderBuffers{}}

// encoderBuffers is a png.EncoderBufferPool on a sync.Pool.
type encoderBuffers struct{ pool sync.Pool }

// Get returns a kept buffer, or nil for the encoder to make one.
func (p *encoderBuffers) Get() *png.EncoderBuffer {
	b, _ := p.pool.Get().(*png.EncoderBuffer)
	return b
}

// Put keeps a buffer for the next image.
func (p *encoderBuffers) Put(b *png.EncoderBuffer) { p.pool.Put(b) }
