package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// benchGateType is the ticket type whose tickets the gates scan.
const benchGateType = "bench-gate"

// CheckInBench is what the gate benchmark measured: gates scanning tickets at once, online.
type CheckInBench struct {
	Gates, Tickets, Scans int
	Scan                  Load // POST /v1/checkin: done = 200 checked in, refused = 409 already checked in
	CheckedIn             int  // tickets checked in, read back from the database
	CheckInRows           int  // accepted check-ins recorded, read back
}

// AnsweredPerSecond is every answered scan (checked in or already checked in) per second.
func (c *CheckInBench) AnsweredPerSecond() float64 {
	if c.Scan.Elapsed <= 0 {
		return 0
	}
	return float64(c.Scan.Requests+c.Scan.Refused) / c.Scan.Elapsed.Seconds()
}

// runCheckIns issues tickets of the event and lets gates scan them at once with a gate API
// token, a quarter of the scans being a second scan of a ticket; then it reads back that every
// ticket was checked in once.
func runCheckIns(ctx context.Context, p *palaroProcess, eventCode string, o options) (*CheckInBench, error) {
	cb := &CheckInBench{Gates: o.Gates, Tickets: o.Scans * 4 / 5, Scans: o.Scans}
	token, codes, err := seedGate(ctx, p.DB, eventCode, cb.Tickets)
	if err != nil {
		return nil, err
	}
	client := newLoadClient(o.Gates)
	defer client.CloseIdleConnections()
	progress("check-in: %d gates scan %d times (%d tickets)", o.Gates, o.Scans, cb.Tickets)
	cb.Scan = runLoad(ctx, o.Gates, time.Minute, o.Scans, func(ctx context.Context, i int) result {
		body, _ := json.Marshal(map[string]string{"eventCode": eventCode, "ticket": codes[i%len(codes)], "gate": fmt.Sprintf("Gate %d", i%o.Gates)})
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL+"/v1/checkin", bytes.NewReader(body))
		if err != nil {
			return failed
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return failed
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		switch resp.StatusCode {
		case http.StatusOK:
			return done
		case http.StatusConflict:
			return refused
		}
		return failed
	})
	db, err := sql.Open("sqlite3", "file:"+p.DB+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	err = db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE tt.code = ? AND t.status = 'checked_in'),
		(SELECT COUNT(*) FROM check_ins c JOIN tickets t ON t.id = c.ticket_id JOIN ticket_types tt ON tt.id = t.ticket_type_id
			WHERE tt.code = ? AND c.outcome = 'checked_in')`, benchGateType, benchGateType).Scan(&cb.CheckedIn, &cb.CheckInRows)
	return cb, err
}

// seedGate adds a ticket type with n paid tickets to the event and a gate API token of the
// event's organization, straight into the database. It returns the token and the ticket codes.
func seedGate(ctx context.Context, dbPath, eventCode string, n int) (string, []string, error) {
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return "", nil, err
	}
	defer tx.Rollback()
	var eventID, orgID int64
	if err := tx.QueryRowContext(ctx, `SELECT id, organizer_id FROM events WHERE code = ?`, eventCode).Scan(&eventID, &orgID); err != nil {
		return "", nil, fmt.Errorf("check-in: event %q: %w", eventCode, err)
	}
	now := time.Now().UTC().Format("2006-01-02T15:04:05Z")
	var typeID, orderID int64
	err = tx.QueryRowContext(ctx, `INSERT INTO ticket_types (event_id, code, name, price, max_purchasable, capacity, sold)
		VALUES (?, ?, 'Benchmark gate', 0, 1, ?, ?) RETURNING id`, eventID, benchGateType, n, n).Scan(&typeID)
	if err != nil {
		return "", nil, err
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO orders (public_id, event_id, ticket_type_id, quantity, email, unit_price, total,
		status, paid_at, created_at) VALUES ('bench-gate-order', ?, ?, ?, 'gate@bench.palaro.test', 0, 0, 'paid', ?, ?) RETURNING id`,
		eventID, typeID, n, now, now).Scan(&orderID)
	if err != nil {
		return "", nil, err
	}
	codes := make([]string, n)
	for i := range codes {
		codes[i] = fmt.Sprintf("BENCH%06d", i)
		if _, err := tx.ExecContext(ctx, `INSERT INTO tickets (public_id, code, order_id, event_id, ticket_type_id, holder_name, email,
			created_at) VALUES (?, ?, ?, ?, ?, 'Bench Holder', 'gate@bench.palaro.test', ?)`, fmt.Sprintf("bench-gate-%06d", i), codes[i],
			orderID, eventID, typeID, now); err != nil {
			return "", nil, err
		}
	}
	token, err := insertToken(ctx, tx, orgID, "gate", now)
	if err != nil {
		return "", nil, err
	}
	return token, codes, tx.Commit()
}

// insertToken adds an API token of the organization with the role and returns it.
func insertToken(ctx context.Context, tx *sql.Tx, orgID int64, role, now string) (string, error) {
	secret := make([]byte, 24)
	_, _ = rand.Read(secret)
	token := "plr_bench" + hex.EncodeToString(secret)
	sum := sha256.Sum256([]byte(token))
	_, err := tx.ExecContext(ctx, `INSERT INTO api_tokens (token_hash, organizer_id, role, name, created_at)
		VALUES (?, ?, ?, 'bench', ?)`, hex.EncodeToString(sum[:]), orgID, role, now)
	return token, err
}

// seedToken adds an API token with the role for the organization of the event, straight into the
// database, and returns it.
func seedToken(ctx context.Context, dbPath, eventCode, role string) (string, error) {
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=10000&_txlock=immediate")
	if err != nil {
		return "", err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	var orgID int64
	if err := tx.QueryRowContext(ctx, `SELECT organizer_id FROM events WHERE code = ?`, eventCode).Scan(&orgID); err != nil {
		return "", fmt.Errorf("event %q: %w", eventCode, err)
	}
	token, err := insertToken(ctx, tx, orgID, role, time.Now().UTC().Format("2006-01-02T15:04:05Z"))
	if err != nil {
		return "", err
	}
	return token, tx.Commit()
}
