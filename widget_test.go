package palaro

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseWidgetOrigins: https origins (http only for localhost and 127.0.0.1), lower-cased, a
// trailing slash dropped, duplicates dropped; a path, query, user, other scheme, wildcard or
// anything a CSP could read as more than one source is refused with the field's message.
func TestParseWidgetOrigins(t *testing.T) {
	got, err := ParseWidgetOrigins("https://MySite.ph/, https://shop.example.com:8443\nhttps://mysite.ph http://127.0.0.1:8080 http://localhost")
	require.NoError(t, err)
	require.Equal(t, []string{"https://mysite.ph", "https://shop.example.com:8443", "http://127.0.0.1:8080", "http://localhost"}, got)
	got, err = ParseWidgetOrigins("  ")
	require.NoError(t, err)
	require.Empty(t, got)

	for _, bad := range []string{"mysite.ph", "http://mysite.ph", "https://mysite.ph/tickets", "https://mysite.ph?x=1",
		"https://user@mysite.ph", "ftp://mysite.ph", "https://*.mysite.ph", "https://mysite.ph;script-src", "https://my_site.ph",
		"https://mysite.ph#top", "javascript:alert(1)", "'self'", "https://"} {
		_, err := ParseWidgetOrigins(bad)
		var pe *Error
		require.ErrorAs(t, err, &pe, bad)
		require.Equal(t, EINVALID, pe.Code, bad)
		require.NotEmpty(t, pe.Fields[FieldWidgetOrigins], bad)
	}
	_, err = ParseWidgetOrigins(strings.Repeat("https://a.ph ", 1) + "https://b.ph https://c.ph https://d.ph https://e.ph https://f.ph https://g.ph https://h.ph https://i.ph https://j.ph https://k.ph")
	require.ErrorContains(t, err, "Please correct")
}
