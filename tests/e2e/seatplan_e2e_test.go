package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// TestSeatPlan_BuyerMapShowsGaps lays out a demo seated ticket type with an aisle after seat 3 and
// an empty row after row B, then finds the gaps on the buyer's seat map at phone and laptop size,
// with 44 px seats and 12 px labels.
func TestSeatPlan_BuyerMapShowsGaps(t *testing.T) {
	a := startApp(t)
	ctx := context.Background()
	const event, code = "dota-2-visayas-major", "dota-2-visayas-major-lower"
	org, seats := store.NewOrganizerService(a.DB(), nil), store.NewSeatService(a.DB())
	ev, err := org.FindEvent(ctx, event)
	require.NoError(t, err)
	var id int64
	for _, tt := range ev.TicketTypes {
		if tt.Code == code {
			id = tt.ID
		}
	}
	plan, err := seats.SeatPlan(ctx, id)
	require.NoError(t, err)
	plan.AisleAfter, plan.GapAfterRows = []int{3}, []string{"B"}
	require.NoError(t, org.SetSeatPlan(ctx, ev.ID, code, "test", plan))

	b := newBrowser(t)
	require.NoError(t, chromedp.Run(b, dismissCookies(a.URL)))
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"phone-360", 360, 780}, {"phone", 390, 844}, {"laptop", 1280, 800}} {
		require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(size.width, size.height)))
		openSeatMap(t, b, a.URL+"/s/"+code)
		var m struct {
			Sections    int     `json:"sections"`
			FirstWidth  int     `json:"firstWidth"`
			AisleGap    float64 `json:"aisleGap"`
			RowGap      float64 `json:"rowGap"`
			Seat        float64 `json:"seat"`
			LabelPixels float64 `json:"labelPixels"`
			PageWider   bool    `json:"pageWider"`
			MapScrolls  bool    `json:"mapScrolls"`
		}
		require.NoError(t, chromedp.Run(b, chromedp.Evaluate(`(() => {
			const secs = [...document.querySelectorAll('.seat-section')];
			const rowsA = [...document.querySelectorAll('.seat-row[aria-label="Row A"]')];
			const first = rowsA[0].lastElementChild.getBoundingClientRect(), second = rowsA[1].children[1].getBoundingClientRect();
			const b = document.querySelectorAll('.seat-block')[0].querySelectorAll('.seat-row');
			const rb = b[1].getBoundingClientRect(), rc = b[2].getBoundingClientRect();
			return { sections: secs.length, firstWidth: rowsA[0].children.length - 1,
				aisleGap: second.top === first.top ? second.left - first.right : 999,
				rowGap: rc.top - rb.bottom, seat: first.width,
				labelPixels: parseFloat(getComputedStyle(rowsA[0].children[1]).fontSize),
				pageWider: document.documentElement.scrollWidth > document.documentElement.clientWidth,
				mapScrolls: ['auto', 'scroll'].includes(getComputedStyle(document.querySelector('.seat-blocks')).overflowX) };
		})()`, &m)))
		require.Equal(t, 2, m.Sections, "an aisle cuts the map in two sections")
		require.Equal(t, 3, m.FirstWidth, "the first section ends at the aisle")
		require.GreaterOrEqual(t, m.AisleGap, 30.0, "the aisle is a wide gap in the row, on a phone too (not a new line)")
		require.Less(t, m.AisleGap, 120.0, "on the same line")
		require.False(t, m.PageWider, "the page does not scroll sideways")
		require.True(t, m.MapScrolls, "a row wider than the screen scrolls inside the map")
		require.GreaterOrEqual(t, m.RowGap, 24.0, "the empty row after B is a gap")
		require.Equal(t, 44.0, m.Seat)
		require.GreaterOrEqual(t, m.LabelPixels, 12.0)
		assertTouchTargets(t, b)
		screenshot(t, b, size.name+"-seat-plan-buyer")
	}

	// The organizer's seat editor at 360 px: the page keeps its width, the grid scrolls in its box.
	require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(360, 780),
		chromedp.Navigate(a.URL+"/sign-in?next=/organizer/events/"+event+"/ticket-types/"+code+"/edit"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, b, "/organizer/events/"+event+"/ticket-types/"+code+"/edit")
	var e struct {
		PageWider  bool     `json:"pageWider"`
		Clipped    []string `json:"clipped"`
		GridRight  float64  `json:"gridRight"`
		GridScroll bool     `json:"gridScroll"`
	}
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView(`#seats`, chromedp.ByQuery), chromedp.Evaluate(`(() => {
		const grid = document.querySelector('.org-seat-rows'), page = document.documentElement;
		const vw = page.clientWidth;
		const clipped = [...document.querySelectorAll('.org-seats > *, .org-seat-size > *, .org-seats .button')]
			.filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && (r.left < 0 || r.right > vw + 0.5); })
			.map(el => el.className || el.tagName);
		return { pageWider: page.scrollWidth > vw, clipped, gridRight: grid.getBoundingClientRect().right - vw,
			gridScroll: grid.scrollWidth > grid.clientWidth && ['auto', 'scroll'].includes(getComputedStyle(grid).overflowX) };
	})()`, &e)))
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView(`.org-seat-count`, chromedp.ByQuery)))
	screenshot(t, b, "phone-360-seat-editor")
	require.False(t, e.PageWider, "the console page does not scroll sideways at 360 px")
	require.Empty(t, e.Clipped, "parts of the seat editor outside the screen")
	require.LessOrEqual(t, e.GridRight, 0.5, "the grid's box ends inside the screen")
	require.True(t, e.GridScroll, "the grid scrolls inside its box")
	// Scrolled to its last seats, the grid still names each row and shows its last control whole.
	var end struct {
		Named bool `json:"named"`
		Whole bool `json:"whole"`
	}
	require.NoError(t, chromedp.Run(b, chromedp.Evaluate(`(() => {
		const grid = document.querySelector('.org-seat-rows'); grid.scrollLeft = grid.scrollWidth;
		const g = grid.getBoundingClientRect(), rows = [...grid.querySelectorAll('.org-seat-row')];
		return {
			named: rows.every(r => { const l = r.querySelector('legend').getBoundingClientRect(); return l.left >= g.left - 0.5 && l.right <= g.right; }),
			whole: rows.every(r => r.lastElementChild.getBoundingClientRect().right <= g.right + 0.5),
		};
	})()`, &end)))
	require.True(t, end.Named, "each row's name stays in sight while the grid scrolls")
	require.True(t, end.Whole, "the last seat or control of each row is not cut")
	require.NoError(t, chromedp.Run(b, chromedp.ScrollIntoView(`.org-seat-count`, chromedp.ByQuery)))
	screenshot(t, b, "phone-360-seat-editor-end")
}
