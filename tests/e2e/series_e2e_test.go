package e2e

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// TestSeriesPickDate_Browser: at phone size (360 px), a buyer opens a series' event page, picks
// its THIRD date from the dates list, and buys on that date's seat map a seat that is sold for
// the FIRST date; the ticket is for the third date, with that seat.
func TestSeriesPickDate_Browser(t *testing.T) {
	a := startApp(t)
	bg := context.Background()
	const code, typeCode = "dota-2-visayas-major", "dota-2-visayas-major-lower"
	ev, err := store.NewEventService(a.DB()).FindEventByCode(bg, code)
	require.NoError(t, err)
	at := func(days, hour int) time.Time {
		d := testEpoch.AddDate(0, 0, days)
		return time.Date(d.Year(), d.Month(), d.Day(), hour, 0, 0, 0, palaro.Manila)
	}
	dates, err := store.NewSeriesService(a.DB()).CreateDates(bg, ev.ID, []palaro.DateInput{
		{Name: "Match day 1", StartsAt: at(7, 19), EndsAt: at(7, 23), Status: palaro.DateScheduled},
		{Name: "Match day 2", StartsAt: at(14, 19), EndsAt: at(14, 23), Status: palaro.DateScheduled},
		{Name: "Match day 3", StartsAt: at(21, 19), EndsAt: at(21, 23), Status: palaro.DateScheduled},
	}, testEpoch)
	require.NoError(t, err)
	a.Server().EventsChanged()

	// A seat free on every date is sold for the first date.
	seat := freeSeat(t, a, typeCode, dates[0].Slug)
	buyer := newVisitor(t, a)
	buyer.get("/b/" + typeCode + "?date=" + dates[0].Slug + "&seats=" + seat)
	status, raw := buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"`+typeCode+`","date":"`+dates[0].Slug+`","quantity":1,`+
		`"email":"first-date@example.ph","seats":["`+seat+`"],"paymentType":"QR"}`)
	require.Equal(t, 200, status, raw)
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(raw), &res))
	confirmPaid(t, a, res["orderId"].(string))
	a.Server().EventsChanged()

	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateScale(2), chromedp.EmulateMobile), dismissCookies(a.URL)))
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/e/"+code), chromedp.WaitVisible(`#dates .date-list`, chromedp.ByQuery)))
	var listed []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('#dates .date-list a')].map(a => a.getAttribute('href'))`, &listed)))
	require.Equal(t, []string{"/e/" + code + "/" + dates[0].Slug, "/e/" + code + "/" + dates[1].Slug, "/e/" + code + "/" + dates[2].Slug}, listed)
	screenshot(t, ctx, "series-event-page")

	// The third date's seat map: the seat sold for the first date is free there.
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`#dates .date-list li:nth-child(3) a`, chromedp.ByQuery)))
	waitPath(t, ctx, "/e/"+code+"/"+dates[2].Slug)
	screenshot(t, ctx, "series-date-page")
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.ticket-list a[href="/s/`+typeCode+`?date=`+dates[2].Slug+`"]`, chromedp.ByQuery)))
	waitPath(t, ctx, "/s/"+typeCode)
	openSeatMap(t, ctx, a.URL+"/s/"+typeCode+"?date="+dates[2].Slug)
	var free bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`!document.querySelector('.check.seat input[value="`+seat+`"]').disabled`, &free)))
	require.True(t, free, "seat %s, sold for the first date, is free on the third", seat)
	require.NoError(t, chromedp.Run(ctx, clickSeat(seat)))
	var href string
	require.NoError(t, chromedp.Run(ctx, chromedp.AttributeValue(`.seat-bar a.button`, "href", &href, nil, chromedp.ByQuery)))
	require.Equal(t, "/b/"+typeCode+"?seats="+seat+"&date="+dates[2].Slug, href)
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.seat-bar a.button`, chromedp.ByQuery)))
	waitPath(t, ctx, "/b/")
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery), typeInto("email", "third-date@example.ph")))
	var head string
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`.buy-event`, &head, chromedp.ByQuery)))
	require.Contains(t, head, "Match day 3", "the buy page names the date")
	screenshot(t, ctx, "series-buy-page")
	require.NoError(t, chromedp.Run(ctx, pay("Pay by Card")))
	waitPath(t, ctx, "/sandbox/")
	require.NoError(t, chromedp.Run(ctx, payByCard("4343 4343 4343 4345")))
	success := waitPath(t, ctx, "/payment/success/")

	_, id, _ := strings.Cut(success, "/payment/success/")
	id, _, _ = strings.Cut(id, "?")
	third, err := a.Purchases().FindOrderByPublicID(bg, id)
	require.NoError(t, err)
	require.NotNil(t, third.Date)
	require.Equal(t, dates[2].Slug, third.Date.Slug, "the order is for the third date")
	require.Len(t, third.Tickets, 1)
	require.Equal(t, seat, third.Tickets[0].Seat)

	// the date is postponed: the day ticket's page says so and links the date's own calendar entry
	in := dates[2].InputOf()
	in.Status = palaro.DatePostponed
	_, err = store.NewSeriesService(a.DB()).UpdateDate(bg, ev.ID, dates[2].Slug, in, "test", a.Now())
	require.NoError(t, err)
	_, page := newVisitor(t, a).get("/t/" + third.Tickets[0].PublicID)
	require.Contains(t, page, "/e/"+code+"/"+dates[2].Slug+"/calendar.ics")
	require.Contains(t, page, "This event is postponed")
}

// freeSeat returns the first seat of a seated ticket type free on every date, from the seat
// page of the given date as the server draws it.
func freeSeat(t *testing.T, a *testApp, typeCode, slug string) string {
	t.Helper()
	v := newVisitor(t, a)
	status, body := v.get("/s/" + typeCode + "?date=" + slug)
	require.Equal(t, 200, status)
	m := freeSeatInput.FindStringSubmatch(body)
	require.NotNil(t, m, "the seat map has a free seat")
	return m[1]
}

// freeSeatInput is a seat's checkbox on the server-drawn seat map that is neither ticked nor disabled.
var freeSeatInput = regexp.MustCompile(`name="seats" value="([A-Z]+[0-9]+)">`)
