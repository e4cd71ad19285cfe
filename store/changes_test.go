package store

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"palaro"
)

// waitSignal waits (generously: the machine is shared) for a value on ch.
func waitSignal(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not happen", what)
	}
}

// noSignal checks that nothing arrived on ch so far, after the other server has certainly seen
// a later notification.
func noSignal(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
		t.Fatalf("%s happened", what)
	default:
	}
}

func signalOn(f ChangeFeed) <-chan struct{} {
	ch := make(chan struct{}, 100)
	f.Subscribe(func() { ch <- struct{}{} })
	return ch
}

// TestPostgresChangeFeed: a change announced by one server reaches the other, not itself; after the
// listening connection is killed, the feed reconnects, calls its subscribers (changes may have been
// missed) and hears the next change.
func TestPostgresChangeFeed(t *testing.T) {
	dsn := testPostgresDSN(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	syncs := make(chan string, 100)
	a := newPostgresChangeFeed(dsn, logger, func(p string) {
		if strings.HasPrefix(p, "sync") {
			syncs <- p
		}
	})
	b := NewPostgresChangeFeed(dsn, logger)
	defer a.Close()
	defer b.Close()
	atA, atB := signalOn(a), signalOn(b)
	waitSignal(t, a.Listening(), "server A listening")
	waitSignal(t, b.Listening(), "server B listening")

	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)

	a.Publish()
	waitSignal(t, atB, "B hearing A's change")
	// A's notification is committed (B heard it). A marker sent now reaches A after it: once A
	// has seen the marker, its subscriber has been called for the marker only, not for its own.
	if _, err := admin.Exec(ctx, "SELECT pg_notify('palaro_events', 'sync1')"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-syncs:
	case <-time.After(30 * time.Second):
		t.Fatal("A did not hear the marker")
	}
	if n := len(atA); n != 1 {
		t.Fatalf("A's subscriber was called %d times for its own change and the marker, want 1 (the marker)", n)
	}
	drain(atA)
	b.Publish()
	waitSignal(t, atA, "A hearing B's change")

	// Many changes at once are merged into few notifications, and at least one arrives after the last.
	for range 50 {
		a.Publish()
	}
	waitSignal(t, atB, "B hearing a burst of changes")

	// Kill B's listening connection from outside, as a failover or a network cut would.
	drain(atB)
	tag, err := admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE query = 'LISTEN palaro_events' AND datname = current_database() AND pid <> pg_backend_pid()`)
	if err != nil {
		t.Fatal(err)
	}
	if tag.RowsAffected() != 2 { // A's and B's listeners
		t.Fatalf("terminated %d listening connections, want 2", tag.RowsAffected())
	}
	waitSignal(t, atB, "B dropping its caches after reconnecting")
	waitSignal(t, atA, "A dropping its caches after reconnecting")
	// Once both listen again, a change still travels.
	waitListening(t, admin, 2)
	drain(atB)
	a.Publish()
	waitSignal(t, atB, "B hearing A's change after reconnecting")
}

func drain(ch <-chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// waitListening waits until n connections listen on the channel.
func waitListening(t *testing.T, admin *pgx.Conn, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var got int
		err := admin.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
		WHERE query = 'LISTEN palaro_events' AND datname = current_database()`).Scan(&got)
		if err != nil {
			t.Fatal(err)
		}
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections listen, want %d", got, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLocalChangeFeed: a single server's feed never calls its subscribers.
func TestLocalChangeFeed(t *testing.T) {
	var f LocalChangeFeed
	ch := signalOn(f)
	f.Publish()
	noSignal(t, ch, "a single server hearing its own change")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestChangedElsewhere_DropsTheCatalog: another server's change drops the ticket types and
// events purchases read (their prices and add-ons), so the next purchase reads them again.
func TestChangedElsewhere_DropsTheCatalog(t *testing.T) {
	db := openTestDB(t)
	loads := 0
	load := func() (*palaro.TicketType, *palaro.Event, error) {
		loads++
		return &palaro.TicketType{ID: 3}, &palaro.Event{ID: 7}, nil
	}
	for range 2 {
		_, _, _, err := db.catalog.lookup("ticket-code", db.Now(), load)
		require.NoError(t, err)
	}
	require.Equal(t, 1, loads, "the second read comes from memory")
	db.ChangedElsewhere()
	_, _, _, err := db.catalog.lookup("ticket-code", db.Now(), load)
	require.NoError(t, err)
	require.Equal(t, 2, loads, "read again after another server's change")
}
