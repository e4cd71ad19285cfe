package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// termSafe returns s with every character that could steer the operator's terminal or reorder
// what it shows written out as an escape instead: C0 controls (newlines and tabs too), DEL and C1
// controls as \xNN, bidirectional controls as \uNNNN, and bytes that are not UTF-8 as \xNN.
// Every operator command prints what came from the database or from visitors through it.
func termSafe(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape reports whether termSafe would change s.
func needsEscape(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return true
			}
		}
		if isControl(r) || isBidiControl(r) {
			return true
		}
	}
	return false
}

// isControl reports whether r is a C0 control, DEL or a C1 control.
func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r <= 0x9f) }

// isBidiControl reports whether r is one of Unicode's bidirectional formatting characters.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
