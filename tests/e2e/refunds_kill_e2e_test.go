package e2e

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro/store"
)

// buyPaidFrom buys quantity tickets of the demo organizer's paid type on the server at base and
// pays them by card on its sandbox, and returns the order id.
func buyPaidFrom(t *testing.T, base, email string, quantity int) string {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	client := &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(base + "/v1/csrf")
	require.NoError(t, err)
	var csrf struct{ Token string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&csrf))
	resp.Body.Close()
	body := `{"ticketCode":"` + demoOwnedType + `","quantity":` + strconv.Itoa(quantity) + `,"email":"` + email +
		`","firstName":"Ligaya","lastName":"Cruz","mobileNumber":"0917-555-0101","paymentType":"CARD"}`
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/ticket/buy", bytes.NewReader([]byte(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", csrf.Token)
	resp, err = client.Do(req)
	require.NoError(t, err)
	var res struct {
		OrderID     string `json:"orderId"`
		RedirectURL string `json:"redirectUrl"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&res))
	resp.Body.Close()
	require.NotEmpty(t, res.RedirectURL)
	resp, err = client.PostForm(res.RedirectURL+"/card", url.Values{"number": {"4343434343434345"}, "expiry": {"12/45"}, "cvc": {"123"}, "name": {"Ligaya Cruz"}})
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	return res.OrderID
}

// TestRefundEveryOrder_KillRestart_Browser: an organizer cancels an event and asks to refund
// every order; the real bin/palaro is killed (SIGKILL) half-way through the refunds (its sandbox
// gateway is slow), and after a restart the job goes on where it stopped: every order ends
// refunded, and the sandbox made exactly one refund per order. The console shows the progress.
func TestRefundEveryOrder_KillRestart_Browser(t *testing.T) {
	bin := buildPalaro(t)
	dbPath := filepath.Join(t.TempDir(), "palaro.db")
	env := []string{"PALARO_DB=" + dbPath, "PALARO_DEMO=1", "PALARO_REFUND_SECONDS=1"}
	p := startServe(t, bin, append(env, "PALARO_SANDBOX_REFUND_MS=700")...)
	const orders = 6
	var ids []string
	for i := range orders {
		ids = append(ids, buyPaidFrom(t, p.url, "refund-all-"+strconv.Itoa(i)+"@example.ph", 1+i%2))
	}
	db, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro&_busy_timeout=5000")
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	count := func(query string, args ...any) int {
		var n int
		require.NoError(t, db.QueryRow(query, args...).Scan(&n))
		return n
	}
	ours := `o.public_id IN ('` + strings.Join(ids, `','`) + `')`
	require.Eventually(t, func() bool { return count(`SELECT count(*) FROM orders o WHERE status = 'paid' AND `+ours) == orders },
		20*time.Second, 100*time.Millisecond, "the sandbox's webhooks pay the orders")

	// The demo's own orders of the event were paid outside this sandbox: set them aside, so
	// the event's paid orders are the test's.
	w, err := sql.Open("sqlite3", "file:"+dbPath+"?_busy_timeout=5000")
	require.NoError(t, err)
	_, err = w.Exec(`UPDATE orders SET status = 'expired' WHERE event_id = (SELECT id FROM events WHERE code = ?)
		AND status = 'paid' AND public_id NOT IN ('`+strings.Join(ids, `','`)+`')`, demoOwnedEvent)
	require.NoError(t, err)
	require.NoError(t, w.Close())

	ctx := newBrowser(t)
	base := "/organizer/events/" + demoOwnedEvent
	signIn := func(url string) chromedp.Tasks {
		return chromedp.Tasks{dismissCookies(url), chromedp.Navigate(url + "/sign-in"),
			setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()}
	}
	require.NoError(t, chromedp.Run(ctx, signIn(p.url),
		chromedp.Navigate(p.url+base+"/status?status=cancelled"),
		clickAndLoad(`//button[normalize-space(.)='Cancel the event and tell the ticket holders']`, chromedp.BySearch),
		chromedp.Navigate(p.url+base+"/refunds"),
		clickAndLoad(`//button[normalize-space(.)='Refund every order']`, chromedp.BySearch)))
	require.Contains(t, textOf(t, ctx, "main"), strconv.Itoa(orders)+" paid orders are refunded")
	require.NoError(t, chromedp.Run(ctx, clickAndLoad(`//main//form//button[normalize-space(.)='Refund every order']`, chromedp.BySearch)))
	require.Contains(t, textOf(t, ctx, ".org-refund-all"), "of "+strconv.Itoa(orders)+" orders refunded")

	// Half-way: kill the server between refunds, or in the middle of one.
	require.Eventually(t, func() bool { return count(`SELECT count(*) FROM sandbox_refunds`) >= 2 }, 60*time.Second, 20*time.Millisecond)
	require.NoError(t, p.cmd.Process.Kill())
	<-p.done
	done := count(`SELECT count(*) FROM sandbox_refunds`)
	require.Less(t, done, orders, "killed half-way")
	t.Logf("killed after %d of %d refunds", done, orders)

	p = startServe(t, bin, env...)
	require.Eventually(t, func() bool {
		return count(`SELECT count(*) FROM orders o WHERE status = 'refunded' AND `+ours) == orders
	},
		60*time.Second, 100*time.Millisecond, "after the restart every order is refunded")
	require.Equal(t, orders, count(`SELECT count(*) FROM sandbox_refunds`), "one refund per order: none twice")
	require.Zero(t, count(`SELECT count(*) FROM (SELECT session_id FROM sandbox_refunds GROUP BY session_id HAVING count(*) > 1) x`))
	require.Equal(t, orders, count(`SELECT count(*) FROM refunds WHERE status = 'refunded' AND reason = 'event_cancelled'`))
	require.Zero(t, count(`SELECT count(*) FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.status <> 'cancelled' AND `+ours))

	// the session survives the restart (its key is in the database; cookies do not depend on the port)
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(p.url+base+"/refunds"), chromedp.WaitVisible(".org-refund-all", chromedp.ByQuery)))
	require.Contains(t, textOf(t, ctx, ".org-refund-all"), strconv.Itoa(orders)+" of "+strconv.Itoa(orders)+" orders refunded · done")
	screenshot(t, ctx, "organizer-refund-every-order-done")
}
