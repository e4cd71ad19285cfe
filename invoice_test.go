package palaro_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestVATExclusive(t *testing.T) {
	for in, want := range map[palaro.Money]palaro.Money{
		100000: 89286, // the law's worked example: ₱1,000.00 → ₱892.86
		112:    100,
		56:     50,
		1:      1, // 0.89 rounds up
		0:      0,
	} {
		require.Equal(t, want, palaro.VATExclusive(in), "%d", in)
	}
}

func TestSplitVAT(t *testing.T) {
	vatable, vat := palaro.SplitVAT(115000, true)
	require.Equal(t, []palaro.Money{102679, 12321}, []palaro.Money{vatable, vat}, "₱1,150.00 with VAT")
	vatable, vat = palaro.SplitVAT(1, true)
	require.Equal(t, []palaro.Money{1, 0}, []palaro.Money{vatable, vat}, "a centavo is all sale")
	vatable, vat = palaro.SplitVAT(115000, false)
	require.Equal(t, []palaro.Money{115000, 0}, []palaro.Money{vatable, vat}, "a non-VAT seller's sales carry no VAT")
}

func TestComputeInvoiceAmounts(t *testing.T) {
	t.Run("OK VAT-registered: one senior ticket of two at ₱1,000.00, an add-on", func(t *testing.T) {
		lines := []palaro.InvoiceLine{{Amount: 200000}, {Amount: 15000}}
		ex := []palaro.InvoiceExemption{{Type: "senior", Price: 100000, Paid: 71429}}
		a := palaro.ComputeInvoiceAmounts(true, lines, ex, 0, 100000+71429+15000, 15000)
		require.Equal(t, palaro.Money(89286), ex[0].ExemptSale)
		require.Equal(t, palaro.Money(17857), ex[0].Discount) // 20% of ₱892.86
		require.Equal(t, palaro.Money(215000), a.Gross)
		require.Equal(t, palaro.Money(10714), a.VATRemoved)
		require.Equal(t, palaro.Money(17857), a.SCPWDDiscount)
		require.Equal(t, palaro.Money(89286), a.VATExemptSales)
		require.Equal(t, palaro.Money(102679), a.VATableSales) // ₱1,150.00 ÷ 1.12
		require.Equal(t, palaro.Money(12321), a.VAT)
		require.Equal(t, a.Total, a.Gross-a.VATRemoved-a.PromoDiscount-a.SCPWDDiscount, "the sums meet the total")
		require.Equal(t, a.Total, a.VATableSales+a.VAT+71429)
		require.Equal(t, palaro.Money(171429), a.Admission)
	})
	t.Run("OK non-VAT seller: 20% off the price, no VAT", func(t *testing.T) {
		ex := []palaro.InvoiceExemption{{Type: "pwd", Price: 100000, Paid: 80000}}
		a := palaro.ComputeInvoiceAmounts(false, []palaro.InvoiceLine{{Amount: 100000}}, ex, 0, 80000, 0)
		require.Equal(t, palaro.Money(20000), a.SCPWDDiscount)
		require.Zero(t, a.VAT)
		require.Zero(t, a.VATRemoved)
		require.Zero(t, a.VATableSales)
	})
	t.Run("OK promo", func(t *testing.T) {
		a := palaro.ComputeInvoiceAmounts(true, []palaro.InvoiceLine{{Amount: 50000}}, nil, 5000, 45000, 0)
		require.Equal(t, palaro.Money(40179), a.VATableSales)
		require.Equal(t, palaro.Money(4821), a.VAT)
	})
}

func TestNormalizeTIN(t *testing.T) {
	for in, want := range map[string]string{
		"123-456-789-00000": "123-456-789-00000",
		"123456789":         "123-456-789-00000",
		" 123 456 789 001 ": "123-456-789-00001",
		"12345678900002":    "123-456-789-00002",
	} {
		got, err := palaro.NormalizeTIN(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got)
	}
	for _, bad := range []string{"12345678", "123-456-789-0000", "123-456-78A-00000", "1234567890123456"} {
		_, err := palaro.NormalizeTIN(bad)
		require.Error(t, err, bad)
		require.Contains(t, palaro.ErrorMessage(err), "000-000-000-00000")
	}
	_, err := palaro.ValidateInvoiceSeller(palaro.InvoiceSeller{VATRegistered: true})
	require.Contains(t, err.(*palaro.Error).Fields, palaro.FieldTIN, "a VAT-registered seller needs a TIN")
	s, err := palaro.ValidateInvoiceSeller(palaro.InvoiceSeller{RegisteredName: "  Kalaro   Inc. "})
	require.NoError(t, err)
	require.Equal(t, "Kalaro Inc.", s.RegisteredName)
	require.Equal(t, []string{"TIN", "registered address"}, s.Missing())
}

func TestAmusementTax(t *testing.T) {
	require.Equal(t, palaro.Money(10000), palaro.AmusementTax(100000, 1000)) // 10% of ₱1,000.00
	require.Equal(t, palaro.Money(7500), palaro.AmusementTax(100000, 750))
	require.Equal(t, palaro.Money(3), palaro.AmusementTax(50, 500))    // 2.5 centavos rounds up
	require.Equal(t, palaro.Money(2), palaro.AmusementTax(49, 500))    // 2.45 rounds down
	require.Equal(t, palaro.Money(0), palaro.AmusementTax(-500, 1000)) // credit notes above invoices: no tax
	for in, want := range map[string]int{"10": 1000, "7.5": 750, "2.25%": 225, "": 0, "0": 0, ".5": 50} {
		got, err := palaro.ParseAmusementTaxRate(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"10.01", "11", "-1", "abc", "7.555", "+5"} {
		_, err := palaro.ParseAmusementTaxRate(bad)
		require.Error(t, err, bad)
	}
	r := palaro.NewAdmissionReport([]palaro.AdmissionReceipts{{City: "Quezon City", Gross: 100000}, {City: "Taguig", Gross: 33333}}, 1000)
	require.Equal(t, palaro.Money(133333), r.Gross)
	require.Equal(t, palaro.Money(13333), r.Tax) // per city: 10000 + 3333
	require.Equal(t, "7.5%", palaro.FormatTaxRate(750))
}
