package palaro

import (
	"context"
	"fmt"
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
	Label  string // row letters and seat number, such as "A12", after its section's name in a sectioned plan ("112-A12")
	Row    string // "A"
	Number int    // 12
	Status string // SeatAvailable, SeatHeld or SeatSold
}

// SeatRow is one row of a seat map: its letter and its seats, in seat number order.
type SeatRow struct {
	Section string // the section's name in a sectioned plan, else ""
	Row     string
	Seats   []Seat
}

// SeatService reads the seat maps of seated ticket types and checks a buyer's choice of seats.
type SeatService interface {
	// SeatMap returns the rows of a ticket type's seats with their states. Returns ENOTFOUND when
	// the ticket type has no seats.
	SeatMap(ctx context.Context, ticketTypeID int64) ([]SeatRow, error)
	// CheckSeats checks that every label is a seat of the ticket type that nobody holds or owns.
	// Returns EINVALID for a label that is not one of its seats and ECONFLICT for a taken seat.
	CheckSeats(ctx context.Context, ticketTypeID int64, labels []string) error
	// SeatMapOn is SeatMap on the given dates of a series (a seat taken on any of them is taken;
	// no dates: the event itself). Returns ENOTFOUND when the ticket type has no seats.
	SeatMapOn(ctx context.Context, ticketTypeID int64, dateIDs []int64) ([]SeatRow, error)
	// CheckSeatsOn is CheckSeats on the given dates of a series (no dates: the event itself).
	CheckSeatsOn(ctx context.Context, ticketTypeID int64, dateIDs []int64, labels []string) error
	// SeatPlan returns the layout of a seated ticket type (rows, seats per row, aisles, empty
	// rows, blocked seats). Returns ENOTFOUND when the ticket type has no seats.
	SeatPlan(ctx context.Context, ticketTypeID int64) (SeatPlan, error)
	SeatAreaService
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

// seatRE is what one seat label looks like: row letters and a seat number, such as "A12", after
// a section's name and a hyphen in a sectioned plan ("112-A12").
var seatRE = regexp.MustCompile(`^(?:[A-Z0-9]{1,4}-)?[A-Z]{1,3}[1-9][0-9]{0,2}$`)

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

// Fields of a purchase's seat-race answer (SeatsTakenError, SeatsLostError).
const (
	// FieldSeatsTaken lists the chosen seats someone else took, comma-separated.
	FieldSeatsTaken = "seatsTaken"
	// FieldSeatsInstead is the buy page with the nearest free seats chosen instead.
	FieldSeatsInstead = "seatsInstead"
	// FieldSeatMap is the seat map with the buyer's choice, which names the seats taken.
	FieldSeatMap = "seatMap"
)

// SeatsTakenError is the ECONFLICT answer when seats were held or bought by someone else, such as
// 'Seat A3 was just taken. Please choose another seat.'; FieldSeatsTaken lists them.
func SeatsTakenError(labels []string) error {
	fields := map[string]string{FieldSeatsTaken: strings.Join(labels, ",")}
	if len(labels) == 1 {
		return &Error{Code: ECONFLICT, Message: fmt.Sprintf("Seat %s was just taken. Please choose another seat.", labels[0]), Fields: fields}
	}
	return &Error{Code: ECONFLICT, Message: fmt.Sprintf("Seats %s were just taken. Please choose other seats.", strings.Join(labels, ", ")), Fields: fields}
}

// SeatsLostError is the answer to a buyer who lost a seat race: which seats were taken, the
// nearest free seats offered instead (none when no seats are left) with the buy page that takes
// them, and the seat map to choose again.
func SeatsLostError(taken, instead []string, insteadHref, mapHref string) error {
	what := "Seat " + taken[0] + " was just taken."
	if len(taken) > 1 {
		what = "Seats " + strings.Join(taken, ", ") + " were just taken."
	}
	fields := map[string]string{FieldSeatsTaken: strings.Join(taken, ","), FieldSeatMap: mapHref}
	if len(instead) == 0 {
		return &Error{Code: ECONFLICT, Message: what + " No other seats are free together; please choose again on the seat map.", Fields: fields}
	}
	fields[FieldSeatsInstead] = insteadHref
	offer := "Seat " + instead[0] + " is free nearby."
	if len(instead) > 1 {
		offer = "Seats " + strings.Join(instead, ", ") + " are free nearby."
	}
	return &Error{Code: ECONFLICT, Message: what + " " + offer + " Take them, or choose again on the seat map.", Fields: fields}
}

// NearestSeats chooses n free seats for a buyer whose wanted seats were taken: the run of n
// adjacent free seats (one row, consecutive numbers, no aisle between them) nearest to the wanted
// ones, a row away counting as two seats along; else the n free seats nearest to them one by one.
// Seats still free among the wanted ones count as free. Returns nil when fewer than n are free.
func NearestSeats(rows []SeatRow, aisleAfter []int, wanted []string, n int) []string {
	if n < 1 {
		return nil
	}
	var rowSum, numSum, count int
	for ri, r := range rows {
		for _, s := range r.Seats {
			if slices.Contains(wanted, s.Label) {
				rowSum, numSum, count = rowSum+ri, numSum+s.Number, count+1
			}
		}
	}
	if count == 0 {
		return PickSeats(rows, aisleAfter, n)
	}
	// distances in half seats, so that a centre between two seats stays exact
	centreRow, centreNum := 2*rowSum/count, 2*numSum/count
	abs := func(x int) int { return max(x, -x) }
	dist := func(ri, num2 int) int { return 2*abs(2*ri-centreRow) + abs(num2-centreNum) }
	var best []string
	bestDist := -1
	var free []struct {
		label string
		d     int
	}
	for ri, r := range rows {
		var run []Seat
		for _, s := range r.Seats {
			if s.Status != SeatAvailable {
				run = nil
				continue
			}
			free = append(free, struct {
				label string
				d     int
			}{s.Label, dist(ri, 2*s.Number)})
			if len(run) > 0 && (s.Number != run[len(run)-1].Number+1 || slices.Contains(aisleAfter, run[len(run)-1].Number)) {
				run = nil
			}
			run = append(run, s)
			if len(run) > n {
				run = run[1:]
			}
			if len(run) == n {
				if d := dist(ri, run[0].Number+run[n-1].Number); bestDist < 0 || d < bestDist {
					bestDist, best = d, nil
					for _, x := range run {
						best = append(best, x.Label)
					}
				}
			}
		}
	}
	if best != nil {
		return best
	}
	if len(free) < n {
		return nil
	}
	slices.SortStableFunc(free, func(a, b struct {
		label string
		d     int
	}) int {
		return a.d - b.d
	})
	out := make([]string, n)
	for i := range out {
		out[i] = free[i].label
	}
	return out
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

// Bounds of a seat plan: rows A to Z, and at most MaxSeatsInRow seats in a row.
const (
	MaxSeatRows   = 26
	MaxSeatsInRow = 60
)

// SeatPlan is the stored layout of a seated ticket type: Rows rows (A, B, …) of SeatsPerRow seats
// numbered from 1, an aisle (a gap in every row) after each seat number in AisleAfter, an empty
// row after each row label in GapAfterRows, and Blocked seats, which exist but are not for sale.
// A stadium's price zone is a sectioned plan instead: its Sections, each a grid of its own (Rows,
// SeatsPerRow and AisleAfter are then unused), its seats labelled with the section's name first
// ("112-A12"). Its capacity is its number of sellable seats.
type SeatPlan struct {
	Rows         int           `json:"rows"`
	SeatsPerRow  int           `json:"seatsPerRow"`
	AisleAfter   []int         `json:"aisleAfter"`
	GapAfterRows []string      `json:"gapAfterRows"`
	Blocked      []string      `json:"blocked"`
	Sections     []SeatSection `json:"sections,omitempty"`
}

// SeatSection is one section of a sectioned plan: a grid of Rows rows (A from the front) of
// SeatsPerRow seats with aisles after the seat numbers in AisleAfter, where it stands around the
// floor (Ring 1 the lower tier, 2 the upper; From and To in degrees clockwise from the stage end,
// seen from the floor's centre) and Distance, the metres from the stage's front centre to the
// middle of its front row, which ranks it for best available.
type SeatSection struct {
	Name        string `json:"name"`
	Rows        int    `json:"rows"`
	SeatsPerRow int    `json:"seatsPerRow"`
	AisleAfter  []int  `json:"aisleAfter"`
	Ring        int    `json:"ring"`
	From        int    `json:"from"`
	To          int    `json:"to"`
	Distance    int    `json:"distance"`
}

// sectionRE is what a section's name looks like: up to four capitals and digits, such as "112".
var sectionRE = regexp.MustCompile(`^[A-Z0-9]{1,4}$`)

// SeatLabel names seat number n of row in section ("" for a plan without sections): "A12" or "112-A12".
func SeatLabel(section, row string, n int) string {
	if section == "" {
		return row + strconv.Itoa(n)
	}
	return section + "-" + row + strconv.Itoa(n)
}

// SplitSeatLabel reads a seat label into its section ("" without one), row letters and number;
// ok is false when it is not a seat label.
func SplitSeatLabel(label string) (section, row string, n int, ok bool) {
	if !seatRE.MatchString(label) {
		return "", "", 0, false
	}
	if i := strings.IndexByte(label, '-'); i >= 0 {
		section, label = label[:i], label[i+1:]
	}
	digits := strings.IndexAny(label, "0123456789")
	n, err := strconv.Atoi(label[digits:])
	return section, label[:digits], n, err == nil
}

// Grids returns the plan's sections, or the plan itself as one unnamed section at the stage.
func (p SeatPlan) Grids() []SeatSection {
	if len(p.Sections) > 0 {
		return p.Sections
	}
	return []SeatSection{{Rows: p.Rows, SeatsPerRow: p.SeatsPerRow, AisleAfter: p.AisleAfter}}
}

// Section returns the plan's section of that name.
func (p SeatPlan) Section(name string) (SeatSection, bool) {
	for _, s := range p.Sections {
		if s.Name == name {
			return s, true
		}
	}
	return SeatSection{}, false
}

// Seats is the number of seats of the section (blocked ones included).
func (s SeatSection) Seats() int { return s.Rows * s.SeatsPerRow }

// Normalize sorts the plan's aisles, row gaps and blocked seats, upper-cases and deduplicates them.
func (p SeatPlan) Normalize() SeatPlan {
	sorted := func(in []int) []int {
		out := slices.Clone(in)
		slices.Sort(out)
		return slices.Compact(out)
	}
	p.AisleAfter = sorted(p.AisleAfter)
	p.Sections = slices.Clone(p.Sections)
	for i := range p.Sections {
		p.Sections[i].Name = strings.ToUpper(strings.TrimSpace(p.Sections[i].Name))
		p.Sections[i].AisleAfter = sorted(p.Sections[i].AisleAfter)
	}
	upper := func(in []string) []string {
		var out []string
		for _, s := range in {
			if s = strings.ToUpper(strings.TrimSpace(s)); s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	p.GapAfterRows = upper(p.GapAfterRows)
	slices.SortFunc(p.GapAfterRows, func(a, b string) int { return rowIndex(a) - rowIndex(b) })
	p.Blocked = upper(p.Blocked)
	slices.Sort(p.Blocked)
	return p
}

// rowIndex is the 0-based index of a row label of at most one letter, or -1.
func rowIndex(label string) int {
	if len(label) != 1 || label[0] < 'A' || label[0] > 'Z' {
		return -1
	}
	return int(label[0] - 'A')
}

// Validate checks a normalized plan: its size within bounds, aisles between two seats, row gaps
// between two rows, blocked seats on the plan, and at least one seat for sale. Returns EINVALID
// with the field of the problem ("rows", "seatsPerRow", "aisleAfter", "gapAfterRows", "blocked").
func (p SeatPlan) Validate() error {
	fail := func(field, format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		return &Error{Code: EINVALID, Message: msg, Fields: map[string]string{field: msg}}
	}
	if len(p.Sections) > 0 {
		if err := p.validateSections(fail); err != nil {
			return err
		}
	} else if err := p.Grids()[0].validate("", fail); err != nil {
		return err
	}
	for _, r := range p.GapAfterRows {
		if i := rowIndex(r); i < 0 || i >= p.Rows-1 {
			return fail("gapAfterRows", "An empty row must come between two rows (after row A to %s).", RowLabel(max(p.Rows-2, 0)))
		}
	}
	for _, l := range p.Blocked {
		if !p.Has(l) {
			return fail("blocked", "Seat %s is not on the seat map.", truncate(l, 12))
		}
	}
	if p.Sellable() == 0 {
		return fail("blocked", "At least one seat must be for sale.")
	}
	return nil
}

// validateSections checks a sectioned plan's sections: names unique, each grid within bounds.
func (p SeatPlan) validateSections(fail func(field, format string, args ...any) error) error {
	seen := map[string]bool{}
	for _, s := range p.Sections {
		if !sectionRE.MatchString(s.Name) {
			return fail("sections", "A section's name is 1 to 4 letters and digits, not %q.", truncate(s.Name, 12))
		}
		if seen[s.Name] {
			return fail("sections", "Section %s is on the seat map twice.", s.Name)
		}
		seen[s.Name] = true
		if err := s.validate("Section "+s.Name+": ", fail); err != nil {
			return err
		}
	}
	return nil
}

// validate checks a grid's rows, seats per row and aisles; prefix names the section in messages.
func (s SeatSection) validate(prefix string, fail func(field, format string, args ...any) error) error {
	if s.Rows < 1 || s.Rows > MaxSeatRows {
		return fail("rows", "%sA seat map has 1 to %d rows.", prefix, MaxSeatRows)
	}
	if s.SeatsPerRow < 1 || s.SeatsPerRow > MaxSeatsInRow {
		return fail("seatsPerRow", "%sA row has 1 to %d seats.", prefix, MaxSeatsInRow)
	}
	for _, n := range s.AisleAfter {
		if n < 1 || n >= s.SeatsPerRow {
			return fail("aisleAfter", "%sAn aisle must come after seat 1 to %d, between two seats.", prefix, s.SeatsPerRow-1)
		}
	}
	return nil
}

// Has reports whether label is a seat of the plan (blocked or not).
func (p SeatPlan) Has(label string) bool {
	section, row, n, ok := SplitSeatLabel(label)
	if !ok {
		return false
	}
	g := p.Grids()[0]
	if len(p.Sections) > 0 || section != "" {
		if g, ok = p.Section(section); !ok {
			return false
		}
	}
	r := rowIndex(row)
	return r >= 0 && r < g.Rows && n >= 1 && n <= g.SeatsPerRow
}

// Sellable is the plan's number of seats for sale: every seat but the blocked ones.
func (p SeatPlan) Sellable() int {
	n := 0
	for _, g := range p.Grids() {
		n += g.Seats()
	}
	return n - len(p.Blocked)
}

// Seats returns every seat of the plan (blocked ones included), section by section and row by
// row, all available.
func (p SeatPlan) Seats() []SeatRow {
	var rows []SeatRow
	for _, g := range p.Grids() {
		rows = append(rows, g.rows()...)
	}
	return rows
}

// rows returns the section's seats row by row, all available.
func (s SeatSection) rows() []SeatRow {
	rows := make([]SeatRow, 0, s.Rows)
	for r := range s.Rows {
		row := SeatRow{Section: s.Name, Row: RowLabel(r), Seats: make([]Seat, 0, s.SeatsPerRow)}
		for n := 1; n <= s.SeatsPerRow; n++ {
			row.Seats = append(row.Seats, Seat{Label: SeatLabel(s.Name, row.Row, n), Row: row.Row, Number: n, Status: SeatAvailable})
		}
		rows = append(rows, row)
	}
	return rows
}

// PlanOfSeats describes seats generated before plans were stored (palaro.SeatLayout) as a plan:
// as many rows as they have and as many seats per row as the longest; the cells of the shorter
// rows that have no seat count as blocked, so the capacity stays the same.
func PlanOfSeats(rows []SeatRow, blocked []string) SeatPlan {
	p := SeatPlan{Rows: len(rows), Blocked: slices.Clone(blocked)}
	for _, r := range rows {
		for _, s := range r.Seats {
			p.SeatsPerRow = max(p.SeatsPerRow, s.Number)
		}
	}
	for _, r := range rows {
		for n := 1; n <= p.SeatsPerRow; n++ {
			if !slices.ContainsFunc(r.Seats, func(s Seat) bool { return s.Number == n }) {
				p.Blocked = append(p.Blocked, r.Row+strconv.Itoa(n))
			}
		}
	}
	return p.Normalize()
}

// PickSeats chooses the n free seats a waiting-list offer of a seated ticket type holds: the first
// run of n adjacent free seats (one row, consecutive numbers, no aisle between them after the
// seat numbers in aisleAfter), front rows first; else the first n free seats of the first row
// that has n; else the free seats front to back, left to right. Returns nil when fewer than n
// seats are free.
func PickSeats(rows []SeatRow, aisleAfter []int, n int) []string {
	if n < 1 {
		return nil
	}
	var all, oneRow []string
	for _, r := range rows {
		var run, free []string
		prev := 0
		for _, s := range r.Seats {
			if s.Status != SeatAvailable {
				run = nil
				continue
			}
			free = append(free, s.Label)
			if len(run) > 0 && (s.Number != prev+1 || slices.Contains(aisleAfter, prev)) {
				run = nil
			}
			run, prev = append(run, s.Label), s.Number
			if len(run) == n {
				return run
			}
		}
		if oneRow == nil && len(free) >= n {
			oneRow = free[:n]
		}
		all = append(all, free...)
	}
	switch {
	case oneRow != nil:
		return oneRow
	case len(all) < n:
		return nil
	}
	return all[:n]
}
