package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// changeChannel is the PostgreSQL notification channel of event changes.
const changeChannel = "palaro_events"

// PostgresChangeFeed is the ChangeFeed of several servers on one PostgreSQL database: Publish
// sends NOTIFY palaro_events (after the change has committed), and a connection dedicated to
// LISTEN palaro_events calls the subscribers when another server's notification arrives. The
// payload is the sending server's random id, so a server ignores its own notifications. When the
// listening connection is lost it reconnects, and calls the subscribers once it is back, since
// notifications sent meanwhile are lost.
type PostgresChangeFeed struct {
	dsn    string
	id     string
	logger *slog.Logger

	mu   sync.Mutex
	subs []func()

	pending chan struct{} // holds one token while an announcement waits to be sent
	cancel  context.CancelFunc
	done    sync.WaitGroup

	listening chan struct{} // closed once the first LISTEN is in place
	connected sync.Once
	heard     func(payload string) // tests: sees every notification, before the own ones are skipped
}

var _ ChangeFeed = (*PostgresChangeFeed)(nil)

// NewPostgresChangeFeed starts the feed on the PostgreSQL database at dsn (a postgres:// URL): one
// connection listens, another sends. It returns at once; connection errors are logged and retried.
func NewPostgresChangeFeed(dsn string, logger *slog.Logger) *PostgresChangeFeed {
	return newPostgresChangeFeed(dsn, logger, nil)
}

func newPostgresChangeFeed(dsn string, logger *slog.Logger, heard func(string)) *PostgresChangeFeed {
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	ctx, cancel := context.WithCancel(context.Background())
	f := &PostgresChangeFeed{dsn: dsn, id: hex.EncodeToString(id), logger: logger, pending: make(chan struct{}, 1),
		cancel: cancel, listening: make(chan struct{}), heard: heard}
	f.done.Add(2)
	go func() { defer f.done.Done(); f.listen(ctx) }()
	go func() { defer f.done.Done(); f.send(ctx) }()
	return f
}

// Publish asks for a notification to the other servers; it does not wait for it.
func (f *PostgresChangeFeed) Publish() {
	select {
	case f.pending <- struct{}{}:
	default: // one is waiting already: it covers this change too
	}
}

// Subscribe registers fn for the changes of other servers.
func (f *PostgresChangeFeed) Subscribe(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs = append(f.subs, fn)
}

// Listening is closed once the feed listens for the first time, so a test (or a caller that
// must not miss the first change) can wait for it.
func (f *PostgresChangeFeed) Listening() <-chan struct{} { return f.listening }

// Close stops listening and sending; an announcement not yet sent is dropped.
func (f *PostgresChangeFeed) Close() error {
	f.cancel()
	f.done.Wait()
	return nil
}

// changed calls every subscriber.
func (f *PostgresChangeFeed) changed() {
	f.mu.Lock()
	subs := append([]func(){}, f.subs...)
	f.mu.Unlock()
	for _, fn := range subs {
		fn()
	}
}

// retryPause is the wait before reconnecting after attempt failures in a row: 100 ms doubling,
// at most 5 s.
func retryPause(attempt int) time.Duration {
	d := 100 * time.Millisecond
	for i := 0; i < attempt && d < 5*time.Second; i++ {
		d *= 2
	}
	return min(d, 5*time.Second)
}

// sleepCtx waits d or until ctx ends; it reports whether ctx is still alive.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// listen keeps a connection that listens on changeChannel until ctx ends.
func (f *PostgresChangeFeed) listen(ctx context.Context) {
	failures := 0
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, f.dsn)
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+changeChannel); err != nil {
				conn.Close(context.Background())
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				f.logger.Warn("change feed: cannot listen", "error", err, "attempt", failures+1)
			}
			failures++
			sleepCtx(ctx, retryPause(failures))
			continue
		}
		first := false
		f.connected.Do(func() { first = true; close(f.listening) })
		if !first {
			f.logger.Info("change feed: listening again; dropping caches, changes may have been missed")
			f.changed()
		}
		failures = 0
		for {
			n, err := conn.WaitForNotification(ctx)
			if err != nil {
				if ctx.Err() == nil {
					f.logger.Warn("change feed: connection lost", "error", err)
				}
				break
			}
			if n.Payload != f.id {
				f.changed()
			}
			if f.heard != nil {
				f.heard(n.Payload)
			}
		}
		conn.Close(context.Background())
	}
}

// send sends one NOTIFY for each wait on pending (merged while one is in flight), retrying on a
// new connection until it is sent or ctx ends.
func (f *PostgresChangeFeed) send(ctx context.Context) {
	var conn *pgx.Conn
	defer func() {
		if conn != nil {
			conn.Close(context.Background())
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.pending:
		}
		for attempt := 0; ; attempt++ {
			var err error
			if conn == nil {
				conn, err = pgx.Connect(ctx, f.dsn)
			}
			if err == nil {
				_, err = conn.Exec(ctx, "SELECT pg_notify($1, $2)", changeChannel, f.id)
				if err != nil {
					conn.Close(context.Background())
					conn = nil
				}
			}
			if err == nil {
				break
			}
			if ctx.Err() != nil {
				return
			}
			f.logger.Warn("change feed: cannot notify", "error", err, "attempt", attempt+1)
			if !sleepCtx(ctx, retryPause(attempt)) {
				return
			}
		}
	}
}
