package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// validatorFile is a file of an npm package of package.json's devDependencies, found under the
// repository's node_modules unless env names another path (a copy installed elsewhere).
func validatorFile(t *testing.T, env, rel string) string {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		path = filepath.Join("..", "..", "node_modules", rel)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s not found (%v): install the npm devDependencies (npm ci) or set %s", rel, err, env)
	}
	return path
}

// validatedPage is a page the validators check, as whom.
type validatedPage struct {
	who  string // "", "organizer", "gate" or "operator"
	path string
}

// nuMessage is one message of the Nu HTML Checker's JSON output.
type nuMessage struct {
	Type     string `json:"type"`
	URL      string `json:"url"`
	LastLine int    `json:"lastLine"`
	Message  string `json:"message"`
	Extract  string `json:"extract"`
}

// axeScript runs axe-core on the page with the WCAG 2 A and AA rules and returns the serious and
// critical violations, each with up to three of its elements.
const axeScript = `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}, resultTypes: ['violations']})
  .then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.impact + ' ' + v.id + ' (' + v.help + '): ' + v.nodes.slice(0, 3)
      .map((n) => n.target.join(' ') + ' → ' + (n.failureSummary || '').replace(/\s+/g, ' ')).join(' | ')))`

// axeStructureScript runs axe-core's rules on structure whatever their impact: all content inside
// landmarks (region) and no table header without text (empty-table-header).
const axeStructureScript = `axe.run(document, {runOnly: {type: 'rule', values: ['region', 'empty-table-header']}, resultTypes: ['violations']})
  .then((r) => r.violations.map((v) => v.impact + ' ' + v.id + ' (' + v.help + '): ' + v.nodes.slice(0, 3)
      .map((n) => n.target.join(' ')).join(' | ')))`

// TestValidators_Browser runs the Nu HTML Checker (npm vnu-jar, on Java) over the HTML the server
// sends and axe-core (npm axe-core, WCAG 2 A and AA) in Chromium over the public pages, the
// buyer's pages, the organizer console (as the demo organizer), the gate (as a gate member) and
// the operator console: no Nu error and no serious or critical axe violation on any of them, all
// content inside landmarks and no empty table header.
func TestValidators_Browser(t *testing.T) {
	vnu := validatorFile(t, "PALARO_VNU_JAR", "vnu-jar/build/dist/vnu.jar")
	axe := validatorFile(t, "PALARO_AXE_JS", "axe-core/axe.min.js")
	java, err := exec.LookPath("java")
	require.NoError(t, err, "the Nu HTML Checker needs Java: install Debian's default-jre-headless (go tool task java)")
	axeSource, err := os.ReadFile(axe)
	require.NoError(t, err)
	a := startApp(t)
	_, err = a.DB().SeedStadium(context.Background(), a.Now(), store.StadiumOptions{Places: 1000})
	require.NoError(t, err)
	visitors := map[string]*httpVisitor{
		"":          newVisitor(t, a),
		"organizer": signedIn(t, a, store.DemoOrganizerEmail),
		"gate":      signedIn(t, a, store.DemoGateEmail),
		"operator":  signedIn(t, a, store.DemoOperatorEmail),
		"captain":   signedIn(t, a, store.DemoCaptainEmail),
		"pass":      newVisitor(t, a), // admitted by the league's queue for its season pass (below)
	}
	anon := visitors[""]

	_, news := anon.get("/news")
	article := regexp.MustCompile(`href="(/news/[a-z0-9-]+)"`).FindStringSubmatch(news)
	require.NotNil(t, article, "the news page links an article")
	orders, err := a.Purchases().ListOrders(context.Background(), palaro.OrderFilter{Status: palaro.OrderPaid, Limit: 1})
	require.NoError(t, err)
	require.NotEmpty(t, orders, "the demo data has paid orders")
	order, err := a.Purchases().FindOrderByPublicID(context.Background(), orders[0].PublicID)
	require.NoError(t, err)
	require.NotEmpty(t, order.Tickets)
	ev := "/organizer/events/" + demoOwnedEvent
	_, orgOrders := visitors["organizer"].get(ev + "/orders")
	orgOrder := regexp.MustCompile(`href="(` + regexp.QuoteMeta(ev) + `/orders/[^"?/]+)"`).FindStringSubmatch(orgOrders)
	require.NotNil(t, orgOrder, "the console's orders page links an order")
	_, hooks := visitors["organizer"].post("/organizer/webhooks", url.Values{"url": {"https://203.0.113.10/palaro"}, "events": {"order.paid"}})
	hook := regexp.MustCompile(`href="(/organizer/webhooks/we_[^"]+)"`).FindStringSubmatch(hooks)
	require.NotNil(t, hook, "the webhooks page links its endpoint")

	// the sandbox's e-wallet authorization page of a GCash order
	status, bought := anon.postJSON("/v1/ticket/buy", `{"ticketCode":"dota-2-visayas-major-gen","quantity":1,"email":"gcash@example.ph","paymentType":"GCASH"}`)
	require.Equal(t, 200, status, bought)
	walletPage := regexp.MustCompile(`"redirectUrl":"` + regexp.QuoteMeta(a.URL) + `(/sandbox/checkout/[^"]+)"`).FindStringSubmatch(bought)
	require.NotNil(t, walletPage, bought)
	invoiced := paidOrder(t, a, "validated-invoice@example.ph", 1)
	require.NotEmpty(t, invoiced.Invoices, "a paid order has its sales invoice")

	// a series: its page, a date's page, a date's buy and seat pages
	lan, err := store.NewEventService(a.DB()).FindEventByCode(context.Background(), "lan-party-baguio")
	require.NoError(t, err)
	day := testEpoch.AddDate(0, 0, 9)
	dates, err := store.NewSeriesService(a.DB()).CreateDates(context.Background(), lan.ID, []palaro.DateInput{
		{Name: "Day 1", StartsAt: day, EndsAt: day.Add(8 * time.Hour), Status: palaro.DateScheduled},
		{StartsAt: day.AddDate(0, 0, 7), EndsAt: day.AddDate(0, 0, 7).Add(8 * time.Hour), Status: palaro.DatePostponed},
	}, testEpoch)
	require.NoError(t, err)
	a.Server().EventsChanged()
	series := []string{"/e/lan-party-baguio", "/e/lan-party-baguio/" + dates[0].Slug, "/e/lan-party-baguio/" + dates[1].Slug,
		"/b/lan-party-baguio-visitor?date=" + dates[0].Slug, "/s/lan-party-baguio-seat?date=" + dates[0].Slug}

	// a registration whose entry fee is not paid: its team page with the pay button
	// (a tournament of a series starts on one of its dates: the league's second date to come)
	now := a.Now()
	_, leagueDays := leagueDates(t, a)
	var coming []time.Time
	for _, d := range leagueDays {
		if d.StartsAt.After(now) {
			coming = append(coming, d.StartsAt)
		}
	}
	require.GreaterOrEqual(t, len(coming), 2, "the demo league has dates to come")
	starts := coming[1]
	fee, err := a.Tournaments().SaveTournament(context.Background(), demoLeague, palaro.Tournament{Code: "validated-fee-cup", Name: "Fee Cup",
		Game: palaro.GameMLBB, MinPlayers: 2, MaxPlayers: 2, MaxTeams: 2, EntryFee: 100_00, Rules: "Pay first.",
		RegistrationOpensAt: now.Add(-time.Hour), RegistrationClosesAt: starts.Add(-4 * time.Hour), RosterLocksAt: starts.Add(-3 * time.Hour),
		StartsAt: starts, CheckInOpens: 60, CheckInCloses: 15}, now)
	require.NoError(t, err)
	unpaid, err := a.Tournaments().RegisterTeam(context.Background(), palaro.TeamRegistration{TournamentCode: fee.Code,
		CaptainID: userID(t, a, store.DemoCaptainEmail), Name: "Unpaid Five", Tag: "UNP", AcceptRules: true}, now)
	require.NoError(t, err)

	// the demo tournament's roster locked: its players' pages (the player's link below) show their competitor passes
	demoCup, err := a.Tournaments().FindTournament(context.Background(), "palaro-league-mlbb-cup")
	require.NoError(t, err)
	_, _, err = a.Tournaments().IssueCompetitorPasses(context.Background(), demoCup.RosterLocksAt)
	require.NoError(t, err)

	var pages []validatedPage
	for _, p := range []string{"/", "/e/" + demoOwnedEvent, walletPage[1], "/f/valorant", "/calendar", "/news", article[1], "/pnk",
		"/about", "/faq", "/contacts", "/privacy", "/terms", "/cookies", "/b/" + demoOwnedType, "/b/kundiman-gala-orchestra",
		"/s/dota-2-visayas-major-lower", "/s/" + store.StadiumEventCode + "-lower", "/s/" + store.StadiumEventCode + "-lower?section=101",
		"/payment/success/" + order.PublicID, "/payment/success/" + order.PublicID + "/cancel", "/t/" + order.Tickets[0].PublicID,
		"/tickets", "/activities", "/leaderboard", "/register", "/register/organizer", "/sign-in", "/sign-up", "/reset-password",
		palaro.InvoicePath(invoiced.Invoices[0].PublicID), "/embed/e/" + demoOwnedEvent,
		"/embed/b/" + demoOwnedType, "/embed/o/" + order.PublicID} {
		pages = append(pages, validatedPage{"", p})
	}
	for _, p := range series {
		pages = append(pages, validatedPage{"", p})
	}
	for _, p := range []string{"/organizer", "/organizer/events/new", ev, ev + "/edit", ev + "/ticket-types/new",
		ev + "/ticket-types/" + demoOwnedType + "/edit", ev + "/add-ons", ev + "/orders", orgOrder[1], ev + "/refunds",
		ev + "/dashboard", ev + "/promo-codes", ev + "/activities", ev + "/waitlist", ev + "/cancellations", ev + "/queue", ev + "/check-ins",
		ev + "/check-in", ev + "/emails", ev + "/messages", ev + "/widget", "/organizer/team", "/organizer/tokens", "/organizer/news", "/profile",
		"/organizer/webhooks", hook[1],
		ev + "/status?status=" + palaro.EventPostponed, ev + "/status?status=" + palaro.EventCancelled,
		ev + "/activities/scratch/screen", ev + "/activities/booth/scan", "/organizer/organization",
		"/organizer/organization/admission-receipts?rate=10"} {
		pages = append(pages, validatedPage{"organizer", p})
	}
	// tournaments: the teams page, a captain's registration form and team page, a player's link,
	// the console's page and its new and edit forms
	// the demo league: its series page, a match day's page, its gate (a series' gate, with its date
	// picker) and its check-in counts (per date)
	pages = append(pages, validatedPage{"", "/e/" + demoLeague + "/teams"}, validatedPage{"", "/e/" + demoLeague},
		validatedPage{"", "/e/" + demoLeague + "/2026-03-21"}, validatedPage{"gate", "/organizer/events/" + demoLeague + "/check-in"},
		validatedPage{"organizer", "/organizer/events/" + demoLeague + "/check-ins"},
		validatedPage{"captain", "/tournament/palaro-league-mlbb-cup/register"}, validatedPage{"captain", "/team/demobldpala"}, validatedPage{"captain", palaro.TeamPath(unpaid.PublicID)},
		validatedPage{"", "/team/join/demo:bld1@players.palaro.ph"},
		validatedPage{"organizer", "/organizer/events/" + demoLeague + "/tournaments"},
		validatedPage{"organizer", "/organizer/events/" + demoLeague + "/tournaments/new"},
		validatedPage{"organizer", "/organizer/events/" + demoLeague + "/tournaments/palaro-league-mlbb-cup/edit"})
	// a match day's waiting list, the day ticket's list without a date (pick one), and the league's lists in the console (one per type and date)
	pages = append(pages, validatedPage{"", "/waitlist/" + demoLeague + "-day?date=2026-03-21"},
		validatedPage{"", "/waitlist/" + demoLeague + "-day"},
		validatedPage{"organizer", "/organizer/events/" + demoLeague + "/waitlist"})
	// a series' dates in the console: the list with the add form, one date's form and the
	// confirmation step of cancelling a match day
	pages = append(pages, validatedPage{"organizer", "/organizer/events/lan-party-baguio/dates"},
		validatedPage{"organizer", "/organizer/events/lan-party-baguio/dates?edit=" + dates[0].Slug},
		validatedPage{"organizer", "/organizer/events/" + demoLeague + "/dates/2026-03-28/cancel"})
	// a series in the console: per-date sales on the event page and dashboard, the orders of one
	// date, the ticket type form with its season pass part, and the pass's own edit form
	league := "/organizer/events/" + demoLeague
	pages = append(pages, validatedPage{"organizer", league}, validatedPage{"organizer", league + "/dashboard"},
		validatedPage{"organizer", league + "/orders?date=2026-03-14"}, validatedPage{"organizer", league + "/ticket-types/new"},
		validatedPage{"organizer", league + "/ticket-types/" + demoLeague + "-season/edit"})
	// the league's queue per date: a place for a match day whose sales ended (its notice and the
	// dates with places) and the console's figures per date
	leagueEv, leagueDays := leagueDates(t, a)
	require.NoError(t, a.Queues().Configure(context.Background(), leagueEv, "validators", &palaro.QueueSettings{OpensAt: a.Now().Add(-time.Hour), AdmitPerMinute: 1}, a.Now()))
	// the first place in line, for the season pass (no date), has its turn at once: its seat map
	_, admitted := visitors["pass"].get("/v1/queue/" + demoLeague)
	require.Contains(t, admitted, `"admitted":true`)
	// the next place, waiting, is for the first match day (over): its page tells, with the dates to move to
	status, joined := anon.get("/v1/queue/" + demoLeague + "?date=" + leagueDays[0].Slug)
	require.Equal(t, 200, status, joined)
	require.Contains(t, joined, `"date":"`+leagueDays[0].Slug+`"`)
	pages = append(pages, validatedPage{"", "/queue/" + demoLeague}, validatedPage{"organizer", league + "/queue"},
		validatedPage{"pass", "/s/" + demoLeague + "-season"})
	pages = append(pages, validatedPage{"gate", ev + "/check-in"}, validatedPage{"gate", "/organizer"},
		validatedPage{"operator", "/operator/news"}, validatedPage{"operator", "/operator/pnk/home"})

	t.Run("NuHTMLChecker", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]validatedPage{}
		var args []string
		for i, p := range pages {
			status, body := visitors[p.who].get(p.path)
			require.Equal(t, 200, status, "%s as %q: %.300s", p.path, p.who, body)
			name := filepath.Join(dir, fmt.Sprintf("page%02d.html", i))
			require.NoError(t, os.WriteFile(name, []byte(body), 0o644))
			abs, err := filepath.Abs(name)
			require.NoError(t, err)
			files[abs] = p
			args = append(args, name)
		}
		cmd := exec.Command(java, append([]string{"-jar", vnu, "--errors-only", "--format", "json", "--exit-zero-always"}, args...)...)
		var out strings.Builder
		cmd.Stderr = &out
		require.NoError(t, cmd.Run(), out.String())
		var res struct{ Messages []nuMessage }
		require.NoError(t, json.Unmarshal([]byte(out.String()), &res), out.String())
		var errs []string
		for _, m := range res.Messages {
			if m.Type != "error" && m.Type != "non-document-error" {
				continue
			}
			u, _ := url.Parse(m.URL)
			p := files[u.Path]
			errs = append(errs, fmt.Sprintf("%s (as %q) line %d: %s [%s]", p.path, p.who, m.LastLine, m.Message, strings.TrimSpace(m.Extract)))
		}
		require.Empty(t, errs, "Nu HTML Checker errors:\n%s", strings.Join(errs, "\n"))
	})

	t.Run("AxeCore", func(t *testing.T) {
		host, err := url.Parse(a.URL)
		require.NoError(t, err)
		var found []string
		// A browser per batch of pages: each batch gets the browser's whole guard against a hang,
		// so a loaded machine does not fail a long list on its last pages.
		const batch = 15
		for start := 0; start < len(pages); start += batch {
			t.Run(fmt.Sprintf("pages%02d", start), func(t *testing.T) {
				b := newBrowser(t)
				for i := start; i < min(start+batch, len(pages)); i++ {
					p := pages[i]
					var cookies []chromedp.Action
					cookies = append(cookies, network.ClearBrowserCookies())
					for _, c := range visitors[p.who].client.Jar.Cookies(host) {
						cookies = append(cookies, network.SetCookie(c.Name, c.Value).WithURL(a.URL))
					}
					var violations, structure []string
					err := chromedp.Run(b, append(cookies,
						chromedp.Navigate(a.URL+p.path),
						waitFor(`document.readyState === 'complete'`),
						chromedp.Sleep(300*time.Millisecond), // islands mount, the cookie notice shows
						chromedp.Evaluate(string(axeSource), nil),
						chromedp.Evaluate(axeScript, &violations, awaitPromise),
						chromedp.Evaluate(axeStructureScript, &structure, awaitPromise))...)
					require.NoError(t, err, p.path)
					violations = append(violations, structure...)
					screenshot(t, b, fmt.Sprintf("validators-%02d", i))
					for _, v := range violations {
						found = append(found, fmt.Sprintf("%s (as %q): %s", p.path, p.who, v))
					}
				}
			})
		}
		require.Empty(t, found, "axe-core serious or critical violations:\n%s", strings.Join(found, "\n"))
	})
}
