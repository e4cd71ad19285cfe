package palaro

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestArenaLayout(t *testing.T) {
	for _, total := range []int{1000, 10000, 55000} {
		zones := ArenaLayout(total)
		require.Len(t, zones, 4)
		sum := 0
		for _, z := range zones {
			sum += z.Capacity
			if z.Plan != nil {
				require.NoError(t, z.Plan.Validate(), "%d %s", total, z.Code)
				require.Equal(t, z.Capacity, z.Plan.Sellable())
			}
		}
		require.Equal(t, total, sum, "the places add up to %d", total)
	}
	z := ArenaLayout(55000)
	require.Equal(t, 16000, z[0].Capacity)
	require.Equal(t, 24000, z[1].Capacity)
	lower := z[0].Plan.Sections
	require.Equal(t, "101", lower[0].Name)
	require.Equal(t, "116", lower[15].Name)
	require.Equal(t, []int{25}, lower[0].AisleAfter)
	require.Less(t, lower[0].Distance, lower[8].Distance, "the sections at the stage are nearer than the far end")
	require.Equal(t, lower[0].Distance, lower[15].Distance, "the bowl is symmetric")
	require.Less(t, z[1].Plan.Sections[0].Distance, lower[8].Distance, "the upper box at the stage is nearer than the lower box's far end")
}

func TestSeatLabels(t *testing.T) {
	section, row, n, ok := SplitSeatLabel("112-AB30")
	require.True(t, ok)
	require.Equal(t, []any{"112", "AB", 30}, []any{section, row, n})
	_, row, n, ok = SplitSeatLabel("C7")
	require.True(t, ok)
	require.Equal(t, "C", row)
	require.Equal(t, 7, n)
	for _, bad := range []string{"112-", "-A1", "11234-A1", "112-A0", "a1"} {
		_, _, _, ok := SplitSeatLabel(bad)
		require.False(t, ok, bad)
	}
	seats, err := ParseSeats([]string{"112-a3, 112-A4"})
	require.NoError(t, err)
	require.Equal(t, []string{"112-A3", "112-A4"}, seats)

	p := SeatPlan{Sections: []SeatSection{{Name: "101", Rows: 2, SeatsPerRow: 4}}}
	require.True(t, p.Has("101-B4"))
	require.False(t, p.Has("101-C1"), "row C is past the section")
	require.False(t, p.Has("101-A5"))
	require.False(t, p.Has("102-A1"))
	require.False(t, p.Has("A1"), "a sectioned plan's seats name their section")
	require.Equal(t, 8, p.Sellable())
	rows := p.Seats()
	require.Len(t, rows, 2)
	require.Equal(t, "101", rows[1].Section)
	require.Equal(t, "101-B1", rows[1].Seats[0].Label)
	bad := SeatPlan{Sections: []SeatSection{{Name: "101", Rows: 2, SeatsPerRow: 4}, {Name: "101", Rows: 1, SeatsPerRow: 1}}}
	require.ErrorContains(t, bad.Validate(), "twice")
	bad = SeatPlan{Sections: []SeatSection{{Name: "101", Rows: 27, SeatsPerRow: 4}}}
	require.ErrorContains(t, bad.Validate(), "Section 101: A seat map has 1 to 26 rows.")
}

func TestBestSeats(t *testing.T) {
	// two sections of 3 rows of 10 with an aisle after seat 5: 102 is nearer the stage
	plan := SeatPlan{Sections: []SeatSection{
		{Name: "101", Rows: 3, SeatsPerRow: 10, AisleAfter: []int{5}, Distance: 40},
		{Name: "102", Rows: 3, SeatsPerRow: 10, AisleAfter: []int{5}, Distance: 30},
	}}
	taken := func(labels ...string) map[string]bool {
		m := map[string]bool{}
		for _, l := range labels {
			m[l] = true
		}
		return m
	}
	t.Run("OK front and centre of the nearest section", func(t *testing.T) {
		require.Equal(t, []string{"102-A5"}, BestSeats(plan, nil, 1, "", false), "seat 5 and 6 are equally central; the lower number")
		require.Equal(t, []string{"102-A4", "102-A5"}, BestSeats(plan, nil, 2, "", false), "not across the aisle after 5")
		require.Equal(t, []string{"102-A5", "102-A6"}, BestSeats(plan, nil, 2, "", true), "across it when allowed: the centre")
		require.Equal(t, []string{"102-A1", "102-A2", "102-A3", "102-A4", "102-A5"}, BestSeats(plan, nil, 5, "", false))
	})
	t.Run("OK the next row back when the front has no room", func(t *testing.T) {
		got := BestSeats(plan, taken("102-A3", "102-A8"), 3, "", false)
		require.Equal(t, []string{"102-B3", "102-B4", "102-B5"}, got, "row A's runs are 2 and 1 long on each side")
		got = BestSeats(plan, taken("102-A3", "102-A8"), 3, "", true)
		require.Equal(t, []string{"102-A4", "102-A5", "102-A6"}, got, "across the aisle row A has 4 to 7")
	})
	t.Run("OK a further section when the nearest is full", func(t *testing.T) {
		var all []string
		for _, r := range plan.Sections[1].rows() {
			for _, s := range r.Seats {
				all = append(all, s.Label)
			}
		}
		require.Equal(t, []string{"101-A4", "101-A5"}, BestSeats(plan, taken(all...), 2, "", false))
	})
	t.Run("OK a distance ranks rows of different sections", func(t *testing.T) {
		// 102's row C is 30 m + 1.7 m; 101's row A is 40 m: 102-C first
		var front []string
		for _, r := range plan.Sections[1].rows()[:2] {
			for _, s := range r.Seats {
				front = append(front, s.Label)
			}
		}
		require.Equal(t, []string{"102-C4", "102-C5"}, BestSeats(plan, taken(front...), 2, "", false))
	})
	t.Run("OK only the section asked for", func(t *testing.T) {
		require.Equal(t, []string{"101-A4", "101-A5"}, BestSeats(plan, nil, 2, "101", false))
	})
	t.Run("OK blocked seats are not free; a plan without sections", func(t *testing.T) {
		small := SeatPlan{Rows: 2, SeatsPerRow: 4, Blocked: []string{"A2"}}
		require.Equal(t, []string{"A3", "A4"}, BestSeats(small, nil, 2, "", false))
		require.Equal(t, []string{"B2", "B3"}, BestSeats(small, taken("A3"), 2, "", false), "row A has no two together left")
	})
	t.Run("ERR none free together, none at all, more than a row, n < 1", func(t *testing.T) {
		small := SeatPlan{Rows: 1, SeatsPerRow: 4, AisleAfter: []int{2}}
		require.Nil(t, BestSeats(small, nil, 3, "", false), "an aisle splits every run of 3")
		require.Equal(t, []string{"A1", "A2", "A3"}, BestSeats(small, nil, 3, "", true))
		require.Nil(t, BestSeats(small, taken("A1", "A2", "A3", "A4"), 1, "", false))
		require.Nil(t, BestSeats(small, nil, 5, "", true))
		require.Nil(t, BestSeats(small, nil, 0, "", false))
		require.Nil(t, BestSeats(plan, nil, 2, "999", false))
	})
}
