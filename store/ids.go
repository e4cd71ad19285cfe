package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
)

// publicIDEncoding writes random ids in lower-case base32 without padding: URL-safe and unambiguous.
var publicIDEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newPublicID returns an unguessable id for URLs: 120 random bits as 24 characters.
func newPublicID() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return publicIDEncoding.EncodeToString(b)
}

// ticketCodeAlphabet leaves out 0, 1, I and O, which people misread.
const ticketCodeAlphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"

// newTicketCode returns a short code printed under a ticket's QR: 10 characters, 50 random bits.
func newTicketCode() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = ticketCodeAlphabet[int(b[i])%len(ticketCodeAlphabet)]
	}
	return string(b)
}

// newToken returns a random token for an e-mailed link (256 bits) and the hash that is stored.
func newToken() (token, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = publicIDEncoding.EncodeToString(b)
	return token, hashToken(token)
}

// hashToken is how a link token is stored, so a leaked database does not leak working links.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
