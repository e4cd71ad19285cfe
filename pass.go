package palaro

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Pass kinds of a ticket type (TicketType.PassKind); "" is a day ticket (or a single-date event's ticket).
const (
	// PassEvery is valid on every date of the series.
	PassEvery = "every"
	// PassCount is valid on PassDates dates the holder picks as they go (a "5-match pass").
	PassCount = "count"
)

// PassKinds are the pass kinds an organizer can choose from.
var PassKinds = []string{PassEvery, PassCount}

// Field names of a pass's settings on a ticket type.
const (
	FieldPassKind  = "passKind"
	FieldPassDates = "passDates"
	FieldPassOf    = "passOf"
)

// Messages of passes, word for word.
const (
	MsgPassNeedsSeries  = "A pass needs dates: add the event's dates first."
	MsgPassOfRequired   = "Choose the day ticket whose places the pass takes on each date."
	MsgPassOfPass       = "A pass takes the places of a day ticket, not of another pass."
	MsgPassDatesRange   = "Enter between 2 and %d dates."
	MsgPassKindUnknown  = "Choose every date or a number of dates."
	MsgPassNoDates      = "This pass has no dates left to use."
	MsgPassNoDateChoice = "A pass is not bought for one date: leave the date out."
	MsgPassDatesMore    = "A pass for %d dates needs as many dates: this event has %d."
	MsgPassIsPassOf     = "Passes take this ticket's places on each date: it cannot become a pass itself."
	MsgPassSold         = "The pass settings cannot change once tickets of this type are sold or held."
	MsgPassOfDayOnly    = "Only a pass takes the places of another ticket type: choose a pass kind or leave this empty."
)

// PassRowLabel is what a pass's row says where a day ticket's says its date (exports, order lists).
const PassRowLabel = "Season pass"

// IsPass reports whether the ticket type is a season pass.
func (t TicketType) IsPass() bool { return t.PassKind != "" }

// PassLabel describes a pass to buyers: "Every date" or "5 dates of your choice"; "" for a day ticket.
func (t TicketType) PassLabel() string {
	switch t.PassKind {
	case PassEvery:
		return "Every date"
	case PassCount:
		return fmt.Sprintf("%s of your choice", Plural(t.PassDates, "date", "dates"))
	}
	return ""
}

// ValidatePass checks a ticket type's pass settings against its event's other types (types,
// where the pass's PassOf is looked up and the passes taking t's places are found) and its number
// of dates; it names each failing field. A day ticket (PassKind "") needs only that it names no
// PassOf.
func ValidatePass(t TicketType, types []TicketType, dates int) map[string]string {
	fields := map[string]string{}
	if t.PassKind == "" {
		if t.PassOf != 0 {
			fields[FieldPassOf] = MsgPassOfDayOnly
		}
		return fields
	}
	if !slices.Contains(PassKinds, t.PassKind) {
		fields[FieldPassKind] = MsgPassKindUnknown
		return fields
	}
	switch {
	case dates < 2:
		fields[FieldPassKind] = MsgPassNeedsSeries
	case t.ID != 0 && slices.ContainsFunc(types, func(o TicketType) bool { return o.PassOf == t.ID && o.ID != t.ID }):
		fields[FieldPassKind] = MsgPassIsPassOf
	}
	switch {
	case t.PassKind == PassCount && (t.PassDates < 2 || t.PassDates > MaxSeriesDates):
		fields[FieldPassDates] = fmt.Sprintf(MsgPassDatesRange, MaxSeriesDates)
	case t.PassKind == PassCount && dates >= 2 && t.PassDates > dates:
		fields[FieldPassDates] = fmt.Sprintf(MsgPassDatesMore, t.PassDates, dates)
	}
	i := slices.IndexFunc(types, func(o TicketType) bool { return o.ID == t.PassOf && o.ID != t.ID })
	switch {
	case t.PassOf == 0 || i < 0:
		fields[FieldPassOf] = MsgPassOfRequired
	case types[i].IsPass():
		fields[FieldPassOf] = MsgPassOfPass
	}
	return fields
}

// PassUse is one date a pass ticket holds a place on: its seat there and its admission.
type PassUse struct {
	DateID      int64
	Slug        string
	StartsAt    time.Time
	Seat        string
	CheckedInAt time.Time // zero until admitted on that date
	Gate        string
}

// UsedDatesLine says which dates a pass has been admitted on, for the gate's answer:
// "Used on 9 Jan, 16 Jan (2 of 5)" or "Not used yet"; total is the pass's number of dates (0 for
// every date).
func UsedDatesLine(uses []PassUse, total int) string {
	var used []string
	for _, u := range uses {
		if !u.CheckedInAt.IsZero() {
			used = append(used, u.StartsAt.In(Manila).Format("2 Jan"))
		}
	}
	if len(used) == 0 {
		return "Not used yet"
	}
	line := "Used on " + strings.Join(used, ", ")
	if total > 0 {
		line += fmt.Sprintf(" (%d of %d)", len(used), total)
	}
	return line
}
