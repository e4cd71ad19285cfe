package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// addTicketsOnlyPromo adds GA20, 20% off General Admission of the Dota 2 event and nothing else.
func addTicketsOnlyPromo(t *testing.T, a *testApp) {
	t.Helper()
	db := a.DB().Writer()
	var id int64
	require.NoError(t, db.QueryRow(`INSERT INTO promo_codes (code, event_id, kind, percent)
		SELECT 'GA20', id, 'percent', 20 FROM events WHERE code = 'dota-2-visayas-major' RETURNING id`).Scan(&id))
	_, err := db.Exec(`INSERT INTO promo_code_ticket_types (promo_code_id, ticket_type_id)
		SELECT ?, id FROM ticket_types WHERE code = 'dota-2-visayas-major-gen'`, id)
	require.NoError(t, err)
}

// checkoutLines returns the sandbox checkout's order summary: each line, then the total.
func checkoutLines(t *testing.T, ctx context.Context) (lines []string, total string) {
	t.Helper()
	var rows []string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`[...document.querySelectorAll('tbody tr')].map(r => r.innerText.replace(/\s+/g, ' ').trim())`, &rows),
		chromedp.Evaluate(`document.querySelector('tfoot .num').textContent.trim()`, &total),
	))
	return rows, total
}

// TestPromoTotalAndPaymentLines_Browser: a code for General Admission alone takes 20% off the two
// tickets (₱140.00), not off the ₱599.00 shirt; the buy page shows that and the discounted total
// before paying, with the island and without JavaScript, and the payment page lists the tickets
// and the shirt, adding up to the same total.
func TestPromoTotalAndPaymentLines_Browser(t *testing.T) {
	a := startApp(t)
	addTicketsOnlyPromo(t, a)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	wantLines := []string{"General Admission · Dota 2 Visayas Major (promo GA20) × 2 ₱560.00", "Event shirt × 1 ₱599.00"}

	t.Run("Island", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen?source=GA20")
		require.NoError(t, chromedp.Run(ctx,
			typeInto("email", "promo@example.ph"), typeInto("quantity", "2"),
			chromedp.Click(`button[aria-label="One more Event shirt"]`, chromedp.ByQuery),
		))
		require.Equal(t, "-₱140.00", textOf(t, ctx, "[data-promo]"))
		require.Equal(t, "₱1,159.00", textOf(t, ctx, "[data-total]"), "2 × ₱350.00 + ₱599.00 − ₱140.00")
		require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".summary", chromedp.ByQuery)))
		screenshot(t, ctx, "buy-promo")
		require.NoError(t, chromedp.Run(ctx, pay("Pay by Card")))
		waitPath(t, ctx, "/sandbox/")
		lines, total := checkoutLines(t, ctx)
		require.Equal(t, wantLines, lines)
		require.Equal(t, "₱1,159.00", total)
		screenshot(t, ctx, "checkout-promo-lines")
	})

	t.Run("TypedCode", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen")
		require.NoError(t, chromedp.Run(ctx, typeInto("quantity", "2"), typeInto("source", "ga20")))
		require.NoError(t, chromedp.Run(ctx, waitFor(`(document.querySelector('[data-promo]')||{}).textContent === '-₱140.00'`)))
		require.Equal(t, "₱560.00", textOf(t, ctx, "[data-total]"))
	})

	t.Run("NoJavaScript", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, noJavaScript()))
		t.Cleanup(func() { _ = chromedp.Run(ctx, emulation.SetScriptExecutionDisabled(false)) })
		require.NoError(t, chromedp.Run(ctx, openPlain(a.URL+"/b/dota-2-visayas-major-gen?source=GA20", "form [data-total]")))
		require.Equal(t, "-₱70.00", textOf(t, ctx, "[data-promo]"), "the code from the link, on one ticket")
		require.Equal(t, "₱280.00", textOf(t, ctx, "[data-total]"))

		// A code typed into the form, then an add-on step: the discount shows; Pay goes on.
		require.NoError(t, chromedp.Run(ctx, openPlain(a.URL+"/b/dota-2-visayas-major-gen", "form [data-total]")))
		require.Empty(t, textOf(t, ctx, "[data-promo]"))
		require.NoError(t, chromedp.Run(ctx,
			chromedp.SetValue("#email", "nojs@example.ph", chromedp.ByQuery),
			chromedp.SetValue("#quantity", "2", chromedp.ByQuery),
			chromedp.SetValue("#source", "GA20", chromedp.ByQuery),
			clickAndLoad(`button[aria-label="One more Event shirt"]`, chromedp.ByQuery),
		))
		require.Equal(t, "-₱140.00", textOf(t, ctx, "[data-promo]"), "an add-on step shows the code's discount")
		require.Equal(t, "₱1,159.00", textOf(t, ctx, "[data-total]"))
		require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(".summary", chromedp.ByQuery)))
		screenshot(t, ctx, "buy-promo-nojs")
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//form//button[normalize-space(.)='Pay by Card']`, chromedp.BySearch)))
		waitPath(t, ctx, "/sandbox/")
		lines, total := checkoutLines(t, ctx)
		require.Equal(t, wantLines, lines)
		require.Equal(t, "₱1,159.00", total)

		// Pay pressed with a code the page has not priced yet: the form comes back priced first.
		require.NoError(t, chromedp.Run(ctx, openPlain(a.URL+"/b/dota-2-visayas-major-gen", "form [data-total]"),
			chromedp.SetValue("#email", "typed@example.ph", chromedp.ByQuery),
			chromedp.SetValue("#quantity", "2", chromedp.ByQuery),
			chromedp.SetValue("#source", "GA20", chromedp.ByQuery),
			clickAndLoad(`//form//button[normalize-space(.)='Pay by Card']`, chromedp.BySearch)))
		require.Contains(t, textOf(t, ctx, "form"), "Promo GA20 applied: 20% off. Check your total below, then pay.")
		require.Equal(t, "₱560.00", textOf(t, ctx, "[data-total]"))
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//form//button[normalize-space(.)='Pay by Card']`, chromedp.BySearch)))
		waitPath(t, ctx, "/sandbox/")
		_, total = checkoutLines(t, ctx)
		require.Equal(t, "₱560.00", total)
	})
}
