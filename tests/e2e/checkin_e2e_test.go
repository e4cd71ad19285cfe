package e2e

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// goOnline gives the browser its network back, each request delayed by latencyMs.
func goOnline(latencyMs float64) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		online := []*network.Conditions{{Latency: latencyMs, DownloadThroughput: -1, UploadThroughput: -1}}
		if _, err := network.EmulateNetworkConditionsByRule(online).Do(ctx); err != nil {
			return err
		}
		return network.OverrideNetworkState(false, latencyMs, -1, -1).Do(ctx)
	})
}

// gateListLoaded is true once the gate page has its list and is online: a series' gate counts the
// date's tickets ("3 of 40 in"), another the tickets on the phone.
const gateListLoaded = `/Online · ([1-9]\d* tickets|\d+ of [1-9]\d* in)/.test(document.querySelector('.gate-status')?.textContent || '')`

// openGate signs a browser in as the demo gate member and opens the event's gate page, ready
// with its ticket list.
func openGate(t *testing.T, ctx context.Context, a *testApp, event string) {
	t.Helper()
	gatePath := "/organizer/events/" + event + "/check-in"
	require.NoError(t, chromedp.Run(ctx,
		dismissCookies(a.URL),
		chromedp.Navigate(a.URL+"/sign-in?next="+url.QueryEscape(gatePath)),
		chromedp.WaitVisible("#sign-in", chromedp.ByQuery),
		chromedp.SendKeys("#f-email", store.DemoGateEmail, chromedp.ByQuery),
		chromedp.SendKeys("#f-password", store.DemoOrganizerPassword, chromedp.ByQuery),
		chromedp.Click(`#sign-in button[type="submit"]`, chromedp.ByQuery),
		waitFor(`location.pathname === `+strconv.Quote(gatePath)),
		waitFor(gateListLoaded),
	))
}

// gateScan types a ticket code (or a scanner's QR payload) into the gate and waits for its answer.
func gateScan(t *testing.T, ctx context.Context, input string) (ok bool, answer string) {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('.gate-answer').classList.add('stale')`, nil),
		chromedp.SendKeys("#gate-code", input, chromedp.ByQuery),
		chromedp.Click(".gate-manual button", chromedp.ByQuery),
		waitFor(`!document.querySelector('.gate-answer').classList.contains('stale') && !document.querySelector('.gate-answer-ready')`),
		chromedp.Text(".gate-answer", &answer, chromedp.ByQuery),
	))
	return evalBool(t, ctx, `!!document.querySelector('.gate-answer-ok')`), answer
}

// ticketStatus is a ticket's status on the server.
func ticketStatus(t *testing.T, a *testApp, event, code string) string {
	t.Helper()
	for _, s := range []string{palaro.TicketValid, palaro.TicketCheckedIn} {
		for _, tk := range gateTicketsMaybe(t, a, event, s) {
			if tk.Code == code {
				return s
			}
		}
	}
	return ""
}

// gateTicketsMaybe is gateTickets without requiring any.
func gateTicketsMaybe(t *testing.T, a *testApp, event, status string) []palaro.GateTicket {
	t.Helper()
	ev, err := store.NewOrganizerService(a.DB(), nil).FindEvent(context.Background(), event)
	require.NoError(t, err)
	all, err := store.NewCheckInService(a.DB()).GateTickets(context.Background(), ev.ID)
	require.NoError(t, err)
	var out []palaro.GateTicket
	for _, tk := range all {
		if tk.Status == status {
			out = append(out, tk)
		}
	}
	return out
}

// TestGate_Browser checks tickets in as gate staff would, online and then offline, and shows a
// ticket checked in on two offline phones as a conflict in the console.
func TestGate_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	watchCSP(t, ctx)
	openGate(t, ctx, a, demoOwnedEvent)
	screenshot(t, ctx, "gate-ready")
	tickets := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)
	require.GreaterOrEqual(t, len(tickets), 4)

	t.Run("OK manual entry, then already checked in", func(t *testing.T) {
		ok, answer := gateScan(t, ctx, strings.ToLower(tickets[0].Code))
		require.True(t, ok, answer)
		require.Contains(t, answer, "Checked in")
		require.Contains(t, answer, tickets[0].HolderName)
		require.Contains(t, answer, tickets[0].TicketType)
		screenshot(t, ctx, "gate-green")
		ok, answer = gateScan(t, ctx, tickets[0].Code)
		require.False(t, ok)
		require.Contains(t, answer, "Already checked in at")
		require.Contains(t, answer, "(Gate 1)")
		screenshot(t, ctx, "gate-red")
		require.Empty(t, cspViolations(t, ctx))
	})

	t.Run("OK box office sells at the door for cash", func(t *testing.T) {
		var answer string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Click(".gate-box-office summary", chromedp.ByQuery),
			chromedp.SendKeys("#bo-name", "Walk-in Fan", chromedp.ByQuery),
			chromedp.Click(".gate-box-office button[type=submit]", chromedp.ByQuery),
			waitFor(`/Sold and checked in/.test(document.querySelector('.gate-answer-ok')?.textContent || '')`),
			chromedp.Text(".gate-answer", &answer, chromedp.ByQuery),
		))
		require.Contains(t, answer, "Walk-in Fan")
		screenshot(t, ctx, "gate-box-office")
	})

	t.Run("OK offline: two real tickets in, a forged one refused, synced later", func(t *testing.T) {
		seed, err := a.DB().AppSecret(context.Background(), "ticket-signing-seed", ed25519.SeedSize)
		require.NoError(t, err)
		_, forger, _ := ed25519.GenerateKey(nil)
		// the service worker keeps the gate page, so even a reload without network opens the scanner
		require.NoError(t, chromedp.Run(ctx,
			waitFor(`(caches.match(location.pathname).then((r) => { window.__kept = !!r }), window.__kept === true)`)))
		require.NoError(t, chromedp.Run(ctx, goOffline(), chromedp.Reload(),
			waitFor(`document.querySelector('.gate')?.dataset.state === 'offline'`)))

		signing := ed25519.NewKeyFromSeed(seed)
		// the phone keeps hashes of the codes, not the codes: a typed code needs the server
		stored := evalString(t, ctx, `JSON.stringify(Object.assign({}, localStorage))`)
		require.Contains(t, stored, "hashKey")
		for _, tk := range tickets {
			require.NotContains(t, stored, tk.Code, "no ticket code kept on the phone")
		}
		ok, answer := gateScan(t, ctx, tickets[1].Code)
		require.False(t, ok, "offline, a typed code is not checked on the phone: %s", answer)
		require.Contains(t, answer, "Scan the QR code")
		require.Contains(t, answer, "typed codes are checked online only")
		screenshot(t, ctx, "gate-offline-typed")
		ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(signing, tickets[1].Code))
		require.True(t, ok, answer)
		require.Contains(t, answer, "syncs when the network is back")
		ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(signing, tickets[2].Code))
		require.True(t, ok, "a QR code signed by the server verifies on the phone: %s", answer)
		require.Contains(t, answer, tickets[2].TicketType, "offline, the answer says the ticket's type")
		require.NotContains(t, answer, tickets[2].HolderName, "the list names no holder")
		screenshot(t, ctx, "gate-offline")
		ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(forger, tickets[3].Code))
		require.False(t, ok)
		require.Contains(t, answer, "Forged QR code")
		ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(signing, tickets[1].Code))
		require.False(t, ok, "offline, the phone remembers its own check-ins")
		require.Contains(t, answer, "Already checked in")
		require.Equal(t, "2", evalString(t, ctx, `document.querySelector('.gate').dataset.queued`))
		require.Equal(t, palaro.TicketValid, ticketStatus(t, a, demoOwnedEvent, tickets[1].Code), "nothing reached the server yet")

		require.NoError(t, chromedp.Run(ctx, goOnline(1500), waitFor(`document.querySelector('.gate').dataset.state === 'syncing'`)))
		screenshot(t, ctx, "gate-syncing")
		require.NoError(t, chromedp.Run(ctx, waitFor(`document.querySelector('.gate').dataset.queued === '0' && document.querySelector('.gate').dataset.state === 'online'`),
			goOnline(0)))
		require.Equal(t, palaro.TicketCheckedIn, ticketStatus(t, a, demoOwnedEvent, tickets[1].Code))
		require.Equal(t, palaro.TicketCheckedIn, ticketStatus(t, a, demoOwnedEvent, tickets[2].Code))
		require.Equal(t, palaro.TicketValid, ticketStatus(t, a, demoOwnedEvent, tickets[3].Code), "the forged QR checked nothing in")
	})

	t.Run("ErrConflict a ticket checked in on two offline phones", func(t *testing.T) {
		seed, err := a.DB().AppSecret(context.Background(), "ticket-signing-seed", ed25519.SeedSize)
		require.NoError(t, err)
		qr := palaro.SignedTicketQR(ed25519.NewKeyFromSeed(seed), tickets[3].Code)
		other := newBrowser(t)
		openGate(t, other, a, demoOwnedEvent)
		require.NoError(t, chromedp.Run(other, chromedp.Evaluate(`(() => { const i = document.querySelector('#gate-name');
			Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(i, 'South');
			i.dispatchEvent(new Event('input', { bubbles: true })); })()`, nil)))
		for _, c := range []context.Context{ctx, other} {
			require.NoError(t, chromedp.Run(c, goOffline(), waitFor(`document.querySelector('.gate').dataset.state === 'offline'`)))
			ok, answer := gateScan(t, c, qr)
			require.True(t, ok, "each phone alone lets the ticket in: %s", answer)
		}
		for _, c := range []context.Context{ctx, other} {
			require.NoError(t, chromedp.Run(c, goOnline(0), waitFor(`document.querySelector('.gate').dataset.queued === '0'`)))
		}
		require.NoError(t, chromedp.Run(other, waitFor(`!!document.querySelector('.gate-conflicts')`)))
		var console string
		require.NoError(t, chromedp.Run(ctx,
			chromedp.Navigate(a.URL+"/organizer/events/"+demoOwnedEvent+"/check-ins"),
			chromedp.Text(".checkin-conflicts", &console, chromedp.ByQuery),
		))
		require.Contains(t, console, tickets[3].Code)
		require.Contains(t, console, "South")
		require.Contains(t, console, "Gate 1")
		screenshot(t, ctx, "gate-console")
	})
}

// qrVideo writes a Y4M video (what Chromium's fake camera plays) showing the QR code of payload.
func qrVideo(t *testing.T, payload string) string {
	t.Helper()
	code, err := qr.Encode(payload, qr.L, qr.Auto)
	require.NoError(t, err)
	code, err = barcode.Scale(code, 360, 360)
	require.NoError(t, err)
	const w, h = 640, 480
	frame := make([]byte, w*h*3/2)
	for i := range frame {
		frame[i] = 128 // grey chroma
	}
	for y := range h {
		for x := range w {
			v := byte(235) // a white screen around the code
			if qx, qy := x-(w-360)/2, y-(h-360)/2; qx >= 0 && qy >= 0 && qx < 360 && qy < 360 {
				if r, _, _, _ := code.At(qx, qy).RGBA(); r < 0x8000 {
					v = 16
				}
			}
			frame[y*w+x] = v
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "YUV4MPEG2 W%d H%d F10:1 Ip A1:1 C420jpeg\n", w, h)
	for range 10 {
		b.WriteString("FRAME\n")
		b.Write(frame)
	}
	path := filepath.Join(t.TempDir(), "qr.y4m")
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	return path
}

// TestGate_Camera points the gate's camera (Chromium's fake camera playing a video of a ticket's
// signed QR code) at the scanner: Chromium on Linux has no BarcodeDetector, so this reads the
// code with the WebAssembly decoder, under the page's CSP.
func TestGate_Camera(t *testing.T) {
	a := startApp(t)
	ticket := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)[0]
	seed, err := a.DB().AppSecret(context.Background(), "ticket-signing-seed", ed25519.SeedSize)
	require.NoError(t, err)
	video := qrVideo(t, palaro.SignedTicketQR(ed25519.NewKeyFromSeed(seed), ticket.Code))
	ctx := newBrowser(t, chromedp.Flag("use-fake-device-for-media-stream", true), chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-video-capture", video))
	watchCSP(t, ctx)
	openGate(t, ctx, a, demoOwnedEvent)
	var answer string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Click(".gate-camera button", chromedp.ByQuery),
		waitFor(`!!document.querySelector('.gate-answer-ok')`),
		chromedp.Text(".gate-answer", &answer, chromedp.ByQuery),
	))
	require.Contains(t, answer, ticket.HolderName)
	require.Equal(t, palaro.TicketCheckedIn, ticketStatus(t, a, demoOwnedEvent, ticket.Code))
	screenshot(t, ctx, "gate-camera")
	require.Empty(t, cspViolations(t, ctx))
}

// TestGate_SignOutClears_Browser: a gate member signs out of a shared phone; the gate's kept list
// (holder names) and the scanner page the service worker kept are gone, so the next person finds
// nothing of the event's tickets on it.
func TestGate_SignOutClears_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	openGate(t, ctx, a, demoOwnedEvent)
	kept := func() (page bool, stored string) {
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`caches.keys().then((ns) => Promise.all(ns.map((n) =>
			caches.open(n).then((c) => c.keys())))).then((all) => all.flat().some((r) => new URL(r.url).pathname.endsWith('/check-in')))`,
			&page, awaitPromise)))
		return page, evalString(t, ctx, `Object.keys(localStorage).filter((k) => k.startsWith('palaro.gate.')).map((k) => localStorage.getItem(k)).join('\n')`)
	}
	deadline := time.Now().Add(15 * time.Second)
	for page, _ := kept(); !page; page, _ = kept() {
		require.True(t, time.Now().Before(deadline), "control: the service worker keeps the scanner page")
		time.Sleep(100 * time.Millisecond)
	}
	_, stored := kept()
	// the kept list names no holder (format 2): its event code and hash key say it is the list
	require.Contains(t, stored, `"eventCode":"`+demoOwnedEvent+`"`, "control: the gate keeps its list while signed in")
	require.Contains(t, stored, `"hashKey":`, "control: the gate keeps its list while signed in")

	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`document.querySelector('form[action="/sign-out"]').requestSubmit()`, nil),
		waitFor(`location.pathname === '/sign-in' && document.readyState === 'complete'`),
	))
	deadline = time.Now().Add(10 * time.Second)
	for page, stored := kept(); page || stored != ""; page, stored = kept() {
		require.True(t, time.Now().Before(deadline), "after sign-out the phone still keeps the scanner page (%v) or the list (%q)", page, stored)
		time.Sleep(100 * time.Millisecond)
	}
}

// TestGate_TransferReachesOnlineGate_Browser: a ticket is transferred while a gate phone is online;
// within seconds (the phone fetches the list's changes every 3 s) the phone no longer knows the old code, so even offline it refuses the old QR code and
// admits the new one.
func TestGate_TransferReachesOnlineGate_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	openGate(t, ctx, a, demoOwnedEvent)
	bg := context.Background()
	signing, key, _ := gateSecrets(t, a, demoOwnedEvent)
	old := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)[0]
	var publicID string
	require.NoError(t, a.DB().Reader().QueryRow(`SELECT public_id FROM tickets WHERE code = ?`, old.Code).Scan(&publicID))
	_, err := a.Purchases().RequestEmailChange(bg, publicID, "friend@example.ph", true, a.Now())
	require.NoError(t, err)
	msgs, err := a.Outbox().ListOutbox(bg, palaro.OutboxFilter{To: "friend@example.ph"})
	require.NoError(t, err)
	token := regexp.MustCompile(`/change-email/confirm/([a-z0-9]+)`).FindStringSubmatch(msgs[0].Text)
	require.NotNil(t, token, msgs[0].Text)
	tr, err := a.Purchases().ConfirmEmailChange(bg, token[1], a.Now())
	require.NoError(t, err)

	oldHash, newHash := palaro.GateCodeHash(key, old.Code), palaro.GateCodeHash(key, tr.Ticket.Code)
	start := time.Now()
	require.NoError(t, chromedp.Run(ctx, waitFor(`(() => { const s = Object.keys(localStorage).filter((k) => /^palaro\.gate\.\d+\./.test(k))
		.map((k) => localStorage.getItem(k)).join(); return !s.includes('"`+oldHash+`"') && s.includes('"`+newHash+`"'); })()`)))
	require.Less(t, time.Since(start), 10*time.Second, "the phone learns of the transfer within seconds, before its next whole list")

	require.NoError(t, chromedp.Run(ctx, goOffline(), waitFor(`document.querySelector('.gate')?.dataset.state === 'offline'`)))
	ok, answer := gateScan(t, ctx, palaro.SignedTicketQR(signing, old.Code))
	require.False(t, ok, "the old QR code is refused offline: %s", answer)
	require.Contains(t, answer, "Unknown ticket")
	ok, answer = gateScan(t, ctx, palaro.SignedTicketQR(signing, tr.Ticket.Code))
	require.True(t, ok, "control: the new holder's QR code gets in: %s", answer)
}

// TestGate_OnlineAgainAfterSync_Browser: the venue network hangs (the browser still thinks it is
// online), a scan gets no answer and is decided on the phone; once the network answers again and
// the queue has synced, the gate says it is online, not "Offline · 0 to sync".
func TestGate_OnlineAgainAfterSync_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	openGate(t, ctx, a, demoOwnedEvent)
	seed, err := a.DB().AppSecret(context.Background(), "ticket-signing-seed", ed25519.SeedSize)
	require.NoError(t, err)
	ticket := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)[0]
	require.NoError(t, chromedp.Run(ctx, goOnline(8000)))
	ok, answer := gateScan(t, ctx, palaro.SignedTicketQR(ed25519.NewKeyFromSeed(seed), ticket.Code))
	require.True(t, ok, answer)
	require.Contains(t, answer, "syncs when the network is back", "no answer within 4 s: the phone decided")
	// not online yet: offline, or already trying to sync over the slow network
	require.Contains(t, []string{"offline", "syncing"}, evalString(t, ctx, `document.querySelector('.gate').dataset.state`))
	require.NoError(t, chromedp.Run(ctx, goOnline(0),
		waitFor(`document.querySelector('.gate').dataset.queued === '0' && document.querySelector('.gate').dataset.state === 'online'`)))
	status := evalString(t, ctx, `document.querySelector('.gate-status').textContent`)
	require.Regexp(t, `^Online · \d+ tickets on this phone`, status)
	require.Equal(t, palaro.TicketCheckedIn, ticketStatus(t, a, demoOwnedEvent, ticket.Code))
	screenshot(t, ctx, "gate-online-again")
}

// TestGate_LayoutShift_Browser: the scanner mounts into the server's drawing of it, and its status
// line keeps room for two lines, so the gate page does not jump as it loads (cumulative layout shift
// at most 0.02, as the other island pages). Each load is a navigation, not a click, so every shift counts.
func TestGate_LayoutShift_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	openGate(t, ctx, a, demoOwnedEvent)
	gatePath := "/organizer/events/" + demoOwnedEvent + "/check-in"
	for _, width := range []int64{390, 360} {
		var got struct {
			CLS    float64
			Shifts string
		}
		require.NoError(t, chromedp.Run(ctx,
			chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
			// a first visit: nothing kept on the phone, so the status line grows when the list arrives
			chromedp.Evaluate(`Object.keys(localStorage).filter((k) => k.startsWith('palaro.gate.')).forEach((k) => localStorage.removeItem(k))`, nil),
			network.SetBypassServiceWorker(true),
			chromedp.Navigate(a.URL+gatePath),
			waitFor(gateListLoaded),
			chromedp.Sleep(time.Second),
			chromedp.Evaluate(`new Promise((resolve) => { let sum = 0; const seen = []; new PerformanceObserver((list) => {
				for (const e of list.getEntries()) { sum += e.value; seen.push(e.value.toFixed(4) + ' ' + e.sources.map((s) => s.node?.className).join(',')); }
				}).observe({ type: 'layout-shift', buffered: true });
				setTimeout(() => resolve({ CLS: sum, Shifts: seen.join('; ') }), 300); })`, &got, awaitPromise),
		))
		t.Logf("CLS at %d px: %.4f (%s)", width, got.CLS, got.Shifts)
		screenshot(t, ctx, fmt.Sprintf("gate-loaded-%d", width))
		require.LessOrEqual(t, got.CLS, 0.02, "cumulative layout shift of the gate page at %d px: %s", width, got.Shifts)
	}
}

// TestGate_DropsFormerCodeList_Browser: a phone that kept the former gate list (raw codes, under a
// key without the member) loses it at the next visit; a check-in it had not synced is kept and synced.
func TestGate_DropsFormerCodeList_Browser(t *testing.T) {
	a := startApp(t)
	ctx := newBrowser(t)
	openGate(t, ctx, a, demoOwnedEvent)
	tickets := gateTickets(t, a, demoOwnedEvent, palaro.TicketValid)
	former, _ := json.Marshal(map[string]any{
		"list":  map[string]any{"eventCode": demoOwnedEvent, "tickets": []map[string]string{{"code": tickets[1].Code, "status": "valid"}}},
		"queue": []map[string]string{{"id": "former-1", "ticket": tickets[0].Code, "gate": "Old phone", "at": a.Now().UTC().Format(time.RFC3339)}},
		"local": map[string]any{},
	})
	formerKey := "palaro.gate." + demoOwnedEvent
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Evaluate(`localStorage.setItem(`+strconv.Quote(formerKey)+`, `+strconv.Quote(string(former))+`)`, nil),
		chromedp.Reload(),
		waitFor(`document.querySelector('.gate')?.dataset.queued === '0' && document.querySelector('.gate')?.dataset.state === 'online'`)))
	require.Equal(t, palaro.TicketCheckedIn, ticketStatus(t, a, demoOwnedEvent, tickets[0].Code), "the unsynced scan was synced")
	stored := evalString(t, ctx, `JSON.stringify(Object.assign({}, localStorage))`)
	require.NotContains(t, stored, tickets[1].Code, "the former list with codes is gone")
}
