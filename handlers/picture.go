package handlers

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP with image.Decode
	"golang.org/x/sync/semaphore"

	"palaro"
)

// Picture limits: the largest image decoded (checked from the header with image.DecodeConfig,
// before decoding, so a small file claiming huge dimensions is refused), the memory all decodes
// in progress may take together, and the stored size.
const (
	maxPicturePixels = 16_000_000
	maxPictureSide   = 4096
	// pictureDecodeBudget bounds the bytes of the images being decoded at once, across every
	// account: a decode reserves its estimated size first and is refused when the budget is spent.
	pictureDecodeBudget = 192 << 20
	pictureSide         = 512
)

// pictureDecodes is the shared memory budget of picture decoding, in bytes.
var pictureDecodes = semaphore.NewWeighted(pictureDecodeBudget)

// decodeCost estimates the bytes a decoded image of cfg takes: 8 per pixel for 16-bit colour
// models, 4 for the others.
func decodeCost(cfg image.Config) int64 {
	perPixel := int64(4)
	switch cfg.ColorModel {
	case color.RGBA64Model, color.NRGBA64Model, color.Gray16Model:
		perPixel = 8
	}
	return int64(cfg.Width) * int64(cfg.Height) * perPixel
}

// pictureError is a refused upload, with the message shown next to the field.
type pictureError struct {
	status int
	msg    string
}

func (e *pictureError) Error() string { return e.msg }

var (
	errPictureTooLarge = &pictureError{http.StatusRequestEntityTooLarge, "The picture is too large. Choose one of at most 5 MB."}
	errPictureSVG      = &pictureError{http.StatusUnsupportedMediaType, "SVG images are not accepted. Choose a JPEG, PNG or WebP picture."}
	errPictureFormat   = &pictureError{http.StatusUnsupportedMediaType, "This file is not a picture we can read. Choose a JPEG, PNG or WebP picture."}
	errPictureHuge     = &pictureError{http.StatusUnprocessableEntity, "This picture has too many pixels. Choose one of at most 4096 × 4096 pixels."}
	errPictureBusy     = &pictureError{http.StatusServiceUnavailable, "We are busy processing pictures. Please try again in a minute."}
	errPictureTwice    = &pictureError{http.StatusTooManyRequests, "Your previous picture is still being processed. Please wait for it to finish."}
)

// processPicture reads an uploaded picture, decodes it (JPEG, PNG or WebP), scales it to fit a
// 512-pixel square and re-encodes it (PNG when it came as PNG, otherwise JPEG). Nothing of the
// uploaded bytes is kept but the pixels, so no script or markup hidden in the file survives.
func processPicture(r io.Reader) (palaro.Picture, error) {
	img, format, release, err := decodePicture(r)
	if err != nil {
		return palaro.Picture{}, err
	}
	defer release()
	img = fitSquare(img, pictureSide)
	var out bytes.Buffer
	if format == "png" {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img)
		return palaro.Picture{ContentType: "image/png", Data: out.Bytes()}, err
	}
	err = jpeg.Encode(&out, img, &jpeg.Options{Quality: 85})
	return palaro.Picture{ContentType: "image/jpeg", Data: out.Bytes()}, err
}

// decodePicture reads and decodes an uploaded picture (JPEG, PNG or WebP) within the size,
// pixel and shared-memory limits; release gives its memory back to the budget once the caller
// is done with the image.
func decodePicture(r io.Reader) (img image.Image, format string, release func(), err error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPictureBytes+1))
	if err != nil {
		return nil, "", nil, errPictureTooLarge
	}
	if len(data) > maxPictureBytes {
		return nil, "", nil, errPictureTooLarge
	}
	if looksLikeSVG(data) {
		return nil, "", nil, errPictureSVG
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "jpeg" && format != "png" && format != "webp") {
		return nil, "", nil, errPictureFormat
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPictureSide || cfg.Height > maxPictureSide ||
		cfg.Width*cfg.Height > maxPicturePixels {
		return nil, "", nil, errPictureHuge
	}
	cost := decodeCost(cfg)
	if !pictureDecodes.TryAcquire(cost) {
		return nil, "", nil, errPictureBusy
	}
	release = func() { pictureDecodes.Release(cost) }
	img, _, err = image.Decode(bytes.NewReader(data))
	if err != nil {
		release()
		return nil, "", nil, errPictureFormat
	}
	return img, format, release, nil
}

// fitSquare scales img down to fit a side×side square, keeping its proportions.
func fitSquare(img image.Image, side int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > side || h > side {
		if w >= h {
			w, h = side, max(1, h*side/w)
		} else {
			w, h = max(1, w*side/h), side
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// looksLikeSVG reports whether data is SVG (or other XML) markup.
func looksLikeSVG(data []byte) bool {
	head := bytes.ToLower(bytes.TrimSpace(data[:min(len(data), 1024)]))
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	return bytes.HasPrefix(head, []byte("<?xml")) || bytes.HasPrefix(head, []byte("<svg")) ||
		bytes.HasPrefix(head, []byte("<!doctype svg")) || bytes.Contains(head, []byte("<svg"))
}
