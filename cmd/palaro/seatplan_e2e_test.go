package main

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
	org, seats := store.NewOrganizerService(a.db, nil), store.NewSeatService(a.db)
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
	}{{"phone", 390, 844}, {"laptop", 1280, 800}} {
		require.NoError(t, chromedp.Run(b, chromedp.EmulateViewport(size.width, size.height)))
		openSeatMap(t, b, a.URL+"/s/"+code)
		var m struct {
			Sections    int     `json:"sections"`
			FirstWidth  int     `json:"firstWidth"`
			AisleGap    float64 `json:"aisleGap"`
			RowGap      float64 `json:"rowGap"`
			Seat        float64 `json:"seat"`
			LabelPixels float64 `json:"labelPixels"`
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
				labelPixels: parseFloat(getComputedStyle(rowsA[0].children[1]).fontSize) };
		})()`, &m)))
		require.Equal(t, 2, m.Sections, "an aisle cuts the map in two sections")
		require.Equal(t, 3, m.FirstWidth, "the first section ends at the aisle")
		require.GreaterOrEqual(t, m.AisleGap, 30.0, "the aisle is a wide gap (or a new line)")
		require.GreaterOrEqual(t, m.RowGap, 24.0, "the empty row after B is a gap")
		require.Equal(t, 44.0, m.Seat)
		require.GreaterOrEqual(t, m.LabelPixels, 12.0)
		assertTouchTargets(t, b)
		screenshot(t, b, size.name+"-seat-plan-buyer")
	}
}
