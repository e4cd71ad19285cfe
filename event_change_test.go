package palaro

import (
	"testing"
	"time"
)

func TestEventChangeKind(t *testing.T) {
	start := time.Date(2026, 5, 1, 18, 0, 0, 0, Manila)
	on := EventSchedule{Status: EventScheduled, StartsAt: start, EndsAt: start.Add(4 * time.Hour), Venue: "Arena, 1 Road, Pasay"}
	with := func(f func(*EventSchedule)) EventSchedule { s := on; f(&s); return s }
	for name, c := range map[string]struct {
		old, new EventSchedule
		want     string
	}{
		"nothing changed":           {on, on, ""},
		"postponed":                 {on, with(func(s *EventSchedule) { s.Status = EventPostponed }), EventPostponed},
		"postponed again, new date": {with(func(s *EventSchedule) { s.Status = EventPostponed }), with(func(s *EventSchedule) { s.Status = EventPostponed; s.StartsAt = start.AddDate(0, 1, 0) }), ""},
		"cancelled":                 {on, with(func(s *EventSchedule) { s.Status = EventCancelled }), EventCancelled},
		"cancelled again":           {with(func(s *EventSchedule) { s.Status = EventCancelled }), with(func(s *EventSchedule) { s.Status = EventCancelled }), ""},
		"new start":                 {on, with(func(s *EventSchedule) { s.StartsAt = start.Add(time.Hour) }), EventRescheduled},
		"new end":                   {on, with(func(s *EventSchedule) { s.EndsAt = start.Add(time.Hour) }), EventRescheduled},
		"new venue":                 {on, with(func(s *EventSchedule) { s.Venue = "Hall, 2 Street, Cebu City" }), EventRescheduled},
		"postponed, on again":       {with(func(s *EventSchedule) { s.Status = EventPostponed }), on, EventRescheduled},
		"a draft's new date":        {with(func(s *EventSchedule) { s.Status = EventDraft }), with(func(s *EventSchedule) { s.Status = EventDraft; s.StartsAt = start.Add(time.Hour) }), ""},
		"published from draft":      {with(func(s *EventSchedule) { s.Status = EventDraft }), on, ""},
		"back to draft":             {on, with(func(s *EventSchedule) { s.Status = EventDraft }), ""},
	} {
		if got := EventChangeKind(c.old, c.new); got != c.want {
			t.Errorf("%s: got %q, want %q", name, got, c.want)
		}
	}
}
