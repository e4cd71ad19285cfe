package e2e

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
)

// openSeatMap opens a seat page and waits for the seat island to mount.
func openSeatMap(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	openIsland(t, ctx, url, "seats", ".seat-block")
}

// availableSeats returns the labels of the first n available seats on the seat map.
func availableSeats(t *testing.T, ctx context.Context, n int) []string {
	t.Helper()
	var labels []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(
		`[...document.querySelectorAll('.check.seat.available input:not(:disabled)')].map(i => i.value)`, &labels)))
	require.GreaterOrEqual(t, len(labels), n)
	return labels[:n]
}

// clickSeat ticks or unticks the seat tile with the given label.
func clickSeat(label string) chromedp.Action {
	return chromedp.Click(`.check.seat input[value="`+label+`"]`, chromedp.ByQuery)
}

// checkedSeats returns the labels of the ticked seats.
func checkedSeats(t *testing.T, ctx context.Context) []string {
	t.Helper()
	var labels []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('.check.seat input:checked')].map(i => i.value)`, &labels)))
	return labels
}

// paySeatsByCard pays the open buy page by card in the sandbox and checks that the tickets on the
// success page carry the seats.
func paySeatsByCard(t *testing.T, ctx context.Context, seats []string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx, pay("Pay by Card")))
	waitPath(t, ctx, "/sandbox/")
	require.NoError(t, chromedp.Run(ctx, payByCard("4343 4343 4343 4345")))
	waitPath(t, ctx, "/payment/success/")
	var links string
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`.ticket-link`, chromedp.ByQuery),
		chromedp.Evaluate(`[...document.querySelectorAll('.ticket-link')].map(l => l.textContent).join('|')`, &links)))
	for _, s := range seats {
		require.Contains(t, links, "Seat "+s)
	}
}

func TestSeatSelection_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))

	t.Run("ChooseTwoSeatsPayAndGetThemOnTheTickets", func(t *testing.T) {
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/e/dota-2-visayas-major"),
			chromedp.Click(`a[href="/s/dota-2-visayas-major-lower"]`, chromedp.ByQuery),
		))
		waitPath(t, ctx, "/s/dota-2-visayas-major-lower")
		openSeatMap(t, ctx, a.URL+"/s/dota-2-visayas-major-lower")
		var sold, continueDisabled bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Evaluate(`!!document.querySelector('.check.seat.sold input:disabled')`, &sold),
			chromedp.Evaluate(`document.querySelector('.seat-bar button').disabled`, &continueDisabled),
		))
		require.True(t, sold, "seats sold before show as sold and cannot be chosen")
		require.True(t, continueDisabled, "nothing to continue with before a seat is chosen")
		seats := availableSeats(t, ctx, 2)
		require.NoError(t, chromedp.Run(ctx, clickSeat(seats[0]), clickSeat(seats[1])))
		require.Equal(t, seats, checkedSeats(t, ctx))
		var choice, href string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Text(`.seat-choice`, &choice, chromedp.ByQuery),
			chromedp.AttributeValue(`.seat-bar a.button`, "href", &href, nil, chromedp.ByQuery),
		))
		require.Equal(t, "Seats "+seats[0]+", "+seats[1]+"\n₱2,100.00", choice)
		require.Equal(t, "/b/dota-2-visayas-major-lower?seats="+seats[0]+","+seats[1], href)
		screenshot(t, ctx, "seats-map")

		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.seat-bar a.button`, chromedp.ByQuery)))
		waitPath(t, ctx, "/b/")
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery)))
		var quantity, hint string
		var readOnly bool
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Value("#quantity", &quantity, chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById('quantity').readOnly`, &readOnly),
			chromedp.Evaluate(`document.getElementById('quantity').closest('.field').querySelector('.field-hint').textContent`, &hint),
		))
		require.Equal(t, "2", quantity, "the quantity is the seat count")
		require.True(t, readOnly, "and locked")
		require.Equal(t, "Seats "+seats[0]+", "+seats[1], hint)
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "seated@example.ph")))
		screenshot(t, ctx, "seats-form")
		paySeatsByCard(t, ctx, seats)
		ticketURL := openTicketAndQR(t, ctx, "seats")
		var seat string
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(ticketURL),
			chromedp.Text(`//dl[contains(@class,'ticket-facts')]//dt[.='Seat']/following-sibling::dd`, &seat, chromedp.BySearch)))
		require.Contains(t, seats, seat, "the ticket carries its seat")

		// The same seats again: the buy page sends the buyer back to the map, which says why.
		var notice string
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/b/dota-2-visayas-major-lower?seats="+seats[1])))
		waitPath(t, ctx, "/s/")
		require.NoError(t, chromedp.Run(ctx, chromedp.Text(`.seat-notice`, &notice, chromedp.ByQuery)))
		require.Equal(t, "Seat "+seats[1]+" was just taken. Please choose another seat.", notice)
		var taken bool
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`[data-island="seats"][data-mounted] .seat-block`, chromedp.ByQuery),
			chromedp.Evaluate(`document.querySelector('.check.seat input[value="`+seats[1]+`"]').disabled`, &taken)))
		require.True(t, taken)
		screenshot(t, ctx, "seats-taken")
	})

	t.Run("LimitedToMaxPurchasable", func(t *testing.T) {
		openSeatMap(t, ctx, a.URL+"/s/lan-party-baguio-seat")
		seats := availableSeats(t, ctx, 3)
		var toast string
		require.NoError(t, chromedp.Run(ctx,
			clickSeat(seats[0]), clickSeat(seats[1]), clickSeat(seats[2]),
			chromedp.WaitVisible(`#toast`, chromedp.ByQuery),
			chromedp.Text(`#toast .toast-message`, &toast, chromedp.ByQuery),
		))
		require.Equal(t, "Maximum ticket limit per user is 2.", toast)
		require.Equal(t, seats[:2], checkedSeats(t, ctx), "a third seat is not chosen")
		require.NoError(t, chromedp.Run(ctx, clickSeat(seats[0])))
		require.Equal(t, seats[1:2], checkedSeats(t, ctx), "a seat is let go by ticking it again")
		screenshot(t, ctx, "seats-limit")
	})
}

// TestSeatRaceLost_Browser: a buyer whose chosen seat is taken while the form is open is told so
// and offered the nearest free seats, which one tap puts on the form (or the seat map), with the
// island and without JavaScript.
func TestSeatRaceLost_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	const code = "dota-2-visayas-major-lower"
	rival := func(t *testing.T, seat string) {
		t.Helper()
		_, err := a.Purchases().CreateOrder(t.Context(), palaro.PurchaseRequest{TicketCode: code, Quantity: 1, Email: "rival-" + seat + "@example.ph",
			Seats: []string{seat}, PaymentType: palaro.PaymentCard}, a.Now())
		require.NoError(t, err)
	}
	check := func(t *testing.T, chosen []string, lost string) {
		t.Helper()
		msg := textOf(t, ctx, `.form-error[role="alert"]:not(.form-summary)`)
		require.Contains(t, msg, "Seat "+lost+" was just taken.")
		require.Contains(t, msg, "free nearby. Take them, or choose again on the seat map.")
		var mapHref string
		require.NoError(t, chromedp.Run(ctx, chromedp.AttributeValue(`.seat-race a.secondary`, "href", &mapHref, nil, chromedp.ByQuery)))
		require.Equal(t, "/s/"+code+"?seats="+url.QueryEscape(strings.Join(chosen, ",")), mapHref)
		require.NoError(t, chromedp.Run(ctx, chromedp.Click(`//a[normalize-space(.)='Take these seats']`, chromedp.BySearch)))
		waitPath(t, ctx, "/b/"+code)
		var hint string
		require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`#quantity`, chromedp.ByQuery),
			chromedp.Evaluate(`document.getElementById('quantity').closest('.field').querySelector('.field-hint').textContent`, &hint)))
		require.Regexp(t, `^Seats [A-Z]+\d+, [A-Z]+\d+$`, hint, "two other seats on the form")
		require.NotContains(t, hint, " "+lost+",")
		require.False(t, strings.HasSuffix(hint, " "+lost), "not the seat taken")
	}

	t.Run("Island", func(t *testing.T) {
		openSeatMap(t, ctx, a.URL+"/s/"+code)
		seats := availableSeats(t, ctx, 2)
		openForm(t, ctx, a.URL+"/b/"+code+"?seats="+strings.Join(seats, ","))
		require.NoError(t, chromedp.Run(ctx, typeInto("email", "racer@example.ph")))
		rival(t, seats[0]) // taken while the form is open
		require.NoError(t, chromedp.Run(ctx, pay("Pay by Card"), chromedp.WaitVisible(`.seat-race`, chromedp.ByQuery)))
		screenshot(t, ctx, "seat-race-lost")
		check(t, seats, seats[0])
	})

	t.Run("NoJavaScript", func(t *testing.T) {
		openSeatMap(t, ctx, a.URL+"/s/"+code)
		seats := availableSeats(t, ctx, 2)
		require.NoError(t, chromedp.Run(ctx, noJavaScript()))
		t.Cleanup(func() { _ = chromedp.Run(ctx, emulation.SetScriptExecutionDisabled(false)) })
		require.NoError(t, chromedp.Run(ctx, openPlain(a.URL+"/b/"+code+"?seats="+strings.Join(seats, ","), "form [data-total]"),
			chromedp.SetValue("#email", "plain-racer@example.ph", chromedp.ByQuery)))
		rival(t, seats[1])
		require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//form//button[normalize-space(.)='Pay by Card']`, chromedp.BySearch)))
		check(t, seats, seats[1])
	})
}
