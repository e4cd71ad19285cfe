package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// calendarChip is what the browser measures of one event chip in the calendar's grid.
type calendarChip struct {
	Text      string  `json:"text"`
	Cancelled bool    `json:"cancelled"`
	Link      bool    `json:"link"`
	Width     float64 `json:"w"` // the tap target under the chip's centre: its day's button
	Height    float64 `json:"h"`
}

// TestCalendar_ChipsAndCancelled_Browser: a tap on an event chip of the calendar island lands on
// its whole day cell (at least 44 px each way at 390 and 360 px wide; the chips are labels, not
// 40×15 px links), and a cancelled event says so in words in the grid, in the day's list and in
// the server-rendered calendar.
func TestCalendar_ChipsAndCancelled_Browser(t *testing.T) {
	a := startApp(t)
	bg := context.Background()
	organizers := store.NewOrganizerService(a.DB(), nil)
	const cancelledEvent = "dota-2-visayas-major" // alone on its day, so its chip shows
	ev, err := organizers.FindEvent(bg, cancelledEvent)
	require.NoError(t, err)
	in := palaro.EventInputOf(ev)
	in.Status = palaro.EventCancelled
	_, err = organizers.UpdateEvent(bg, ev.ID, "test", in)
	require.NoError(t, err)

	_, page := newVisitor(t, a).get("/calendar")
	require.Regexp(t, `<span class="cal-tag">Cancelled</span>\s*<a href="/e/`+cancelledEvent+`">`, page, "the server-rendered list says it")

	ctx := newBrowser(t)
	require.NoError(t, chromedp.Run(ctx, dismissCookies(a.URL)))
	for _, width := range []int64{390, 360} {
		var chips []calendarChip
		var list string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
			chromedp.Navigate(a.URL+"/calendar"),
			chromedp.WaitVisible(`[data-island="calendar"][data-mounted] .cal-grid`, chromedp.ByQuery),
			chromedp.Evaluate(`[...document.querySelectorAll('.cal-grid .cal-event')].map((c) => {
				c.scrollIntoView({block: 'center'});
				const r = c.getBoundingClientRect();
				const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
				const day = hit && hit.closest('.cal-date');
				const d = day ? day.getBoundingClientRect() : {width: 0, height: 0};
				return {text: c.textContent, cancelled: c.classList.contains('cancelled'), link: c.tagName === 'A' || !!c.closest('a'),
					w: d.width, h: d.height};
			})`, &chips),
			chromedp.Click(`.cal-day[data-date="`+ev.StartsAt.In(palaro.Manila).Format("2006-01-02")+`"] .cal-date`, chromedp.ByQuery),
			chromedp.Text(".cal-list", &list, chromedp.ByQuery)))
		require.NotEmpty(t, chips)
		cancelled := 0
		for _, c := range chips {
			require.False(t, c.Link, "a chip is a label, not a small link: %q", c.Text)
			require.GreaterOrEqual(t, c.Width, 44.0, "tap target of %q at %d px", c.Text, width)
			require.GreaterOrEqual(t, c.Height, 44.0, "tap target of %q at %d px", c.Text, width)
			if c.Cancelled {
				cancelled++
				require.True(t, strings.HasPrefix(c.Text, "Cancelled "+ev.Name), c.Text)
			} else {
				require.False(t, strings.HasPrefix(c.Text, "Cancelled"), c.Text)
			}
		}
		require.Equal(t, 1, cancelled, "the cancelled event's chip is marked: %+v", chips)
		require.Contains(t, strings.ToLower(list), "cancelled dota", "the day's list marks the cancelled event")
		screenshot(t, ctx, "calendar-cancelled-"+map[int64]string{390: "390", 360: "360"}[width])
		assertTouchTargets(t, ctx)
	}
}
