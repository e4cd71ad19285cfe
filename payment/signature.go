// Package payment holds what every payment provider adapter shares: the PayMongo-style webhook
// signature and the PayMongo-shaped event and checkout session documents.
//
// The providers live in sub-packages: sandbox (the default, served by the app itself) and
// paymongo. internal/app picks one with PALARO_PAYMENT_PROVIDER (sandbox|paymongo); the sandbox
// signs its webhooks with PALARO_PAYMENT_SECRET, PayMongo is configured by PAYMONGO_SECRET_KEY,
// PAYMONGO_WEBHOOK_SECRET and PAYMONGO_LIVE.
package payment

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"palaro"
)

// SignatureHeader is the HTTP header that carries a webhook's signature.
const SignatureHeader = "Paymongo-Signature"

// SignatureTolerance is how old a signature's timestamp may be before it is refused as a replay.
const SignatureTolerance = 5 * time.Minute

// Signature is a parsed signature header: 't=<unix>,te=<hex>,li=<hex>'.
type Signature struct {
	Timestamp time.Time
	// Test is the hex HMAC computed with a test-mode webhook secret (te), possibly empty.
	Test string
	// Live is the hex HMAC computed with a live-mode webhook secret (li), possibly empty.
	Live string
}

// ParseSignatureHeader parses a signature header. Returns EUNAUTHORIZED when it is not of the form
// 't=<unix>,te=<hex>,li=<hex>' with a timestamp and at least one signature.
func ParseSignatureHeader(header string) (Signature, error) {
	var sig Signature
	seen := map[string]bool{}
	for part := range strings.SplitSeq(header, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || seen[key] {
			return Signature{}, badSignature()
		}
		seen[key] = true
		switch key {
		case "t":
			unix, err := strconv.ParseInt(value, 10, 64)
			if err != nil || unix <= 0 {
				return Signature{}, badSignature()
			}
			sig.Timestamp = time.Unix(unix, 0)
		case "te", "li":
			if value != "" && !isHexDigest(value) {
				return Signature{}, badSignature()
			}
			if key == "te" {
				sig.Test = value
			} else {
				sig.Live = value
			}
		default:
			return Signature{}, badSignature()
		}
	}
	if sig.Timestamp.IsZero() || (sig.Test == "" && sig.Live == "") {
		return Signature{}, badSignature()
	}
	return sig, nil
}

// String formats the signature as a header value.
func (s Signature) String() string {
	return "t=" + strconv.FormatInt(s.Timestamp.Unix(), 10) + ",te=" + s.Test + ",li=" + s.Live
}

// Sign returns the signature header for body signed with secret at time t, in the te (test) or
// li (live) slot.
func Sign(secret []byte, t time.Time, body []byte, live bool) string {
	sig := Signature{Timestamp: time.Unix(t.Unix(), 0)}
	mac := digest(secret, sig.Timestamp, body)
	if live {
		sig.Live = mac
	} else {
		sig.Test = mac
	}
	return sig.String()
}

// VerifySignature checks a signature header against body and secret at time now, using the li
// signature in live mode and te otherwise. Returns EUNAUTHORIZED for a malformed header, a wrong
// signature, or a timestamp older (or further in the future) than SignatureTolerance.
func VerifySignature(header string, body []byte, secret []byte, live bool, now time.Time) error {
	sig, err := ParseSignatureHeader(header)
	if err != nil {
		return err
	}
	if age := now.Sub(sig.Timestamp); age > SignatureTolerance || age < -SignatureTolerance {
		return palaro.Errorf(palaro.EUNAUTHORIZED, "The webhook signature has expired.")
	}
	got := sig.Test
	if live {
		got = sig.Live
	}
	want := digest(secret, sig.Timestamp, body)
	if len(secret) == 0 || !hmac.Equal([]byte(got), []byte(want)) {
		return palaro.Errorf(palaro.EUNAUTHORIZED, "The webhook signature does not match.")
	}
	return nil
}

// digest is the hex HMAC-SHA256 of '<unix t>.<body>'.
func digest(secret []byte, t time.Time, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(strconv.FormatInt(t.Unix(), 10)))
	mac.Write([]byte("."))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

func isHexDigest(s string) bool {
	if len(s) != hex.EncodedLen(sha256.Size) {
		return false
	}
	_, err := hex.DecodeString(strings.ToLower(s))
	return err == nil
}

func badSignature() error {
	return palaro.Errorf(palaro.EUNAUTHORIZED, "The webhook signature header is malformed.")
}
