package handlers_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/handlers"
	"palaro/static"
	"palaro/store"
)

// pausingOrganizers is the real organizer store whose export walks stop before their row pause
// until the test lets them go on: an export handler that streams has sent its first rows by then;
// one that buffers the file has sent nothing, and the walk gives up after a while.
type pausingOrganizers struct {
	*store.OrganizerService
	pause  int
	resume chan struct{}
	done   atomic.Bool // the walk has ended
}

func (p *pausingOrganizers) wait(n int) error {
	if n != p.pause {
		return nil
	}
	select {
	case <-p.resume:
		return nil
	case <-time.After(20 * time.Second):
		return errors.New("nobody read the first rows while the store waited")
	}
}

func (p *pausingOrganizers) EachAttendee(ctx context.Context, eventID, dateID int64, fn func(*palaro.Attendee) error) error {
	n := 0
	defer p.done.Store(true)
	return p.OrganizerService.EachAttendee(ctx, eventID, dateID, func(a *palaro.Attendee) error {
		if n++; p.wait(n) != nil {
			return errors.New("export not streamed")
		}
		return fn(a)
	})
}

func (p *pausingOrganizers) EachOrder(ctx context.Context, eventID, dateID int64, fn func(*palaro.Order) error) error {
	n := 0
	defer p.done.Store(true)
	return p.OrganizerService.EachOrder(ctx, eventID, dateID, func(o *palaro.Order) error {
		if n++; p.wait(n) != nil {
			return errors.New("export not streamed")
		}
		return fn(o)
	})
}

// TestOrgExports_Stream: the attendees and orders CSV exports of an event with 3,000 tickets in
// 1,500 orders send their first rows while the store is still reading (its walk waits at row 1,200
// until the client has received the first 100 rows: a handler that built the file in memory would
// send nothing, and the walk would give up), and then the whole file.
func TestOrgExports_Stream(t *testing.T) {
	ctx := context.Background()
	ts := newTestServer(t)
	ev, err := ts.Events.FindEventByCode(ctx, "mlbb-manila-showdown")
	require.NoError(t, err)
	const orders, perOrder = 1500, 2
	require.NoError(t, ts.DB.Write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var typeID int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, sold)
			VALUES (?, 'stream-test', 'Stream test', 0, 2, ?, ?) RETURNING id`, ev.ID, orders*perOrder, orders*perOrder).Scan(&typeID); err != nil {
			return err
		}
		for i := range orders {
			var orderID int64
			if err := tx.QueryRowContext(ctx, `INSERT INTO orders (public_id, event_id, ticket_type_id, quantity, email, unit_price, total,
				status, paid_at, created_at) VALUES (?, ?, ?, ?, ?, 0, 0, 'paid', '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z') RETURNING id`,
				fmt.Sprintf("stream-%d", i), ev.ID, typeID, perOrder, fmt.Sprintf("fan%d@stream.test", i)).Scan(&orderID); err != nil {
				return err
			}
			for k := range perOrder {
				if _, err := tx.ExecContext(ctx, `INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, email, created_at)
					VALUES (?, ?, ?, ?, ?, ?, '2026-03-01T00:00:00Z')`, fmt.Sprintf("stream-t-%d-%d", i, k), fmt.Sprintf("STRM%05d%d", i, k),
					orderID, ev.ID, typeID, fmt.Sprintf("fan%d@stream.test", i)); err != nil {
					return err
				}
			}
		}
		return nil
	}))
	organizers := store.NewOrganizerService(ts.DB, nil)
	pausing := &pausingOrganizers{OrganizerService: organizers, pause: 1200}
	services := handlers.Services{Events: ts.Events, Organizers: pausing}
	handlers.CompleteServices(t, ts.DB, &services)
	srv := handlers.New(handlers.Config{BaseURL: testBaseURL}, services, static.Default(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv.Now = ts.DB.Now
	hs := httptest.NewServer(srv)
	defer hs.Close()
	secret, _, err := organizers.CreateToken(ctx, ev.Organizer.ID, palaro.MemberManager, "exports", "test", 0)
	require.NoError(t, err)

	for _, export := range []struct {
		path  string
		first string // the start of the first row after the header
		rows  int    // at least, beside the header
	}{{"attendees.csv", "", orders * perOrder}, {"orders.csv", "stream-1499,", orders}} {
		pausing.resume = make(chan struct{})
		pausing.done.Store(false)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, hs.URL+"/organizer/events/"+ev.Code+"/"+export.path, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+secret)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err, export.path)
		require.Equal(t, http.StatusOK, resp.StatusCode, export.path)
		require.Equal(t, "text/csv; charset=utf-8", resp.Header.Get("Content-Type"))
		body := bufio.NewReader(resp.Body)
		var lines []string
		read := make(chan error, 1)
		go func() {
			for len(lines) < 101 { // the header and 100 rows
				line, err := body.ReadString('\n')
				if err != nil {
					read <- err
					return
				}
				lines = append(lines, line)
			}
			read <- nil
		}()
		var readErr error
		select {
		case readErr = <-read:
		case <-time.After(15 * time.Second):
			readErr = errors.New("no rows arrived while the store was reading")
		}
		finished := pausing.done.Load()
		close(pausing.resume) // whatever happened: the walk goes on and the server can close
		require.NoError(t, readErr, "%s: the first rows", export.path)
		require.False(t, finished, "%s: the store is still reading (it waits at row %d) when the first rows have arrived", export.path, pausing.pause)
		require.True(t, strings.HasPrefix(lines[0], "\uFEFF"), "the BOM first")
		if export.first != "" {
			require.True(t, strings.HasPrefix(lines[1], export.first), "%s: newest order first: %q", export.path, lines[1])
		}
		rest, err := io.ReadAll(body)
		require.NoError(t, err, export.path)
		resp.Body.Close()
		all := len(lines) + strings.Count(string(rest), "\r\n")
		require.GreaterOrEqual(t, all-1, export.rows, "%s: every row arrived", export.path)
		require.True(t, strings.HasSuffix(string(rest), "\r\n"), "%s ends with a whole row", export.path)
	}
}
