package e2e

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestArenaSeriesDate_Browser: the stadium seed's arena made a series of three dates. Best
// available's seats of the lower box are sold for the FIRST date; at phone size (390×844) a buyer
// opens the arena seat page of the THIRD date, where the overview's counts are that date's and the
// no-JS section links carry it, asks for best available and gets those very seats (free on the
// third date), held there only, and buys them: the order and its tickets are the third date's.
func TestArenaSeriesDate_Browser(t *testing.T) {
	a := startApp(t)
	bg := context.Background()
	seed, err := a.DB().SeedStadium(bg, a.Now(), store.StadiumOptions{Places: 1000})
	require.NoError(t, err)
	lower := seed.TicketTypes[0]
	at := func(days int) time.Time {
		d := testEpoch.AddDate(0, 0, days)
		return time.Date(d.Year(), d.Month(), d.Day(), 18, 0, 0, 0, palaro.Manila)
	}
	var inputs []palaro.DateInput
	for i := range 3 {
		inputs = append(inputs, palaro.DateInput{Name: "Finals day " + strconv.Itoa(i+1), StartsAt: at(7 * (i + 1)), EndsAt: at(7 * (i + 1)).Add(5 * time.Hour),
			Status: palaro.DateScheduled})
	}
	dates, err := store.NewSeriesService(a.DB()).CreateDates(bg, seed.EventID, inputs, testEpoch)
	require.NoError(t, err)
	a.Server().EventsChanged()
	first, third := dates[0], dates[2]

	// best available on the first date, bought and paid there
	v := newVisitor(t, a)
	v.get("/s/" + lower + "?date=" + first.Slug)
	status, raw := v.postJSON("/v1/seats/"+lower+"/best", `{"date":"`+first.Slug+`","quantity":2}`)
	require.Equal(t, 200, status, raw)
	var hold struct {
		Hold    string   `json:"hold"`
		Seats   []string `json:"seats"`
		BuyHref string   `json:"buyHref"`
	}
	require.NoError(t, json.Unmarshal([]byte(raw), &hold))
	require.Contains(t, hold.BuyHref, "date="+first.Slug)
	body, _ := json.Marshal(map[string]any{"ticketCode": lower, "date": first.Slug, "seats": hold.Seats, "seatHold": hold.Hold,
		"email": "first-date@example.ph", "firstName": "Ana", "lastName": "Reyes", "mobileNumber": "09171234567", "paymentType": "QR"})
	status, raw = v.postJSON("/v1/ticket/buy", string(body))
	require.Equal(t, 200, status, raw)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &res))
	confirmPaid(t, a, res["orderId"].(string))
	section, _, _, _ := palaro.SplitSeatLabel(hold.Seats[0])

	// without JavaScript: the section links carry the date; the seats are sold on the first date, free on the third
	_, page := newVisitor(t, a).get("/s/" + lower + "?date=" + third.Slug)
	require.Contains(t, page, `href="/s/`+lower+`?date=`+third.Slug+`&amp;section=`+section+`"`)
	for slug, disabled := range map[string]bool{first.Slug: true, third.Slug: false} {
		_, page = newVisitor(t, a).get("/s/" + lower + "?date=" + slug + "&section=" + section)
		require.Contains(t, page, `name="date" value="`+slug+`"`)
		for _, s := range hold.Seats {
			input := `name="seats" value="` + s + `"`
			i := strings.Index(page, input)
			require.Positive(t, i, s)
			rest := page[i+len(input) : i+len(input)+12]
			require.Equal(t, disabled, strings.HasPrefix(rest, " disabled"), "seat %s on %s: %q", s, slug, rest)
		}
	}

	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL), chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile)))
	openIsland(t, ctx, a.URL+"/s/"+lower+"?date="+third.Slug, "arena", ".arena-map")
	freeOn := func(slug string) string {
		_, page := newVisitor(t, a).get("/s/" + lower + "?date=" + slug)
		i := strings.Index(page, `&amp;section=`+section+`"><strong>`+section+`</strong> <span>`)
		require.Positive(t, i)
		rest := page[i:]
		return rest[strings.Index(rest, "<span>")+6 : strings.Index(rest, "</span>")]
	}
	chip := evalString(t, ctx, `[...document.querySelectorAll('.arena-sections button')].find(b => b.querySelector('strong').textContent === '`+section+`').querySelector('span').textContent`)
	require.Equal(t, freeOn(third.Slug), chip, "the island's counts are the third date's")
	require.NotEqual(t, freeOn(first.Slug), chip, "two seats fewer are free on the first date")
	screenshot(t, ctx, "arena-series-overview-390")

	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(`.arena-best button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.arena-held`, chromedp.ByQuery),
		chromedp.WaitVisible(`#arena-section .check.seat input:checked`, chromedp.ByQuery),
	))
	require.Equal(t, hold.Seats, checkedSeats(t, ctx), "the seats sold for the first date are the best on the third")
	var heldOn int64
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT a.date_id FROM seat_assignments a JOIN seat_holds h ON h.id = a.hold_id
		WHERE a.seat = ? AND h.date_id = a.date_id`, hold.Seats[0]).Scan(&heldOn))
	require.Equal(t, third.ID, heldOn, "held on the third date")
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('.arena-held').scrollIntoView()`, nil)))
	screenshot(t, ctx, "arena-series-best-390")
	var href string
	require.NoError(t, chromedp.Run(ctx, chromedp.AttributeValue(`.arena-held a.button`, "href", &href, nil, chromedp.ByQuery)))
	require.Contains(t, href, "date="+third.Slug)

	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.arena-held a.button`, chromedp.ByQuery)))
	waitPath(t, ctx, "/b/"+lower)
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery),
		typeInto("firstName", "Bea"), typeInto("lastName", "Cruz"), typeInto("mobileNumber", "09171234568"),
		typeInto("email", "third-date@example.ph")))
	head := evalString(t, ctx, `document.querySelector('.buy-event').textContent`)
	require.Contains(t, head, "Finals day 3", "the buy page names the date")
	screenshot(t, ctx, "arena-series-buy-390")
	paySeatsByCard(t, ctx, hold.Seats)
	rows, err := a.DB().Writer().Query(`SELECT t.seat, t.date_id FROM tickets t JOIN orders o ON o.id = t.order_id
		WHERE o.email = ? AND o.status = 'paid' ORDER BY t.seat`, "third-date@example.ph")
	require.NoError(t, err)
	var seats []string
	for rows.Next() {
		var seat string
		var date int64
		require.NoError(t, rows.Scan(&seat, &date))
		require.Equal(t, third.ID, date, "ticket %s is the third date's", seat)
		seats = append(seats, seat)
	}
	require.NoError(t, rows.Err())
	rows.Close()
	require.ElementsMatch(t, hold.Seats, seats)
	var holds int
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM seat_holds`).Scan(&holds))
	require.Zero(t, holds, "the order took the hold's seats")
}
