package handlers

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"

	"palaro"
)

// newSessionStore returns the cookie store of the sessions: values signed (HMAC-SHA256) and
// encrypted (AES-256-CTR) by gorilla/securecookie with keys derived from secret, and serialized
// by sessionSerializer.
func newSessionStore(secret []byte, secure bool) *sessions.CookieStore {
	store := sessions.NewCookieStore(sessionKeys(secret))
	store.Options = &sessions.Options{Path: "/", HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode}
	store.MaxAge(int(palaro.SessionMaxLifetime / time.Second))
	hashKey, blockKey := sessionKeys(secret)
	block, err := aes.NewCipher(blockKey)
	if err != nil {
		panic(err) // a SHA-256 sum is always a valid AES-256 key
	}
	for i, c := range store.Codecs {
		sc := c.(*securecookie.SecureCookie).SetSerializer(sessionSerializer{})
		store.Codecs[i] = &sessionCodec{SecureCookie: sc, hashKey: hashKey, block: block,
			maxAge: int64(palaro.SessionMaxLifetime / time.Second)}
	}
	return store
}

// sessionCodec is the session cookie's codec: securecookie writes the cookie (Encode), and
// Decode reads securecookie's format itself, with the same checks in the same order (length,
// base64, HMAC-SHA256 of name|date|value in constant time, age, AES-CTR decryption) but with
// buffers and HMAC states reused, not made anew for every request
// (TestSessionCodec_DecodesAsSecurecookie and FuzzSessionCodec compare the two).
type sessionCodec struct {
	*securecookie.SecureCookie
	hashKey []byte
	block   cipher.Block
	maxAge  int64 // seconds
}

// maxSessionCookie is the longest cookie value read, as securecookie's default.
const maxSessionCookie = 4096

// sessionBuffers are a decode's working space: the cookie's bytes, its decoded form, the
// decrypted values and the MAC state.
type sessionBuffers struct {
	raw, outer, inner [maxSessionCookie]byte
	name              [64]byte
	mac               hash.Hash
	key               []byte // the key mac was made with
}

var sessionBufferPool = sync.Pool{New: func() any { return new(sessionBuffers) }}

var (
	errSessionTooLong = errors.New("session cookie: too long")
	errSessionBase64  = errors.New("session cookie: base64 decode failed")
	errSessionExpired = errors.New("session cookie: expired timestamp")
	errSessionDate    = errors.New("session cookie: invalid timestamp")
	errSessionCipher  = errors.New("session cookie: the value could not be decrypted")
)

// Decode checks a session cookie's value and decodes its values into dst (a *map[any]any;
// anything else goes to securecookie).
func (c *sessionCodec) Decode(name, value string, dst any) error {
	p, ok := dst.(*map[any]any)
	if !ok {
		return c.SecureCookie.Decode(name, value, dst)
	}
	if len(value) > maxSessionCookie {
		return errSessionTooLong
	}
	buf := sessionBufferPool.Get().(*sessionBuffers)
	defer sessionBufferPool.Put(buf)
	n := copy(buf.raw[:], value)
	outer, err := base64.URLEncoding.Decode(buf.outer[:], buf.raw[:n])
	if err != nil {
		return errSessionBase64
	}
	b := buf.outer[:outer]
	// "date|value|mac": the MAC is everything after the second bar.
	bar1 := bytes.IndexByte(b, '|')
	if bar1 < 0 {
		return securecookie.ErrMacInvalid
	}
	bar2 := bytes.IndexByte(b[bar1+1:], '|')
	if bar2 < 0 {
		return securecookie.ErrMacInvalid
	}
	bar2 += bar1 + 1
	if buf.mac == nil || !bytes.Equal(buf.key, c.hashKey) {
		buf.mac, buf.key = hmac.New(sha256.New, c.hashKey), c.hashKey
	}
	buf.mac.Reset()
	buf.mac.Write(append(append(buf.name[:0], name...), '|'))
	buf.mac.Write(b[:bar2])
	var sum [sha256.Size]byte
	if mac := b[bar2+1:]; len(mac) != len(sum) || subtle.ConstantTimeCompare(mac, buf.mac.Sum(sum[:0])) != 1 {
		return securecookie.ErrMacInvalid
	}
	stamp, err := strconv.ParseInt(string(b[:bar1]), 10, 64)
	if err != nil {
		return errSessionDate
	}
	if c.maxAge != 0 && stamp < time.Now().UTC().Unix()-c.maxAge { // securecookie's clock, which stamped it
		return errSessionExpired
	}
	inner, err := base64.URLEncoding.Decode(buf.inner[:], b[bar1+1:bar2])
	if err != nil {
		return errSessionBase64
	}
	data := buf.inner[:inner]
	size := c.block.BlockSize()
	if len(data) <= size {
		return errSessionCipher
	}
	cipher.NewCTR(c.block, data[:size]).XORKeyStream(data[size:], data[size:])
	return sessionSerializer{}.Deserialize(data[size:], p)
}

// sessionSerializer writes a session's values (string keys; string, int, int64 and bool values:
// all a Palaro session holds) in a small binary form, sessionFormat followed by the count and the
// entries, without gob's type descriptions: gob's decoder compiles the types of every cookie anew,
// which was most of a request's cost in a purchase rush. Values of other types are written with
// gob, as before, and cookies written with gob (before this form) still decode: a gob stream never
// starts with sessionFormat.
//
// Compatibility, noted 2026-11-24: the gob-cookie read path is kept until 2026-12-23. The binary
// form was committed 2026-11-22 23:28 UTC (be95ee9) and a cookie lives at most
// palaro.SessionMaxLifetime (30 days), so after 2026-12-23, or 30 days after the form was deployed
// if later, no gob cookie can still be valid. Then Deserialize may refuse anything not in the
// binary form (keep the gob write for other value types, or drop it with them) and
// TestSessionCodec_GobCookiesStillValid goes.
type sessionSerializer struct{}

// sessionFormat is the first byte of the binary form. A gob stream starts with its first
// message's length as a gob unsigned integer, whose first byte is below 0x80 or at least 0xF8.
const sessionFormat = 0x80

// Tags of the values in the binary form.
const (
	tagString = 's'
	tagInt    = 'i'
	tagInt64  = 'l'
	tagFalse  = 'f'
	tagTrue   = 't'
)

var errSessionFormat = errors.New("session cookie: malformed values")

// Serialize encodes src: a map of the binary form's types in that form, anything else with gob.
func (sessionSerializer) Serialize(src any) ([]byte, error) {
	if m, ok := src.(map[any]any); ok {
		if b, ok := appendSessionValues(make([]byte, 0, 128), m); ok {
			return b, nil
		}
	}
	return securecookie.GobEncoder{}.Serialize(src)
}

// Deserialize decodes src into dst: the binary form into a *map[any]any, gob otherwise.
func (sessionSerializer) Deserialize(src []byte, dst any) error {
	if len(src) == 0 || src[0] != sessionFormat {
		return securecookie.GobEncoder{}.Deserialize(src, dst)
	}
	p, ok := dst.(*map[any]any)
	if !ok {
		return errSessionFormat
	}
	return readSessionValues(src[1:], p)
}

// appendSessionValues appends m in the binary form to b; ok is false when m holds a key or value
// of another type.
func appendSessionValues(b []byte, m map[any]any) ([]byte, bool) {
	b = append(b, sessionFormat)
	b = binary.AppendUvarint(b, uint64(len(m)))
	for k, v := range m {
		key, ok := k.(string)
		if !ok {
			return nil, false
		}
		b = appendSessionString(b, key)
		switch v := v.(type) {
		case string:
			b = appendSessionString(append(b, tagString), v)
		case int:
			b = binary.AppendVarint(append(b, tagInt), int64(v))
		case int64:
			b = binary.AppendVarint(append(b, tagInt64), v)
		case bool:
			if v {
				b = append(b, tagTrue)
			} else {
				b = append(b, tagFalse)
			}
		default:
			return nil, false
		}
	}
	return b, true
}

func appendSessionString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// readSessionValues decodes the binary form after its first byte into *p, making the map when
// it is nil. Anything malformed or left over is an error.
func readSessionValues(b []byte, p *map[any]any) error {
	n, b, ok := readUvarint(b)
	if !ok || n > uint64(len(b)) { // every entry takes at least a byte
		return errSessionFormat
	}
	if *p == nil {
		*p = make(map[any]any, n)
	}
	for range n {
		var key string
		if key, b, ok = readSessionString(b); !ok || len(b) == 0 {
			return errSessionFormat
		}
		tag := b[0]
		b = b[1:]
		var v any
		switch tag {
		case tagString:
			v, b, ok = readSessionString(b)
		case tagInt, tagInt64:
			x, k := binary.Varint(b)
			if k <= 0 || tag == tagInt && int64(int(x)) != x {
				return errSessionFormat
			}
			b = b[k:]
			if v = x; tag == tagInt {
				v = int(x)
			}
		case tagTrue, tagFalse:
			v = tag == tagTrue
		default:
			return errSessionFormat
		}
		if !ok {
			return errSessionFormat
		}
		(*p)[key] = v
	}
	if len(b) != 0 {
		return errSessionFormat
	}
	return nil
}

func readUvarint(b []byte) (uint64, []byte, bool) {
	x, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, b, false
	}
	return x, b[k:], true
}

func readSessionString(b []byte) (string, []byte, bool) {
	n, b, ok := readUvarint(b)
	if !ok || n > uint64(len(b)) {
		return "", b, false
	}
	return string(b[:n]), b[n:], true
}
