// Package qrph encodes and decodes QR Ph merchant-presented payloads: EMVCo QR code payment
// strings with the Philippine Payments Management Inc. (PPMI) person-to-merchant account template.
package qrph

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"palaro"
)

// Tags of the EMVCo merchant-presented payload that QR Ph uses.
const (
	TagFormat          = "00"
	TagInitiation      = "01"
	TagMerchantAccount = "28"
	TagMCC             = "52"
	TagCurrency        = "53"
	TagAmount          = "54"
	TagCountry         = "58"
	TagMerchantName    = "59"
	TagCity            = "60"
	TagAdditionalData  = "62"
	TagCRC             = "63"
)

// Sub-tags of the merchant account template (28) and the additional data template (62).
const (
	SubTagGUID       = "00"
	SubTagAcquirer   = "01"
	SubTagMerchantID = "03"
	SubTagReference  = "05"
)

// Fixed values of a dynamic QR Ph P2M payload.
const (
	GUID           = "ph.ppmi.p2m"
	FormatVersion  = "01"
	InitiationOnce = "12"
	CurrencyPHP    = "608"
	CountryPH      = "PH"
)

// Payment is what a dynamic QR Ph code asks the payer's wallet to pay.
type Payment struct {
	// AcquirerID is the acquiring institution's BIC; MerchantID is the merchant's id there.
	AcquirerID string
	MerchantID string
	// MCC is the ISO 18245 merchant category code, four digits.
	MCC          string
	MerchantName string
	City         string
	Amount       palaro.Money
	// Reference ties the payment to an order; the wallet sends it back with the payment.
	Reference string
}

// Encode builds the payload string of a dynamic QR Ph code, ending with its CRC (tag 63).
// Returns EINVALID when a field is missing or too long for its tag.
func Encode(p Payment) (string, error) {
	if p.Amount <= 0 {
		return "", palaro.Errorf(palaro.EINVALID, "A QR Ph amount must be positive.")
	}
	if len(p.MCC) != 4 || strings.Trim(p.MCC, "0123456789") != "" {
		return "", palaro.Errorf(palaro.EINVALID, "A merchant category code is four digits.")
	}
	for _, f := range []struct {
		name, value string
		max         int
	}{
		{"merchant name", p.MerchantName, 25},
		{"city", p.City, 15},
		{"acquirer id", p.AcquirerID, 11},
		{"merchant id", p.MerchantID, 25},
		{"reference", p.Reference, 25},
	} {
		if f.value == "" || utf8.RuneCountInString(f.value) > f.max {
			return "", palaro.Errorf(palaro.EINVALID, "The QR Ph %s must have 1 to %d characters.", f.name, f.max)
		}
	}
	var b strings.Builder
	for _, f := range []Field{
		{TagFormat, FormatVersion},
		{TagInitiation, InitiationOnce},
		{TagMerchantAccount, Payload{{SubTagGUID, GUID}, {SubTagAcquirer, p.AcquirerID}, {SubTagMerchantID, p.MerchantID}}.String()},
		{TagMCC, p.MCC},
		{TagCurrency, CurrencyPHP},
		{TagAmount, p.Amount.Decimal()},
		{TagCountry, CountryPH},
		{TagMerchantName, p.MerchantName},
		{TagCity, p.City},
		{TagAdditionalData, Payload{{SubTagReference, p.Reference}}.String()},
	} {
		b.WriteString(f.String())
	}
	b.WriteString(TagCRC + "04")
	return b.String() + fmt.Sprintf("%04X", CRC16([]byte(b.String()))), nil
}

// Field is one tag-length-value data object.
type Field struct {
	Tag   string
	Value string
}

// String formats the field as tag, two-digit length and value.
func (f Field) String() string {
	return f.Tag + fmt.Sprintf("%02d", utf8.RuneCountInString(f.Value)) + f.Value
}

// Payload is a sequence of data objects, a whole payload or the inside of a template.
type Payload []Field

// String formats the fields one after another.
func (p Payload) String() string {
	var b strings.Builder
	for _, f := range p {
		b.WriteString(f.String())
	}
	return b.String()
}

// Get returns the value of the first field with tag, or "" when there is none.
func (p Payload) Get(tag string) string {
	for _, f := range p {
		if f.Tag == tag {
			return f.Value
		}
	}
	return ""
}

// Template parses the value of a template field (such as 28 or 62) into its sub-fields.
// Returns EINVALID when the value is not a valid sequence of data objects.
func (p Payload) Template(tag string) (Payload, error) {
	return parse(p.Get(tag))
}

// Amount returns the payload's amount (tag 54) in centavos. Returns EINVALID when it is missing
// or not a decimal number with at most two decimals.
func (p Payload) Amount() (palaro.Money, error) {
	whole, frac, _ := strings.Cut(p.Get(TagAmount), ".")
	if len(frac) > 2 {
		return 0, palaro.Errorf(palaro.EINVALID, "A QR Ph amount has at most two decimals.")
	}
	pesos, err := strconv.ParseUint(whole, 10, 40)
	cents, err2 := strconv.ParseUint(frac+strings.Repeat("0", 2-len(frac)), 10, 8)
	if err != nil || err2 != nil {
		return 0, palaro.Errorf(palaro.EINVALID, "The QR Ph amount is not a number.")
	}
	return palaro.Money(pesos*100 + cents), nil
}

// Decode parses a payload string and checks that it ends with a correct CRC (tag 63).
// Returns EINVALID for a malformed payload or a CRC that does not match.
func Decode(s string) (Payload, error) {
	p, err := parse(s)
	if err != nil {
		return nil, err
	}
	if len(p) == 0 || p[len(p)-1].Tag != TagCRC || len(p[len(p)-1].Value) != 4 {
		return nil, palaro.Errorf(palaro.EINVALID, "A QR Ph payload must end with its CRC.")
	}
	body := s[:len(s)-4]
	if want := fmt.Sprintf("%04X", CRC16([]byte(body))); !strings.EqualFold(p[len(p)-1].Value, want) {
		return nil, palaro.Errorf(palaro.EINVALID, "The QR Ph payload's CRC does not match.")
	}
	return p, nil
}

// parse splits s into tag-length-value fields; lengths count characters.
func parse(s string) (Payload, error) {
	var p Payload
	r := []rune(s)
	for len(r) > 0 {
		if len(r) < 4 {
			return nil, palaro.Errorf(palaro.EINVALID, "The QR Ph payload is cut short.")
		}
		n, err := strconv.Atoi(string(r[2:4]))
		if err != nil || n < 0 || len(r) < 4+n || strings.Trim(string(r[:2]), "0123456789") != "" {
			return nil, palaro.Errorf(palaro.EINVALID, "The QR Ph payload has a malformed field.")
		}
		p = append(p, Field{Tag: string(r[:2]), Value: string(r[4 : 4+n])})
		r = r[4+n:]
	}
	return p, nil
}

// CRC16 is CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection), the
// checksum EMVCo payloads carry in tag 63.
func CRC16(data []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, b := range data {
		crc ^= uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
