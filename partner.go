package palaro

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// PartnerSignatureMaxAge is how far a signed partner request's timestamp may be from now.
const PartnerSignatureMaxAge = 5 * time.Minute

// SignPartnerRequest returns the signature of a partner's ticket status request: hex
// HMAC-SHA256 with the partner's secret over "ticketCode.timestamp" (Unix seconds).
func SignPartnerRequest(secret, ticketCode string, timestamp int64) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ticketCode + "." + strconv.FormatInt(timestamp, 10)))
	return hex.EncodeToString(mac.Sum(nil))
}

// VerifyPartnerRequest checks a signed partner request at time now against the partners'
// secrets (key → secret). Returns EUNAUTHORIZED for an unknown key, a bad signature or a
// timestamp more than PartnerSignatureMaxAge away from now.
func VerifyPartnerRequest(secrets map[string]string, key, ticketCode, timestamp, signature string, now time.Time) error {
	secret, ok := secrets[key]
	if key == "" || !ok || secret == "" {
		return Errorf(EUNAUTHORIZED, "Invalid signature.")
	}
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return Errorf(EUNAUTHORIZED, "Invalid timestamp.")
	}
	if d := now.Sub(time.Unix(ts, 0)); d > PartnerSignatureMaxAge || d < -PartnerSignatureMaxAge {
		return Errorf(EUNAUTHORIZED, "Request expired.")
	}
	want := SignPartnerRequest(secret, ticketCode, ts)
	if !hmac.Equal([]byte(want), []byte(strings.ToLower(signature))) {
		return Errorf(EUNAUTHORIZED, "Invalid signature.")
	}
	return nil
}

// ParsePartnerKeys reads partner keys written as "key1:secret1,key2:secret2".
func ParsePartnerKeys(s string) map[string]string {
	keys := map[string]string{}
	for _, pair := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(pair), ":"); ok && k != "" && v != "" {
			keys[k] = v
		}
	}
	return keys
}
