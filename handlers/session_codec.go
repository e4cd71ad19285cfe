package handlers

import (
	"encoding/binary"
	"errors"
	"net/http"
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
	for _, c := range store.Codecs {
		c.(*securecookie.SecureCookie).SetSerializer(sessionSerializer{})
	}
	return store
}

// sessionSerializer writes a session's values (string keys; string, int, int64 and bool values:
// all a Palaro session holds) in a small binary form, sessionFormat followed by the count and the
// entries, without gob's type descriptions: gob's decoder compiles the types of every cookie anew,
// which was most of a request's cost in a purchase rush. Values of other types are written with
// gob, as before, and cookies written with gob (before this form) still decode: a gob stream never
// starts with sessionFormat.
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
