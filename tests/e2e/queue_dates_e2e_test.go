package e2e

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
	"palaro/store"
)

// TestSeriesQueue_Browser is the on-sale queue of a series at phone size: a visitor sent from a
// sold-out date is told so on the queue page, with the date's waiting list and the dates with
// places; they move their place to the third date (keeping it), wait, are admitted and buy that
// date. Their admission buys for that date only: another date's buy page sends them back to the
// queue, which says whose date their turn is for.
func TestSeriesQueue_Browser(t *testing.T) {
	clock := newSettableClock(testEpoch)
	a := startApp(t, func(cfg *app.Config) { cfg.Now = clock.Now })
	var seed uint64 // the browser, third to arrive, is drawn last, so it waits for its turn
	for palaro.DrawPlaces(seed, 3)[2] != 3 {
		seed++
	}
	a.Queues().Seed = func() uint64 { return seed }
	league, dates := leagueDates(t, a)
	third, fourth, fifth := dates[2], dates[3], dates[4]
	day := demoLeague + "-day"
	opens := testEpoch.Add(time.Hour)
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", strconv.FormatInt(league.Organizer.ID, 10))
	organizer := newVisitor(t, a)
	status, set := orgAPI(t, organizer, tok)(http.MethodPatch, "/v1/organizer/events/"+demoLeague,
		`{"queue":{"opensAt":"`+opens.Format(time.RFC3339)+`","admitPerMinute":6}}`)
	require.Equal(t, http.StatusOK, status, set)
	for _, d := range []palaro.EventDate{fifth, third} { // two early visitors, for other dates
		status, body := newVisitor(t, a).get("/v1/queue/" + demoLeague + "?date=" + d.Slug)
		require.Equal(t, http.StatusOK, status, body)
		require.Contains(t, body, `"date":"`+d.Slug+`"`)
	}
	// The fourth date sells out (its day tickets and lower box, the season passes' places included).
	_, err := a.DB().Writer().Exec(`UPDATE date_stock SET capacity = sold + held WHERE date_id = ?`, fourth.ID)
	require.NoError(t, err)
	a.Server().EventsChanged()

	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), dismissCookies(a.URL)))
	var text string
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/b/"+day+"?date="+fourth.Slug)))
	waitPath(t, ctx, "/queue/"+demoLeague)
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "For "+palaro.GateDateLabel(fourth))
	require.Contains(t, text, palaro.GateDateLabel(fourth)+" is sold out")
	require.Contains(t, text, "The sale opens soon")
	var links []string
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('.queue-notice a')].map(a => a.getAttribute('href'))`, &links)))
	require.Contains(t, links, "/waitlist/"+day+"?date="+fourth.Slug, "the date's own waiting list")
	require.Contains(t, links, "/queue/"+demoLeague+"?date="+third.Slug, "a date with places")
	require.NotContains(t, links, "/queue/"+demoLeague+"?date="+dates[0].Slug, "a date over is not offered")
	screenshot(t, ctx, "queue-date-sold-out")
	assertTouchTargets(t, ctx)

	// The visitor waits for the third date instead: the place moves, the page names the date.
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.queue-others a[href$="date=`+third.Slug+`"]`, chromedp.ByQuery),
		waitFor(`document.querySelector('.queue-notice') === null && location.search === ''`),
		chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "For "+palaro.GateDateLabel(third))
	require.NotContains(t, text, "sold out")
	var moved int64
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT count(*) FROM queue_places WHERE date_id = ?`, third.ID).Scan(&moved))
	require.Equal(t, int64(2), moved, "the early visitor's place and the moved one")
	screenshot(t, ctx, "queue-date-countdown")

	// The opening: third in the draw, it waits; at its turn (20 s at 6 a minute) it is admitted.
	clock.Set(opens)
	require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.queue-waiting') !== null`),
		chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Your place\n3")
	require.Contains(t, text, "For "+palaro.GateDateLabel(third))
	screenshot(t, ctx, "queue-date-waiting")
	clock.Set(opens.Add(21 * time.Second))
	require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.queue-admitted') !== null`)))
	screenshot(t, ctx, "queue-date-admitted")

	// Another date's buy page sends the admitted visitor back: the turn is for the third date.
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/b/"+day+"?date="+fifth.Slug)))
	waitPath(t, ctx, "/queue/"+demoLeague)
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`#queue`, &text, chromedp.ByQuery)))
	require.Contains(t, text, "Your turn is for "+palaro.GateDateLabel(third))
	require.Contains(t, text, "It's your turn")
	screenshot(t, ctx, "queue-date-other-date")

	// Its Buy leads to its own date's page, whose buy page opens; it buys for the third date.
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.queue-buy`, chromedp.ByQuery)))
	waitPath(t, ctx, "/e/"+demoLeague+"/"+third.Slug)
	require.NoError(t, chromedp.Run(ctx, chromedp.Click(`.ticket-list a[href="/b/`+day+`?date=`+third.Slug+`"]`, chromedp.ByQuery)))
	waitPath(t, ctx, "/b/"+day)
	require.NoError(t, chromedp.Run(ctx, chromedp.WaitVisible(`[data-island="purchase"][data-mounted] form`, chromedp.ByQuery),
		typeInto("email", "match-day-3@example.ph"), typeInto("fullName", "Queued Fan"), pay("Pay by Card")))
	waitPath(t, ctx, "/sandbox/")
	require.NoError(t, chromedp.Run(ctx, payByCard("4343 4343 4343 4345")))
	success := waitPath(t, ctx, "/payment/success/")
	_, id, _ := strings.Cut(success, "/payment/success/")
	id, _, _ = strings.Cut(id, "?")
	order, err := a.Purchases().FindOrderByPublicID(context.Background(), id)
	require.NoError(t, err)
	require.NotNil(t, order.Date)
	require.Equal(t, third.Slug, order.Date.Slug, "bought for the date queued for")

	// The organizer API counts the queue per date: the third date's two places admitted, the fifth's waiting.
	status, body := organizer.send(http.MethodGet, "/v1/organizer/events/"+demoLeague, "application/json", "", tok)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"dates":[{"date":"`+third.Slug+`","waiting":0,"admitted":2},{"date":"`+fifth.Slug+`","waiting":0,"admitted":1}]`)

	// So does the console's queue page, with what each date has left.
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/sign-in?next=/organizer/events/"+demoLeague+"/queue"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, "/organizer/events/"+demoLeague+"/queue")
	require.NoError(t, chromedp.Run(ctx, chromedp.Text(`.queue-dates`, &text, chromedp.ByQuery)))
	require.Contains(t, text, palaro.GateDateLabel(third)+"\t0\t2")
	require.Contains(t, text, palaro.GateDateLabel(fifth)+"\t0\t1")
	require.NoError(t, chromedp.Run(ctx, chromedp.ScrollIntoView(`.queue-dates`, chromedp.ByQuery)))
	screenshot(t, ctx, "queue-date-console")
}

// TestSeriesQueue_AdmissionPerDate: an admission for one date of a series buys for that date only
// (another date's purchase is a 429 naming it), and a visitor queued for a date that is then
// cancelled is told so on the queue page, with the dates to wait for instead.
func TestSeriesQueue_AdmissionPerDate(t *testing.T) {
	a := startApp(t)
	league, dates := leagueDates(t, a)
	day := demoLeague + "-day"
	require.NoError(t, a.Queues().Configure(context.Background(), league, "test", &palaro.QueueSettings{OpensAt: a.Now().Add(-time.Minute), AdmitPerMinute: 600}, a.Now()))
	buyer := newVisitor(t, a)
	status, body := buyer.get("/v1/queue/" + demoLeague + "?date=" + dates[2].Slug)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"admitted":true`)
	require.Contains(t, body, `"date":"`+dates[2].Slug+`","dateAvailability":"On sale"`)
	buy := func(slug string) (int, string) {
		return buyer.postJSON("/v1/ticket/buy", `{"ticketCode":"`+day+`","date":"`+slug+`","quantity":1,"email":"per-date@example.ph",`+
			`"fullName":"Per Date","paymentType":"QR"}`)
	}
	status, body = buy(dates[4].Slug)
	require.Equal(t, http.StatusTooManyRequests, status, body)
	require.Contains(t, body, palaro.QueueOtherDateMessage)
	status, body = buy(dates[2].Slug)
	require.Equal(t, http.StatusOK, status, body)
	// Best available holds seats only on the admission's date too.
	best := func(slug string) (int, string) {
		return buyer.postJSON("/v1/seats/"+demoLeague+"-box/best", `{"date":"`+slug+`","quantity":1}`)
	}
	status, body = best(dates[4].Slug)
	require.Equal(t, http.StatusConflict, status, body)
	require.Contains(t, body, "Please wait your turn in the queue.")
	status, body = best(dates[2].Slug)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, `"buyHref":"/b/`+demoLeague+`-box?`)

	// Another visitor waits for the seventh date; the organizer cancels it.
	waiting := newVisitor(t, a)
	status, _ = waiting.get("/queue/" + demoLeague + "?date=" + dates[6].Slug)
	require.Equal(t, http.StatusSeeOther, status, "the place given, on to the address without the date")
	status, body = waiting.get("/queue/" + demoLeague)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, "For <strong>"+palaro.GateDateLabel(dates[6])+"</strong>")
	in := dates[6].InputOf()
	in.Status = palaro.DateCancelled
	_, err := store.NewSeriesService(a.DB()).UpdateDate(context.Background(), league.ID, dates[6].Slug, in, "test", a.Now())
	require.NoError(t, err)
	status, body = waiting.get("/queue/" + demoLeague)
	require.Equal(t, http.StatusOK, status, body)
	require.Contains(t, body, palaro.GateDateLabel(dates[6])+" is cancelled")
	require.Contains(t, body, `href="/queue/`+demoLeague+`?date=`+dates[7].Slug)
}
