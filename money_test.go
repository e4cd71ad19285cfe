package palaro_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestMoney_String(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for m, want := range map[palaro.Money]string{
			0:         "₱0.00",
			5:         "₱0.05",
			45000:     "₱450.00",
			123400:    "₱1,234.00",
			123456789: "₱1,234,567.89",
			-250050:   "-₱2,500.50",
		} {
			require.Equal(t, want, m.String(), "centavos %d", int64(m))
		}
	})
	t.Run("Display", func(t *testing.T) {
		require.Equal(t, "FREE", palaro.Money(0).Display())
		require.Equal(t, "₱1,234.00", palaro.Money(123400).Display())
	})
	t.Run("Decimal", func(t *testing.T) {
		require.Equal(t, "1234.00", palaro.Money(123400).Decimal())
		require.Equal(t, "0.00", palaro.Money(0).Decimal())
		require.Equal(t, "12.05", palaro.Money(1205).Decimal())
	})
}

func TestMoney_Discounted(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		// Discounted price = price − price × discount.
		require.Equal(t, palaro.Money(85000), palaro.Money(100000).Discounted(0.15))
		require.Equal(t, "₱1,049.00", palaro.Money(149857).Discounted(0.3).String(), "rounds to the nearest centavo")
		require.Equal(t, palaro.Money(45000), palaro.Money(45000).Discounted(0))
		require.Equal(t, palaro.Money(0), palaro.Money(45000).Discounted(1))
	})
	t.Run("TicketType", func(t *testing.T) {
		tt := palaro.TicketType{Price: 250000, Discount: 0.2}
		require.Equal(t, "₱2,000.00", tt.FinalPrice().String())
	})
}

func TestDiscountPercent(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		require.Equal(t, "15%", palaro.DiscountPercent(0.15))
		require.Equal(t, "12.5%", palaro.DiscountPercent(0.125))
		require.Equal(t, "33.33%", palaro.DiscountPercent(1.0/3))
	})
}
