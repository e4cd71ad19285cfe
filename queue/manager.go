package queue

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"palaro"
	"palaro/internal/metrics"
)

// Store is the database side of the queues, the source of truth every server's memory follows.
type Store interface {
	// QueueVersions returns each queue's version by event ID.
	QueueVersions(ctx context.Context) (map[int64]int64, error)
	// LoadQueue returns an event's queue with its places (nil when it has none).
	LoadQueue(ctx context.Context, eventID int64) (*palaro.Queue, []palaro.QueuePlace, error)
	// SaveQueue creates or changes an event's queue (nil settings delete it), with an audit entry.
	SaveQueue(ctx context.Context, ev *palaro.Event, actor string, settings *palaro.QueueSettings, seed uint64, now time.Time) error
	// JoinQueue stores a new place (for a date, 0: none) and returns it with the queue's version after it.
	JoinQueue(ctx context.Context, eventID, dateID int64, client string, now time.Time) (palaro.QueuePlace, int64, error)
	// MoveQueuePlace makes a place not admitted yet one for another date and returns the queue's
	// version after it.
	MoveQueuePlace(ctx context.Context, eventID, placeID, dateID int64) (int64, error)
	// DrawQueue gives the early arrivals their drawn places, once.
	DrawQueue(ctx context.Context, eventID int64) error
	// AdmitPlace records a place's first admission and returns when it was.
	AdmitPlace(ctx context.Context, placeID int64, now time.Time) (time.Time, error)
}

// Manager keeps every queue in memory and implements palaro.QueueService.
type Manager struct {
	store Store
	// Seed returns the seed of a new queue's draw; tests replace it.
	Seed func() uint64

	mu     sync.RWMutex
	lines  map[int64]*line
	byCode map[string]int64
	// installed counts the lines put in memory; each line keeps the count it was put in at
	// (line.installed), so that a read of the database begun before it cannot drop it.
	installed uint64
	draws     singleflight.Group
}

var _ palaro.QueueService = (*Manager)(nil)

// NewManager returns a manager over the store; Load fills it.
func NewManager(store Store) *Manager {
	return &Manager{store: store, Seed: randomSeed, lines: map[int64]*line{}, byCode: map[string]int64{}}
}

func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// Load reads every queue from the database (at start).
func (m *Manager) Load(ctx context.Context) error { return m.Sync(ctx, time.Time{}) }

// Sync loads again the queues changed in the database by another server (or not loaded yet),
// drops deleted ones and, when now is set, draws the places of queues whose opening has come.
func (m *Manager) Sync(ctx context.Context, now time.Time) error {
	m.mu.RLock()
	before := m.installed
	m.mu.RUnlock()
	versions, err := m.store.QueueVersions(ctx)
	if err != nil {
		return err
	}
	m.mu.Lock()
	var stale []int64
	for id, l := range m.lines {
		if _, ok := versions[id]; !ok && l.installed <= before { // a queue made since the read is kept
			m.drop(id)
		}
	}
	for id, v := range versions {
		if l := m.lines[id]; l == nil || l.q.Version < v {
			stale = append(stale, id)
		}
	}
	m.mu.Unlock()
	for _, id := range stale {
		if err := m.reload(ctx, id); err != nil {
			return err
		}
	}
	if now.IsZero() {
		return nil
	}
	m.mu.RLock()
	var due []int64
	for id, l := range m.lines {
		if !l.q.Opened && !now.Before(l.q.OpensAt) {
			due = append(due, id)
		}
	}
	m.mu.RUnlock()
	for _, id := range due {
		if err := m.draw(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// drop forgets a queue; m.mu must be held.
func (m *Manager) drop(eventID int64) {
	if l := m.lines[eventID]; l != nil {
		delete(m.byCode, l.q.EventCode)
	}
	delete(m.lines, eventID)
}

// reload replaces an event's line with the database's.
func (m *Manager) reload(ctx context.Context, eventID int64) error {
	m.mu.RLock()
	before := m.installed
	m.mu.RUnlock()
	q, places, err := m.store.LoadQueue(ctx, eventID)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.lines[eventID]
	if q == nil {
		if old != nil && old.installed <= before { // a queue made since the read is kept
			m.drop(eventID)
		}
		return nil
	}
	if old != nil && old.q.Version > q.Version {
		return nil // a newer copy arrived meanwhile
	}
	m.drop(eventID)
	m.installed++
	l := newLine(*q, places)
	l.installed = m.installed
	m.lines[eventID] = l
	m.byCode[q.EventCode] = eventID
	return nil
}

// draw gives the early arrivals their places once the opening has come; concurrent callers share it.
func (m *Manager) draw(ctx context.Context, eventID int64) error {
	_, err, _ := m.draws.Do(strconv.FormatInt(eventID, 10), func() (any, error) {
		if err := m.store.DrawQueue(context.WithoutCancel(ctx), eventID); err != nil {
			return nil, err
		}
		return nil, m.reload(context.WithoutCancel(ctx), eventID)
	})
	return err
}

// Settings returns the event's queue, or nil when it has none.
func (m *Manager) Settings(eventID int64) *palaro.Queue {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if l := m.lines[eventID]; l != nil {
		q := l.q
		return &q
	}
	return nil
}

// ByCode returns the queue of the event with that code, or nil.
func (m *Manager) ByCode(eventCode string) *palaro.Queue {
	m.mu.RLock()
	id, ok := m.byCode[eventCode]
	m.mu.RUnlock()
	if !ok {
		return nil
	}
	return m.Settings(id)
}

// Active reports whether any event has a queue.
func (m *Manager) Active() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.lines) > 0
}

// Configure turns an event's queue on or changes it; nil settings turn it off.
func (m *Manager) Configure(ctx context.Context, ev *palaro.Event, actor string, settings *palaro.QueueSettings, now time.Time) error {
	if settings != nil {
		s := *settings
		s.OpensAt = s.OpensAt.UTC().Truncate(time.Second)
		if err := s.Validate(ev, m.Settings(ev.ID), now); err != nil {
			return err
		}
		settings = &s
	}
	if err := m.store.SaveQueue(ctx, ev, actor, settings, m.Seed(), now.UTC().Truncate(time.Second)); err != nil {
		return err
	}
	return m.reload(ctx, ev.ID)
}

// Join gives a browser a place for a date of the series (0: none): drawn at the opening when it
// arrives before, else the next one. client is its network address, of which the store counts the
// places.
func (m *Manager) Join(ctx context.Context, eventID, dateID int64, client string, now time.Time) (int64, error) {
	q := m.Settings(eventID)
	if q == nil {
		return 0, palaro.Errorf(palaro.ENOTFOUND, "This event has no queue.")
	}
	if !q.Opened && !now.Before(q.OpensAt) {
		// draw first: a browser arriving after the opening joins at the end, not in the draw
		if err := m.draw(ctx, eventID); err != nil {
			return 0, err
		}
	}
	p, version, err := m.store.JoinQueue(ctx, eventID, dateID, client, now.UTC().Truncate(time.Second))
	if err != nil {
		return 0, err
	}
	m.mu.Lock()
	complete := true
	if l := m.lines[eventID]; l != nil {
		complete = l.apply(p, version)
	}
	m.mu.Unlock()
	if !complete {
		err = m.reload(ctx, eventID)
	}
	return p.ID, err
}

// Move makes a waiting place one for another date of the series (0: none); its place in line and
// turn stay, for the line and its rate are the event's.
func (m *Manager) Move(ctx context.Context, eventID, placeID, dateID int64) error {
	version, err := m.store.MoveQueuePlace(ctx, eventID, placeID, dateID)
	if err != nil {
		return err
	}
	m.mu.Lock()
	complete := false
	if l := m.lines[eventID]; l != nil {
		complete = l.move(placeID, dateID, version)
	}
	m.mu.Unlock()
	if !complete {
		return m.reload(ctx, eventID)
	}
	return nil
}

// Status answers about a place from memory. A place whose turn has come gets its admission
// recorded once (the only write), so it keeps its AdmissionWindow across restarts.
func (m *Manager) Status(ctx context.Context, eventID, placeID int64, now time.Time) (palaro.QueueStatus, error) {
	if q := m.Settings(eventID); q != nil && !q.Opened && !now.Before(q.OpensAt) {
		if err := m.draw(ctx, eventID); err != nil {
			return palaro.QueueStatus{}, err
		}
	}
	m.mu.RLock()
	l := m.lines[eventID]
	var st palaro.QueueStatus
	i, ok := 0, false
	if l != nil {
		if i, ok = l.index[placeID]; ok {
			st = l.status(placeID, i, now)
		}
	}
	m.mu.RUnlock()
	if !ok {
		return st, palaro.Errorf(palaro.ENOTFOUND, "This place is not in the queue.")
	}
	if !st.Admitted || !st.AdmittedAt.IsZero() {
		return st, nil
	}
	at, err := m.store.AdmitPlace(ctx, placeID, now.UTC().Truncate(time.Second))
	if err != nil {
		return st, err
	}
	st.AdmittedAt = at
	metrics.QueueAdmissions.Inc()
	m.mu.Lock()
	if l := m.lines[eventID]; l != nil {
		if j, ok := l.index[placeID]; ok && j >= 0 && j < len(l.places) && l.places[j].ID == placeID {
			l.places[j].AdmittedAt = at
		}
	}
	m.mu.Unlock()
	return st, nil
}

// EachStats calls report with the live figures of every queue, by event code (the operator's
// metrics).
func (m *Manager) EachStats(now time.Time, report func(eventCode string, st palaro.QueueStats)) {
	m.mu.RLock()
	codes := make(map[int64]string, len(m.byCode))
	for code, id := range m.byCode {
		codes[id] = code
	}
	m.mu.RUnlock()
	for id, code := range codes {
		if st, ok := m.Stats(id, now); ok {
			report(code, st)
		}
	}
}

// Stats returns the organizer's live figures of an event's queue; false when it has none.
func (m *Manager) Stats(eventID int64, now time.Time) (palaro.QueueStats, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	l := m.lines[eventID]
	if l == nil {
		return palaro.QueueStats{}, false
	}
	st := palaro.QueueStats{QueueSettings: l.q.QueueSettings, Opened: l.q.Opened, Dates: l.byDate(now)}
	if !l.q.Opened {
		st.Waiting = l.early
		return st, true
	}
	st.Admitted = l.admitted(now)
	st.Waiting = len(l.places) - st.Admitted
	return st, true
}
