package queue

import (
	"context"
	"sync"
	"testing"
	"time"

	"palaro"
)

// memoryStore is a Store in memory whose QueueVersions can be held between its read and its
// answer, as a slow database read would be.
type memoryStore struct {
	mu     sync.Mutex
	queues map[int64]palaro.Queue
	// read, when set, gets a signal once QueueVersions has read the versions, which it answers
	// only when release is closed.
	read    chan struct{}
	release chan struct{}
}

func (s *memoryStore) QueueVersions(context.Context) (map[int64]int64, error) {
	s.mu.Lock()
	out := map[int64]int64{}
	for id, q := range s.queues {
		out[id] = q.Version
	}
	read, release := s.read, s.release
	s.mu.Unlock()
	if read != nil {
		read <- struct{}{}
		<-release
	}
	return out, nil
}

func (s *memoryStore) LoadQueue(_ context.Context, eventID int64) (*palaro.Queue, []palaro.QueuePlace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.queues[eventID]
	if !ok {
		return nil, nil, nil
	}
	return &q, nil, nil
}

func (s *memoryStore) SaveQueue(_ context.Context, ev *palaro.Event, _ string, settings *palaro.QueueSettings, seed uint64, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if settings == nil {
		delete(s.queues, ev.ID)
		return nil
	}
	q := s.queues[ev.ID]
	q.EventID, q.EventCode, q.EventName, q.QueueSettings, q.Seed = ev.ID, ev.Code, ev.Name, *settings, seed
	q.Rates = []palaro.QueueRate{{From: settings.OpensAt, AdmitPerMinute: settings.AdmitPerMinute}}
	q.Version++
	s.queues[ev.ID] = q
	return nil
}

func (s *memoryStore) JoinQueue(context.Context, int64, int64, string, time.Time) (palaro.QueuePlace, int64, error) {
	panic("not used")
}

func (s *memoryStore) MoveQueuePlace(context.Context, int64, int64, int64) (int64, error) {
	panic("not used")
}

func (s *memoryStore) DrawQueue(context.Context, int64) error { panic("not used") }

func (s *memoryStore) AdmitPlace(context.Context, int64, time.Time) (time.Time, error) {
	panic("not used")
}

// A queue turned on while a sync's read of the database is under way stays: the sync read the
// versions before the queue existed, which says nothing about it. (The sync once dropped it, and
// visitors joining in the second until the next sync heard "This event has no queue.")
func TestManager_SyncKeepsAQueueMadeDuringItsRead(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 31, 23, 30, 0, 0, palaro.Manila) // a sale opening at midnight in Manila
	store := &memoryStore{queues: map[int64]palaro.Queue{}}
	m := NewManager(store)
	if err := m.Load(ctx); err != nil {
		t.Fatal(err)
	}
	store.read, store.release = make(chan struct{}), make(chan struct{})
	synced := make(chan error)
	go func() { synced <- m.Sync(ctx, time.Time{}) }()
	<-store.read // the sync has read the versions: no queue yet

	ev := &palaro.Event{ID: 7, Code: "mlbb-finals", Name: "MLBB Finals"}
	if err := m.Configure(ctx, ev, "organizer@palaro.test",
		&palaro.QueueSettings{OpensAt: now.Add(30 * time.Minute), AdmitPerMinute: 600}, now); err != nil {
		t.Fatal(err)
	}
	if m.ByCode(ev.Code) == nil {
		t.Fatal("the queue is not in memory after Configure")
	}
	close(store.release)
	if err := <-synced; err != nil {
		t.Fatal(err)
	}
	if m.ByCode(ev.Code) == nil {
		t.Fatal("the sync dropped the queue turned on during its read")
	}

	// A queue turned off is dropped by the next sync as before.
	store.mu.Lock()
	delete(store.queues, ev.ID)
	store.read = nil
	store.mu.Unlock()
	if err := m.Sync(ctx, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if m.ByCode(ev.Code) != nil {
		t.Fatal("a queue deleted in the database is still in memory after a sync")
	}
}
