package e2e

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// gateTickets returns the demo tickets of an event by status, as the gate list has them.
func gateTickets(t *testing.T, a *testApp, event, status string) []palaro.GateTicket {
	t.Helper()
	out := gateTicketsMaybe(t, a, event, status)
	require.NotEmpty(t, out, "demo tickets of %s with status %s", event, status)
	return out
}

// checkIn posts a scan to /v1/checkin and returns the status and the answer.
func checkIn(t *testing.T, v *httpVisitor, event, ticket, bearer string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"eventCode": event, "ticket": ticket, "gate": "Gate 1"})
	status, resp := v.send(http.MethodPost, "/v1/checkin", "application/json", string(body), bearer)
	var answer map[string]any
	require.NoError(t, json.Unmarshal([]byte(resp), &answer), resp)
	return status, answer
}

func TestCheckIn_API(t *testing.T) {
	a := startApp(t)
	gate := signedIn(t, a, store.DemoGateEmail)
	tickets := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)
	seed, err := a.DB().AppSecret(context.Background(), "ticket-signing-seed", ed25519.SeedSize)
	require.NoError(t, err)
	signing := ed25519.NewKeyFromSeed(seed)

	t.Run("OK by code, then already checked in", func(t *testing.T) {
		status, answer := checkIn(t, gate, demoOwnedEvent, tickets[0].Code, "")
		require.Equal(t, http.StatusOK, status, answer)
		require.Equal(t, tickets[0].HolderName, answer["ticket"].(map[string]any)["holderName"])
		status, answer = checkIn(t, gate, demoOwnedEvent, tickets[0].Code, "")
		require.Equal(t, http.StatusConflict, status)
		require.Regexp(t, `^Already checked in at \d+:\d\d [AP]M \(Gate 1\)$`, answer["message"])
	})
	t.Run("OK Ed25519 QR and the older PLR2 QR", func(t *testing.T) {
		status, answer := checkIn(t, gate, demoOwnedEvent, palaro.SignedTicketQR(signing, tickets[1].Code), "")
		require.Equal(t, http.StatusOK, status, answer)
		msg := "PLR2." + tickets[2].Code // format 2: no key id
		plr2 := msg + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(signing, []byte(msg)))
		status, answer = checkIn(t, gate, demoOwnedEvent, plr2, "")
		require.Equal(t, http.StatusOK, status, answer)
	})
	t.Run("ErrForgedQR", func(t *testing.T) {
		_, other, _ := ed25519.GenerateKey(nil)
		status, answer := checkIn(t, gate, demoOwnedEvent, palaro.SignedTicketQR(other, tickets[3].Code), "")
		require.Equal(t, http.StatusNotFound, status, answer)
		require.Contains(t, answer["message"], "not issued by Palaro")
	})
	t.Run("ErrUnknown", func(t *testing.T) {
		status, _ := checkIn(t, gate, demoOwnedEvent, "NOSUCHCODE", "")
		require.Equal(t, http.StatusNotFound, status)
	})
	t.Run("ErrOtherEventsTicket", func(t *testing.T) {
		other := gateTickets(t, a, "tekken-tuesdays-cubao", palaro.TicketValid)
		status, answer := checkIn(t, gate, demoOwnedEvent, other[0].Code, "")
		require.Equal(t, http.StatusUnprocessableEntity, status, answer)
	})
	t.Run("ErrOtherOrganizationsGate", func(t *testing.T) {
		rival := signedIn(t, a, store.DemoRivalEmail)
		status, answer := checkIn(t, rival, demoOwnedEvent, tickets[4].Code, "")
		require.Equal(t, http.StatusNotFound, status, answer)
		require.NotContains(t, answer["message"], tickets[4].HolderName)
		tok := organizerToken(t, a, store.DemoRivalEmail, "--role", "gate")
		status, _ = checkIn(t, newVisitor(t, a), demoOwnedEvent, tickets[4].Code, tok)
		require.Equal(t, http.StatusNotFound, status)
	})
	t.Run("OK gate token", func(t *testing.T) {
		tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "2", "--role", "gate")
		status, answer := checkIn(t, newVisitor(t, a), demoOwnedEvent, tickets[4].Code, tok)
		require.Equal(t, http.StatusOK, status, answer)
	})
	t.Run("OK box office sells and checks in", func(t *testing.T) {
		path := "/v1/organizer/events/" + demoOwnedEvent + "/box-office"
		status, body := gate.send(http.MethodPost, path, "application/json",
			`{"ticketType":"`+demoOwnedType+`","holderName":"Walk In","paymentMethod":"CARD_TERMINAL","gate":"Box office"}`, "")
		require.Equal(t, http.StatusOK, status, body)
		var answer struct{ Ticket palaro.GateTicket }
		require.NoError(t, json.Unmarshal([]byte(body), &answer))
		require.Equal(t, palaro.TicketCheckedIn, answer.Ticket.Status)
		status, _ = checkIn(t, gate, demoOwnedEvent, answer.Ticket.Code, "")
		require.Equal(t, http.StatusConflict, status, "already in")
		status, body = gate.send(http.MethodPost, path, "application/json", `{"ticketType":"`+demoOwnedType+`","holderName":"X","paymentMethod":"IOU"}`, "")
		require.Equal(t, http.StatusBadRequest, status, body)
		status, live := gate.get("/organizer/events/" + demoOwnedEvent + "/check-ins/live")
		require.Equal(t, http.StatusOK, status)
		require.Contains(t, live, "Box office")
		require.Contains(t, live, `data-hx-trigger="every 4s"`)
	})
	t.Run("OK only the gate page may compile WebAssembly", func(t *testing.T) {
		csp := func(path string) string {
			req, _ := http.NewRequest(http.MethodGet, a.URL+path, nil)
			resp, err := gate.client.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode, path)
			return resp.Header.Get("Content-Security-Policy")
		}
		require.Contains(t, csp("/organizer/events/"+demoOwnedEvent+"/check-in"), "script-src 'wasm-unsafe-eval' 'self'")
		require.NotContains(t, csp("/organizer/events/"+demoOwnedEvent+"/check-ins"), "wasm-unsafe-eval")
	})
	t.Run("OK manager undoes, gate may not", func(t *testing.T) {
		path := "/organizer/events/" + demoOwnedEvent + "/check-ins/undo"
		status, _ := gate.post(path, url.Values{"ticket": {tickets[0].Code}})
		require.Equal(t, http.StatusForbidden, status)
		owner := signedIn(t, a, store.DemoOrganizerEmail)
		status, _ = owner.post(path, url.Values{"ticket": {tickets[0].Code}})
		require.Equal(t, http.StatusSeeOther, status)
		status, _ = checkIn(t, gate, demoOwnedEvent, tickets[0].Code, "")
		require.Equal(t, http.StatusOK, status, "valid again after the undo")
	})
}

// TestCheckIn_Race: 20 gates post the same ticket at once over HTTP; exactly one gets 200.
// The control without the guard is store.TestNaiveCheckIn_AdmitsTwice.
func TestCheckIn_Race(t *testing.T) {
	a := startApp(t)
	gate := signedIn(t, a, store.DemoGateEmail)
	ticket := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)[0].Code
	body, _ := json.Marshal(map[string]string{"eventCode": demoOwnedEvent, "ticket": ticket})
	var ok, conflict atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 20 {
		wg.Go(func() {
			<-start
			req, _ := http.NewRequest(http.MethodPost, a.URL+"/v1/checkin", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-CSRF-Token", gate.csrf)
			resp, err := gate.client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusOK:
				ok.Add(1)
			case http.StatusConflict:
				conflict.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	require.Equal(t, int64(1), ok.Load(), "exactly one gate lets the ticket in")
	require.Equal(t, int64(19), conflict.Load())
}

// gateListAnswer is the JSON of GET /v1/organizer/events/{code}/gate-list (format 2: each ticket
// an array of hash, type index, seat, status, ...).
type gateListAnswer struct {
	Format      int       `json:"format"`
	HashKey     string    `json:"hashKey"`
	Version     int64     `json:"version"`
	Since       *int64    `json:"since"`
	GeneratedAt time.Time `json:"generatedAt"`
	Types       []string  `json:"types"`
	Rows        [][]any   `json:"tickets"`
	Voided      []string  `json:"voided"`
	// Date and DateLabel are a series' list's date (format 3).
	Date      string `json:"date"`
	DateLabel string `json:"dateLabel"`
}

// gateListEntry is a ticket of a gate list, read from its row.
type gateListEntry struct {
	Hash, Type, Seat, Status string
}

// entries reads the list's rows; a row's missing status is valid.
func (l gateListAnswer) entries(t *testing.T) []gateListEntry {
	t.Helper()
	var out []gateListEntry
	for _, r := range l.Rows {
		require.GreaterOrEqual(t, len(r), 2, "a row has at least hash and type: %v", r)
		e := gateListEntry{Hash: r[0].(string), Type: l.Types[int(r[1].(float64))], Status: palaro.TicketValid}
		if len(r) > 2 {
			e.Seat = r[2].(string)
		}
		if len(r) > 3 && r[3].(string) != "" {
			e.Status = r[3].(string)
		}
		out = append(out, e)
	}
	return out
}

// TestGateList_HashesNotCodes: the list a gate phone keeps names tickets by a keyed hash of their
// code, never the code, so a lost phone holds no code that could be typed at a gate; a delta since
// the list's version carries only what changed.
func TestGateList_HashesNotCodes(t *testing.T) {
	a := startApp(t)
	gate := signedIn(t, a, store.DemoGateEmail)
	tickets := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)
	path := "/v1/organizer/events/" + demoOwnedEvent + "/gate-list"
	status, body := gate.get(path)
	require.Equal(t, http.StatusOK, status, body)
	for _, tk := range tickets {
		require.NotContains(t, body, tk.Code, "no ticket code in the list")
	}
	var list gateListAnswer
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.Nil(t, list.Since, "the whole list")
	secret, err := a.DB().AppSecret(context.Background(), "gate-list-key", 32)
	require.NoError(t, err)
	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(context.Background(), demoOwnedEvent)
	require.NoError(t, err)
	key := palaro.GateHashKey(secret, ev.ID)
	require.Equal(t, base64.RawURLEncoding.EncodeToString(key), list.HashKey)
	require.Equal(t, 2, list.Format)
	hashes := map[string]string{}
	for _, tk := range list.entries(t) {
		hashes[tk.Hash] = tk.Status
	}
	for _, tk := range tickets {
		require.Equal(t, palaro.TicketValid, hashes[palaro.GateCodeHash(key, tk.Code)], "the phone finds a scanned code by its hash")
	}
	other, err := store.NewOrganizerService(a.DB(), nil).FindEvent(context.Background(), "tekken-tuesdays-cubao")
	require.NoError(t, err)
	require.NotEqual(t, key, palaro.GateHashKey(secret, other.ID), "each event has its own key")

	t.Run("OK a delta since the version", func(t *testing.T) {
		status, answer := checkIn(t, gate, demoOwnedEvent, tickets[0].Code, "")
		require.Equal(t, http.StatusOK, status, answer)
		status, body := gate.get(path + "?since=" + strconv.FormatInt(list.Version, 10))
		require.Equal(t, http.StatusOK, status, body)
		var delta gateListAnswer
		require.NoError(t, json.Unmarshal([]byte(body), &delta))
		require.NotNil(t, delta.Since)
		require.Equal(t, list.Version, *delta.Since)
		changed := delta.entries(t)
		require.Len(t, changed, 1)
		require.Equal(t, palaro.GateCodeHash(key, tickets[0].Code), changed[0].Hash)
		require.Equal(t, palaro.TicketCheckedIn, changed[0].Status)
		status, _ = gate.get(path + "?since=soon")
		require.Equal(t, http.StatusBadRequest, status)
	})
}

// TestCheckInSync_ClampsPhoneTimes: a phone whose clock reset to 2001 (or runs ahead) syncs its
// offline scans; they are recorded no earlier than the gate list it decided with, no later than
// the server's clock, and flagged.
func TestCheckInSync_ClampsPhoneTimes(t *testing.T) {
	a := startApp(t)
	gate := signedIn(t, a, store.DemoGateEmail)
	tickets := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)
	listAt := a.Now().UTC().Add(-30 * time.Minute).Truncate(time.Second)
	body, _ := json.Marshal(map[string]any{"eventCode": demoOwnedEvent, "checkIns": []map[string]any{
		{"id": "old-1", "ticket": tickets[0].Code, "gate": "North", "at": "2001-01-01T00:00:00Z", "listAt": listAt},
		{"id": "new-1", "ticket": tickets[1].Code, "gate": "North", "at": a.Now().Add(72 * time.Hour), "listAt": listAt},
		{"id": "ok-1", "ticket": tickets[2].Code, "gate": "North", "at": listAt.Add(time.Minute), "listAt": listAt},
	}})
	status, resp := gate.send(http.MethodPost, "/v1/checkin/sync", "application/json", string(body), "")
	require.Equal(t, http.StatusOK, status, resp)
	var answer struct {
		Results []struct {
			Result        string
			TimeCorrected bool
			Ticket        palaro.GateTicket
		}
	}
	require.NoError(t, json.Unmarshal([]byte(resp), &answer))
	require.Len(t, answer.Results, 3)
	r := answer.Results
	require.Equal(t, palaro.CheckInOK, r[0].Result, resp)
	require.True(t, r[0].TimeCorrected, resp)
	require.Equal(t, listAt, r[0].Ticket.CheckedInAt, "not before the list's download")
	require.True(t, r[1].TimeCorrected, resp)
	require.False(t, r[1].Ticket.CheckedInAt.After(a.Now()), "not after the server's clock")
	require.False(t, r[2].TimeCorrected, "control: a time in range stands")
	require.Equal(t, listAt.Add(time.Minute), r[2].Ticket.CheckedInAt)
	status, live := gate.get("/organizer/events/" + demoOwnedEvent + "/check-ins/live")
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, live, "2 offline scans had a wrong time on the phone", "the console flags them")
}
