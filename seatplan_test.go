package palaro

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSeatPlan_Validate(t *testing.T) {
	ok := SeatPlan{Rows: 4, SeatsPerRow: 10, AisleAfter: []int{5, 2, 5}, GapAfterRows: []string{"b", "A"}, Blocked: []string{"a1", " D10 "}}.Normalize()
	t.Run("OK", func(t *testing.T) {
		require.NoError(t, ok.Validate())
		require.Equal(t, []int{2, 5}, ok.AisleAfter)
		require.Equal(t, []string{"A", "B"}, ok.GapAfterRows)
		require.Equal(t, []string{"A1", "D10"}, ok.Blocked)
		require.Equal(t, 38, ok.Sellable(), "40 seats, two blocked")
		seats := ok.Seats()
		require.Len(t, seats, 4)
		require.Equal(t, "D10", seats[3].Seats[9].Label)
		require.True(t, ok.Has("D10"))
		require.False(t, ok.Has("D11"))
		require.False(t, ok.Has("E1"))
		require.False(t, ok.Has("A0"))
	})
	for _, tc := range []struct {
		name  string
		plan  SeatPlan
		field string
	}{
		{"ErrInvalid no rows", SeatPlan{Rows: 0, SeatsPerRow: 4}, "rows"},
		{"ErrInvalid too many rows", SeatPlan{Rows: 27, SeatsPerRow: 4}, "rows"},
		{"ErrInvalid too many seats", SeatPlan{Rows: 2, SeatsPerRow: MaxSeatsInRow + 1}, "seatsPerRow"},
		{"ErrInvalid aisle at the end of the row", SeatPlan{Rows: 2, SeatsPerRow: 4, AisleAfter: []int{4}}, "aisleAfter"},
		{"ErrInvalid aisle before the first seat", SeatPlan{Rows: 2, SeatsPerRow: 4, AisleAfter: []int{0}}, "aisleAfter"},
		{"ErrInvalid empty row after the last row", SeatPlan{Rows: 2, SeatsPerRow: 4, GapAfterRows: []string{"B"}}, "gapAfterRows"},
		{"ErrInvalid blocked seat off the map", SeatPlan{Rows: 2, SeatsPerRow: 4, Blocked: []string{"A5"}}, "blocked"},
		{"ErrInvalid nothing for sale", SeatPlan{Rows: 1, SeatsPerRow: 2, Blocked: []string{"A1", "A2"}}, "blocked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.plan.Normalize().Validate()
			require.Equal(t, EINVALID, ErrorCode(err))
			require.Contains(t, err.(*Error).Fields, tc.field)
		})
	}
}

func TestPlanOfSeats_GeneratedLayout(t *testing.T) {
	p := PlanOfSeats(SeatLayout(10), []string{"A1"}) // rows of 2: A–E
	require.Equal(t, 5, p.Rows)
	require.Equal(t, 2, p.SeatsPerRow)
	require.Equal(t, []string{"A1"}, p.Blocked)
	require.Equal(t, 9, p.Sellable())
	p = PlanOfSeats(SeatLayout(13), nil) // rows of 2: A–F full, G one seat
	require.Equal(t, 7, p.Rows)
	require.Equal(t, []string{"G2"}, p.Blocked, "the missing cell of the short row is blocked")
	require.Equal(t, 13, p.Sellable(), "the capacity stays")
}
