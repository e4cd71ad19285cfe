package e2e

import (
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/internal/app"
	"palaro/store"
)

// queueEvent is the demo event the queue tests put a queue in front of, with its free ticket type.
const (
	queueEvent = "valorant-night-market-bgc"
	queueType  = "valorant-night-market-bgc-watch"
)

// settableClock stands still at an instant a test moves, so that turns come exactly when the
// test says (waits in the browser take real seconds that must not move the queue).
type settableClock struct {
	mu sync.Mutex
	at time.Time
}

func newSettableClock(start time.Time) *settableClock { return &settableClock{at: start} }

// Now is the clock's time.
func (c *settableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

// Set moves the clock to t.
func (c *settableClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = t
}

// queueStatus asks GET /v1/queue/{event} as the visitor.
func queueStatus(t *testing.T, v *httpVisitor) map[string]any {
	t.Helper()
	status, body := v.get("/v1/queue/" + queueEvent)
	require.Equal(t, http.StatusOK, status, body)
	var out map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	return out
}

func queuePlaces(t *testing.T, a *testApp) int {
	t.Helper()
	var n int
	require.NoError(t, a.DB().Writer().QueryRow(`SELECT COUNT(*) FROM queue_places`).Scan(&n))
	return n
}

const queueBuyBody = `{"ticketCode":"` + queueType + `","quantity":1,"email":"%s","fullName":"Tess Ong","mobileNumber":"0935-123-4567"}`

func buyQueued(v *httpVisitor, email string) (int, string) {
	return v.postJSON("/v1/ticket/buy", strings.Replace(queueBuyBody, "%s", email, 1))
}

func TestQueue_OrganizerAPIAndRefusals(t *testing.T) {
	clock := newSettableClock(testEpoch)
	a := startApp(t, func(cfg *app.Config) { cfg.Now = clock.Now })
	a.Queues().Seed = func() uint64 { return 7 }
	tok := organizerToken(t, a, store.DemoOrganizerEmail, "--organization", "1")
	org := newVisitor(t, a)
	api := orgAPI(t, org, tok)
	opens := testEpoch.Add(time.Hour)
	path := "/v1/organizer/events/" + queueEvent

	t.Run("ErrInvalid", func(t *testing.T) {
		for body, want := range map[string]string{
			`{"queue":{"opensAt":"tomorrow","admitPerMinute":5}}`:                                "queue: Times are RFC 3339 with an offset, such as 2026-12-31T18:00:00+08:00.",
			`{"queue":{"admitPerMinute":0}}`:                                                     "queue.admitPerMinute: Admit between 1 and 10000 visitors a minute. queue.opensAt: Enter when the sale opens, such as 2026-12-01T20:00:00+08:00.",
			`{"queue":{"opensAt":"` + opens.Format(time.RFC3339) + `","rate":5}}`:                `queue: Unknown field "rate".`,
			`{"queue":{"opensAt":"` + opens.Format(time.RFC3339) + `","admitPerMinute":"many"}}`: "queue.admitPerMinute: admitPerMinute must be a whole number",
			`{"queue":5}`: "queue: must be a JSON object.",
			`{"queue":{"opensAt":"2030-01-01T00:00:00+08:00","admitPerMinute":5}}`: "queue.opensAt: The sale must open before the event ends.",
		} {
			status, e := api(http.MethodPatch, path, body)
			require.Equal(t, http.StatusBadRequest, status, body)
			require.Equal(t, want, e["message"], body)
		}
		_, ev := api(http.MethodGet, path, "")
		require.Nil(t, ev["queue"], "a refused queue changes nothing")
	})

	status, ev := api(http.MethodPatch, path, `{"queue":{"opensAt":"`+opens.Format(time.RFC3339)+`","admitPerMinute":1}}`)
	require.Equal(t, http.StatusOK, status, ev)
	q := ev["queue"].(map[string]any)
	require.Equal(t, opens.Format(time.RFC3339), q["opensAt"])
	require.EqualValues(t, 1, q["admitPerMinute"])
	_, page := org.get("/e/" + queueEvent)
	require.Contains(t, page, "The sale opens Wed 18 Mar 2026, 11:00 AM (Manila time).")

	// Before the opening: the buy page sends the visitor to the countdown, the API refuses.
	ana, ben := newVisitor(t, a), newVisitor(t, a)
	status, _ = ana.get("/b/" + queueType + "?source=fb")
	require.Equal(t, http.StatusSeeOther, status)
	req, _ := http.NewRequest(http.MethodGet, a.URL+"/s/"+queueType, nil)
	resp, err := ana.client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, "/queue/"+queueEvent+"?next=%2Fs%2F"+queueType, resp.Header.Get("Location"))
	require.Equal(t, "private, no-store", resp.Header.Get("Cache-Control"))
	status, body := buyQueued(ana, "ana@example.ph")
	require.Equal(t, http.StatusTooManyRequests, status)
	require.JSONEq(t, `{"message":"Please wait for your turn in the queue.","responseCode":429}`, body)

	status, body = ana.get("/queue/" + queueEvent + "?next=%2Fb%2F" + queueType)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, body, "The sale opens soon")
	require.Contains(t, body, `<noscript><meta http-equiv="refresh" content="10"></noscript>`)
	require.Contains(t, body, `data-hx-trigger="every 10s"`)
	require.NotContains(t, body, "csrf-token", "the queue page starts no session")
	// Refreshes and the JSON twin keep the one place.
	for range 3 {
		ana.get("/queue/" + queueEvent)
	}
	st := queueStatus(t, ana)
	require.Nil(t, st["position"])
	require.Nil(t, st["ahead"])
	require.Equal(t, false, st["admitted"])
	require.EqualValues(t, 3600, st["estimatedWaitSeconds"])
	require.Equal(t, opens.Format(time.RFC3339), st["opensAt"])
	require.Equal(t, 1, queuePlaces(t, a), "one place per browser, however often it asks")
	queueStatus(t, ben)
	require.Equal(t, 2, queuePlaces(t, a), "another browser, another place")

	// A forged or another event's cookie is no place: the browser gets a real one.
	forger := newVisitor(t, a)
	u, _ := url.Parse(a.URL)
	forger.client.Jar.SetCookies(u, []*http.Cookie{{Name: "palaro_queue_" + queueEvent, Value: "1~forged", Path: "/"},
		{Name: "palaro_admit_" + queueEvent, Value: "1.9999999999~forged", Path: "/"}})
	status, _ = forger.get("/b/" + queueType)
	require.Equal(t, http.StatusSeeOther, status, "a forged admission is refused")
	queueStatus(t, forger)
	require.Equal(t, 3, queuePlaces(t, a))

	// The opening: the draw gives the three places; one is admitted at a time, a minute apart.
	clock.Set(opens)
	byPlace := map[int]*httpVisitor{}
	for _, v := range []*httpVisitor{ana, ben, forger} {
		st := queueStatus(t, v)
		byPlace[int(st["position"].(float64))] = v
	}
	require.Len(t, byPlace, 3)
	first, second, third := byPlace[1], byPlace[2], byPlace[3]
	st = queueStatus(t, first)
	require.Equal(t, true, st["admitted"])
	require.EqualValues(t, 0, st["ahead"])
	st = queueStatus(t, third)
	require.Equal(t, false, st["admitted"])
	require.EqualValues(t, 1, st["ahead"], "place 2 still waits before place 3")
	require.InDelta(t, 120, st["estimatedWaitSeconds"], 2)

	status, _ = first.get("/b/" + queueType)
	require.Equal(t, http.StatusOK, status, "admitted: the buy page")
	status, body = buyQueued(first, "first@example.ph")
	require.Equal(t, http.StatusOK, status, body)
	status, _ = second.get("/b/" + queueType)
	require.Equal(t, http.StatusSeeOther, status, "not yet admitted")
	status, body = buyQueued(second, "second@example.ph")
	require.Equal(t, http.StatusTooManyRequests, status, body)

	// A minute on: place 2 is admitted, but cannot buy with the address place 1 bought with.
	clock.Set(opens.Add(61 * time.Second))
	require.Equal(t, true, queueStatus(t, second)["admitted"])
	// A purchase that fails ties nothing: neither the place nor the address it named.
	status, body = second.postJSON("/v1/ticket/buy", strings.Replace(strings.Replace(queueBuyBody, "%s", "third@example.ph", 1), "0935-123-4567", "call me", 1))
	require.Equal(t, http.StatusBadRequest, status, body)
	status, body = buyQueued(second, "FIRST@example.ph")
	require.Equal(t, http.StatusConflict, status, body)
	require.Contains(t, body, "This e-mail address already bought with another place in this queue.")
	status, body = buyQueued(second, "second@example.ph")
	require.Equal(t, http.StatusOK, status, body)
	clock.Set(opens.Add(121 * time.Second))
	require.Equal(t, true, queueStatus(t, third)["admitted"])
	status, body = buyQueued(third, "third@example.ph")
	require.Equal(t, http.StatusOK, status, body, "the address the failed purchase named is free")

	// Ten minutes after its admission, place 1's time to buy is over; it may join again at the end.
	clock.Set(opens.Add(10*time.Minute + time.Second))
	status, body = buyQueued(first, "first@example.ph")
	require.Equal(t, http.StatusTooManyRequests, status, body)
	_, body = first.get("/queue/" + queueEvent)
	require.Contains(t, body, "Your turn has passed")
	status, _ = first.get("/queue/" + queueEvent + "?rejoin=1")
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 4, queueStatus(t, first)["position"], "a new place at the end")

	// The console shows the figures; the rate changes; the queue turns off.
	_, ev = api(http.MethodGet, path, "")
	q = ev["queue"].(map[string]any)
	require.EqualValues(t, 4, q["admitted"], "nobody waited: the new place went in at once")
	require.EqualValues(t, 0, q["waiting"])
	status, ev = api(http.MethodPatch, path, `{"queue":{"opensAt":"`+opens.Add(time.Hour).Format(time.RFC3339)+`","admitPerMinute":1}}`)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, ev["message"], "its opening can no longer change")
	status, ev = api(http.MethodPatch, path, `{"queue":{"opensAt":"`+opens.Format(time.RFC3339)+`","admitPerMinute":600}}`)
	require.Equal(t, http.StatusOK, status, ev)
	require.EqualValues(t, 600, ev["queue"].(map[string]any)["admitPerMinute"])
	status, ev = api(http.MethodPatch, path, `{"name":"Valorant Night Market BGC","queue":null}`)
	require.Equal(t, http.StatusOK, status, ev)
	require.Nil(t, ev["queue"])
	status, _ = newVisitor(t, a).get("/b/" + queueType)
	require.Equal(t, http.StatusOK, status, "no queue: the buy page for everyone")
	status, _ = newVisitor(t, a).get("/queue/" + queueEvent)
	require.Equal(t, http.StatusSeeOther, status, "no queue: on to the event page")
	require.Equal(t, 0, queuePlaces(t, a))
	_, page = org.get("/e/" + queueEvent)
	require.NotContains(t, page, "The sale opens", "the cached event page was dropped")
}

func TestQueue_ConsoleAndRestart(t *testing.T) {
	clock := newSettableClock(testEpoch)
	dbPath := filepath.Join(t.TempDir(), "palaro.db")
	a := startApp(t, func(cfg *app.Config) { cfg.Now = clock.Now; cfg.DBPath = dbPath })
	org := signedIn(t, a, store.DemoOrganizerEmail)
	base := "/organizer/events/" + queueEvent + "/queue"
	_, page := org.get("/organizer/events/" + queueEvent)
	require.Contains(t, page, `href="`+base+`"`)

	status, body := org.post(base, url.Values{"opensAt": {"2026-03-18T10:3"}, "admitPerMinute": {"0"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Sale opens is a date and time such as 2026-12-31T18:00.")
	status, body = org.post(base, url.Values{"opensAt": {"2026-03-18T10:30"}, "admitPerMinute": {"0"}})
	require.Equal(t, http.StatusUnprocessableEntity, status)
	require.Contains(t, body, "Admit between 1 and 10000 visitors a minute.")
	status, _ = org.post(base, url.Values{"opensAt": {"2026-03-18T10:30"}, "admitPerMinute": {"2"}})
	require.Equal(t, http.StatusSeeOther, status)

	visitors := make([]*httpVisitor, 5)
	for i := range visitors {
		visitors[i] = newVisitor(t, a)
		queueStatus(t, visitors[i])
	}
	_, figures := org.get(base + "/figures")
	require.Contains(t, figures, "Queue waiting for the opening")
	require.Contains(t, figures, `<dd data-queue-waiting>5</dd>`)

	clock.Set(testEpoch.Add(31 * time.Minute)) // a minute after the opening: 1 + 2 admitted
	before := map[*httpVisitor]map[string]any{}
	for _, v := range visitors {
		before[v] = queueStatus(t, v)
	}
	_, figures = org.get(base + "/figures")
	require.Contains(t, figures, `<dd data-queue-admitted>3</dd>`)
	require.Contains(t, figures, `<dd data-queue-waiting>2</dd>`)
	require.Contains(t, figures, `<dd data-queue-rate>2 visitors a minute</dd>`)

	// The console changes the rate.
	status, _ = org.post(base, url.Values{"opensAt": {"2026-03-18T10:30"}, "admitPerMinute": {"60"}})
	require.Equal(t, http.StatusSeeOther, status)
	_, figures = org.get(base + "/figures")
	require.Contains(t, figures, `<dd data-queue-rate>60 visitors a minute</dd>`)
	require.Contains(t, figures, `<dd data-queue-admitted>3</dd>`, "the change admits no one at once")

	// A restart: a new app on the same database file finds every place and admission.
	at := clock.Now()
	a.Stop()
	b := startApp(t, func(cfg *app.Config) { cfg.Now = func() time.Time { return at }; cfg.DBPath = dbPath })
	for _, v := range visitors {
		v.app = b
		after := queueStatus(t, v)
		require.Equal(t, before[v]["position"], after["position"])
		require.Equal(t, before[v]["admitted"], after["admitted"])
	}
}

// TestQueue_JoinLimitPerAddress: one address may take a few places (a crowd behind one NAT), at
// most palaro.QueuePlacesPerAddress; a browser that has its place keeps asking freely.
func TestQueue_JoinLimitPerAddress(t *testing.T) {
	clock := newSettableClock(testEpoch)
	a := startApp(t, func(cfg *app.Config) { cfg.Now = clock.Now })
	ev, err := store.NewEventService(a.DB()).FindEventByCode(t.Context(), queueEvent)
	require.NoError(t, err)
	require.NoError(t, a.Queues().Configure(t.Context(), ev, "test", &palaro.QueueSettings{OpensAt: testEpoch.Add(time.Hour), AdmitPerMinute: 10}, clock.Now()))
	first := newVisitor(t, a)
	queueStatus(t, first)
	for range palaro.QueuePlacesPerAddress - 1 {
		queueStatus(t, newVisitor(t, a))
	}
	status, body := newVisitor(t, a).get("/v1/queue/" + queueEvent)
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Contains(t, body, "places in this queue, the most one network may take")
	require.Equal(t, palaro.QueuePlacesPerAddress, queuePlaces(t, a))
	for range 5 {
		queueStatus(t, first) // no new place: not limited
	}
}
