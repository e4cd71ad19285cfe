package e2e

import (
	"context"
	"crypto/ed25519"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// byID selects the element whose id is id (the discount fields' ids hold brackets and dots).
func byID(id string) string { return `[id=` + strconv.Quote(id) + `]` }

// TestSeniorDiscount_Browser buys, on a phone, the demo's ₱1,000.00 admission of a VAT-registered
// organization as a senior citizen: the form shows ₱714.29 with the law named before paying, the
// sandbox takes that amount, the ticket says to bring the ID, and the gate (online) says whose ID
// to check, in its own colour.
func TestSeniorDiscount_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	watchCSP(t, ctx)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	openForm(t, ctx, a.URL+"/b/kundiman-gala-orchestra")

	var note, total string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Text(".senior-pwd .field-hint", &note, chromedp.ByQuery),
		chromedp.Text("[data-total]", &total, chromedp.ByQuery),
	))
	require.Contains(t, note, "RA 9994")
	require.Contains(t, note, "RA 10754")
	require.Contains(t, note, "pay ₱714.29 instead of ₱1,000.00")
	require.Contains(t, note, "Not combined with a promo code")
	require.Equal(t, "₱1,000.00", total, "full price until a discount is chosen")
	require.False(t, evalBool(t, ctx, `!!document.querySelector('`+byID("discounts[0].holderName")+`').offsetParent`),
		"the holder's name is asked only for a discounted ticket")

	require.NoError(t, chromedp.Run(ctx,
		typeInto("email", "lola.cora@example.ph"),
		chromedp.Click(`input[name="discounts[0].type"][value="senior"]`, chromedp.ByQuery),
		chromedp.WaitVisible(byID("discounts[0].holderName"), chromedp.ByQuery),
	))
	require.True(t, buttonsDisabled(ctx, t), "a senior ticket needs the holder's name and ID")
	require.NoError(t, chromedp.Run(ctx,
		chromedp.SendKeys(byID("discounts[0].holderName"), "Corazon Reyes", chromedp.ByQuery),
		chromedp.SendKeys(byID("discounts[0].idNumber"), "OSCA-2024-81234", chromedp.ByQuery),
		waitFor(`document.querySelector('[data-total]').textContent === '₱714.29'`),
		chromedp.Text("[data-senior-pwd]", &total, chromedp.ByQuery),
	))
	require.Equal(t, "-₱285.71", total)
	screenshot(t, ctx, "senior-form")

	require.NoError(t, chromedp.Run(ctx, pay("Pay by Card")))
	waitPath(t, ctx, "/sandbox/")
	var checkout string
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`#card-number`, chromedp.ByQuery), chromedp.Text("body", &checkout, chromedp.ByQuery)))
	require.Contains(t, checkout, "₱714.29")
	require.Contains(t, checkout, "senior citizen, RA 9994")
	require.NoError(t, chromedp.Run(ctx, payByCard("4343 4343 4343 4345")))
	waitPath(t, ctx, "/payment/success/")
	ticketURL := openTicketAndQR(t, ctx, "senior")

	var discount, code string
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(ticketURL),
		chromedp.Text("[data-ticket-discount]", &discount, chromedp.ByQuery),
		chromedp.Text(".ticket-code", &code, chromedp.ByQuery),
	))
	require.Contains(t, discount, "Senior citizen — bring your ID")
	require.Contains(t, discount, "Corazon Reyes")
	screenshot(t, ctx, "senior-ticket")

	// a PWD's ticket bought meanwhile, for the gate's offline list
	bg := context.Background()
	pwd, err := a.Purchases().CreateOrder(bg, palaro.PurchaseRequest{TicketCode: "kundiman-gala-orchestra", Quantity: 1,
		Email: "ben@example.ph", Discounts: []palaro.TicketDiscount{{Type: palaro.DiscountPWD, HolderName: "Ben Cruz", IDNumber: "PWD-13-7654-3210"}}}, a.Now())
	require.NoError(t, err)
	require.NoError(t, a.Purchases().AttachCheckout(bg, pwd.ID, "sandbox", palaro.CheckoutSession{ID: "cs_pwd_gate", URL: "https://pay.test/x"}))
	pwd, err = a.Purchases().ConfirmPayment(bg, "sandbox", false, palaro.PaymentEvent{ID: "evt_pwd_gate", SessionID: "cs_pwd_gate",
		Status: palaro.PaymentPaid, Amount: pwd.Total, Currency: palaro.PaymentCurrency})
	require.NoError(t, err)
	require.Len(t, pwd.Tickets, 1)

	gate := newBrowser(t)
	openGate(t, gate, a, "kundiman-gala")
	ok, answer := gateScan(t, gate, strings.TrimSpace(code))
	require.True(t, ok, answer)
	require.Contains(t, answer, "Check ID: senior citizen, Corazon Reyes")
	require.Contains(t, answer, "1234", "the ID's last 4")
	require.NotContains(t, answer, "OSCA-2024-81234", "never the whole ID at the gate")
	var colour string
	require.NoError(t, chromedp.Run(gate, chromedp.Evaluate(`getComputedStyle(document.querySelector('.gate-answer-checkid')).backgroundColor`, &colour)))
	require.Equal(t, "rgb(91, 33, 182)", colour, "a colour of its own")
	screenshot(t, gate, "gate-check-id")

	// offline, from the list on the phone: the same answer, the ID's last 4 only kept
	seed, err := a.DB().AppSecret(bg, "ticket-signing-seed", ed25519.SeedSize)
	require.NoError(t, err)
	require.NoError(t, chromedp.Run(gate, goOffline(), waitFor(`document.querySelector('.gate')?.dataset.state === 'offline'`)))
	stored := evalString(t, gate, `JSON.stringify(Object.assign({}, localStorage))`)
	require.Contains(t, stored, "Ben Cruz")
	require.NotContains(t, stored, "13-7654", "the phone keeps the ID's last 4 only (the hyphen keeps a random hex ticket code from matching)")
	ok, answer = gateScan(t, gate, palaro.SignedTicketQR(ed25519.NewKeyFromSeed(seed), pwd.Tickets[0].Code))
	require.True(t, ok, answer)
	require.Contains(t, answer, "Check ID: person with disability, Ben Cruz")
	require.Contains(t, answer, "syncs when the network is back")
	screenshot(t, gate, "gate-check-id-offline")
	require.Empty(t, cspViolations(t, ctx))
}
