package handlers

import (
	"encoding/base64"

	"palaro/internal/qrimage"
)

// qrDataURI renders value as a QR code PNG data URI: size pixels square including a margin of
// margin modules, error correction level L, black on white (SPEC.md's QR popup defaults).
func qrDataURI(value string, size, margin int) (string, error) {
	png, err := qrimage.PNG(value, size, margin)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
