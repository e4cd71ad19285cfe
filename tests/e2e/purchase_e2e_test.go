package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"regexp"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/notify"
	"palaro/store"
)

// openIsland opens a page and waits until its island has mounted and shows inner.
func openIsland(t *testing.T, ctx context.Context, url, island, inner string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		emulation.SetFocusEmulationEnabled(true),
		chromedp.Navigate(url),
		chromedp.WaitVisible(`[data-island="`+island+`"][data-mounted] `+inner, chromedp.ByQuery),
	))
}

// openForm opens a buy page and waits for the purchase island to mount.
func openForm(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	openIsland(t, ctx, url, "purchase", "form")
}

// typeInto focuses the input labelled by id, replaces its value with keystrokes and leaves it.
func typeInto(id, value string) chromedp.Tasks {
	sel := "#" + id
	return chromedp.Tasks{
		chromedp.Focus(sel, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('`+sel+`').select && document.querySelector('`+sel+`').select()`, nil),
		chromedp.SendKeys(sel, "\b"+value, chromedp.ByQuery),
		chromedp.Blur(sel, chromedp.ByQuery),
	}
}

// fieldError returns the validation message shown under the field with the given id.
func fieldError(ctx context.Context, t *testing.T, id string) string {
	t.Helper()
	var msg string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`(document.getElementById('`+id+`-error')||{}).textContent||''`, &msg)))
	return msg
}

// buttonsDisabled reports whether every payment button of the form is disabled.
func buttonsDisabled(ctx context.Context, t *testing.T) bool {
	t.Helper()
	var disabled bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('.pay-buttons button')].every(b => b.disabled)`, &disabled)))
	return disabled
}

// waitPath waits until the browser is on a page whose path starts with prefix, and returns the URL.
func waitPath(t *testing.T, ctx context.Context, prefix string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var url string
		var ready bool
		err := chromedp.Run(ctx, chromedp.Evaluate(`location.pathname.startsWith('`+prefix+`') && document.readyState === 'complete'`, &ready), chromedp.Location(&url))
		if err == nil && ready {
			return url
		}
		time.Sleep(100 * time.Millisecond)
	}
	var url string
	_ = chromedp.Run(ctx, chromedp.Location(&url))
	t.Fatalf("still on %s, waiting for %s", url, prefix)
	return ""
}

// pay clicks the payment button with the given label (or 'Submit').
func pay(label string) chromedp.Action {
	return chromedp.Click(`//form//button[normalize-space(.)='`+label+`']`, chromedp.BySearch)
}

// submitAndLoad clicks the form's submit button and waits until the page it posts to has loaded: a
// new document, not the one clicked in, since these forms post back to their own path and a path
// check alone would pass on the old page.
func submitAndLoad() chromedp.Action { return submitIn("form") }

// openTicketAndQR follows the order page's first ticket, checks its QR code and opens it full
// screen, saving screenshots under the given name.
func openTicketAndQR(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	var heading string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.WaitVisible(`.ticket-link`, chromedp.ByQuery),
		chromedp.Text(`.order h1`, &heading, chromedp.ByQuery),
	))
	require.Contains(t, []string{"You're in!", "Add-ons confirmed"}, heading)
	screenshot(t, ctx, name+"-order")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.ticket-link`, chromedp.ByQuery)))
	ticketURL := waitPath(t, ctx, "/t/")
	var qrSize string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.WaitVisible(`.ticket-qr svg`, chromedp.ByQuery),
		chromedp.AttributeValue(`.ticket-qr svg`, "width", &qrSize, nil, chromedp.ByQuery),
	))
	require.Equal(t, "240", qrSize)
	screenshot(t, ctx, name+"-ticket")
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(strings.Replace(ticketURL, "/t/", "/q/", 1)),
		chromedp.WaitVisible(`.qr-box svg`, chromedp.ByQuery),
		chromedp.AttributeValue(`.qr-box svg`, "width", &qrSize, nil, chromedp.ByQuery),
	))
	require.Equal(t, "300", qrSize)
	screenshot(t, ctx, name+"-qr")
	return ticketURL
}

func TestPurchase_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("FreeTicket", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/codm-campus-clash-iloilo-free")
		require.NoError(t, chromedp.Run(ctx,
			typeInto("email", "juan@example.ph"),
			typeInto("firstName", "Juan"),
			typeInto("lastName", "Dela Cruz"),
			typeInto("companyName", "UP Visayas"),
			typeInto("designation", "Student"),
		))
		require.False(t, buttonsDisabled(ctx, t))
		screenshot(t, ctx, "free-form-filled")
		require.NoError(t, chromedp.Run(ctx, pay("Submit")))
		waitPath(t, ctx, "/payment/success/")
		openTicketAndQR(t, ctx, "free")

		var email string
		openForm(t, ctx, a.URL+"/b/codm-campus-clash-iloilo-free")
		require.NoError(t, chromedp.Run(ctx, chromedp.Poll(`document.getElementById('email').value !== ''`, nil, chromedp.WithPollingTimeout(5*time.Second)),
			chromedp.Value("#email", &email, chromedp.ByQuery)))
		require.Equal(t, "juan@example.ph", email, "the buyer's e-mail is prefilled after a successful purchase")
	})
}

// outboxLink returns the first link to path prefix in the newest e-mail sent to address.
// Jobs in the outbox (a tickets link request) are done first, as the outbox worker does.
func outboxLink(t *testing.T, a *testApp, to, prefix string) string {
	t.Helper()
	w := &notify.Worker{Outbox: a.Outbox(), Sender: notify.LogSender{Logger: a.Logger()}, Jobs: a.Purchases(), Logger: a.Logger(), Now: a.Now}
	for n := 1; n > 0; {
		var err error
		n, err = w.Drain(context.Background())
		require.NoError(t, err)
	}
	msgs, err := store.NewOutboxService(a.DB()).ListOutbox(context.Background(), palaro.OutboxFilter{To: to, Limit: 10})
	require.NoError(t, err)
	require.NotEmpty(t, msgs, "an e-mail to %s", to)
	m := regexp.MustCompile(`https?://[^\s"<>]*` + regexp.QuoteMeta(prefix) + `[^\s"<>]*`).FindString(msgs[0].Text)
	require.NotEmpty(t, m, "a %s link in %q", prefix, msgs[0].Text)
	return m
}

// payByCard fills the sandbox card page with a test card number and submits it.
func payByCard(number string) chromedp.Tasks {
	return chromedp.Tasks{
		chromedp.WaitVisible(`#card-number`, chromedp.ByQuery),
		chromedp.SendKeys(`#card-number`, number, chromedp.ByQuery),
		chromedp.SendKeys(`#card-expiry`, "12/30", chromedp.ByQuery),
		chromedp.SendKeys(`#card-cvc`, "123", chromedp.ByQuery),
		chromedp.SendKeys(`#card-name`, "Juan Dela Cruz", chromedp.ByQuery),
		chromedp.Click(`form button[type="submit"]`, chromedp.ByQuery),
	}
}

func TestPaidPurchase_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	buy := func(t *testing.T, email, button string) {
		t.Helper()
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen")
		require.NoError(t, chromedp.Run(ctx, typeInto("email", email), typeInto("quantity", "2"), pay(button)))
		waitPath(t, ctx, "/sandbox/")
	}

	t.Run("CardSuccess", func(t *testing.T) {
		buy(t, "card@example.ph", "Pay by Card")
		screenshot(t, ctx, "card-checkout")
		require.NoError(t, chromedp.Run(ctx, payByCard("4343 4343 4343 4345")))
		waitPath(t, ctx, "/payment/success/")
		openTicketAndQR(t, ctx, "card")
	})

	t.Run("CardDecline", func(t *testing.T) {
		buy(t, "declined@example.ph", "Pay by Card")
		require.NoError(t, chromedp.Run(ctx, payByCard("4111 1111 1111 1111")))
		var page string
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.error, [role="alert"]`, chromedp.ByQuery), chromedp.Text(`body`, &page, chromedp.ByQuery)))
		require.Contains(t, page, "Your card was declined.")
		screenshot(t, ctx, "card-declined")
	})

	t.Run("QRPh", func(t *testing.T) {
		buy(t, "wallet@example.ph", "Pay by QR PH")
		screenshot(t, ctx, "qrph-checkout")
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#wallet-pay`, chromedp.ByQuery)))
		waitPath(t, ctx, "/payment/success/")
		openTicketAndQR(t, ctx, "qrph")
	})
}

func TestTicketActions_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	// An existing user registers for a free ticket with only an e-mail address.
	openForm(t, ctx, a.URL+"/b/codm-campus-clash-iloilo-free")
	require.NoError(t, chromedp.Run(ctx,
		typeInto("email", "ana@example.ph"),
		chromedp.Click(`input[name="existingUser"]`, chromedp.ByQuery),
	))
	var personal bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!!document.getElementById('firstName')`, &personal)))
	require.False(t, personal, "personal details are hidden for existing users")
	require.False(t, buttonsDisabled(ctx, t), "and not required")
	screenshot(t, ctx, "existing-user-form")
	require.NoError(t, chromedp.Run(ctx, pay("Submit")))
	// nothing is known of this address yet: the server asks for the details the event requires
	require.Equal(t, "We have no details for this e-mail address yet. Please fill in your details.", formError(ctx, t))
	require.NoError(t, chromedp.Run(ctx, typeInto("firstName", "Ana"), typeInto("lastName", "Reyes"),
		typeInto("companyName", "UP Visayas"), typeInto("designation", "Student"), pay("Submit")))
	waitPath(t, ctx, "/payment/success/")
	ticketURL := openTicketAndQR(t, ctx, "existing-user")

	t.Run("ChangeEmail", func(t *testing.T) {
		ticketURL = changeEmailInBrowser(t, ctx, a, ticketURL, "ana@example.ph", "ana.new@example.ph")
	})

	t.Run("ChangeEmailErrInvalid", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(strings.Replace(ticketURL, "/t/", "/change-email/", 1)),
			typeInto("new-email", "not-an-address"), submitAndLoad()))
		waitPath(t, ctx, "/change-email/")
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`#new-email-error`, chromedp.ByQuery)))
		require.Equal(t, "Invalid E-mail address", fieldError(ctx, t, "new-email"))
	})

	t.Run("TicketsLink", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/tickets"), typeInto("tickets-email", "ana.new@example.ph"),
			submitAndLoad()))
		waitPath(t, ctx, "/tickets")
		var notice string
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.notice`, chromedp.ByQuery), chromedp.Text(`.notice`, &notice, chromedp.ByQuery)))
		require.Contains(t, notice, "Check your inbox")
		screenshot(t, ctx, "tickets-form")
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(outboxLink(t, a, "ana.new@example.ph", "/tickets/"))))
		var links int
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.ticket-link`, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelectorAll('.ticket-link').length`, &links)))
		require.Equal(t, 1, links)
		screenshot(t, ctx, "tickets-list")
	})
}

func TestBuyPage_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("RequiredFieldMessages", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/codm-campus-clash-iloilo-free")
		screenshot(t, ctx, "buy-free-form")
		require.True(t, buttonsDisabled(ctx, t), "submit is disabled until the form is valid")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Focus("#firstName", chromedp.ByQuery), chromedp.Blur("#firstName", chromedp.ByQuery),
			chromedp.Focus("#companyName", chromedp.ByQuery), chromedp.Blur("#companyName", chromedp.ByQuery),
			typeInto("email", "not-an-address"),
		))
		require.Equal(t, "First Name is required", fieldError(ctx, t, "firstName"))
		require.Equal(t, "Company name is required", fieldError(ctx, t, "companyName"))
		require.Equal(t, "Invalid E-mail address", fieldError(ctx, t, "email"))
		var quantityShown bool
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!!document.getElementById('quantity')`, &quantityShown)))
		require.False(t, quantityShown, "a free ticket's quantity is forced to 1 and hidden")
		screenshot(t, ctx, "buy-form-errors")
		require.True(t, buttonsDisabled(ctx, t))
	})

	t.Run("QuantityLimitAndDigits", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/valorant-night-market-bgc-team")
		require.NoError(t, chromedp.Run(ctx, typeInto("mobileNumber", "09a17-123")))
		var mobile string
		require.NoError(t, chromedp.Run(ctx, chromedp.Value("#mobileNumber", &mobile, chromedp.ByQuery)))
		require.Equal(t, "0917123", mobile, "the mobile number takes digits only")
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-gen")
		require.NoError(t, chromedp.Run(ctx, typeInto("quantity", "1x1")))
		require.Equal(t, "Maximum ticket limit per user is 10.", fieldError(ctx, t, "quantity"))
		screenshot(t, ctx, "buy-form-quantity")
	})

	t.Run("SeatsSourceAndAddOns", func(t *testing.T) {
		openSeatMap(t, ctx, a.URL+"/s/dota-2-visayas-major-lower")
		seats := availableSeats(t, ctx, 2)
		openForm(t, ctx, a.URL+"/b/dota-2-visayas-major-lower?seats="+strings.ToLower(seats[0])+","+seats[1]+"&source=PALARO10")
		var quantity, source, total, categories string
		var readOnly, lanyard bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Value("#quantity", &quantity, chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById('quantity').readOnly`, &readOnly),
			chromedp.Value("#source", &source, chromedp.ByQuery),
			chromedp.Evaluate(`[...document.querySelectorAll('.addon-toggle')].map(b => b.textContent).join(',')`, &categories),
			chromedp.Evaluate(`[...document.querySelectorAll('.addon-qty')].find(c => c.textContent.includes('Lanyard')).querySelector('output').textContent === '2'`, &lanyard),
			chromedp.Text("[data-total]", &total, chromedp.ByQuery),
		))
		require.Equal(t, "2", quantity, "the quantity is the seat count")
		require.True(t, readOnly, "and locked")
		require.Equal(t, "PALARO10", source, "source fills the promo code")
		require.Equal(t, "Food,Merchandise,Parking", categories, "add-on categories in alphabetical order")
		require.True(t, lanyard, "free add-ons are pre-selected, one per ticket")
		require.Equal(t, "₱1,890.00", total, "2 × ₱1,050.00 less PALARO10's 10%")
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`button[aria-label="One more Event shirt"]`, chromedp.ByQuery),
			chromedp.Text("[data-total]", &total, chromedp.ByQuery),
		))
		require.Equal(t, "₱2,429.10", total, "2 × ₱1,050.00 + a ₱599.00 shirt, less 10% (PALARO10 covers the whole order)")
		screenshot(t, ctx, "buy-seats-addons")
		var hidden bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`//button[contains(@class,'addon-toggle')][contains(., 'Food')]`, chromedp.BySearch),
			chromedp.Evaluate(`document.getElementById('addons-food').hidden`, &hidden),
		))
		require.True(t, hidden, "a category collapses")
	})

	t.Run("SurveyToggles", func(t *testing.T) {
		openForm(t, ctx, a.URL+"/b/valorant-night-market-bgc-team")
		answer := func(label string) chromedp.Action {
			return chromedp.Click(`//button[contains(@class,'survey-answer')][normalize-space(.)='`+label+`']`, chromedp.BySearch)
		}
		var pressed string
		read := chromedp.Evaluate(`[...document.querySelectorAll('.survey-answer[aria-pressed="true"]')].map(b => b.textContent).join(',')`, &pressed)
		require.NoError(t, chromedp.Run(ctx, answer("Iron to Gold"), read))
		require.Equal(t, "Iron to Gold", pressed)
		require.NoError(t, chromedp.Run(ctx, answer("Ascendant and up"), read))
		require.Equal(t, "Ascendant and up", pressed, "choosing one deselects the others")
		require.NoError(t, chromedp.Run(ctx, answer("Ascendant and up"), read))
		require.Equal(t, "", pressed, "choosing again clears")
		screenshot(t, ctx, "buy-survey")
	})

	t.Run("ErrPageNotFound", func(t *testing.T) {
		for _, path := range []string{"/b/no-such-ticket", "/b/BAD_CODE!"} {
			var heading string
			require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+path), chromedp.Text("h1", &heading, chromedp.ByQuery)))
			require.Equal(t, "Page Not Found", strings.TrimSpace(heading), path)
		}
	})
	_ = time.Second
}

func TestQuickBuy_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("SheetChecksEmailAndCapsQuantity", func(t *testing.T) {
		var reactBefore bool
		require.NoError(t, chromedp.Run(ctx,
			emulation.SetFocusEmulationEnabled(true),
			chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
			chromedp.WaitReady(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.Evaluate(`performance.getEntriesByType('resource').some(r => r.name.includes('/chunks/'))`, &reactBefore),
		))
		require.False(t, reactBefore, "the event page loads no island code before quick buy is pressed")
		var quickVIP bool
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!!document.querySelector('[data-quick-buy="dota-2-visayas-major-vip"]')`, &quickVIP)))
		require.False(t, quickVIP, "a ticket with a disclaimer is bought on the full form")

		var quantity string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`[data-quick-buy="dota-2-visayas-major-gen"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`.sheet-backdrop.open #quick-email`, chromedp.ByQuery),
			typeInto("quick-email", "buyer@"),
			typeInto("quick-quantity", "25"),
			chromedp.Value("#quick-quantity", &quantity, chromedp.ByQuery),
		))
		require.Equal(t, "Invalid E-mail address", fieldError(ctx, t, "quick-email"))
		require.Equal(t, "10", quantity, "quantity is capped at the ticket's limit")
		require.True(t, buttonsDisabled(ctx, t))
		require.Equal(t, "Invalid E-mail address", payReason(ctx, t), "the disabled buttons say why")
		require.NoError(t, chromedp.Run(ctx, typeInto("quick-email", "buyer@example.ph"), typeInto("quick-quantity", "2.5")))
		require.Equal(t, "Please input no. of tickets to be purchased", payReason(ctx, t), "2.5 is no quantity, not 25")
		require.True(t, buttonsDisabled(ctx, t))
		screenshot(t, ctx, "quick-buy-sheet")
		var closed bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(`.sheet [aria-label="Close"]`, chromedp.ByQuery),
			chromedp.Poll(`!document.querySelector('.sheet')`, &closed, chromedp.WithPollingTimeout(5*time.Second)),
		))
	})
}

// changeEmailInBrowser moves the ticket at ticketURL from one address to another as people do:
// the change-email form, the current holder's consent from their e-mail, the new address's
// acceptance from its e-mail. It returns the reissued ticket's URL.
func changeEmailInBrowser(t *testing.T, ctx context.Context, a *testApp, ticketURL, from, to string) string {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(ticketURL), chromedp.Click(`//a[normalize-space(.)='Change e-mail']`, chromedp.BySearch)))
	waitPath(t, ctx, "/change-email/")
	var current string
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`.buy-page strong`, &current, chromedp.ByQuery)))
	require.Equal(t, from, current, "the page shows the currently registered address")
	require.NoError(t, chromedp.Run(ctx, typeInto("new-email", to)))
	screenshot(t, ctx, "change-email")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`form button[type="submit"]`, chromedp.ByQuery),
		// the form posts to its own path: wait for the answer's redirect, not for the path
		waitFor(`location.search === '?sent=awaiting_holder' && document.readyState === 'complete'`)))
	var heading, msg string
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`h1`, &heading, chromedp.ByQuery), chromedp.Text(`.success-page p`, &msg, chromedp.ByQuery)))
	require.Equal(t, "Check the inbox", heading)
	require.Contains(t, msg, from, "the current holder confirms first")

	// the holder consents from the link sent to the current address
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(outboxLink(t, a, from, "/change-email/confirm/"))))
	waitPath(t, ctx, "/change-email/confirm/")
	screenshot(t, ctx, "change-email-consent")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`form button[type="submit"]`, chromedp.ByQuery),
		waitFor(`document.querySelector('h1') && document.querySelector('h1').textContent === 'Confirmed'`)))

	// the new address accepts: the ticket is reissued there
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(outboxLink(t, a, to, "/change-email/confirm/"))))
	waitPath(t, ctx, "/change-email/confirm/")
	screenshot(t, ctx, "change-email-accept")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`form button[type="submit"]`, chromedp.ByQuery)))
	waitPath(t, ctx, "/change-email/success/")
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`.success-page p`, &msg, chromedp.ByQuery)))
	require.Contains(t, msg, "now belongs to "+to)
	screenshot(t, ctx, "change-email-success")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.success-page a.button`, chromedp.ByQuery)))
	newURL := waitPath(t, ctx, "/t/")
	require.NotEqual(t, ticketURL, newURL, "the ticket has a new link")
	var facts string
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`.ticket-facts`, &facts, chromedp.ByQuery)))
	require.Contains(t, facts, to)
	resp, err := http.Get(ticketURL)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "the old link no longer opens the ticket")
	return newURL
}

// TestChangeEmail_Browser moves a ticket bought with full details to another address.
func TestChangeEmail_Browser(t *testing.T) {
	a := startApp(t)
	o, err := a.Purchases().CreateOrder(context.Background(), palaro.PurchaseRequest{TicketCode: "valorant-night-market-bgc-watch",
		Quantity: 1, Email: "lea@example.ph", FullName: "Lea Cruz", MobileNumber: "09171234567"}, a.Now())
	require.NoError(t, err)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	changeEmailInBrowser(t, ctx, a, a.URL+palaro.TicketPath(o.Tickets[0].PublicID), "lea@example.ph", "lea.cruz@example.ph")
}
