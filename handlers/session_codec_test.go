package handlers

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSessionCodec_RemembersDecodedCookies proves a cookie decoded again comes from memory as a
// copy of its values (a request that changes its session does not change the next one's), and a
// tampered cookie is still refused. Control: the remembered values are those the cookie carries.
func TestSessionCodec_RemembersDecodedCookies(t *testing.T) {
	store := newSessionStore([]byte("test secret of enough length 0123456789"), false)
	codec := store.Codecs[0].(*sessionCodec)
	value, err := codec.Encode(sessionCookie, map[any]any{keySID: "sid-1", keyCSRF: "token-1"})
	require.NoError(t, err)

	require.Len(t, codec.decoded, 1, "remembered as it was encoded")
	clear(codec.decoded)
	first := map[any]any{}
	require.NoError(t, codec.Decode(sessionCookie, value, &first))
	require.Equal(t, map[any]any{keySID: "sid-1", keyCSRF: "token-1"}, first)
	require.Len(t, codec.decoded, 1, "remembered as it was decoded")
	first[keyUID] = int64(7) // this request signs in

	second := map[any]any{}
	require.NoError(t, codec.Decode(sessionCookie, value, &second))
	require.Equal(t, map[any]any{keySID: "sid-1", keyCSRF: "token-1"}, second, "a copy, unchanged by the first request")

	tampered := value[:len(value)-2] + "xx"
	require.Error(t, codec.Decode(sessionCookie, tampered, &map[any]any{}))
	require.Len(t, codec.decoded, 1, "a refused cookie is not remembered")
}
