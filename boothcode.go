package palaro

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// Booth codes: the rotating part of a booth's QR code on the booth's screen. A prize activity's
// scan URL alone is public (printed, shared, guessable), so a scan that can win a prize must carry
// a code the booth's screen showed within the last BoothCodePeriod plus BoothCodeGrace: someone
// away from the booth has at most that long to use a code passed on to them.
const (
	// BoothCodePeriod is how often the code on a booth's screen changes.
	BoothCodePeriod = 60 * time.Second
	// BoothCodeGrace is how long a code stays valid after the screen moved on to the next one.
	BoothCodeGrace = 30 * time.Second
)

// boothSlot is the number of the code period that holds t.
func boothSlot(t time.Time) int64 { return t.Unix() / int64(BoothCodePeriod/time.Second) }

// boothMAC signs an activity's code of one period.
func boothMAC(key []byte, eventCode, activityCode string, slot int64) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("palaro booth code\x00" + eventCode + "\x00" + activityCode + "\x00" + strconv.FormatInt(slot, 10)))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:12])
}

// BoothCode returns the code a booth's screen shows at now for the activity: the period's number
// and a MAC under key, such as "1d3f2k.Xy…" (23 characters, URL-safe).
func BoothCode(key []byte, eventCode, activityCode string, now time.Time) string {
	slot := boothSlot(now)
	return strconv.FormatInt(slot, 36) + "." + boothMAC(key, eventCode, activityCode, slot)
}

// CheckBoothCode reports whether code is a code of the activity's booth screen that is still
// valid at now: issued in the current period, or in the last one less than BoothCodeGrace ago.
func CheckBoothCode(key []byte, eventCode, activityCode, code string, now time.Time) bool {
	s, mac, ok := strings.Cut(code, ".")
	if !ok || len(code) > 40 {
		return false
	}
	slot, err := strconv.ParseInt(s, 36, 64)
	if err != nil {
		return false
	}
	cur := boothSlot(now)
	end := time.Unix((slot+1)*int64(BoothCodePeriod/time.Second), 0).Add(BoothCodeGrace)
	if slot > cur || !now.Before(end) {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(boothMAC(key, eventCode, activityCode, slot)))
}

// BoothScanURL is the path a booth's screen shows as its QR code at now: the activity's scan URL
// with the current booth code.
func BoothScanURL(key []byte, a *Activity, now time.Time) string {
	return a.ScanURL() + "&boothCode=" + BoothCode(key, a.EventCode, a.Code, now)
}
