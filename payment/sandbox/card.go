package sandbox

import (
	"strconv"
	"strings"
	"time"

	"palaro"
)

// Test card numbers that the sandbox accepts, as in PayMongo's test mode.
const (
	CardSucceeds = "4343434343434345"
	CardDeclined = "4111111111111111"
)

// Messages the card form shows.
const (
	MsgDeclined       = "Your card was declined."
	MsgNotTestCard    = "Use a test card: 4343 4343 4343 4345 succeeds, 4111 1111 1111 1111 is declined."
	MsgNumberRequired = "Enter the card number."
	MsgNumberFormat   = "Enter a card number of 12 to 19 digits."
	MsgNumberInvalid  = "This card number is not valid. Check it and try again."
	MsgExpiryFormat   = "Enter the expiry date as MM/YY."
	MsgExpired        = "This card has expired."
	MsgCVCFormat      = "Enter the 3 or 4 digit security code (CVC)."
	MsgNameRequired   = "Enter the name on the card."
)

// Card is what a buyer typed into the card form.
type Card struct {
	Number string
	Expiry string
	CVC    string
	Name   string
}

// Validate checks the card's fields at time now and returns a message per invalid field, keyed
// by the form field's name (number, expiry, cvc, name); an empty map means the card is well formed.
func (c Card) Validate(now time.Time) map[string]string {
	errs := map[string]string{}
	switch digits := c.digits(); {
	case strings.TrimSpace(c.Number) == "":
		errs["number"] = MsgNumberRequired
	case digits == "" || len(digits) < 12 || len(digits) > 19:
		errs["number"] = MsgNumberFormat
	case !luhn(digits):
		errs["number"] = MsgNumberInvalid
	}
	if month, year, ok := parseExpiry(c.Expiry); !ok {
		errs["expiry"] = MsgExpiryFormat
	} else if local := now.In(palaro.Manila); year < local.Year() || (year == local.Year() && month < int(local.Month())) {
		errs["expiry"] = MsgExpired
	}
	if cvc := strings.TrimSpace(c.CVC); len(cvc) < 3 || len(cvc) > 4 || !allDigits(cvc) {
		errs["cvc"] = MsgCVCFormat
	}
	if strings.TrimSpace(c.Name) == "" {
		errs["name"] = MsgNameRequired
	}
	return errs
}

// Decline returns why a well-formed card is refused, or "" when the payment goes through.
func (c Card) Decline() string {
	switch c.digits() {
	case CardSucceeds:
		return ""
	case CardDeclined:
		return MsgDeclined
	}
	return MsgNotTestCard
}

// digits is the card number without the spaces and dashes people type, or "" if anything else is in it.
func (c Card) digits() string {
	d := strings.NewReplacer(" ", "", "-", "").Replace(strings.TrimSpace(c.Number))
	if !allDigits(d) {
		return ""
	}
	return d
}

// parseExpiry reads 'MM/YY' (also 'MM / YY', 'MM/YYYY' and 'MMYY') into a month and a full year.
func parseExpiry(s string) (month, year int, ok bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	mm, yy, found := strings.Cut(s, "/")
	if !found && len(s) == 4 {
		mm, yy = s[:2], s[2:]
	}
	if len(mm) < 1 || len(mm) > 2 || (len(yy) != 2 && len(yy) != 4) || !allDigits(mm) || !allDigits(yy) {
		return 0, 0, false
	}
	month, _ = strconv.Atoi(mm)
	year, _ = strconv.Atoi(yy)
	if len(yy) == 2 {
		year += 2000
	}
	return month, year, month >= 1 && month <= 12
}

// luhn reports whether a string of digits passes the Luhn checksum.
func luhn(digits string) bool {
	sum := 0
	for i := range len(digits) {
		d := int(digits[len(digits)-1-i] - '0')
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
