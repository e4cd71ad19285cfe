package sandbox_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"palaro"
	"palaro/payment/sandbox"
)

var cardNow = time.Date(2026, time.March, 15, 12, 0, 0, 0, palaro.Manila)

func TestCard_Validate(t *testing.T) {
	ok := sandbox.Card{Number: "4343 4343 4343 4345", Expiry: "03/26", CVC: "123", Name: "Ana Cruz"}
	t.Run("OK", func(t *testing.T) {
		assert.Empty(t, ok.Validate(cardNow))
		for _, expiry := range []string{"3/26", "03 / 26", "0326", "12/2030"} {
			c := ok
			c.Expiry = expiry
			assert.Empty(t, c.Validate(cardNow), expiry)
		}
		c := ok
		c.Number, c.CVC = "4343-4343-4343-4345", "1234"
		assert.Empty(t, c.Validate(cardNow))
	})
	cases := map[string]struct {
		mutate func(c *sandbox.Card)
		field  string
		msg    string
	}{
		"ErrNoNumber":    {func(c *sandbox.Card) { c.Number = " " }, "number", sandbox.MsgNumberRequired},
		"ErrLetters":     {func(c *sandbox.Card) { c.Number = "4343 4343 abcd 4345" }, "number", sandbox.MsgNumberFormat},
		"ErrTooShort":    {func(c *sandbox.Card) { c.Number = "4343 4343" }, "number", sandbox.MsgNumberFormat},
		"ErrLuhn":        {func(c *sandbox.Card) { c.Number = "4343 4343 4343 4344" }, "number", sandbox.MsgNumberInvalid},
		"ErrExpiryText":  {func(c *sandbox.Card) { c.Expiry = "March" }, "expiry", sandbox.MsgExpiryFormat},
		"ErrMonth13":     {func(c *sandbox.Card) { c.Expiry = "13/27" }, "expiry", sandbox.MsgExpiryFormat},
		"ErrPastMonth":   {func(c *sandbox.Card) { c.Expiry = "02/26" }, "expiry", sandbox.MsgExpired},
		"ErrPastYear":    {func(c *sandbox.Card) { c.Expiry = "12/25" }, "expiry", sandbox.MsgExpired},
		"ErrShortCVC":    {func(c *sandbox.Card) { c.CVC = "12" }, "cvc", sandbox.MsgCVCFormat},
		"ErrLongCVC":     {func(c *sandbox.Card) { c.CVC = "12345" }, "cvc", sandbox.MsgCVCFormat},
		"ErrLetterCVC":   {func(c *sandbox.Card) { c.CVC = "12a" }, "cvc", sandbox.MsgCVCFormat},
		"ErrMissingName": {func(c *sandbox.Card) { c.Name = "" }, "name", sandbox.MsgNameRequired},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := ok
			tc.mutate(&c)
			assert.Equal(t, map[string]string{tc.field: tc.msg}, c.Validate(cardNow))
		})
	}
}

func TestCard_Decline(t *testing.T) {
	assert.Empty(t, sandbox.Card{Number: "4343 4343 4343 4345"}.Decline())
	assert.Equal(t, sandbox.MsgDeclined, sandbox.Card{Number: "4111 1111 1111 1111"}.Decline())
	assert.Equal(t, sandbox.MsgNotTestCard, sandbox.Card{Number: "5555 5555 5555 4444"}.Decline())
}
