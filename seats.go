package palaro

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Seat states on a seat map; the seat look of the checkbox uses them as its style.
const (
	SeatAvailable = "available"
	SeatHeld      = "held" // held by a pending order until its payment or its hold's end
	SeatSold      = "sold"
)

// SeatRows is how many rows (A to H) a generated seat layout has.
const SeatRows = 8

// MaxSeatsPerRequest bounds how many seat labels one request may name.
const MaxSeatsPerRequest = 50

// Seat is one seat of a seated ticket type and its state.
type Seat struct {
	Label  string // row letters and seat number, such as "A12"
	Row    string // "A"
	Number int    // 12
	Status string // SeatAvailable, SeatHeld or SeatSold
}

// SeatRow is one row of a seat map: its letter and its seats, in seat number order.
type SeatRow struct {
	Row   string
	Seats []Seat
}

// SeatService reads the seat maps of seated ticket types and checks a buyer's choice of seats.
type SeatService interface {
	// SeatMap returns the rows of a ticket type's seats with their states. Returns ENOTFOUND when
	// the ticket type has no seats.
	SeatMap(ctx context.Context, ticketTypeID int64) ([]SeatRow, error)
	// CheckSeats checks that every label is a seat of the ticket type that nobody holds or owns.
	// Returns EINVALID for a label that is not one of its seats and ECONFLICT for a taken seat.
	CheckSeats(ctx context.Context, ticketTypeID int64, labels []string) error
}

// SeatLayout generates the seats of a seated ticket type of the given capacity: rows A to H of
// ceil(capacity/8) seats each, numbered from 1; the last rows are shorter, so that there are
// exactly capacity seats. Tiny capacities get fewer rows.
func SeatLayout(capacity int) []SeatRow {
	if capacity <= 0 {
		return nil
	}
	perRow := (capacity + SeatRows - 1) / SeatRows
	var rows []SeatRow
	for r := 0; capacity > 0; r++ {
		row := SeatRow{Row: RowLabel(r)}
		for n := 1; n <= perRow && capacity > 0; n++ {
			row.Seats = append(row.Seats, Seat{Label: row.Row + strconv.Itoa(n), Row: row.Row, Number: n, Status: SeatAvailable})
			capacity--
		}
		rows = append(rows, row)
	}
	return rows
}

// RowLabel names the row with 0-based index i: A to Z, then AA, AB, …
func RowLabel(i int) string {
	label := ""
	for i++; i > 0; i = (i - 1) / 26 {
		label = string(rune('A'+(i-1)%26)) + label
	}
	return label
}

// seatRE is what one seat label looks like: row letters and a seat number, such as "A12".
var seatRE = regexp.MustCompile(`^[A-Z]{1,3}[1-9][0-9]{0,2}$`)

// ParseSeats reads seat labels from query values or a payload: comma-separated (or repeated),
// trimmed, upper-cased, each once, in the order given. Returns EINVALID for a malformed label
// or more than MaxSeatsPerRequest seats.
func ParseSeats(values []string) ([]string, error) {
	var seats []string
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			s = strings.ToUpper(strings.TrimSpace(s))
			if s == "" || slices.Contains(seats, s) {
				continue
			}
			if !seatRE.MatchString(s) {
				return nil, Errorf(EINVALID, "%q is not a seat.", truncate(s, 12))
			}
			if len(seats) == MaxSeatsPerRequest {
				return nil, Errorf(EINVALID, "Please choose at most %d seats.", MaxSeatsPerRequest)
			}
			seats = append(seats, s)
		}
	}
	return seats, nil
}

// CheckSeatChoice checks a choice of seats against its ticket type: only a seated ticket type has
// seats, and a buyer may choose at most its per-buyer limit. Returns EINVALID with the message.
func CheckSeatChoice(tt TicketType, seats []string) error {
	switch {
	case len(seats) == 0:
		return nil
	case !tt.Seated:
		return Errorf(EINVALID, "%s has no assigned seats.", tt.Name)
	case len(seats) > max(tt.MaxPurchasable, 1):
		return Errorf(EINVALID, "%s", MaxTicketsMessage(max(tt.MaxPurchasable, 1)))
	}
	return nil
}

// SeatsTakenError is the ECONFLICT answer when seats were held or bought by someone else, such as
// 'Seat A3 was just taken. Please choose another seat.'
func SeatsTakenError(labels []string) error {
	if len(labels) == 1 {
		return Errorf(ECONFLICT, "Seat %s was just taken. Please choose another seat.", labels[0])
	}
	return Errorf(ECONFLICT, "Seats %s were just taken. Please choose other seats.", strings.Join(labels, ", "))
}

// UnknownSeatsError is the EINVALID answer for labels that are not seats of the ticket type.
func UnknownSeatsError(labels []string) error {
	if len(labels) == 1 {
		return Errorf(EINVALID, "Seat %s does not exist. Please choose a seat on the map.", labels[0])
	}
	return Errorf(EINVALID, "Seats %s do not exist. Please choose seats on the map.", strings.Join(labels, ", "))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
