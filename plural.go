package palaro

import "strconv"

// Plural returns n with the noun that fits it, such as "1 ticket" or "3 tickets".
func Plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + one
	}
	return strconv.Itoa(n) + " " + many
}

// FormatCount writes a count with thousands separators, such as "55,000".
func FormatCount(n int) string { return groupThousands(int64(n)) }
