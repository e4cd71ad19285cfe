package palaro

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSeatLayout(t *testing.T) {
	t.Run("OK eight rows sized by capacity", func(t *testing.T) {
		rows := SeatLayout(400)
		require.Len(t, rows, SeatRows)
		for _, r := range rows {
			require.Len(t, r.Seats, 50)
		}
		require.Equal(t, "A1", rows[0].Seats[0].Label)
		require.Equal(t, "H50", rows[7].Seats[49].Label)
		require.Equal(t, SeatAvailable, rows[3].Seats[7].Status)
	})
	t.Run("OK exactly capacity seats, the last rows shorter", func(t *testing.T) {
		rows := SeatLayout(60)
		total := 0
		for _, r := range rows {
			total += len(r.Seats)
		}
		require.Equal(t, 60, total)
		require.Len(t, rows[0].Seats, 8)
		require.Len(t, rows[len(rows)-1].Seats, 4)
		require.Len(t, SeatLayout(3), 3, "a tiny capacity has fewer rows")
		require.Empty(t, SeatLayout(0))
	})
	t.Run("OK row labels", func(t *testing.T) {
		require.Equal(t, []string{"A", "H", "Z", "AA", "AZ", "BA"}, []string{RowLabel(0), RowLabel(7), RowLabel(25), RowLabel(26), RowLabel(51), RowLabel(52)})
	})
}

func TestParseSeats(t *testing.T) {
	t.Run("OK comma-separated or repeated, upper-cased, each once", func(t *testing.T) {
		seats, err := ParseSeats([]string{" a1, B12 ,,a1", "c3"})
		require.NoError(t, err)
		require.Equal(t, []string{"A1", "B12", "C3"}, seats)
		seats, err = ParseSeats(nil)
		require.NoError(t, err)
		require.Empty(t, seats)
	})
	t.Run("ErrInvalid malformed label", func(t *testing.T) {
		for _, bad := range []string{"A0", "1A", "A1234", "ABCD1", "A-1", "<script>"} {
			_, err := ParseSeats([]string{"A1," + bad})
			require.Equal(t, EINVALID, ErrorCode(err), bad)
		}
	})
	t.Run("ErrInvalid too many seats", func(t *testing.T) {
		many := make([]string, MaxSeatsPerRequest+1)
		for i := range many {
			many[i] = "A" + string(rune('1'+i%9)) + string(rune('0'+i/9))
		}
		_, err := ParseSeats(many)
		require.Equal(t, "Please choose at most 50 seats.", ErrorMessage(err))
	})
	t.Run("OK taken and unknown messages", func(t *testing.T) {
		require.Equal(t, "Seat A3 was just taken. Please choose another seat.", ErrorMessage(SeatsTakenError([]string{"A3"})))
		require.Equal(t, "Seats A3, A4 were just taken. Please choose other seats.", ErrorMessage(SeatsTakenError([]string{"A3", "A4"})))
		require.Equal(t, ECONFLICT, ErrorCode(SeatsTakenError([]string{"A3"})))
		require.Equal(t, EINVALID, ErrorCode(UnknownSeatsError([]string{"Z9"})))
	})
}

func TestPickSeats(t *testing.T) {
	row := func(label string, states string) SeatRow {
		r := SeatRow{Row: label}
		for i, c := range states {
			st := map[rune]string{'a': SeatAvailable, 'h': SeatHeld, 's': SeatSold}[c]
			r.Seats = append(r.Seats, Seat{Label: label + strconv.Itoa(i+1), Row: label, Number: i + 1, Status: st})
		}
		return r
	}
	rows := []SeatRow{row("A", "asas"), row("B", "saas"), row("C", "aaaa")}
	tests := []struct {
		name   string
		aisles []int
		n      int
		want   []string
	}{
		{"OK one seat: the front-most", nil, 1, []string{"A1"}},
		{"OK two adjacent in the first row that has them", nil, 2, []string{"B2", "B3"}},
		{"OK an aisle splits a run", []int{2}, 2, []string{"C1", "C2"}},
		{"OK three adjacent further back", nil, 3, []string{"C1", "C2", "C3"}},
		{"OK no run long enough: one row across its aisle", []int{2}, 4, []string{"C1", "C2", "C3", "C4"}},
		{"OK one row before adjacency across rows", []int{1, 2, 3}, 3, []string{"C1", "C2", "C3"}},
		{"OK no row has enough: front to back", nil, 5, []string{"A1", "A3", "B2", "B3", "C1"}},
		{"Nil too few free", nil, 9, nil},
		{"Nil no seats asked", nil, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, PickSeats(rows, tc.aisles, tc.n))
		})
	}
}

// TestNearestSeats: after a lost seat race the buyer is offered the adjacent free seats nearest to
// the ones wanted (a row away counts as two seats along; an aisle splits a run), else the nearest
// free seats one by one, and nothing when too few are left.
func TestNearestSeats(t *testing.T) {
	row := func(label, status string) SeatRow {
		r := SeatRow{Row: label}
		for i, c := range status {
			st := SeatAvailable
			if c == 's' {
				st = SeatSold
			}
			r.Seats = append(r.Seats, Seat{Label: label + strconv.Itoa(i+1), Row: label, Number: i + 1, Status: st})
		}
		return r
	}
	rows := []SeatRow{
		row("A", "aassssssaa"),
		row("B", "ssssassaas"),
		row("C", "aaaaaaaaaa"),
	}
	require.Equal(t, []string{"B8", "B9"}, NearestSeats(rows, nil, []string{"B6", "B7"}, 2), "the same row, next to them")
	require.Equal(t, []string{"C6", "C7"}, NearestSeats(rows, []int{8}, []string{"B6", "B7"}, 2), "an aisle after 8 splits B8-B9: the row behind")
	require.Equal(t, []string{"A1", "A2"}, NearestSeats(rows, nil, []string{"A3", "A4"}, 2))
	require.Equal(t, []string{"C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"}[3:6], NearestSeats(rows, nil, []string{"B4", "B5", "B6"}, 3))
	require.Equal(t, []string{"B5", "B8", "B9"}, NearestSeats(rows[:2], nil, []string{"B6", "B7", "B5"}, 3), "no run of 3 in A and B: the nearest one by one")
	require.Nil(t, NearestSeats([]SeatRow{row("A", "sa")}, nil, []string{"A1"}, 2), "too few left")

	err := SeatsLostError([]string{"B6"}, []string{"B8"}, "/b/x?seats=B8", "/s/x?seats=B6")
	require.Equal(t, "Seat B6 was just taken. Seat B8 is free nearby. Take them, or choose again on the seat map.", ErrorMessage(err))
}
