package palaro

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCanonicalEmail(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for in, want := range map[string]string{
			"  Alice@Example.COM ":        "alice@example.com",
			"o'brien+tix@mail.example.ph": "o'brien+tix@mail.example.ph",
			"juan@XN--BCHER-KVA.de":       "juan@bücher.de",
			"juan@bu\u0308cher.de":        "juan@bücher.de", // NFC joins u and its diaeresis
			"maria@例え.テスト":                "maria@例え.テスト",
			"pedro@пример.рф":             "pedro@пример.рф", // one script per label
		} {
			got, ok := CanonicalEmail(in)
			require.True(t, ok, in)
			require.Equal(t, want, got, in)
			require.True(t, ValidEmail(in), in)
		}
	})
	t.Run("ErrRefused", func(t *testing.T) {
		for _, in := range []string{
			"alice@example.com\u200b", // zero-width space appended
			"\u200balice@example.com", // zero-width space in front
			"\u0430lice@example.com",  // Cyrillic а in the local part
			"alice@ex\u0430mple.com",  // Cyrillic а among Latin letters in the domain
			`a"<b>"@x.io`,             // quoted local part
			`"alice"@example.com`,     // quoted local part
			"alice@exa\u202emple.com", // right-to-left override
			"ali\rce@example.com",     // control character
			"alice@example.com\nBcc: x@y.z",
			"al ice@example.com",
			"alice..b@example.com",
			".alice@example.com",
			"alice@example",
			"alice@-example.com",
			"alice@example..com",
			"@example.com",
			"alice@",
			"",
		} {
			_, ok := CanonicalEmail(in)
			require.False(t, ok, "%q", in)
			require.False(t, ValidEmail(in), "%q", in)
			_, err := CheckEmail(in)
			require.Error(t, err, "%q", in)
		}
	})
}
