package palaro

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// agePattern is the age field's pattern: one to three digits.
const agePattern = `^[0-9]{1,3}$`

// patternMatchers are hand-written equivalents of the patterns every purchase and form is checked
// against: the same strings match as with the regular expression (TestPatternMatchers and
// FuzzPatternMatchers compare them), in a small part of regexp's time. The patterns stay the
// rules' text, which the islands compile as JavaScript.
var patternMatchers = map[string]func(string) bool{
	EmailPattern:     matchEmailPattern,
	MobilePattern:    matchMobilePattern,
	DigitsPattern:    func(s string) bool { return s != "" && allDigits(s) },
	BirthDatePattern: matchBirthDatePattern,
	agePattern:       func(s string) bool { return len(s) >= 1 && len(s) <= 3 && allDigits(s) },
	NamePattern:      func(s string) bool { return s != "" && everyRune(s, nameRune) },
	LinePattern:      func(s string) bool { return everyRune(s, lineRune) },
}

// matches reports whether s matches pattern, one of the package's patterns.
func matches(pattern, s string) bool {
	if m, ok := patternMatchers[pattern]; ok {
		return m(s)
	}
	return compiled(pattern).MatchString(s)
}

var patterns sync.Map // pattern string → *regexp.Regexp

// compiled returns the compiled form of one of the package's patterns, compiling it once.
func compiled(pattern string) *regexp.Regexp {
	if re, ok := patterns.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(pattern)
	patterns.Store(pattern, re)
	return re
}

// matchEmailPattern is EmailPattern: one or more of the local part's ASCII characters, '@', then
// characters other than whitespace and @"<>()[],;: and backslash, with a dot that has at least
// one character on each side.
func matchEmailPattern(s string) bool {
	at := 0
	for at < len(s) && strings.IndexByte(emailLocalChars, s[at]) >= 0 {
		at++
	}
	if at == 0 || at == len(s) || s[at] != '@' {
		return false
	}
	domain := s[at+1:]
	dot := false
	for i := 0; i < len(domain); i++ {
		c := domain[i]
		if strings.IndexByte(emailDomainRefused, c) >= 0 {
			return false
		}
		dot = dot || c == '.' && i > 0 && i < len(domain)-1
	}
	return dot
}

// emailLocalChars are the characters of EmailPattern's local part; emailDomainRefused are those its
// domain part refuses (\s is tab, newline, form feed, carriage return and space).
const (
	emailLocalChars    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-"
	emailDomainRefused = "\t\n\f\r @\"<>()[],;:\\"
)

// matchMobilePattern is MobilePattern: an optional plus, a digit, then digits and hyphens.
func matchMobilePattern(s string) bool {
	s = strings.TrimPrefix(s, "+")
	if s == "" || !isDigit(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isDigit(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// matchBirthDatePattern is BirthDatePattern: four digits, hyphen, two digits, hyphen, two digits.
func matchBirthDatePattern(s string) bool {
	return len(s) == 10 && allDigits(s[:4]) && s[4] == '-' && allDigits(s[5:7]) && s[7] == '-' && allDigits(s[8:])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// everyRune reports whether ok holds for every character of s, as regexp reads it (a byte that
// is not UTF-8 is U+FFFD).
func everyRune(s string, ok func(rune) bool) bool {
	for _, r := range s {
		if !ok(r) {
			return false
		}
	}
	return true
}

// nameRune is NamePattern's class: letters, combining marks, space, apostrophes, period, hyphen.
func nameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == ' ' || r == '\'' || r == '.' || r == '-'
	}
	return unicode.Is(unicode.L, r) || unicode.Is(unicode.M, r) || r == '’'
}

// lineRune is LinePattern's class: anything but control characters, line and paragraph
// separators and bidirectional controls.
func lineRune(r rune) bool {
	return !unicode.Is(unicode.Cc, r) && !lineBreaking(r) && !bidiControl(r)
}
