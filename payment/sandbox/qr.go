package sandbox

import (
	"bytes"
	"encoding/base64"
	"image/png"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"

	"palaro"
	"palaro/payment/qrph"
)

// The sandbox merchant that its QR Ph codes pay: a made-up acquirer and merchant id, and MCC
// 7922 (ticket agencies).
const (
	MerchantName = "PALARO"
	MerchantCity = "MANILA"
	MerchantMCC  = "7922"
	AcquirerID   = "PALAPHM1XXX"
	MerchantID   = "PALARO0001"
)

// qrSize is the QR image's width and height in pixels.
const qrSize = 300

// qrPayload is the QR Ph payload asking for the checkout's total, referencing its order.
func qrPayload(c palaro.Checkout) (string, error) {
	return qrph.Encode(qrph.Payment{
		AcquirerID:   AcquirerID,
		MerchantID:   MerchantID,
		MCC:          MerchantMCC,
		MerchantName: MerchantName,
		City:         MerchantCity,
		Amount:       c.Total,
		Reference:    c.OrderID,
	})
}

// qrDataURI renders payload as a level L QR code in a PNG data URI.
func qrDataURI(payload string) (string, error) {
	code, err := qr.Encode(payload, qr.L, qr.Auto)
	if err != nil {
		return "", err
	}
	if code, err = barcode.Scale(code, qrSize, qrSize); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, code); err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
