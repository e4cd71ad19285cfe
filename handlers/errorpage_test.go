package handlers

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestErrorPageText(t *testing.T) {
	cases := []struct {
		status           int
		message, heading string
	}{
		{http.StatusNotFound, "Page Not Found", "Page Not Found"},
		{http.StatusNotFound, "Page not found", "Page not found"},
		{http.StatusInternalServerError, "Internal Server Error", "Internal Server Error"},
		{http.StatusMethodNotAllowed, "Method Not Allowed", "Method Not Allowed"},
		{http.StatusForbidden, "Only the organizer's members can see this.", "Forbidden"},
	}
	for _, tc := range cases {
		heading, body := errorPageText(tc.status, tc.message)
		require.Equal(t, tc.heading, heading, tc.status)
		require.NotEmpty(t, body)
		require.NotEqual(t, heading, body, "%d: the text does not repeat the heading", tc.status)
		require.True(t, strings.HasSuffix(body, "."), "%d: a sentence: %q", tc.status, body)
	}
	_, body := errorPageText(http.StatusForbidden, "Only the organizer's members can see this.")
	require.Equal(t, "Only the organizer's members can see this.", body, "a domain error's message is the sentence")
}
