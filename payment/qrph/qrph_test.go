package qrph_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment/qrph"
)

var order = qrph.Payment{
	AcquirerID:   "PALAPHM1XXX",
	MerchantID:   "PALARO0001",
	MCC:          "7922",
	MerchantName: "PALARO",
	City:         "MANILA",
	Amount:       123450,
	Reference:    "ord_42",
}

func TestCRC16_KnownVector(t *testing.T) {
	assert.Equal(t, uint16(0x29B1), qrph.CRC16([]byte("123456789")))
	assert.Equal(t, uint16(0xFFFF), qrph.CRC16(nil))
}

func TestEncode(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		s, err := qrph.Encode(order)
		require.NoError(t, err)
		assert.Regexp(t, `^000201010212`, s)
		assert.Equal(t, fmt.Sprintf("%04X", qrph.CRC16([]byte(s[:len(s)-4]))), s[len(s)-4:])
		assert.Equal(t, "6304", s[len(s)-8:len(s)-4])

		p, err := qrph.Decode(s)
		require.NoError(t, err)
		var tags []string
		for _, f := range p {
			tags = append(tags, f.Tag)
		}
		assert.Equal(t, []string{"00", "01", "28", "52", "53", "54", "58", "59", "60", "62", "63"}, tags)
		assert.Equal(t, "01", p.Get(qrph.TagFormat))
		assert.Equal(t, "12", p.Get(qrph.TagInitiation))
		assert.Equal(t, "7922", p.Get(qrph.TagMCC))
		assert.Equal(t, "608", p.Get(qrph.TagCurrency))
		assert.Equal(t, "1234.50", p.Get(qrph.TagAmount))
		assert.Equal(t, "PH", p.Get(qrph.TagCountry))
		assert.Equal(t, "PALARO", p.Get(qrph.TagMerchantName))
		assert.Equal(t, "MANILA", p.Get(qrph.TagCity))
		amount, err := p.Amount()
		require.NoError(t, err)
		assert.Equal(t, palaro.Money(123450), amount)

		account, err := p.Template(qrph.TagMerchantAccount)
		require.NoError(t, err)
		assert.Equal(t, qrph.Payload{{"00", "ph.ppmi.p2m"}, {"01", "PALAPHM1XXX"}, {"03", "PALARO0001"}}, account)
		extra, err := p.Template(qrph.TagAdditionalData)
		require.NoError(t, err)
		assert.Equal(t, "ord_42", extra.Get(qrph.SubTagReference))
	})
	cases := map[string]func(p *qrph.Payment){
		"ErrZeroAmount":   func(p *qrph.Payment) { p.Amount = 0 },
		"ErrMCC":          func(p *qrph.Payment) { p.MCC = "79A2" },
		"ErrLongName":     func(p *qrph.Payment) { p.MerchantName = "PALARO EVENTS AND TICKETING INC" },
		"ErrLongCity":     func(p *qrph.Payment) { p.City = "SAN JOSE DEL MONTE" },
		"ErrNoReference":  func(p *qrph.Payment) { p.Reference = "" },
		"ErrLongAcquirer": func(p *qrph.Payment) { p.AcquirerID = "PALAPHM1XXXX" },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			p := order
			mutate(&p)
			_, err := qrph.Encode(p)
			assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		})
	}
}

func TestDecode(t *testing.T) {
	s, err := qrph.Encode(order)
	require.NoError(t, err)
	t.Run("OK", func(t *testing.T) {
		_, err := qrph.Decode(s)
		require.NoError(t, err)
	})
	for name, payload := range map[string]string{
		"ErrCRC":       s[:len(s)-4] + "0000",
		"ErrTampered":  s[:40] + "9" + s[41:],
		"ErrNoCRC":     "000201010212",
		"ErrCutShort":  s[:len(s)-2],
		"ErrBadLength": "00AB01",
		"ErrEmpty":     "",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := qrph.Decode(payload)
			assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		})
	}
}

func TestPayload_Amount(t *testing.T) {
	for value, want := range map[string]palaro.Money{"1": 100, "1.5": 150, "0.05": 5, "1500.00": 150000} {
		got, err := qrph.Payload{{qrph.TagAmount, value}}.Amount()
		require.NoError(t, err, value)
		assert.Equal(t, want, got, value)
	}
	for _, value := range []string{"", "1.234", "abc", "-1", "1.-5"} {
		_, err := qrph.Payload{{qrph.TagAmount, value}}.Amount()
		assert.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), value)
	}
}
