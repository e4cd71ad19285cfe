// Package queue keeps events' queues in memory, in front of the database that holds them: a view
// of a place is answered from memory, and time alone admits visitors, so a refresh writes nothing.
package queue

import (
	"sort"
	"time"

	"palaro"
)

// line is one event's queue in memory: the stored queue, the places in order and when each place's
// turn comes.
type line struct {
	q palaro.Queue
	// installed is Manager.installed when this line was put in memory.
	installed uint64
	// early counts the browsers that arrived before the draw.
	early int
	// earlyDates gives the date of each early browser's place that is for a date of a series.
	earlyDates map[int64]int64
	// places holds the drawn and later places by place number (index place-1); a zero ID is a
	// place another server gave that this copy has not loaded yet.
	places []palaro.QueuePlace
	// index gives a place ID's index in places, or -1 for a browser waiting for the draw.
	index map[int64]int
	// turns[i] is when places[i] is admitted; it covers places up to the first gap.
	turns []time.Time
	// seen holds versions applied ahead of one not applied yet.
	seen map[int64]bool
}

// newLine builds an event's line from its stored queue and places.
func newLine(q palaro.Queue, places []palaro.QueuePlace) *line {
	l := &line{q: q, index: make(map[int64]int, len(places)), seen: map[int64]bool{}, earlyDates: map[int64]int64{}}
	for _, p := range places {
		l.put(p)
	}
	l.extend()
	return l
}

// put adds a place without computing turns.
func (l *line) put(p palaro.QueuePlace) {
	if p.Place == 0 {
		if _, ok := l.index[p.ID]; !ok {
			l.early++
		}
		l.index[p.ID] = -1
		if p.DateID != 0 {
			l.earlyDates[p.ID] = p.DateID
		}
		return
	}
	for len(l.places) < p.Place {
		l.places = append(l.places, palaro.QueuePlace{})
	}
	l.places[p.Place-1] = p
	l.index[p.ID] = p.Place - 1
}

// apply adds a place this server gave, stored at version; it reports false when the place leaves
// a gap (another server gave the places before it), so the line should be loaded again.
func (l *line) apply(p palaro.QueuePlace, version int64) bool {
	if !l.fresh(version) {
		return true // already in the copy loaded from the database
	}
	l.put(p)
	l.extend()
	return p.Place == 0 || p.Place <= len(l.turns)
}

// fresh records a version of the queue this server wrote; false when the copy loaded from the
// database holds it already.
func (l *line) fresh(version int64) bool {
	if version <= l.q.Version || l.seen[version] {
		return false
	}
	l.seen[version] = true
	for l.seen[l.q.Version+1] {
		delete(l.seen, l.q.Version+1)
		l.q.Version++
	}
	return true
}

// move makes a place, moved at version, one for another date; it reports false when this copy
// does not hold the place yet (it should be loaded again).
func (l *line) move(placeID, dateID int64, version int64) bool {
	i, ok := l.index[placeID]
	if !ok {
		return false
	}
	if !l.fresh(version) {
		return true
	}
	switch {
	case i >= 0:
		l.places[i].DateID = dateID
	case dateID == 0:
		delete(l.earlyDates, placeID)
	default:
		l.earlyDates[placeID] = dateID
	}
	return true
}

// dateOf is the date the place at index i (-1: waiting for the draw) is for.
func (l *line) dateOf(placeID int64, i int) int64 {
	if i < 0 {
		return l.earlyDates[placeID]
	}
	return l.places[i].DateID
}

// byDate splits the waiting and admitted places by their dates at now; nil when no place is for a
// date.
func (l *line) byDate(now time.Time) map[int64]palaro.QueueCount {
	out := map[int64]palaro.QueueCount{}
	if !l.q.Opened {
		for _, d := range l.earlyDates {
			c := out[d]
			c.Waiting++
			out[d] = c
		}
		if len(out) == 0 {
			return nil
		}
		out[0] = palaro.QueueCount{Waiting: l.early - len(l.earlyDates)}
		return out
	}
	done := l.admitted(now)
	dated := false
	for i, p := range l.places {
		c := out[p.DateID]
		if i < done {
			c.Admitted++
		} else {
			c.Waiting++
		}
		out[p.DateID] = c
		dated = dated || p.DateID != 0
	}
	if !dated {
		return nil
	}
	return out
}

// extend computes the turns of the places after the last computed one, up to the first gap.
// A turn is the previous turn plus one interval at the rate in force, but never before the place
// joined (nor before the opening): a burst after a quiet spell is admitted at the rate too.
func (l *line) extend() {
	for len(l.turns) < len(l.places) {
		k := len(l.turns)
		p := l.places[k]
		if p.ID == 0 {
			return
		}
		at := p.JoinedAt
		if at.Before(l.q.OpensAt) {
			at = l.q.OpensAt
		}
		if k > 0 {
			if n := l.next(l.turns[k-1]); n.After(at) {
				at = n
			}
		}
		l.turns = append(l.turns, at)
	}
}

// next returns the earliest turn after one at x: one interval at the rate in force at x, or sooner
// when a faster rate starts before that.
func (l *line) next(x time.Time) time.Time {
	rates := l.q.Rates
	i := sort.Search(len(rates), func(i int) bool { return rates[i].From.After(x) }) - 1
	if i < 0 {
		i = 0
	}
	n := x.Add(interval(rates[i].AdmitPerMinute))
	for _, r := range rates[i+1:] {
		if !r.From.Before(n) {
			break
		}
		if c := r.From.Add(interval(r.AdmitPerMinute)); c.Before(n) {
			n = c
		}
	}
	return n
}

// recompute computes every turn again, after a rate change. Turns already passed stay as they
// were: a new rate starts now, so it changes only turns to come.
func (l *line) recompute() {
	l.turns = l.turns[:0]
	l.extend()
}

// interval is the time between two admissions at a rate.
func interval(perMinute int) time.Duration { return time.Minute / time.Duration(max(perMinute, 1)) }

// admitted returns how many places were admitted by now.
func (l *line) admitted(now time.Time) int {
	return sort.Search(len(l.turns), func(i int) bool { return l.turns[i].After(now) })
}

// status answers about the place placeID at index i (-1: waiting for the draw).
func (l *line) status(placeID int64, i int, now time.Time) palaro.QueueStatus {
	st := palaro.QueueStatus{OpensAt: l.q.OpensAt, DateID: l.dateOf(placeID, i)}
	if !l.q.Opened || i < 0 {
		st.EstimatedWaitSeconds = seconds(l.q.OpensAt.Sub(now))
		return st
	}
	pos := i + 1
	done := l.admitted(now)
	ahead := max(i-done, 0)
	st.Position, st.Ahead = &pos, &ahead
	if i < len(l.turns) {
		st.Admitted = !l.turns[i].After(now)
		st.EstimatedWaitSeconds = seconds(l.turns[i].Sub(now))
	} else {
		// beyond a gap another server left: an estimate at the current rate
		st.EstimatedWaitSeconds = seconds(time.Duration(ahead+1) * interval(l.q.AdmitPerMinute))
	}
	st.AdmittedAt = l.places[i].AdmittedAt
	return st
}

// seconds rounds a wait up to whole seconds, never below zero.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int((d + time.Second - 1) / time.Second)
}
