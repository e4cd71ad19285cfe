package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"palaro"
)

// maxCachedEntries bounds the event cache, whatever mix of filters and codes visitors ask for.
const maxCachedEntries = 2000

// CachedEventService answers repeated reads of public events from memory for a short time, so a
// rush on the home and event pages does not turn into a rush on the database. Concurrent misses
// for the same key share one query, which outlives a cancelled caller. What it returns is shared:
// callers must not modify it.
// Errors are never cached.
type CachedEventService struct {
	inner palaro.EventService
	ttl   time.Duration
	// Now returns the current time; tests replace it.
	Now func() time.Time

	mu      sync.Mutex
	entries map[string]cacheEntry
	group   singleflight.Group
}

type cacheEntry struct {
	value   any
	expires time.Time
}

var _ palaro.EventService = (*CachedEventService)(nil)

// NewCachedEventService caches inner's answers for ttl; a ttl of zero or less disables the cache.
func NewCachedEventService(inner palaro.EventService, ttl time.Duration) *CachedEventService {
	return &CachedEventService{inner: inner, ttl: ttl, Now: time.Now, entries: map[string]cacheEntry{}}
}

// cached returns the value stored under key, or loads, stores and returns it.
func cached[T any](s *CachedEventService, key string, load func() (T, error)) (T, error) {
	if s.ttl <= 0 {
		return load()
	}
	now := s.Now()
	s.mu.Lock()
	e, ok := s.entries[key]
	s.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.value.(T), nil
	}
	v, err, _ := s.group.Do(key, func() (any, error) {
		v, err := load()
		if err == nil {
			s.store(key, v, now.Add(s.ttl))
		}
		return v, err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// store keeps value under key, first dropping expired entries when the cache is full; when it is
// still full the value is not kept.
func (s *CachedEventService) store(key string, value any, expires time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.entries) >= maxCachedEntries {
		now := s.Now()
		for k, e := range s.entries {
			if !now.Before(e.expires) {
				delete(s.entries, k)
			}
		}
		if len(s.entries) >= maxCachedEntries {
			return
		}
	}
	s.entries[key] = cacheEntry{value: value, expires: expires}
}

// Invalidate drops every cached answer, so the next reads see an organizer's change at once.
// A load already under way when Invalidate is called may still store its (older) answer, which
// then lives at most the ttl; loads started afterwards are new.
func (s *CachedEventService) Invalidate() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.entries)
	s.group = singleflight.Group{}
}

// FindEventByCode returns the event, from memory when it was read less than the ttl ago.
func (s *CachedEventService) FindEventByCode(ctx context.Context, code string) (*palaro.Event, error) {
	return cached(s, "event:"+code, func() (*palaro.Event, error) { return s.inner.FindEventByCode(context.WithoutCancel(ctx), code) })
}

// ListEvents returns one page of events; the filter's Now is left out of the key, so a cached
// page is at most the ttl old.
func (s *CachedEventService) ListEvents(ctx context.Context, f palaro.EventFilter) (palaro.EventPage, error) {
	key := fmt.Sprintf("list:%s|%s|%t|%d|%d", f.When, f.Tag, f.Popular, f.Offset, f.Limit)
	if f.Near != nil {
		key += fmt.Sprintf("|%.4f,%.4f", f.Near.Latitude, f.Near.Longitude)
	}
	return cached(s, key, func() (palaro.EventPage, error) { return s.inner.ListEvents(context.WithoutCancel(ctx), f) })
}

// ListEventsBetween returns the events of a date range.
func (s *CachedEventService) ListEventsBetween(ctx context.Context, from, to time.Time) ([]*palaro.Event, error) {
	key := "between:" + from.UTC().Format(time.RFC3339) + "|" + to.UTC().Format(time.RFC3339)
	return cached(s, key, func() ([]*palaro.Event, error) {
		return s.inner.ListEventsBetween(context.WithoutCancel(ctx), from, to)
	})
}

// FindTag returns the tag with the given slug.
func (s *CachedEventService) FindTag(ctx context.Context, slug string) (*palaro.Tag, error) {
	return cached(s, "tag:"+slug, func() (*palaro.Tag, error) { return s.inner.FindTag(context.WithoutCancel(ctx), slug) })
}

// ListTags returns every tag that has a public event.
func (s *CachedEventService) ListTags(ctx context.Context) ([]palaro.Tag, error) {
	return cached(s, "tags", func() ([]palaro.Tag, error) { return s.inner.ListTags(context.WithoutCancel(ctx)) })
}
