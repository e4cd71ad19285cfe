package handlers

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/stretchr/testify/require"

	"palaro"
)

const codecTestSecret = "test secret of enough length 0123456789"

// sessionCodecOf returns the codec of a session store with secret.
func sessionCodecOf(secret string) securecookie.Codec {
	return newSessionStore([]byte(secret), false).Codecs[0]
}

// gobCookie encodes values as the session store did before the binary form: securecookie's
// own gob serializer, with the same keys.
func gobCookie(t *testing.T, secret string, values map[any]any) string {
	t.Helper()
	value, err := securecookie.New(sessionKeys([]byte(secret))).Encode(sessionCookie, values)
	require.NoError(t, err)
	return value
}

// TestSessionCodec_RefusesChangedCookies proves the session cookie is still authenticated and
// encrypted: a cookie changed by one character, sent under another cookie name (the name is part
// of what its MAC signs), or made with another secret is refused, and its values cannot be read
// without the key. Control: the cookie itself is accepted, with its values.
func TestSessionCodec_RefusesChangedCookies(t *testing.T) {
	codec := sessionCodecOf(codecTestSecret)
	values := map[any]any{keySID: "sid-1", keyCSRF: "token-1"}
	value, err := codec.Encode(sessionCookie, values)
	require.NoError(t, err)
	got := map[any]any{}
	require.NoError(t, codec.Decode(sessionCookie, value, &got), "control")
	require.Equal(t, values, got)
	require.NotContains(t, value, "token-1")
	raw, err := base64.URLEncoding.DecodeString(value)
	require.NoError(t, err)
	require.NotContains(t, string(raw), "token-1", "encrypted")

	refused := 0
	for i := range value {
		changed := []byte(value)
		changed[i] ^= 1
		if codec.Decode(sessionCookie, string(changed), &map[any]any{}) != nil {
			refused++
		}
	}
	// Every change is refused but one in a base64 padding bit, which leaves the bytes as they are.
	require.GreaterOrEqual(t, refused, len(value)-1)
	require.Error(t, codec.Decode("other_cookie", value, &map[any]any{}), "another cookie's name")

	other := sessionCodecOf("another secret of enough length 98765")
	foreign, err := other.Encode(sessionCookie, map[any]any{keySID: "sid-2", keyCSRF: "token-2"})
	require.NoError(t, err)
	require.Error(t, codec.Decode(sessionCookie, foreign, &map[any]any{}), "a cookie of another key")
	require.Error(t, other.Decode(sessionCookie, value, &map[any]any{}), "and the other way round")
}

// TestSessionSerializer_RoundTrip proves every value type a session holds comes back with its
// type (int stays int, int64 stays int64), in the binary form; a map with another value type
// still round-trips, through gob.
func TestSessionSerializer_RoundTrip(t *testing.T) {
	values := map[any]any{keySID: "sid-1", keyCSRF: "token-ü", keyUID: int64(1) << 40, keyVer: 3, keyAt: int64(-5),
		"empty": "", "yes": true, "no": false, "negative": -7}
	b, err := sessionSerializer{}.Serialize(values)
	require.NoError(t, err)
	require.Equal(t, byte(sessionFormat), b[0], "the binary form")
	got := map[any]any{}
	require.NoError(t, sessionSerializer{}.Deserialize(b, &got))
	require.Equal(t, values, got)

	other := map[any]any{"list": []string{"a", "b"}, keySID: "sid-1"}
	b, err = sessionSerializer{}.Serialize(other)
	require.NoError(t, err)
	require.NotEqual(t, byte(sessionFormat), b[0], "gob for a type the binary form does not have")
	got = map[any]any{}
	require.NoError(t, sessionSerializer{}.Deserialize(b, &got))
	require.Equal(t, other, got)
}

// TestSessionSerializer_RefusesMalformedValues proves a binary form cut short or with bytes left
// over is refused, never half read (its bytes are authenticated, so this guards the code, not an
// attacker). Control: the whole encoding is read.
func TestSessionSerializer_RefusesMalformedValues(t *testing.T) {
	b, err := sessionSerializer{}.Serialize(map[any]any{keySID: "sid-1", keyVer: 3, keyUID: int64(9), "on": true})
	require.NoError(t, err)
	require.NoError(t, sessionSerializer{}.Deserialize(b, &map[any]any{}), "control")
	for n := 1; n < len(b); n++ {
		require.Error(t, sessionSerializer{}.Deserialize(b[:n], &map[any]any{}), "cut to %d bytes", n)
	}
	require.Error(t, sessionSerializer{}.Deserialize(append(b, 0), &map[any]any{}), "a byte left over")
	bad := append([]byte{sessionFormat, 1, 1, 'k', 'x'}, 0)
	require.Error(t, sessionSerializer{}.Deserialize(bad, &map[any]any{}), "an unknown tag")
	require.Error(t, sessionSerializer{}.Deserialize(b, new(string)), "into something that is not a session")
}

// TestSessionCodec_GobCookiesStillValid proves cookies written before the binary form (gob) are
// still read, with their values and types, by the codec and by the server: a visitor keeps their
// session, and its CSRF token, across the upgrade.
func TestSessionCodec_GobCookiesStillValid(t *testing.T) {
	values := map[any]any{keySID: "sid-1", keyCSRF: "token-1", keyUID: int64(42), keyVer: 2, keyAt: int64(1772589600)}
	old := gobCookie(t, codecTestSecret, values)
	codec := sessionCodecOf(codecTestSecret)
	got := map[any]any{}
	require.NoError(t, codec.Decode(sessionCookie, old, &got))
	require.Equal(t, values, got)

	ts := newTestServer(t)
	key := "0123456789abcdef0123456789abcdef" // newTestServer's session key
	req := httptest.NewRequest(http.MethodGet, "/v1/csrf", nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: gobCookie(t, key, map[any]any{keySID: "sid-9", keyCSRF: "token-of-old-cookie"})})
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	var answer struct{ Token string }
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &answer))
	require.Equal(t, "token-of-old-cookie", answer.Token)
	require.Empty(t, rec.Result().Cookies(), "the session goes on: no new cookie")

	req = httptest.NewRequest(http.MethodGet, "/v1/csrf", nil)
	req.AddCookie(&http.Cookie{Name: sessionCookie, Value: gobCookie(t, "another secret of enough length 98765", map[any]any{keySID: "sid-9", keyCSRF: "token-of-old-cookie"})})
	rec = httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &answer))
	require.NotEqual(t, "token-of-old-cookie", answer.Token, "a cookie of another key starts a new session")
	require.NotEmpty(t, rec.Result().Cookies())
}

// referenceCodec is securecookie's own codec with the session store's keys, serializer and age:
// what sessionCodec.Decode must answer like.
func referenceCodec(secret string) *securecookie.SecureCookie {
	return securecookie.New(sessionKeys([]byte(secret))).SetSerializer(sessionSerializer{}).
		MaxAge(int(palaro.SessionMaxLifetime / time.Second))
}

// restamp returns a cookie value with its date replaced by stamp and signed again with secret's
// key, as securecookie would have made it at that time.
func restamp(t *testing.T, secret, name, value string, stamp int64) string {
	t.Helper()
	return resign(t, secret, name, value, strconv.FormatInt(stamp, 10))
}

// resign returns a cookie value with its date replaced by date and signed again with secret's key.
func resign(t *testing.T, secret, name, value, date string) string {
	t.Helper()
	raw, err := base64.URLEncoding.DecodeString(value)
	require.NoError(t, err)
	parts := bytes.SplitN(raw, []byte("|"), 3)
	require.Len(t, parts, 3)
	body := date + "|" + string(parts[1])
	hashKey, _ := sessionKeys([]byte(secret))
	mac := hmac.New(sha256.New, hashKey)
	mac.Write([]byte(name + "|" + body))
	return base64.URLEncoding.EncodeToString(append([]byte(body+"|"), mac.Sum(nil)...))
}

// sameDecode requires codec and reference to answer value alike: both refuse it, or both accept
// it with the same values. It reports whether they accepted it.
func sameDecode(t *testing.T, codec securecookie.Codec, reference *securecookie.SecureCookie, name, value string) bool {
	t.Helper()
	got, want := map[any]any{}, map[any]any{}
	err, wantErr := codec.Decode(name, value, &got), reference.Decode(name, value, &want)
	require.Equal(t, wantErr == nil, err == nil, "%q: codec says %v, securecookie %v", value, err, wantErr)
	require.Equal(t, want, got, value)
	return err == nil
}

// TestSessionCodec_DecodesAsSecurecookie proves the session codec's own decoding accepts and
// refuses what securecookie's does, with the same values: valid cookies, every one-character
// change, cuts, another name, another key, an expired date, a date just inside the lifetime,
// a date that is no number, too long a value, values that are not base64. Control: the valid,
// recent and old-format cookies are accepted, the others refused.
func TestSessionCodec_DecodesAsSecurecookie(t *testing.T) {
	codec, reference := sessionCodecOf(codecTestSecret), referenceCodec(codecTestSecret)
	values := map[any]any{keySID: "sid-1", keyCSRF: "token-1", keyUID: int64(42), keyVer: 2}
	value, err := codec.Encode(sessionCookie, values)
	require.NoError(t, err)
	require.True(t, sameDecode(t, codec, reference, sessionCookie, value))
	require.True(t, sameDecode(t, codec, reference, sessionCookie, gobCookie(t, codecTestSecret, values)), "gob cookie")

	for i := range value {
		changed := []byte(value)
		changed[i] ^= 1
		sameDecode(t, codec, reference, sessionCookie, string(changed))
		sameDecode(t, codec, reference, sessionCookie, value[:i])
	}
	require.False(t, sameDecode(t, codec, reference, "other_cookie", value))
	foreign, err := sessionCodecOf("another secret of enough length 98765").Encode(sessionCookie, values)
	require.NoError(t, err)
	require.False(t, sameDecode(t, codec, reference, sessionCookie, foreign))

	now := time.Now().UTC().Unix() // securecookie dates its cookies by the wall clock
	maxAge := int64(palaro.SessionMaxLifetime / time.Second)
	require.False(t, sameDecode(t, codec, reference, sessionCookie, restamp(t, codecTestSecret, sessionCookie, value, now-maxAge-60)), "expired")
	require.True(t, sameDecode(t, codec, reference, sessionCookie, restamp(t, codecTestSecret, sessionCookie, value, now-maxAge+3600)), "inside the lifetime")
	badDate := resign(t, codecTestSecret, sessionCookie, value, "12x4")
	require.False(t, sameDecode(t, codec, reference, sessionCookie, badDate), "a date that is no number")
	require.False(t, sameDecode(t, codec, reference, sessionCookie, strings.Repeat("A", maxSessionCookie+4)), "too long")
	require.False(t, sameDecode(t, codec, reference, sessionCookie, "not base64!"))
	require.False(t, sameDecode(t, codec, reference, sessionCookie, ""))
}

// FuzzSessionCodec compares the session codec's decoding with securecookie's on any value.
func FuzzSessionCodec(f *testing.F) {
	codec, reference := sessionCodecOf(codecTestSecret), referenceCodec(codecTestSecret)
	for _, v := range []map[any]any{{keySID: "s", keyCSRF: "c"}, {keyUID: int64(7), keyVer: 1, keyAt: int64(1772589600)}, {}} {
		value, err := codec.Encode(sessionCookie, v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(value)
	}
	f.Add("MTc3MjU4OTYwMHxhYmN8ZGVm")
	f.Fuzz(func(t *testing.T, value string) { sameDecode(t, codec, reference, sessionCookie, value) })
}
