package palaro

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Character rules of text fields: every field of every form and JSON call follows one of them,
// whether or not it is required, together with a length limit.
const (
	// TextLine is a single-line field: no control characters (so no CR or LF), no line or
	// paragraph separators and no bidirectional controls.
	TextLine = "line"
	// TextName is a person's name: letters, combining marks, spaces, apostrophes, hyphens and periods.
	TextName = "name"
	// TextBlock is free text such as a report's description: line breaks allowed, no other controls.
	TextBlock = "block"
)

// Messages of the character rules.
const (
	MsgTextInvalid = "This contains characters that are not allowed"
	MsgNameInvalid = "Use only letters, spaces, apostrophes, hyphens and periods"
)

// Patterns of the character rules, written so that Go's regexp and JavaScript's RegExp (with the
// u flag) read them alike. The forbidden characters are written literally: neither engine's
// escapes for them are understood by the other.
const (
	NamePattern = `^[\p{L}\p{M} '’.\-]+$`
	LinePattern = "^[^\\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]*$"
)

// ValidText reports whether s is valid UTF-8 whose characters all follow the rule kind.
func ValidText(kind, s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !textRuneOK(kind, r) {
			return false
		}
	}
	return true
}

func textRuneOK(kind string, r rune) bool {
	switch kind {
	case TextName:
		return unicode.IsLetter(r) || unicode.Is(unicode.M, r) || strings.ContainsRune(" '’.-", r)
	case TextBlock:
		if r == '\n' || r == '\r' {
			return true
		}
	}
	return !unicode.IsControl(r) && !lineBreaking(r) && !bidiControl(r)
}

// lineBreaking reports whether r is the Unicode line or paragraph separator.
func lineBreaking(r rune) bool { return r == '\u2028' || r == '\u2029' }

// bidiControl reports whether r reorders the text around it (embeddings, overrides, isolates).
func bidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// textMessage is the message of a field refused by the rule kind.
func textMessage(kind string) string {
	if kind == TextName {
		return MsgNameInvalid
	}
	return MsgTextInvalid
}

// MaxKeyLength is the longest id or code a call looks up (a ticket's uuid, a ticket type's code).
const MaxKeyLength = 64

// ValidKey reports whether s can be an id or code that a call looks up: at most MaxKeyLength
// bytes on one line. Anything else is answered as not found without a look-up.
func ValidKey(s string) bool { return len(s) <= MaxKeyLength && ValidText(TextLine, s) }

// checkTexts sets f[field] to the rule's message for each value that breaks the character rule
// kind, unless the field already has a message.
func checkTexts(f map[string]string, kind string, values map[string]string) {
	for field, v := range values {
		if _, ok := f[field]; !ok && !ValidText(kind, v) {
			f[field] = textMessage(kind)
		}
	}
}

// NonNilStrings returns s, or an empty list when s is nil, so that JSON writes [] and not null.
func NonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
