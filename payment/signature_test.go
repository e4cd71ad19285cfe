package payment_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/payment"
)

var (
	secret = []byte("whsk_test_secret")
	body   = []byte(`{"data":{"id":"evt_1"}}`)
	signAt = time.Unix(1_760_000_000, 0)
)

func TestSign_Format(t *testing.T) {
	h := payment.Sign(secret, signAt, body, false)
	assert.Regexp(t, `^t=1760000000,te=[0-9a-f]{64},li=$`, h)
	assert.Regexp(t, `^t=1760000000,te=,li=[0-9a-f]{64}$`, payment.Sign(secret, signAt, body, true))
}

func TestVerifySignature(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		require.NoError(t, payment.VerifySignature(payment.Sign(secret, signAt, body, false), body, secret, false, signAt.Add(time.Minute)))
		require.NoError(t, payment.VerifySignature(payment.Sign(secret, signAt, body, true), body, secret, true, signAt))
	})
	cases := map[string]struct {
		header string
		body   []byte
		secret []byte
		live   bool
		now    time.Time
	}{
		"ErrStale":        {payment.Sign(secret, signAt, body, false), body, secret, false, signAt.Add(payment.SignatureTolerance + time.Second)},
		"ErrFuture":       {payment.Sign(secret, signAt, body, false), body, secret, false, signAt.Add(-payment.SignatureTolerance - time.Second)},
		"ErrForged":       {payment.Sign([]byte("other"), signAt, body, false), body, secret, false, signAt},
		"ErrTamperedBody": {payment.Sign(secret, signAt, body, false), []byte(`{"data":{"id":"evt_2"}}`), secret, false, signAt},
		"ErrWrongMode":    {payment.Sign(secret, signAt, body, false), body, secret, true, signAt},
		"ErrNoSecret":     {payment.Sign(nil, signAt, body, false), body, nil, false, signAt},
		"ErrMalformed":    {"te=abc", body, secret, false, signAt},
		"ErrEmpty":        {"", body, secret, false, signAt},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			err := payment.VerifySignature(c.header, c.body, c.secret, c.live, c.now)
			assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
		})
	}
}

func TestParseSignatureHeader(t *testing.T) {
	hexSig := strings.Repeat("ab", 32)
	t.Run("OK", func(t *testing.T) {
		sig, err := payment.ParseSignatureHeader("t=1760000000, te=" + hexSig + ", li=")
		require.NoError(t, err)
		assert.Equal(t, signAt, sig.Timestamp)
		assert.Equal(t, hexSig, sig.Test)
		assert.Empty(t, sig.Live)
	})
	for name, h := range map[string]string{
		"ErrNoTimestamp":   "te=" + hexSig,
		"ErrNoSignature":   "t=1760000000,te=,li=",
		"ErrBadTimestamp":  "t=soon,te=" + hexSig,
		"ErrShortHex":      "t=1760000000,te=abcd",
		"ErrNotHex":        "t=1760000000,te=" + strings.Repeat("zz", 32),
		"ErrUnknownKey":    "t=1760000000,te=" + hexSig + ",v1=" + hexSig,
		"ErrDuplicateKey":  "t=1760000000,t=1760000001,te=" + hexSig,
		"ErrNoEqualsSign":  "t=1760000000,te",
		"ErrNegativeEpoch": "t=-5,te=" + hexSig,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := payment.ParseSignatureHeader(h)
			assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
		})
	}
}

func FuzzParseSignatureHeader(f *testing.F) {
	f.Add(payment.Sign(secret, signAt, body, false))
	f.Add(payment.Sign(secret, signAt, body, true))
	f.Add("t=1760000000,te=,li=")
	f.Add("t=,te=,li=")
	f.Add(",,,")
	f.Add("t=99999999999999999999,te=" + strings.Repeat("0", 64))
	f.Add("li=" + strings.Repeat("F", 64) + ",t=1")
	f.Fuzz(func(t *testing.T, header string) {
		sig, err := payment.ParseSignatureHeader(header)
		if err != nil {
			assert.Equal(t, palaro.EUNAUTHORIZED, palaro.ErrorCode(err))
			return
		}
		// Whatever parses must carry a timestamp and a signature, and must round-trip.
		assert.False(t, sig.Timestamp.IsZero())
		assert.True(t, sig.Test != "" || sig.Live != "")
		again, err := payment.ParseSignatureHeader(sig.String())
		require.NoError(t, err)
		assert.Equal(t, sig, again)
		// A header that parses never verifies a body with a secret it was not made with.
		assert.Error(t, payment.VerifySignature(header, body, []byte("never-used"), false, sig.Timestamp))
	})
}
