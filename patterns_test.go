package palaro

import (
	"regexp"
	"testing"
)

// patternSamples are strings at the edges of the patterns: empty, one character, separators at
// the ends, whitespace of every kind, non-ASCII letters and marks, controls, bidirectional
// controls, line separators, bytes that are not UTF-8.
var patternSamples = []string{
	"", " ", "a", "A", "1", "12", "123", "1234", "0", "-", "+", "+1", "+-1", "1-", "1--2", "+639171234567", "09171234567",
	"0917-123-4567", "0917 123 4567", "++63", "1+2", "１２３", "٣",
	"1998-05-17", "1998-5-17", "19980517", "1998-05-170", "1998-05-1a", "x998-05-17", "1998/05/17", "1998-05-17\n",
	"a@b.c", "a@b.", "a@.c", "@b.c", "a@b", "a@b.c.", "a@.b.c", "a@b..c", "a@@b.c", "a b@c.d", "a@b c.d", "a@b\tc.d",
	"a@b.c\n", "\na@b.c", "a@b.c ", " a@b.c", "a@b\u00a0.c", "a@b.c\u00a0", "a@b.\u00a0", "ü@b.c", "a@bü.c", "a@b.cü",
	"a@b\".c", "a@b<.c", "a@b>.c", "a@b(.c", "a@b).c", "a@b[.c", "a@b].c", "a@b,.c", "a@b;.c", "a@b:.c", "a@b\\.c",
	"a@b\f.c", "a@b\r.c", "a@b\v.c", "a.b+c@d-e.f", "!#$%&'*+/=?^_`{|}~-@x.y", "a\"b@c.d", "a(b@c.d", "Juan@Example.COM",
	"buyer1234@storm.palaro.test", "a@b.\xff", "a@\xff.c", "\xff@b.c", "a@b.c\x00", "a@b.c\x7f", "a@b.c\u0085",
	"Juan", "Dela Cruz", "O'Brien", "O’Brien", "Jr.", "Anne-Marie", "José", "Zoë", "e\u0301", "\u0301", "李小龙", "Ñoño",
	"Juan1", "Juan_", "Juan\t", "Juan\u00a0", "Juan\u200b", "Juan\u2028", "Juan\u202e", "Juan\u2066", "\xff", "a\xffb",
	"Palaro", "Player", "line\nbreak", "tab\there", "cr\rhere", "\x00", "\x1f", "\x7f", "\u0080", "\u009f", "\u00a0",
	"\u2028", "\u2029", "\u202a", "\u202d", "\u202e", "\u202f", "\u2065", "\u2066", "\u2069", "\u206a", "emoji 🎮",
	"10,000 to 30,000", "ʼ", "ˈ", "Ⅳ", "ǅ", "ß", "İ", "\ufffd", "\ufeff",
}

// TestPatternMatchers proves each hand-written matcher answers as the regular expression of its
// pattern on strings at the patterns' edges. Control: every matcher both accepts and refuses
// some of them, so the comparison is not between two functions that always say no.
func TestPatternMatchers(t *testing.T) {
	require := func(cond bool, format string, args ...any) {
		t.Helper()
		if !cond {
			t.Fatalf(format, args...)
		}
	}
	require(len(patternMatchers) == 7, "%d matchers: add the new one's samples", len(patternMatchers))
	for pattern, match := range patternMatchers {
		re := regexp.MustCompile(pattern)
		accepted, refused := 0, 0
		for _, s := range patternSamples {
			want := re.MatchString(s)
			require(match(s) == want, "pattern %s on %q: matcher says %v, regexp %v", pattern, s, match(s), want)
			require(matches(pattern, s) == want, "matches(%s, %q) is not the regexp's answer", pattern, s)
			if want {
				accepted++
			} else {
				refused++
			}
		}
		require(accepted > 0 && refused > 0, "pattern %s: %d accepted, %d refused", pattern, accepted, refused)
	}
	// A pattern without a matcher is compiled.
	require(matches(`^x+$`, "xx") && !matches(`^x+$`, "xy"), "a pattern without a matcher")
}

// FuzzPatternMatchers compares each hand-written matcher with its pattern's regular expression.
func FuzzPatternMatchers(f *testing.F) {
	for _, s := range patternSamples {
		f.Add(s)
	}
	res := map[string]*regexp.Regexp{}
	for pattern := range patternMatchers {
		res[pattern] = regexp.MustCompile(pattern)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for pattern, match := range patternMatchers {
			if got, want := match(s), res[pattern].MatchString(s); got != want {
				t.Fatalf("pattern %s on %q: matcher says %v, regexp %v", pattern, s, got, want)
			}
		}
	})
}
