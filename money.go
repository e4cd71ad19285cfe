package palaro

import (
	"math"
	"strconv"
	"strings"
)

// Money is an amount in Philippine centavos.
type Money int64

// Pesos returns the amount in pesos as a float, for structured data and payment APIs that want decimals.
func (m Money) Pesos() float64 { return float64(m) / 100 }

// String formats the amount as '₱1,234.00'.
func (m Money) String() string {
	sign := ""
	v := int64(m)
	if v < 0 {
		sign, v = "-", -v
	}
	return sign + "₱" + groupThousands(v/100) + "." + twoDigits(v%100)
}

// Display formats the amount for a price tag: 'FREE' for zero, otherwise as String does.
func (m Money) Display() string {
	if m == 0 {
		return "FREE"
	}
	return m.String()
}

// Decimal formats the amount as a plain decimal number such as '1234.00'.
func (m Money) Decimal() string {
	v := int64(m)
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return sign + strconv.FormatInt(v/100, 10) + "." + twoDigits(v%100)
}

// Discounted returns price minus price times discount, rounded to the nearest centavo.
func (m Money) Discounted(discount float64) Money {
	if discount <= 0 {
		return m
	}
	if discount >= 1 {
		return 0
	}
	return m - Money(math.Round(float64(m)*discount))
}

// DiscountPercent formats a discount fraction as a percentage such as '15%'.
func DiscountPercent(discount float64) string {
	return strconv.FormatFloat(math.Round(discount*10000)/100, 'f', -1, 64) + "%"
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func twoDigits(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}
