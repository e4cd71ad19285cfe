package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// TestPurchaseForm_NameRule_Browser checks that the purchase island applies the name rule it
// receives in its props (a Unicode pattern), as the server does: digits are refused with the
// rule's message, accented names and apostrophes pass.
func TestPurchaseForm_NameRule_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	openForm(t, ctx, a.URL+"/b/mlbb-manila-showdown-gen")
	require.NoError(t, chromedp.Run(ctx, typeInto("firstName", "Ana2"), typeInto("lastName", "Ñuñez-O'Brien")))
	require.Equal(t, palaro.MsgNameInvalid, fieldError(ctx, t, "firstName"))
	require.Empty(t, fieldError(ctx, t, "lastName"), "accents, hyphens and apostrophes are letters of a name")
	var maxLength int
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById('firstName').maxLength`, &maxLength)))
	require.Equal(t, 100, maxLength, "the limit comes from the rules in the props")
	screenshot(t, ctx, "purchase-name-rule")
}
