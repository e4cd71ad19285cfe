package notify

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxingqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/stretchr/testify/require"

	"palaro"
)

// mimePart is one leaf of a parsed e-mail, with the content types of the multiparts around it.
type mimePart struct {
	within      []string
	contentType string
	contentID   string
	body        []byte
}

// leaves parses a MIME entity into its leaves, decoding base64 and quoted-printable bodies.
func leaves(t *testing.T, header map[string][]string, body io.Reader, within []string) []mimePart {
	t.Helper()
	get := func(k string) string {
		if v := header[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	mediaType, params, err := mime.ParseMediaType(get("Content-Type"))
	require.NoError(t, err)
	if strings.HasPrefix(mediaType, "multipart/") {
		var out []mimePart
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err == io.EOF {
				return out
			}
			require.NoError(t, err)
			out = append(out, leaves(t, p.Header, p, append(append([]string{}, within...), mediaType))...)
		}
	}
	raw, err := io.ReadAll(body)
	require.NoError(t, err)
	switch strings.ToLower(get("Content-Transfer-Encoding")) {
	case "base64":
		raw, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(raw)), ""))
		require.NoError(t, err)
	case "quoted-printable":
		raw, err = io.ReadAll(quotedprintable.NewReader(bytes.NewReader(raw)))
		require.NoError(t, err)
	}
	return []mimePart{{within: within, contentType: mediaType, contentID: strings.Trim(get("Content-Id"), "<>"), body: raw}}
}

// decodeQR reads the QR code of a PNG.
func decodeQR(t *testing.T, pngBytes []byte) string {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(pngBytes))
	require.NoError(t, err)
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	require.NoError(t, err)
	res, err := zxingqr.NewQRCodeReader().Decode(bmp, nil)
	require.NoError(t, err)
	return res.GetText()
}

// TestOrderConfirmation_InlineQR: the confirmation sent by SMTP carries each ticket's QR code as
// a PNG beside the HTML in a multipart/related part, named by a Content-ID the HTML shows as
// cid:…; the PNG decodes to the ticket's signed QR payload, as the ticket page's QR holds.
func TestOrderConfirmation_InlineQR(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	c := NewComposer("https://palaro.test", "help@palaro.test")
	c.TicketQR = func(code string) string { return palaro.SignedTicketQR(key, code) }
	tickets := []palaro.Ticket{{PublicID: "tk1", Code: "PLR-AAAA-1111", Status: palaro.TicketValid}, {PublicID: "tk2", Code: "PLR-BBBB-2222", Status: palaro.TicketValid}}
	m := c.OrderConfirmation(&palaro.Order{PublicID: "ord", Email: "fan@x.ph", Quantity: 2, Kind: palaro.OrderKindTickets,
		Event: &palaro.Event{Name: "Laro Cup"}, TicketType: &palaro.TicketType{Name: "General Admission"}, Tickets: tickets})

	srv := startSMTP(t)
	host, port, _ := net.SplitHostPort(srv.ln.Addr().String())
	p, _ := strconv.Atoi(port)
	sender, err := NewSMTPSender(SMTPConfig{Host: host, Port: p, From: "Palaro <tickets@palaro.test>", TLS: "none", Timeout: 5 * time.Second})
	require.NoError(t, err)
	require.NoError(t, sender.Send(context.Background(), m))
	srv.mu.Lock()
	data := srv.data[0]
	srv.mu.Unlock()

	parsed, err := mail.ReadMessage(strings.NewReader(data))
	require.NoError(t, err)
	parts := leaves(t, parsed.Header, parsed.Body, nil)
	var html string
	images := map[string][]byte{}
	for _, part := range parts {
		switch part.contentType {
		case "text/html":
			html = string(part.body)
			require.Contains(t, part.within, "multipart/related", "the HTML sits in the related part with its images")
		case "image/png":
			require.Contains(t, part.within, "multipart/related")
			require.NotEmpty(t, part.contentID)
			images[part.contentID] = part.body
		}
	}
	require.Len(t, images, 2, "one QR code per ticket")
	for _, tk := range tickets {
		cid := "ticket-" + tk.PublicID + "@palaro"
		require.Contains(t, html, `src="cid:`+cid+`"`)
		require.Contains(t, images, cid)
		require.Equal(t, palaro.SignedTicketQR(key, tk.Code), decodeQR(t, images[cid]), "the image holds the ticket's QR")
	}
}
