package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// maxJSONBody is the largest JSON request body the API reads.
const maxJSONBody = 64 << 10

// digitFields are the text fields that a form fills with digits (SPEC.md section 5): a mobile
// client may send them as JSON numbers, which are taken as their digits.
var digitFields = map[string]bool{palaro.FieldAge: true, palaro.FieldMobileNumber: true}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// digitsRE is a whole number written as text, such as "2" for a quantity.
var digitsRE = regexp.MustCompile(`^[0-9]{1,9}$`)

// decodeJSON reads a JSON object body into v for every /v1 endpoint. It accepts a number for a
// digit field (age, mobile number) and digits in quotes for a whole-number field (quantity);
// anything else that does not fit is answered with EINVALID naming the field, such as
// "quantity must be a whole number", or saying that the body is empty, not JSON or not an object.
func decodeJSON(c *echo.Context, v any) error { return decodeJSONBody(c, v, false) }

// decodeJSONStrict is decodeJSON that also refuses fields v does not have (the organizer API,
// where a misspelt field would silently change nothing).
func decodeJSONStrict(c *echo.Context, v any) error { return decodeJSONBody(c, v, true) }

func decodeJSONBody(c *echo.Context, v any, strict bool) error {
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxJSONBody+1))
	if err != nil {
		return err
	}
	if len(body) > maxJSONBody {
		return palaro.Errorf(palaro.EINVALID, "The request is too large.")
	}
	return unmarshalRequest(body, v, strict)
}

// unmarshalRequest decodes a request body into v (a pointer to a struct); see decodeJSON.
func unmarshalRequest(body []byte, v any, strict bool) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return palaro.Errorf(palaro.EINVALID, "The request body is empty: send a JSON object.")
	}
	// The common case in one pass: an object that decodes as it is needs no coercion (a coerced
	// member is one that fails to decode as sent), and json.Unmarshal refuses what follows it.
	if !strict && body[0] == '{' && json.Unmarshal(body, v) == nil {
		return nil
	}
	var syntax *json.SyntaxError
	if err := json.Unmarshal(body, new(json.RawMessage)); errors.As(err, &syntax) {
		return palaro.Errorf(palaro.EINVALID, "The request body is not valid JSON (error at character %d).", syntax.Offset)
	} else if err != nil {
		return palaro.Errorf(palaro.EINVALID, "The request body is not valid JSON.")
	}
	if body[0] != '{' {
		return palaro.Errorf(palaro.EINVALID, "The request body must be a JSON object.")
	}
	body = coerceDigits(body, reflect.TypeOf(v))
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	var te *json.UnmarshalTypeError
	var pe *time.ParseError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the request body"
		}
		msg := field + " must be " + describeType(fieldType(reflect.TypeOf(v), te.Field, te.Type), digitFields[lastPart(te.Field)])
		return &palaro.Error{Code: palaro.EINVALID, Message: msg, Fields: map[string]string{te.Field: msg}}
	case errors.As(err, &pe):
		return palaro.Errorf(palaro.EINVALID, "Times are RFC 3339 with an offset, such as 2026-12-31T18:00:00+08:00.")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return palaro.Errorf(palaro.EINVALID, "Unknown field %s.", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return palaro.Errorf(palaro.EINVALID, "The request body could not be read: %s.", strings.TrimPrefix(err.Error(), "json: "))
}

// coerceDigits rewrites the top-level members of a JSON object for v's struct: a number given
// for a digit field becomes its text, and digits in quotes given for an integer field become the
// number. Anything else is left for the decoder to judge.
func coerceDigits(body []byte, t reflect.Type) []byte {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return body
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) != nil {
		return body
	}
	changed := false
	for name, raw := range members {
		ft, ok := jsonField(t, name)
		if !ok || len(raw) == 0 || reflect.PointerTo(ft).Implements(unmarshalerType) {
			continue // a type that reads its own JSON is left alone
		}
		switch {
		case ft.Kind() == reflect.String && digitFields[name] && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')):
			members[name], _ = json.Marshal(string(raw))
			changed = true
		case isInteger(ft.Kind()) && raw[0] == '"':
			var s string
			if json.Unmarshal(raw, &s) == nil && digitsRE.MatchString(strings.TrimSpace(s)) {
				members[name] = json.RawMessage(strings.TrimSpace(s))
				changed = true
			}
		}
	}
	if !changed {
		return body
	}
	out, err := json.Marshal(members)
	if err != nil {
		return body
	}
	return out
}

// jsonField returns the type of the struct field that a JSON member name decodes into (matched
// as encoding/json matches it: the tag name, else the field name, ignoring case).
func jsonField(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			inner := f.Type
			if inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			if inner.Kind() == reflect.Struct {
				if ft, ok := jsonField(inner, name); ok {
					return ft, true
				}
			}
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		if strings.EqualFold(tag, name) {
			return f.Type, true
		}
	}
	return nil, false
}

// fieldType follows a decoder's field path ("addOnQuantities.quantity") through v's type, so a
// message can say "a list of …" when the wrong value sat in a list; it falls back to fallback.
func fieldType(t reflect.Type, path string, fallback reflect.Type) reflect.Type {
	if path == "" {
		return fallback
	}
	for _, part := range strings.Split(path, ".") {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return fallback
		}
		ft, ok := jsonField(t, part)
		if !ok {
			return fallback
		}
		t = ft
	}
	return t
}

func lastPart(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

func isInteger(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// describeType says in words what a JSON value of type t looks like, for "field must be …".
func describeType(t reflect.Type, digits bool) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Time]() {
		return "a time such as 2026-12-31T18:00:00+08:00"
	}
	switch k := t.Kind(); {
	case k == reflect.String && digits:
		return "text or a number"
	case k == reflect.String:
		return "text"
	case isInteger(k):
		return "a whole number"
	case k == reflect.Float32 || k == reflect.Float64:
		return "a number"
	case k == reflect.Bool:
		return "true or false"
	case k == reflect.Slice || k == reflect.Array:
		return "a list of " + plural(describeType(t.Elem(), false))
	case k == reflect.Struct || k == reflect.Map:
		return "an object"
	}
	return fmt.Sprintf("a %s", t)
}

// plural turns "a whole number" into "whole numbers" and "text" into "texts".
func plural(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "an "), "a ")
	switch s {
	case "true or false":
		return "true or false values"
	}
	return s + "s"
}
