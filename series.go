package palaro

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Date statuses: a date of a series can be postponed or cancelled alone.
const (
	DateScheduled = "scheduled"
	DatePostponed = "postponed"
	DateCancelled = "cancelled"
)

// DateStatuses are the statuses an organizer can give a date, in the console's order.
var DateStatuses = []string{DateScheduled, DatePostponed, DateCancelled}

// MaxSeriesDates bounds how many dates an event can have (and one bulk creation can add).
const MaxSeriesDates = 366

// Field names of the date forms and API.
const (
	FieldDate          = "date" // the buy body's date slug
	FieldDateName      = "name"
	FieldDateStartsAt  = "startsAt"
	FieldDateEndsAt    = "endsAt"
	FieldDateStatus    = "status"
	FieldDateSalesFrom = "salesStart"
	FieldDateSalesEnd  = "salesEnd"
	FieldDateVenue     = "venue"
	FieldDateCapacity  = "capacity"
	FieldRuleWeekdays  = "weekdays"
	FieldRuleStartTime = "startTime"
	FieldRuleEndTime   = "endTime"
	FieldRuleFrom      = "from"
	FieldRuleWeeks     = "weeks"
)

// Messages of a series' dates, word for word on the buy form, the console and the API.
const (
	MsgDateRequired     = "Pick a date."
	MsgDateUnknown      = "This event has no such date."
	MsgDateNotForSingle = "This event has one date: leave the date out."
	MsgDateCancelled    = "This date is cancelled."
	MsgDatePostponed    = "This date is postponed: tickets go on sale again when it has a new date."
	// MsgDateOver refuses a box-office sale for a date that has ended.
	MsgDateOver = "This date is over: pick one that is on now or coming."
	// MsgDateCancelledFinal refuses a change of a cancelled date (its holders were told and refunded).
	MsgDateCancelledFinal = "This date is cancelled and its tickets are refunded: it cannot change again. Add a new date instead."
	// MsgDateHasSales refuses to delete a date that sold tickets (or holds places for a pass or a pending order).
	MsgDateHasSales = "Tickets were sold for this date, so it cannot be deleted: cancel it instead, so that their holders are told and refunded."
)

// EventDate is one date (session) of an event series. Its start and end are its own; Venue,
// SalesStart and SalesEnd are set only where the date differs from its series (zero: the
// event's venue, the ticket types' sales windows), so a change of the series reaches every date
// that did not set its own.
type EventDate struct {
	ID      int64
	EventID int64
	// Slug is the date's address under its event, /e/{code}/{slug}: YYYY-MM-DD in Manila, with
	// -2, -3, … for a second and later session of one day.
	Slug     string
	Name     string // optional label, such as "Match day 3"
	StartsAt time.Time
	EndsAt   time.Time
	// Venue is the date's own venue, nil when it is the event's.
	Venue      *Venue
	SalesStart time.Time
	SalesEnd   time.Time
	Status     string // DateScheduled, DatePostponed or DateCancelled
	// Sequence grows with each change of the date its holders are told about; the date's
	// iCalendar SEQUENCE is its event's plus this.
	Sequence  int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Day is the date's day in Manila, as its slug begins.
func (d EventDate) Day() string { return ManilaDay(d.StartsAt) }

// VenueOf returns where the date takes place: its own venue or its event's.
func (d EventDate) VenueOf(ev *Event) Venue {
	if d.Venue != nil {
		return *d.Venue
	}
	return ev.Venue
}

// ScheduleOf returns the date's schedule as its holders are told of it (its status is one of
// EventChangeKind's: postponed and cancelled mean the same for a date as for an event).
func (d EventDate) ScheduleOf(ev *Event) EventSchedule {
	return EventSchedule{Status: d.Status, StartsAt: d.StartsAt, EndsAt: d.EndsAt, Venue: VenueLine(d.VenueOf(ev))}
}

// Past reports whether the date has ended at now.
func (d EventDate) Past(now time.Time) bool { return !now.Before(d.EndsAt) }

// PassDates are the ids of the dates a pass holds at now: the coming dates of its series not
// cancelled (a postponed date stays). A pass valid on every date takes a place on each of them;
// a seated pass, of either kind, keeps its seat on each, so its seat must be free on all of them.
func PassDates(dates []EventDate, now time.Time) []int64 {
	var ids []int64
	for _, d := range dates {
		if d.Status != DateCancelled && !d.Past(now) {
			ids = append(ids, d.ID)
		}
	}
	return ids
}

// SaleState tells whether ticket type t can be bought for the date at now, given the places left
// on it (DateStock.Available): a cancelled event or date, or a postponed date, ends its sale;
// the date's own sales window, where set, replaces the type's.
func (d EventDate) SaleState(t TicketType, ev *Event, left int, now time.Time) string {
	if d.Status != DateScheduled || (ev != nil && ev.Status == EventCancelled) || !now.Before(d.EndsAt) {
		return SaleEnded
	}
	start, end := t.SalesStart, t.SalesEnd
	if !d.SalesStart.IsZero() {
		start = d.SalesStart
	}
	if !d.SalesEnd.IsZero() {
		end = d.SalesEnd
	}
	switch {
	case !end.IsZero() && !now.Before(end):
		return SaleEnded
	case !start.IsZero() && now.Before(start):
		return SaleNotStarted
	case left <= 0:
		return SaleSoldOut
	}
	return SaleOpen
}

// ManilaDay is t's calendar day in Manila, as YYYY-MM-DD.
func ManilaDay(t time.Time) string { return t.In(Manila).Format(time.DateOnly) }

// DateSlug is the slug of the n-th session (from 1) of a day in Manila: "2027-01-09", "2027-01-09-2".
func DateSlug(day string, n int) string {
	if n <= 1 {
		return day
	}
	return day + "-" + strconv.Itoa(n)
}

var dateSlugPattern = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})(?:-([2-9]|[1-9]\d))?$`)

// ParseDateSlug splits a date slug into its Manila day and session number (1 for the first).
// ok is false for anything that is not a real day, optionally followed by -2 … -99.
func ParseDateSlug(slug string) (day string, n int, ok bool) {
	m := dateSlugPattern.FindStringSubmatch(slug)
	if m == nil {
		return "", 0, false
	}
	if _, err := time.ParseInLocation(time.DateOnly, m[1], Manila); err != nil {
		return "", 0, false
	}
	n = 1
	if m[2] != "" {
		n, _ = strconv.Atoi(m[2])
	}
	return m[1], n, true
}

// DateSlugLabel names a date by its slug for people: "Sat 9 Jan 2027", with ", session 2" for
// a second session of one day; the slug itself when it is not a date's.
func DateSlugLabel(slug string) string {
	day, n, ok := ParseDateSlug(slug)
	if !ok {
		return slug
	}
	t, _ := time.ParseInLocation(time.DateOnly, day, Manila)
	label := t.Format("Mon 2 Jan 2006")
	if n > 1 {
		label += ", session " + strconv.Itoa(n)
	}
	return label
}

// DateOn returns the date a scan at at admits to: the first of dates (by start) going on at that
// moment, so a session from 10 PM to 1 AM still admits after midnight in Manila; else the first
// that starts on the Manila day of at; else nil.
func DateOn(dates []EventDate, at time.Time) *EventDate {
	if i := slices.IndexFunc(dates, func(d EventDate) bool { return !at.Before(d.StartsAt) && at.Before(d.EndsAt) }); i >= 0 {
		return &dates[i]
	}
	day := ManilaDay(at)
	if i := slices.IndexFunc(dates, func(d EventDate) bool { return ManilaDay(d.StartsAt) == day }); i >= 0 {
		return &dates[i]
	}
	return nil
}

// GateDate returns the date a series' gate opens on at now, of dates (by start): the one going
// on, else the next to start on now's day in Manila, else the last of that day's (ended), else
// the next to come, else the last; a cancelled date is never chosen. Nil when every date is
// cancelled.
func GateDate(dates []EventDate, now time.Time) *EventDate {
	var open []*EventDate
	for i := range dates {
		if dates[i].Status != DateCancelled {
			open = append(open, &dates[i])
		}
	}
	day := ManilaDay(now)
	today := func(d *EventDate) bool { return ManilaDay(d.StartsAt) == day }
	if i := slices.IndexFunc(open, func(d *EventDate) bool { return !now.Before(d.StartsAt) && now.Before(d.EndsAt) }); i >= 0 {
		return open[i]
	}
	if i := slices.IndexFunc(open, func(d *EventDate) bool { return today(d) && now.Before(d.StartsAt) }); i >= 0 {
		return open[i]
	}
	for i := len(open) - 1; i >= 0; i-- {
		if today(open[i]) {
			return open[i]
		}
	}
	if i := slices.IndexFunc(open, func(d *EventDate) bool { return now.Before(d.StartsAt) }); i >= 0 {
		return open[i]
	}
	if len(open) == 0 {
		return nil
	}
	return open[len(open)-1]
}

// GateDateLabel names a date at the gate: "Match Day 3 · Sat 12 Dec", or "Sat 12 Dec" for a date
// without a name.
func GateDateLabel(d EventDate) string {
	day := d.StartsAt.In(Manila).Format("Mon 2 Jan")
	if d.Name == "" {
		return day
	}
	return d.Name + " · " + day
}

// MsgNoDateToday refuses a scan of a series when no date is going on or starts that day in Manila
// and the scan named none (the gate page names none; an API client can send the date).
const MsgNoDateToday = "This event has no date today."

// SlugDates gives new dates their slugs beside the event's existing ones: each date's Manila day,
// with the next free session number when the day has a date already. Dates of one day are
// numbered in the order of their starts.
func SlugDates(existing []EventDate, added []EventDate) []EventDate {
	taken := map[string]bool{}
	for _, d := range existing {
		taken[d.Slug] = true
	}
	order := make([]int, len(added))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return added[a].StartsAt.Compare(added[b].StartsAt) })
	out := slices.Clone(added)
	for _, i := range order {
		day := ManilaDay(out[i].StartsAt)
		for n := 1; ; n++ {
			if s := DateSlug(day, n); !taken[s] {
				out[i].Slug, taken[s] = s, true
				break
			}
		}
	}
	return out
}

// DateInput is what an organizer sets on one date. Zero SalesStart/SalesEnd and VenueID 0 keep
// the series' own; Capacities sets the date's own capacity per ticket type code (a type left
// out keeps its series capacity).
type DateInput struct {
	Name     string
	StartsAt time.Time
	EndsAt   time.Time
	VenueID  int64
	// Venue, when set, is the date's own venue (a change of a date; VenueID is then ignored).
	Venue      *VenueInput
	SalesStart time.Time
	SalesEnd   time.Time
	Status     string
	Capacities map[string]int
}

// Validate checks a date's input; the message names each failing field.
func (in DateInput) Validate() error {
	fields := map[string]string{}
	if len([]rune(in.Name)) > 120 {
		fields[FieldDateName] = "Keep the date's name to 120 characters."
	}
	switch {
	case in.StartsAt.IsZero():
		fields[FieldDateStartsAt] = "Enter when the date starts, such as 2027-01-09T19:00:00+08:00."
	case in.EndsAt.IsZero():
		fields[FieldDateEndsAt] = "Enter when the date ends, such as 2027-01-09T23:00:00+08:00."
	case !in.EndsAt.After(in.StartsAt):
		fields[FieldDateEndsAt] = "The date must end after it starts."
	case in.EndsAt.Sub(in.StartsAt) > 7*24*time.Hour:
		fields[FieldDateEndsAt] = "A date lasts at most 7 days; make the days separate dates."
	}
	if in.Status != "" && !slices.Contains(DateStatuses, in.Status) {
		fields[FieldDateStatus] = "Choose scheduled, postponed or cancelled."
	}
	if !in.SalesStart.IsZero() && !in.SalesEnd.IsZero() && !in.SalesEnd.After(in.SalesStart) {
		fields[FieldDateSalesEnd] = "Sales must end after they start."
	}
	if v := in.Venue; v != nil {
		for field, value := range map[string]string{"name": v.Name, "address": v.Address, "city": v.City} {
			if strings.TrimSpace(value) == "" {
				fields[FieldDateVenue+"."+field] = "Enter the venue's " + field + "."
			}
		}
	}
	for code, n := range in.Capacities {
		if n < 0 || n > 1_000_000 {
			fields[FieldDateCapacity+"."+code] = "Enter a capacity between 0 and 1,000,000."
		}
	}
	if len(fields) > 0 {
		return &Error{Code: EINVALID, Message: "Please check the date.", Fields: fields}
	}
	return nil
}

// DateRule creates dates in bulk: every one of Weekdays, from StartTime to EndTime (24-hour
// "19:00", Manila time; an end at or before the start is the next day), starting on From
// (YYYY-MM-DD, Manila) for Weeks weeks. "Every Friday and Saturday, 7 PM to 11 PM, from
// 9 January for 8 weeks" is {Fri, Sat}, "19:00", "23:00", "2027-01-09", 8: 16 dates, the first on
// the 9th itself when it is one of the weekdays.
type DateRule struct {
	Weekdays  []time.Weekday
	StartTime string
	EndTime   string
	From      string
	Weeks     int
}

// MaxRuleWeeks bounds a rule's length (two years).
const MaxRuleWeeks = 104

var clockPattern = regexp.MustCompile(`^([01]?\d|2[0-3]):([0-5]\d)$`)

// parseClock reads "19:00" (or "7:05") as minutes after midnight.
func parseClock(s string) (int, bool) {
	m := clockPattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	return h*60 + min, true
}

// ParseWeekday reads a weekday by its English name or three-letter abbreviation, any case.
func ParseWeekday(s string) (time.Weekday, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := strings.ToLower(d.String())
		if s == name || (len(s) == 3 && strings.HasPrefix(name, s)) {
			return d, true
		}
	}
	return 0, false
}

// Dates expands the rule into dates (start and end only), in order; it checks the rule first
// and names each failing field.
func (r DateRule) Dates() ([]EventDate, error) {
	fields := map[string]string{}
	if len(r.Weekdays) == 0 {
		fields[FieldRuleWeekdays] = "Pick at least one day of the week."
	}
	start, okStart := parseClock(r.StartTime)
	if !okStart {
		fields[FieldRuleStartTime] = "Enter the start time as HH:MM, such as 19:00."
	}
	end, okEnd := parseClock(r.EndTime)
	if !okEnd {
		fields[FieldRuleEndTime] = "Enter the end time as HH:MM, such as 23:00."
	}
	from, err := time.ParseInLocation(time.DateOnly, strings.TrimSpace(r.From), Manila)
	if err != nil {
		fields[FieldRuleFrom] = "Enter the first day as YYYY-MM-DD, such as 2027-01-09."
	}
	if r.Weeks < 1 || r.Weeks > MaxRuleWeeks {
		fields[FieldRuleWeeks] = fmt.Sprintf("Enter between 1 and %d weeks.", MaxRuleWeeks)
	}
	if len(fields) > 0 {
		return nil, &Error{Code: EINVALID, Message: "Please check the dates to create.", Fields: fields}
	}
	if end <= start {
		end += 24 * 60 // 10 PM to 1 AM ends the next day
	}
	var dates []EventDate
	for day := 0; day < 7*r.Weeks; day++ {
		d := from.AddDate(0, 0, day) // calendar days in Manila (no daylight saving there)
		if !slices.Contains(r.Weekdays, d.Weekday()) {
			continue
		}
		s := d.Add(time.Duration(start) * time.Minute)
		dates = append(dates, EventDate{StartsAt: s, EndsAt: d.Add(time.Duration(end) * time.Minute), Status: DateScheduled})
	}
	if len(dates) > MaxSeriesDates {
		return nil, &Error{Code: EINVALID, Message: "Please check the dates to create.",
			Fields: map[string]string{FieldRuleWeeks: fmt.Sprintf("That makes %d dates; an event has at most %d.", len(dates), MaxSeriesDates)}}
	}
	return dates, nil
}

// DateStock is a ticket type's places on one date: its capacity there (the type's own unless the
// date set one, OwnCapacity) and what is sold and held by pending orders.
type DateStock struct {
	DateID       int64
	TicketTypeID int64
	Capacity     int
	OwnCapacity  bool
	Sold         int
	Held         int
}

// Available is how many places remain on the date: capacity minus sold and held ones.
func (s DateStock) Available() int { return max(s.Capacity-s.Sold-s.Held, 0) }

// DateAvailability is one date with the places left of each of its event's ticket types there.
// A pass type's entry counts the places of the type it is a pass of (what it would take).
type DateAvailability struct {
	Date  EventDate
	Stock []DateStock // in the event's ticket type order; a pass's is that of its PassOf type
}

// Of returns the date's stock of a ticket type, and whether it has one.
func (a DateAvailability) Of(ticketTypeID int64) (DateStock, bool) {
	i := slices.IndexFunc(a.Stock, func(s DateStock) bool { return s.TicketTypeID == ticketTypeID })
	if i < 0 {
		return DateStock{}, false
	}
	return a.Stock[i], true
}

// SeriesService reads the dates of event series for the public pages, buying and the console.
type SeriesService interface {
	// ListEventDates returns an event's dates by start (every status; none for a single-date event).
	ListEventDates(ctx context.Context, eventID int64) ([]EventDate, error)
	// FindEventDate returns the event's date with that slug. Returns ENOTFOUND when it has none.
	FindEventDate(ctx context.Context, eventID int64, slug string) (*EventDate, error)
	// ListDateAvailability returns each date of the event (by start) with the places left there of
	// each of its ticket types.
	ListDateAvailability(ctx context.Context, eventID int64) ([]DateAvailability, error)
	// CreateDates adds dates to an event (each gets its slug; passes valid on every date take
	// their places there). Returns the dates created; EINVALID names a failing field, ECONFLICT
	// says when the event would have more than MaxSeriesDates or a date too little room for the
	// passes already sold.
	CreateDates(ctx context.Context, eventID int64, dates []DateInput, now time.Time) ([]EventDate, error)
	// UpdateDate sets what in says on the event's date slug (the whole of it: start, end, name,
	// venue, sales window, status, and the capacities it names). A change of time, venue or
	// status is told to every holder of the date's day tickets and of passes covering it, queued
	// in the same write; cancelling starts the refund of its day-ticket orders. ENOTFOUND for an
	// unknown date, ECONFLICT for a cancelled date (MsgDateCancelledFinal) or a capacity below
	// what is sold, EINVALID naming the field.
	UpdateDate(ctx context.Context, eventID int64, slug string, in DateInput, actor string, now time.Time) (*EventDate, error)
	// DeleteDate deletes a date that sold nothing; ECONFLICT (MsgDateHasSales) when it did.
	DeleteDate(ctx context.Context, eventID int64, slug string, actor string, now time.Time) error
	// PreviewDateCancel says what cancelling the event's date slug at now would do: who is
	// e-mailed and what is refunded. Returns ENOTFOUND for an unknown date.
	PreviewDateCancel(ctx context.Context, eventID int64, slug string, now time.Time) (DateCancelPreview, error)
	// DateSales counts each date of the event (by start) for the console: each ticket type's
	// places there and the check-ins; none for a single-date event.
	DateSales(ctx context.Context, eventID int64) ([]DateSales, error)
}

// DateCancelPreview is what cancelling a date of a series does, for the console's confirmation.
type DateCancelPreview struct {
	// Holders counts the addresses e-mailed: holders of the date's day tickets and of passes covering it.
	Holders int
	// DayOrders counts the paid day-ticket orders of the date (and add-on orders of their tickets)
	// refunded in full, DayAmount what they give back.
	DayOrders int
	DayAmount Money
	// Passes counts the pass tickets refunded their share for the date, PassAmount what they give back.
	Passes     int
	PassAmount Money
}

// DateSales is one date of a series as the console counts it.
type DateSales struct {
	Date EventDate
	// Types are the event's ticket types, in their order, with their places on the date.
	Types []DateTypeSales
	// Admits counts the live tickets valid on the date (its day tickets, the passes holding a
	// place there) and CheckedIn those of them admitted on it.
	Admits, CheckedIn int
}

// DateTypeSales is one ticket type's places on one date. For a day ticket: the places taken
// (Sold, of which Passes by passes of it, and Held by pending orders) against its capacity there.
// For a pass: Sold counts its tickets holding a place there; Capacity is 0 (its places are its
// day ticket's).
type DateTypeSales struct {
	TicketTypeID int64
	Name         string
	PassKind     string
	Sold         int
	Held         int
	Passes       int
	Capacity     int
}

// SeriesTotals sums a series' day tickets over its dates, by ticket type id: the places sold and
// held and the capacity of every date (a day ticket's own counters stay 0: its places are on its
// dates). Passes are left out: their own counters are their totals.
func SeriesTotals(dates []DateSales) map[int64]DateTypeSales {
	out := map[int64]DateTypeSales{}
	for _, d := range dates {
		for _, t := range d.Types {
			if t.PassKind != "" {
				continue
			}
			sum := out[t.TicketTypeID]
			sum.TicketTypeID, sum.Name = t.TicketTypeID, t.Name
			sum.Sold += t.Sold
			sum.Held += t.Held
			sum.Passes += t.Passes
			sum.Capacity += t.Capacity
			out[t.TicketTypeID] = sum
		}
	}
	return out
}

// InputOf is the date as an organizer set it, the start of a change of it.
func (d EventDate) InputOf() DateInput {
	in := DateInput{Name: d.Name, StartsAt: d.StartsAt, EndsAt: d.EndsAt, SalesStart: d.SalesStart, SalesEnd: d.SalesEnd,
		Status: d.Status}
	if d.Venue != nil {
		in.VenueID = d.Venue.ID
	}
	return in
}
