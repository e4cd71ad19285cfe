package handlers

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/views"
)

// TestInvoiceView lays out a VAT-registered seller's invoice with a senior citizen's ticket (the
// law's worked example) and a non-VAT seller's, as /invoice/{id} shows them.
func TestInvoiceView(t *testing.T) {
	ex := []palaro.InvoiceExemption{{Type: "senior", Holder: "Lola Remedios Cruz", IDNumber: "OSCA-QC-0012345", Price: 100000, Paid: 71429}}
	lines := []palaro.InvoiceLine{{Description: "Concert: Lower Box", Quantity: 2, UnitPrice: 100000, Amount: 200000}}
	inv := &palaro.Invoice{Kind: palaro.InvoiceKindInvoice, Serial: 42, OrderPublicID: "ord1",
		IssuedAt: time.Date(2026, 3, 4, 16, 30, 0, 0, time.UTC), BuyerName: "Ana Cruz", BuyerEmail: "ana@example.ph",
		Seller: palaro.InvoiceSeller{Name: "Kalaro", RegisteredName: "Kalaro Events Inc.", TIN: "123-456-789-00000",
			Address: "Quezon City", VATRegistered: true},
		Lines: lines, Exemptions: ex}
	inv.Amounts = palaro.ComputeInvoiceAmounts(true, lines, inv.Exemptions, 0, 171429, 0)
	v := invoiceView(inv)
	require.Equal(t, "00000042", v.Number)
	require.Equal(t, "5 March 2026, 12:30 AM", v.Date, "the date in Manila")
	require.Equal(t, "Kalaro Events Inc.", v.Seller)
	require.Equal(t, "Kalaro", v.TradeName)
	require.Equal(t, "VAT-registered", v.VATStatus)
	require.Equal(t, []views.LineView{{Label: "Total sales (VAT inclusive)", Value: "₱2,000.00"},
		{Label: "Less: VAT on senior citizen and PWD tickets", Value: "-₱107.14"},
		{Label: "Less: senior citizen and PWD discount (20%)", Value: "-₱178.57"}}, v.Summary)
	require.Equal(t, "₱1,714.29", v.Total)
	require.Equal(t, []views.LineView{{Label: "VATable sales", Value: "₱892.86"}, {Label: "VAT (12%)", Value: "₱107.14"},
		{Label: "VAT-exempt sales", Value: "₱892.86"}, {Label: "Zero-rated sales", Value: "₱0.00"}}, v.Breakdown)
	require.Equal(t, []views.InvoiceExemptionView{{Type: "Senior citizen", Holder: "Lola Remedios Cruz", IDNumber: "OSCA-QC-0012345",
		ExemptSale: "₱892.86", Discount: "₱178.57"}}, v.Exemptions)
	require.False(t, v.NonVAT)
	require.Empty(t, v.Missing)

	inv.Seller = palaro.InvoiceSeller{Name: "Small Org"}
	inv.Kind, inv.CreditsPublicID, inv.CreditsNumber = palaro.InvoiceKindCreditNote, "inv9", "00000009"
	inv.Amounts = palaro.ComputeInvoiceAmounts(false, lines, inv.Exemptions, 0, 180000, 0)
	v = invoiceView(inv)
	require.True(t, v.NonVAT)
	require.Equal(t, "Non-VAT registered", v.VATStatus)
	require.Equal(t, "Small Org", v.Seller)
	require.Equal(t, "registered name, TIN, registered address", v.Missing)
	require.Equal(t, "Credit note", v.Title)
	require.Equal(t, "CN-00000042", v.Number)
	require.Equal(t, views.Link{Label: "00000009", Href: "/invoice/inv9"}, v.Credits)
	require.Equal(t, []views.LineView{{Label: "VAT-exempt sales (senior citizen and PWD)", Value: "₱1,000.00"}}, v.Breakdown)
}
