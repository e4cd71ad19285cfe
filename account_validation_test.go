package palaro

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNormalizeMobileNumber(t *testing.T) {
	ok := map[string]string{
		"09171234567":       "+639171234567",
		"0917-123-4567":     "+639171234567",
		"0917 123 4567":     "+639171234567",
		"9171234567":        "+639171234567",
		"639171234567":      "+639171234567",
		"+639171234567":     "+639171234567",
		"+63 (917) 1234567": "+639171234567",
		"+6591234567":       "+6591234567",
		"+1-415-555-0100":   "+14155550100",
	}
	for in, want := range ok {
		got, valid := NormalizeMobileNumber(in)
		require.True(t, valid, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "12ab", "0917123456", "091712345678", "+6321234567", "632123456789", "12345",
		"+0123456789", "++639171234567", "0917--123-4567", "-09171234567", "+63917123456789012345"} {
		_, valid := NormalizeMobileNumber(in)
		require.False(t, valid, in)
	}
}

func TestValidPassword(t *testing.T) {
	for _, p := range []string{"secret123", "ABCDEFG1", "a1b2c3d4e5"} {
		require.True(t, ValidPassword(p), p)
	}
	for _, p := range []string{"", "short1", "password", "12345678", "secret 123", "secret-123", "sécret123",
		strings.Repeat("a1", 65)} {
		require.False(t, ValidPassword(p), p)
	}
}

func TestSignUp_Validate(t *testing.T) {
	err := SignUp{}.Normalize().Validate()
	require.Equal(t, map[string]string{
		FieldEmail: MsgEmailRequired, FieldPassword: MsgPasswordInvalid, FieldFirstName: MsgFirstNameRequired,
		FieldLastName: MsgLastNameRequired, FieldMobileNumber: MsgMobileRequired, FieldTerms: MsgTermsRequired,
	}, err.Fields)
	require.Equal(t, MsgEmailRequired, err.Message, "the first message in form order")
	s := SignUp{Email: " Ana@Example.PH ", Password: "secret123", RepeatPassword: "secret123", FirstName: "Ana",
		LastName: "Cruz", MobileNumber: "0917 123 4567", AcceptTerms: true}.Normalize()
	require.Nil(t, s.Validate())
	require.Equal(t, "ana@example.ph", s.Email)
	require.Equal(t, "+639171234567", s.MobileNumber)

	t.Run("ExistingUserWithoutName", func(t *testing.T) {
		s := SignUp{Email: "ana@example.ph", Password: "secret123", RepeatPassword: "secret123", FirstName: "hidden",
			MobileNumber: "0917 123 4567", AcceptTerms: true, ExistingUser: true}.Normalize()
		require.Nil(t, s.Validate(), "an existing user's name is not asked for")
		require.Empty(t, s.FirstName, "what the hidden name field held is not kept")
		s.MobileNumber = ""
		require.Equal(t, MsgMobileRequired, s.Validate().Fields[FieldMobileNumber], "the mobile number still is: password resets use it")
	})
}

func TestPassword_Hash(t *testing.T) {
	h, err := HashPassword("secret123")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$"), h)
	require.True(t, CheckPassword(h, "secret123"))
	require.False(t, CheckPassword(h, "secret124"))
	h2, _ := HashPassword("secret123")
	require.NotEqual(t, h, h2, "a random salt each time")
	for _, bad := range []string{"", "$argon2id$", "$argon2i$v=19$m=19456,t=2,p=1$AAAA$AAAA", "$argon2id$v=19$m=999999999,t=2,p=1$AAAA$AAAA"} {
		require.False(t, CheckPassword(bad, "secret123"), bad)
	}
}

// FuzzNormalizeMobileNumber: whatever is typed, an accepted number is E.164 (a plus and 8 to 15
// digits), normalizing it again changes nothing, and Philippine numbers are mobile ones (+639…).
func FuzzNormalizeMobileNumber(f *testing.F) {
	for _, s := range []string{"09171234567", "+639171234567", "639171234567", "9171234567", "0917-123-4567",
		"+1 415 555 0100", "12ab", "", "+", "--", "+63", "0", "+0000000000", "(0917) 123 4567"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := NormalizeMobileNumber(s)
		if !ok {
			require.Empty(t, n)
			return
		}
		require.Regexp(t, `^\+[1-9][0-9]{7,14}$`, n)
		again, ok := NormalizeMobileNumber(n)
		require.True(t, ok)
		require.Equal(t, n, again)
		if strings.HasPrefix(n, "+63") {
			require.Regexp(t, `^\+639[0-9]{9}$`, n)
		}
	})
}

// FuzzValidPassword: the rule accepts exactly ASCII letters and digits, 8 to 128 of them, with
// at least one of each.
func FuzzValidPassword(f *testing.F) {
	for _, s := range []string{"secret123", "password", "12345678", "abc", "sécret123", "secret 123", "Aa1Aa1Aa1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		letters := strings.IndexFunc(p, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
		digits := strings.IndexFunc(p, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
		other := strings.IndexFunc(p, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0
		want := letters && digits && !other && len(p) >= 8 && len(p) <= 128
		require.Equal(t, want, ValidPassword(p), "%q", p)
	})
}
