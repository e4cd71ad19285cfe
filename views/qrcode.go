package views

import (
	"fmt"
	"image"
	"strings"

	"github.com/a-h/templ"
	"github.com/boombuler/barcode/qr"
)

// QRSVG renders content as a QR code in an inline SVG of size×size CSS pixels, with a quiet zone
// of margin modules, at error correction level L, black modules on a white background (SPEC.md
// "QR popup"). It fails with 'Data too long' when the content does not fit the largest version.
func QRSVG(content string, size, margin int, label string) (templ.Component, error) {
	code, err := qr.Encode(content, qr.L, qr.Auto)
	if err != nil {
		return nil, fmt.Errorf("Data too long: %w", err)
	}
	n := code.Bounds().Dx()
	total := n + 2*margin
	var path strings.Builder
	for y := 0; y < n; y++ {
		for x := 0; x < n; {
			if !dark(code, x, y) {
				x++
				continue
			}
			run := 1
			for x+run < n && dark(code, x+run, y) {
				run++
			}
			fmt.Fprintf(&path, "M%d %dh%dv1h-%dz", x+margin, y+margin, run, run)
			x += run
		}
	}
	svg := fmt.Sprintf(`<svg class="qr" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="%s" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#ffffff"/><path fill="#000000" d="%s"/></svg>`,
		templ.EscapeString(label), size, size, total, total, total, total, path.String())
	return templ.Raw(svg), nil
}

func dark(code image.Image, x, y int) bool {
	r, _, _, _ := code.At(x, y).RGBA()
	return r < 0x8000
}
