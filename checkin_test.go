package palaro

import (
	"crypto/ed25519"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseTicketInput(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	oldPub, old, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	keys := NewTicketKeys(pub, oldPub)
	// plr2 signs as format 2 did: no key id.
	plr2 := func(key ed25519.PrivateKey, code string) string {
		msg := "PLR2." + code
		return msg + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, []byte(msg)))
	}
	t.Run("OK", func(t *testing.T) {
		for input, want := range map[string]string{
			SignedTicketQR(priv, "7K3Q9ABCDE"): "7K3Q9ABCDE",
			SignedTicketQR(old, "7K3Q9ABCDF"):  "7K3Q9ABCDF", // made before a rotation
			plr2(priv, "7K3Q9ABCDG"):           "7K3Q9ABCDG",
			plr2(old, "7K3Q9ABCDH"):            "7K3Q9ABCDH",
			" 7k3q9 abcde ":                    "7K3Q9ABCDE",
		} {
			code, forged := ParseTicketInput(keys, input)
			require.False(t, forged, input)
			require.Equal(t, want, code, input)
		}
	})
	t.Run("Format", func(t *testing.T) {
		qr := SignedTicketQR(priv, "7K3Q9ABCDE")
		require.Regexp(t, `^PLR3\.[A-Za-z0-9_-]{8}\.7K3Q9ABCDE\.[A-Za-z0-9_-]{86}$`, qr)
		require.Equal(t, "PLR3."+TicketKeyID(pub)+".7K3Q9ABCDE", qr[:strings.LastIndexByte(qr, '.')])
		require.NotEqual(t, TicketKeyID(pub), TicketKeyID(oldPub))
	})
	t.Run("ErrForged", func(t *testing.T) {
		_, other, _ := ed25519.GenerateKey(nil)
		good := SignedTicketQR(priv, "7K3Q9ABCDE")
		kid := TicketKeyID(pub)
		for _, input := range []string{
			SignedTicketQR(other, "7K3Q9ABCDE"),
			"PLR3." + kid + ".7K3Q9ABCDF" + good[len("PLR3."+kid+".7K3Q9ABCDE"):],
			"PLR3." + TicketKeyID(oldPub) + good[len("PLR3."+kid):], // another known key's id
			"PLR3." + kid + ".7K3Q9ABCDE.",
			"PLR3." + kid + "." + good[strings.LastIndexByte(good, '.')+1:],
			"PLR3.",
			plr2(other, "7K3Q9ABCDE"),
			"PLR2.7K3Q9ABCDE.",
			"PLR2.",
		} {
			_, forged := ParseTicketInput(keys, input)
			require.True(t, forged, input)
		}
		_, forged := ParseTicketInput(NewTicketKeys(oldPub), good)
		require.True(t, forged, "a key the server does not know: nothing verifies")
	})
}
