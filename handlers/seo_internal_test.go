package handlers

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestEventJSONLD_Availability: each offer's availability and validFrom follow the ticket type's
// sale at the page's time, the event's state and its queue.
func TestEventJSONLD_Availability(t *testing.T) {
	s := &Server{config: Config{BaseURL: "https://palaro.test"}}
	now := time.Date(2026, 3, 18, 10, 0, 0, 0, palaro.Manila)
	open := palaro.TicketType{Code: "open", Name: "Open", Capacity: 100}
	few := palaro.TicketType{Code: "few", Name: "Few", Capacity: 100, Sold: 85}
	soldOut := palaro.TicketType{Code: "gone", Name: "Gone", Capacity: 10, Sold: 10}
	ended := palaro.TicketType{Code: "ended", Name: "Ended", Capacity: 100, SalesEnd: now.Add(-time.Hour)}
	later := palaro.TicketType{Code: "later", Name: "Later", Capacity: 100, SalesStart: now.Add(48 * time.Hour)}
	event := func(status string, types ...palaro.TicketType) *palaro.Event {
		return &palaro.Event{Code: "ev", Name: "Ev", Status: status, ImageURL: "/img.jpg",
			StartsAt: now.AddDate(0, 0, 7), EndsAt: now.AddDate(0, 0, 7).Add(3 * time.Hour), TicketTypes: types}
	}
	offers := func(ld map[string]any) (avail, from []string) {
		for _, o := range ld["offers"].([]map[string]any) {
			avail = append(avail, o["availability"].(string))
			v, _ := o["validFrom"].(string)
			from = append(from, v)
		}
		return avail, from
	}
	const sch = "https://schema.org/"

	t.Run("Scheduled", func(t *testing.T) {
		avail, from := offers(s.eventJSONLD(event(palaro.EventScheduled, open, few, soldOut, ended, later), now, nil))
		require.Equal(t, []string{sch + "InStock", sch + "LimitedAvailability", sch + "SoldOut", sch + "SoldOut", sch + "PreOrder"}, avail)
		require.Equal(t, []string{"", "", "", "", "2026-03-20T10:00:00+08:00"}, from)
	})
	t.Run("Cancelled", func(t *testing.T) {
		avail, _ := offers(s.eventJSONLD(event(palaro.EventCancelled, open, later), now, nil))
		require.Equal(t, []string{sch + "Discontinued", sch + "Discontinued"}, avail)
	})
	t.Run("QueueNotYetOpen", func(t *testing.T) {
		q := &palaro.Queue{QueueSettings: palaro.QueueSettings{OpensAt: now.Add(2 * time.Hour)}}
		avail, from := offers(s.eventJSONLD(event(palaro.EventScheduled, open, later), now, q))
		require.Equal(t, []string{sch + "PreOrder", sch + "PreOrder"}, avail)
		require.Equal(t, []string{"2026-03-18T12:00:00+08:00", "2026-03-20T10:00:00+08:00"}, from, "the later of the queue's and the sale's opening")
	})
	t.Run("QueueOpen", func(t *testing.T) {
		q := &palaro.Queue{QueueSettings: palaro.QueueSettings{OpensAt: now.Add(-time.Minute)}}
		avail, from := offers(s.eventJSONLD(event(palaro.EventScheduled, open), now, q))
		require.Equal(t, []string{sch + "InStock"}, avail)
		require.Equal(t, []string{"2026-03-18T09:59:00+08:00"}, from)
	})
}
