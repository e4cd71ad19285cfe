package palaro

import (
	"strings"
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

// domainSamples are domains at plainDomain's edges: label lengths 63 and 64, names of 253 and 254
// bytes, hyphens at the ends and doubled, punycode, empty labels, dots at the ends, digits only,
// upper case, underscores and non-ASCII letters.
func domainSamples() []string {
	label63 := strings.Repeat("a", 63)
	name253 := strings.Repeat("a.", 126) + "b" // 253 bytes
	return []string{
		"example.com", "a.b", "a", "com", "storm.palaro.test", "a-b.c", "a--b.c", "ab--c.d", "-a.b", "a-.b", "a.-b", "a.b-",
		"xn--bcher-kva.de", "xn--a.b", "a.xn--p1ai", "a..b", ".a.b", "a.b.", "a.b..", "1.2", "123.456.789", "0-0.0",
		label63 + ".com", label63 + "a.com", name253, name253 + "c", "a" + name253, "A.b", "a_b.c", "a b.c", "bü.de",
		"a.b\u200b", "a\u00adb.c", "a.b\x00", "a.b\xff", "a.b.c.d.e.f.g", "1a.b", "a1.b2", "--.a", "-.a", "a.-",
	}
}

// TestPlainDomain_IsWhatIDNAAccepts proves the plain-ASCII shortcut of CanonicalEmail answers as
// IDNA does: every domain plainDomain takes, IDNA accepts and leaves unchanged. Control: some
// samples are plain and some are not, and IDNA still decides the others (punycode is decoded).
func TestPlainDomain_IsWhatIDNAAccepts(t *testing.T) {
	plain, other := 0, 0
	for _, d := range domainSamples() {
		if !plainDomain(d) {
			other++
			continue
		}
		plain++
		got, ok := idnaDomain(d)
		require.True(t, ok, "IDNA refuses the plain domain %q", d)
		require.Equal(t, d, got, d)
	}
	require.Greater(t, plain, 5)
	require.Greater(t, other, 5)
	got, ok := CanonicalEmail("juan@xn--bcher-kva.de")
	require.True(t, ok)
	require.Equal(t, "juan@bücher.de", got, "punycode is not plain: IDNA decodes it")
}

// FuzzPlainDomain checks that IDNA accepts, unchanged, every domain plainDomain takes.
func FuzzPlainDomain(f *testing.F) {
	for _, d := range domainSamples() {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, d string) {
		if !plainDomain(d) {
			return
		}
		if got, ok := idnaDomain(d); !ok || got != d {
			t.Fatalf("plain domain %q: IDNA says %q, %v", d, got, ok)
		}
	})
}
