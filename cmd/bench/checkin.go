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

// CheckInBench is what the gate benchmark measured at one event size: gates scanning tickets at
// once, online, and the gate list.
type CheckInBench struct {
	Gates, Tickets, Scans int
	EventTickets          int             // the event's tickets in all
	Scan                  Load            // POST /v1/checkin: done = 200 checked in, refused = 409 already checked in
	PollFailures          int             // the gates' fetches of the list's changes that failed meanwhile
	CheckedIn             int             // scanned tickets checked in, read back from the database
	CheckInRows           int             // accepted check-ins of them recorded, read back
	List                  GateListFigures // the gate list, whole before the scans and the delta after them
}

// AnsweredPerSecond is every answered scan (checked in or already checked in) per second.
func (c *CheckInBench) AnsweredPerSecond() float64 {
	if c.Scan.Elapsed <= 0 {
		return 0
	}
	return float64(c.Scan.Requests+c.Scan.Refused) / c.Scan.Elapsed.Seconds()
}

// runCheckIns lets gates scan tickets of typeCode (codes) at once with a gate API token, -scans
// scans of up to four fifths as many tickets spread over the codes (so a fifth are second scans of
// a ticket), while each gate also fetches the list's changes since version every 3 s; then it
// reads back the check-ins.
func runCheckIns(ctx context.Context, p *palaroProcess, token, eventCode, typeCode string, codes []string, version int64, o options) (*CheckInBench, error) {
	scanned := scanCodes(codes, o.Scans)
	cb := &CheckInBench{Gates: o.Gates, Tickets: min(o.Scans*4/5, len(codes)), Scans: o.Scans}
	client := newLoadClient(o.Gates)
	defer client.CloseIdleConnections()
	progress("check-in: %d gates scan %d times (%d tickets of %d)", o.Gates, o.Scans, cb.Tickets, len(codes))
	stopPolling := pollChanges(ctx, p, token, eventCode, o.Gates, version)
	cb.Scan = runLoad(ctx, o.Gates, time.Minute, o.Scans, func(ctx context.Context, i int) result {
		body, _ := json.Marshal(map[string]string{"eventCode": eventCode, "ticket": scanned[i], "gate": fmt.Sprintf("Gate %d", i%o.Gates)})
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
	cb.PollFailures = stopPolling()
	db, err := sql.Open("sqlite3", "file:"+p.DB+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	err = db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM tickets t JOIN ticket_types tt ON tt.id = t.ticket_type_id WHERE tt.code = ? AND t.status = 'checked_in'),
		(SELECT COUNT(*) FROM check_ins c JOIN tickets t ON t.id = c.ticket_id JOIN ticket_types tt ON tt.id = t.ticket_type_id
			WHERE tt.code = ? AND c.outcome = 'checked_in')`, typeCode, typeCode).Scan(&cb.CheckedIn, &cb.CheckInRows)
	return cb, err
}

// scanCodes returns the ticket scanned by each of scans scans: four fifths as many tickets as
// scans (all of codes when there are fewer), evenly spread over codes, each scanned once in turn,
// then the first of them again, so that a fifth of the scans are second scans.
func scanCodes(codes []string, scans int) []string {
	tickets := min(scans*4/5, len(codes))
	step := len(codes) / tickets
	out := make([]string, scans)
	for i := range out {
		out[i] = codes[(i%tickets)*step]
	}
	return out
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
