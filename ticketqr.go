package palaro

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// ticketQRPrefix starts every ticket QR payload and names its format version.
const ticketQRPrefix = "PLR1."

// TicketQR returns what a ticket's QR code holds: the ticket's code and an HMAC-SHA256 signature
// of it under key, as "PLR1.{code}.{signature}", so a gate scanner holding the key can tell a
// forged code from a real one without asking the server.
func TicketQR(key []byte, code string) string {
	return ticketQRPrefix + code + "." + ticketSignature(key, code)
}

// VerifyTicketQR returns the ticket code of a QR payload made by TicketQR with key, and false when
// the payload is malformed or its signature does not match.
func VerifyTicketQR(key []byte, payload string) (string, bool) {
	rest, ok := strings.CutPrefix(payload, ticketQRPrefix)
	if !ok {
		return "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return "", false
	}
	code, sig := rest[:i], rest[i+1:]
	if !hmac.Equal([]byte(sig), []byte(ticketSignature(key, code))) {
		return "", false
	}
	return code, true
}

// ticketSignature is the first 16 bytes of HMAC-SHA256(key, code), base64url without padding:
// short enough to keep the QR code small at level L, long enough not to be guessed.
func ticketSignature(key []byte, code string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(code))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:16])
}
