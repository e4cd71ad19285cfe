package palaro

import (
	"context"
	"fmt"
	"math"
	"time"
)

// ArenaZone is one price zone of a generated arena (ArenaLayout): a seated zone has a sectioned
// Plan, a standing zone (general admission on the floor) none.
type ArenaZone struct {
	Code        string // the ticket type's code after the event's: "lower", "upper", "floor-a", "floor-b"
	Name        string
	Description string
	Price       Money
	Max         int // tickets per buyer
	Capacity    int
	Plan        *SeatPlan
}

// Geometry of ArenaLayout's bowl, in metres: the stage's front centre stands arenaStage from the
// floor's centre at the stage end; the lower tier's front row is arenaLowerFront from the centre,
// the upper tier's arenaTierGap behind the lower's last row; rows are seatRowDepth deep.
const (
	arenaStage      = 30.0
	arenaLowerFront = 38.0
	arenaTierGap    = 8.0
	seatRowDepth    = 0.85
	seatWidth       = 0.5
)

// ArenaLayout lays out an arena of about total places around a stage end: a lower box of 16
// sections (101 to 116) and an upper box of 24 (201 to 224) in a horseshoe from 45° to 315°
// (0° being the stage), rows A from the front, an aisle down the middle of every section wider
// than 11 seats, and two general admission standing areas on the floor (A at the stage, B behind
// it) that take what the seats leave, so that the places add up to total exactly. The stadium
// seed uses it at 55,000; the bench and the tests at 1,000 and 10,000. total is at least 200.
func ArenaLayout(total int) []ArenaZone {
	total = max(total, 200)
	lower := arenaRing(1, "1", 16, total*29/100, 2.5, arenaLowerFront)
	lowerRows := lower.Sections[0].Rows
	upper := arenaRing(2, "2", 24, total*44/100, 1.6, arenaLowerFront+float64(lowerRows)*seatRowDepth+arenaTierGap)
	standing := total - lower.Sellable() - upper.Sellable()
	return []ArenaZone{
		{Code: "lower", Name: "Lower Box", Description: "Assigned seat in the lower box, sections 101 to 116.",
			Price: 350000, Max: 8, Capacity: lower.Sellable(), Plan: &lower},
		{Code: "upper", Name: "Upper Box", Description: "Assigned seat in the upper box, sections 201 to 224.",
			Price: 150000, Max: 8, Capacity: upper.Sellable(), Plan: &upper},
		{Code: "floor-a", Name: "General Admission Floor A", Description: "Standing area on the floor, right at the stage.",
			Price: 120000, Max: 8, Capacity: standing / 2},
		{Code: "floor-b", Name: "General Admission Floor B", Description: "Standing area on the floor, behind Floor A.",
			Price: 80000, Max: 8, Capacity: standing - standing/2},
	}
}

// arenaRing lays out one tier: n sections named prefix+01…, together about seats places, rows
// and seats per row in the ratio wide (seats per row / rows), within MaxSeatRows and MaxSeatsInRow.
func arenaRing(ring int, prefix string, n, seats int, wide, front float64) SeatPlan {
	per := max(float64(seats)/float64(n), 2)
	rows := min(max(int(math.Round(math.Sqrt(per/wide))), 1), MaxSeatRows)
	width := min(max(int(math.Round(per/float64(rows))), 2), MaxSeatsInRow)
	var aisles []int
	if width > 11 {
		aisles = []int{width / 2}
	}
	p := SeatPlan{AisleAfter: []int{}, GapAfterRows: []string{}, Blocked: []string{}}
	for i := range n {
		from, to := 45+i*270/n, 45+(i+1)*270/n
		mid := float64(from+to) / 2 * math.Pi / 180
		// the law of cosines: the stage's front centre and the section's front-row middle, seen from the floor's centre
		d := math.Sqrt(front*front + arenaStage*arenaStage - 2*front*arenaStage*math.Cos(mid))
		p.Sections = append(p.Sections, SeatSection{Name: prefix + twoDigits(int64(i+1)), Rows: rows, SeatsPerRow: width,
			AisleAfter: aisles, Ring: ring, From: from, To: to, Distance: int(math.Round(d))})
	}
	return p
}

// SeatHoldTime is how long best available holds the seats it chose for the buyer to buy them.
const SeatHoldTime = 10 * time.Minute

// BestSeatsRequest asks for the best Quantity adjacent free seats of a seated ticket type (its
// price zone) on DateID, one date of a series (0: the event itself), in Section only when given;
// AcrossAisle lets the seats sit on both sides of an aisle. Replace is the buyer's earlier hold
// (SeatHold.ID), given back in the same write.
type BestSeatsRequest struct {
	TicketTypeID int64
	DateID       int64
	Quantity     int
	Section      string
	AcrossAisle  bool
	Replace      string
}

// SeatHold is seats held for a buyer by best available until ExpiresAt, on DateID (a date of a
// series; 0: the event itself): the buy page for that date takes them with its ID, and nobody
// else can meanwhile.
type SeatHold struct {
	ID           string
	TicketTypeID int64
	DateID       int64
	Seats        []string
	ExpiresAt    time.Time
}

// SectionCount is a section's seats and how many of them are free (not sold, held or blocked).
type SectionCount struct {
	Section string
	Seats   int
	Free    int
}

// SeatAreaService is the seat map of a large, sectioned venue: per-section counts for its
// overview, one section's seats at a time, and best available, each on the given dates of a
// series (as SeatService.SeatMapOn: a seat taken on any of them is taken; no dates, or date 0:
// the event itself).
type SeatAreaService interface {
	// SectionCounts returns the seats and free seats of each section of a ticket type's plan.
	SectionCounts(ctx context.Context, ticketTypeID int64, dateIDs []int64) ([]SectionCount, error)
	// SectionSeats returns one section's rows with their seats' states ("" for a plan without
	// sections: all of its rows). Returns ENOTFOUND for a section the plan does not have.
	SectionSeats(ctx context.Context, ticketTypeID int64, dateIDs []int64, section string) ([]SeatRow, error)
	// HoldBestSeats chooses the best free seats (BestSeats) on the request's date and holds them
	// there for SeatHoldTime, in one write. Returns ECONFLICT when no such seats are free, and
	// EINVALID (field date) for a date missing on a series, given on a single-date event, or not
	// the event's.
	HoldBestSeats(ctx context.Context, req BestSeatsRequest, now time.Time) (*SeatHold, error)
	// HeldSeats returns the seats a hold of the ticket type on the date still holds (an ended
	// hold's, until the job loop gives them back: they are still its buyer's), nil for an unknown
	// one or one of another date.
	HeldSeats(ctx context.Context, ticketTypeID, dateID int64, holdID string) ([]string, error)
}

// BestSeats chooses n adjacent free seats of plan for best available: the run of n seats in one
// row of one section (in section only, when given), consecutive numbers with no aisle between
// them unless acrossAisle, none of them taken or blocked, nearest the stage. A seat's distance is
// its section's Distance (metres from the stage's front centre to its front row's middle; 0 for a
// plan without sections) plus 0.85 m a row back plus 0.5 m a seat from the row's middle, and a
// run's is that of its middle: so front and centre first, the nearer section first. Ties go to
// the section listed first, then the front row, then the lower numbers. Returns nil when no such
// run is free (or n < 1).
func BestSeats(plan SeatPlan, taken map[string]bool, n int, section string, acrossAisle bool) []string {
	if n < 1 {
		return nil
	}
	blocked := make(map[string]bool, len(plan.Blocked))
	for _, l := range plan.Blocked {
		blocked[l] = true
	}
	free := func(l string) bool { return !taken[l] && !blocked[l] }
	var best []string
	bestCost := math.MaxInt
	for _, g := range plan.Grids() {
		if section != "" && g.Name != section || n > g.SeatsPerRow {
			continue
		}
		aisle := make([]bool, g.SeatsPerRow+1)
		for _, a := range g.AisleAfter {
			if a > 0 && a < len(aisle) {
				aisle[a] = true
			}
		}
		for r := range g.Rows {
			row := RowLabel(r)
			rowCost := g.Distance*100 + r*int(seatRowDepth*100)
			if rowCost >= bestCost {
				break // the rows behind are further still
			}
			run := 0 // free seats ending at seat k, with no aisle inside unless allowed
			for k := 1; k <= g.SeatsPerRow; k++ {
				switch {
				case !free(SeatLabel(g.Name, row, k)):
					run = 0
					continue
				case run > 0 && aisle[k-1] && !acrossAisle:
					run = 1
				default:
					run++
				}
				if run < n {
					continue
				}
				first := k - n + 1
				// half seats from the row's middle, at seatWidth/2 a half seat, in centimetres
				off := first + k - (g.SeatsPerRow + 1)
				cost := rowCost + max(off, -off)*int(seatWidth*100/2)
				if cost < bestCost {
					bestCost, best = cost, best[:0]
					for s := first; s <= k; s++ {
						best = append(best, SeatLabel(g.Name, row, s))
					}
				}
			}
		}
	}
	if len(best) == 0 {
		return nil
	}
	return best
}

// NoBestSeatsError is the ECONFLICT answer when best available finds no n seats together in a
// price zone; across is whether the buyer allowed an aisle between them.
func NoBestSeatsError(zone string, n int, across bool) error {
	msg := fmt.Sprintf("No %d seats together are free in %s.", n, zone)
	if n == 1 {
		msg = "No seat is free in " + zone + "."
	} else if !across {
		msg += " Allow an aisle between them, ask for fewer, or choose seats on the map."
	} else {
		msg += " Ask for fewer, or choose seats on the map."
	}
	return &Error{Code: ECONFLICT, Message: msg}
}
