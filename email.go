package palaro

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// MaxEmailLength is the longest e-mail address accepted, in bytes (RFC 5321's path limit).
const MaxEmailLength = 254

// emailDomains checks and converts domain names with IDNA2008's registration rules, which refuse
// disallowed code points, wrong joiners and mixed-direction labels.
var emailDomains = idna.New(idna.ValidateForRegistration(), idna.BidiRule(), idna.StrictDomainName(true))

// CanonicalEmail returns the one form under which an address is stored and compared: trimmed,
// NFC-normalised and lower-cased, its domain in Unicode form. It reports false when the address
// is not acceptable: an empty or quoted local part, a local part that is not plain ASCII
// (letters, digits and !#$%&'*+/=?^_`{|}~-, dot-separated), invisible or control characters,
// or a domain that IDNA's registration rules refuse or whose labels mix scripts (a Cyrillic
// 'а' among Latin letters).
func CanonicalEmail(s string) (string, bool) {
	s = norm.NFC.String(strings.TrimSpace(s))
	if len(s) > MaxEmailLength || !utf8.ValidString(s) {
		return "", false
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return "", false
	}
	local, domain := strings.ToLower(s[:at]), strings.ToLower(s[at+1:])
	if len(local) > 64 || !dotAtom(local) {
		return "", false
	}
	uni, ok := canonicalDomain(domain)
	if !ok {
		return "", false
	}
	if local == s[:at] && uni == s[at+1:] {
		return s, true // already in its canonical form
	}
	return local + "@" + uni, true
}

// canonicalDomain returns a lower-cased domain's Unicode form, or false when IDNA's registration
// rules refuse it or a label mixes scripts. A plain ASCII name (plainDomain) is its own form.
func canonicalDomain(domain string) (string, bool) {
	if plainDomain(domain) {
		return domain, true
	}
	return idnaDomain(domain)
}

// idnaDomain is canonicalDomain for any domain, through IDNA.
func idnaDomain(domain string) (string, bool) {
	for _, r := range domain {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || unicode.Is(unicode.Co, r) {
			return "", false
		}
	}
	ascii, err := emailDomains.ToASCII(domain)
	if err != nil || !strings.Contains(ascii, ".") || len(ascii) > 253 {
		return "", false
	}
	uni, err := emailDomains.ToUnicode(ascii)
	if err != nil {
		return "", false
	}
	for label := range strings.SplitSeq(uni, ".") {
		if !singleScript(label) {
			return "", false
		}
	}
	return uni, true
}

// plainDomain reports whether domain is a name that IDNA leaves as it is and accepts: at most 253
// bytes, two labels or more of 1 to 63 lower-case ASCII letters, digits and hyphens, none at a
// label's ends and no two in a row (which leaves out punycode's xn-- labels). Anything else goes
// through IDNA (TestPlainDomain_IsWhatIDNAAccepts and FuzzPlainDomain compare).
func plainDomain(domain string) bool {
	if len(domain) > 253 {
		return false
	}
	labels, start := 0, 0
	for i := 0; i <= len(domain); i++ {
		if i < len(domain) && domain[i] != '.' {
			c := domain[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' && i > start && domain[i-1] != '-') {
				return false
			}
			continue
		}
		if n := i - start; n == 0 || n > 63 || domain[i-1] == '-' {
			return false
		}
		labels++
		start = i + 1
	}
	return labels >= 2
}

// dotAtom reports whether s is an RFC 5322 dot-atom of ASCII characters (no quotes, no spaces,
// no leading, trailing or doubled dots).
func dotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", c) >= 0) {
			return false
		}
	}
	return true
}

// scriptTables are the scripts a domain label's letters are sorted into.
var scriptTables = map[string]*unicode.RangeTable{}

func init() {
	for name, table := range unicode.Scripts {
		if name != "Common" && name != "Inherited" {
			scriptTables[name] = table
		}
	}
}

// singleScript reports whether a label's letters come from one script, or from one of the
// mixes that a language writes with (UTS #39 'highly restrictive': Latin with Han, Hiragana and
// Katakana; Latin with Han and Bopomofo; Latin with Han and Hangul).
func singleScript(label string) bool {
	seen := map[string]bool{}
	for _, r := range label {
		if r < 0x80 && r != 0 {
			if unicode.IsLetter(r) {
				seen["Latin"] = true
			}
			continue
		}
		for name, table := range scriptTables {
			if unicode.Is(table, r) {
				seen[name] = true
				break
			}
		}
	}
	if len(seen) <= 1 {
		return true
	}
	for _, allowed := range [][]string{{"Latin", "Han", "Hiragana", "Katakana"}, {"Latin", "Han", "Bopomofo"}, {"Latin", "Han", "Hangul"}} {
		ok := true
		for name := range seen {
			ok = ok && slices.Contains(allowed, name)
		}
		if ok {
			return true
		}
	}
	return false
}
