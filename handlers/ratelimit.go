package handlers

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v5"

	"palaro"
)

// limitRule is a token bucket: Burst attempts at once, refilled at one per Every.
type limitRule struct {
	Burst int
	Every time.Duration
}

// Rate limits. Sign-in is limited per IP address and account together (so an attacker guessing
// one account's password is throttled while its owner, elsewhere, still signs in) and, more
// loosely, per IP address (so one address cannot try many accounts).
var (
	limitSignInPair   = limitRule{Burst: 5, Every: time.Minute}
	limitSignInIP     = limitRule{Burst: 30, Every: 20 * time.Second}
	limitResetRequest = limitRule{Burst: 5, Every: 2 * time.Minute}
	limitResetNumber  = limitRule{Burst: 3, Every: 5 * time.Minute}
	limitResetCheck   = limitRule{Burst: 10, Every: time.Minute}
	limitRegistration = limitRule{Burst: 10, Every: time.Minute}
	// limitActivationMail bounds the activation e-mails one account asks for again.
	limitActivationMail = limitRule{Burst: 3, Every: 5 * time.Minute}
	// Routes that send e-mail (a tickets link, a ticket's or an account's change of address) are
	// limited per session, per IP address and per recipient, so one visitor cannot flood an inbox.
	limitMailSession   = limitRule{Burst: 10, Every: time.Minute}
	limitMailIP        = limitRule{Burst: 60, Every: 5 * time.Second}
	limitMailRecipient = limitRule{Burst: 5, Every: 20 * time.Minute}
	// Profile changes are limited per IP address (the route table's limit) and per account, and so is the
	// code that confirms a new mobile number (limitResetCheck per account).
	limitProfile        = limitRule{Burst: 20, Every: 30 * time.Second}
	limitProfileAccount = limitRule{Burst: 10, Every: time.Minute}
	// limitPicture bounds picture uploads per IP address, limitPictureAccount per account.
	limitPicture        = limitRule{Burst: 30, Every: 20 * time.Second}
	limitPictureAccount = limitRule{Burst: 10, Every: time.Minute}
	// limitScanActivity bounds the participants' own scans of one activity (POST /scan, GET
	// /v1/scan) from everyone together: a crowd at a booth gets through, a script is slowed.
	limitScanActivity = limitRule{Burst: 60, Every: time.Second}
)

// Purchase limits. Carriers put many subscribers behind one carrier-grade NAT address and venue
// Wi-Fi puts a whole crowd behind one, so a purchase is limited first by what belongs to one
// buyer (the session, the signed-in account, the e-mail address) and only then, loosely, by the
// address: 300 buyers with their own sessions get through from one address within a minute,
// while one session (or one e-mail address) sending purchase after purchase is slowed down.
var (
	limitPurchaseSession = limitRule{Burst: 10, Every: 6 * time.Second}
	limitPurchaseAccount = limitRule{Burst: 10, Every: 6 * time.Second}
	limitPurchaseEmail   = limitRule{Burst: 10, Every: 6 * time.Second}
	limitPurchaseIP      = limitRule{Burst: 300, Every: 200 * time.Millisecond}
	// limitQueueJoinIP bounds the places in a sale's queue one address takes, as loosely.
	limitQueueJoinIP = limitRule{Burst: 300, Every: 200 * time.Millisecond}
)

// MsgTooManyRequests answers a throttled request.
const MsgTooManyRequests = "Too many attempts. Please wait a few minutes and try again."

// perServer is the share of rule that one of servers app servers gives: the burst divided by
// the server count (rounded up, at least 1) and the refill slowed by the same factor, so that
// a client whose requests a proxy spreads over every server gets about rule's budget in total.
func (rule limitRule) perServer(servers int) limitRule {
	if servers <= 1 {
		return rule
	}
	return limitRule{Burst: max(1, (rule.Burst+servers-1)/servers), Every: rule.Every * time.Duration(servers)}
}

// limiter holds token buckets by key, in memory. Each app server has its own: with several
// servers (Config.Servers) each gives its share of every rule (limitRule.perServer). Full buckets
// are forgotten (a new bucket starts full) when the map reaches sweepAt buckets; sweepAt is then
// set to twice the buckets left, so a rush of buyers whose buckets are all in use is swept now and
// then, not on every request.
type limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	now     func() time.Time
	servers int
	sweepAt int
}

// minLimiterSweep is the smallest number of buckets at which the limiter sweeps.
const minLimiterSweep = 100_000

type bucket struct {
	tokens float64
	last   time.Time
	rule   limitRule
}

func newLimiter(now func() time.Time, servers int) *limiter {
	return &limiter{buckets: map[string]*bucket{}, now: now, servers: servers, sweepAt: minLimiterSweep}
}

// allow takes a token from the bucket of key under rule; when it is empty it reports false and
// how long until the next token.
func (l *limiter) allow(rule limitRule, key string) (bool, time.Duration) {
	return l.allowEach(limitCheck{rule, key})
}

// allowEach takes a token from each bucket of checks in turn, under one lock, and stops at the
// first empty one: it reports false and how long until that bucket's next token.
func (l *limiter) allowEach(checks ...limitCheck) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.buckets) >= l.sweepAt {
		l.sweep(now)
		l.sweepAt = max(minLimiterSweep, 2*len(l.buckets))
	}
	for _, ch := range checks {
		if ok, wait := l.take(ch.rule.perServer(l.servers), ch.key, now); !ok {
			return false, wait
		}
	}
	return true, 0
}

// take takes a token from the bucket of key under rule at now; l.mu is held.
func (l *limiter) take(rule limitRule, key string, now time.Time) (bool, time.Duration) {
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: float64(rule.Burst), last: now, rule: rule}
		l.buckets[key] = b
	}
	b.tokens = math.Min(float64(rule.Burst), b.tokens+now.Sub(b.last).Seconds()/rule.Every.Seconds())
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) * float64(rule.Every))
	}
	b.tokens--
	return true, 0
}

// sweep forgets full buckets.
func (l *limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()/b.rule.Every.Seconds() >= float64(b.rule.Burst) {
			delete(l.buckets, k)
		}
	}
}

// throttle takes a token from every named bucket and answers ETOOMANY (with Retry-After) when
// any is empty.
func (s *Server) throttle(c *echo.Context, checks ...limitCheck) error {
	if ok, wait := s.limits.allowEach(checks...); !ok {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		return palaro.Errorf(palaro.ETOOMANY, MsgTooManyRequests)
	}
	return nil
}

// limitCheck names one bucket to take a token from.
type limitCheck struct {
	rule limitRule
	key  string
}

// rateLimitRoutes applies the route table's per-IP limit (limit) of the matched route.
func (s *Server) rateLimitRoutes(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if c.Request().Method == http.MethodGet || c.Request().Method == http.MethodHead {
			return next(c)
		}
		if rt := routeOf(c); rt != nil && rt.limit != (limitRule{}) {
			route := c.Request().Method + " " + c.Path()
			if err := s.throttle(c, limitCheck{rt.limit, route + "|" + c.RealIP()}); err != nil {
				return err
			}
		}
		return next(c)
	}
}

// throttleMail takes a token from the e-mail-sending buckets of the request's session, IP address
// and recipients: canonical addresses ("" when the address is not valid, which sends nothing), or
// "ticket:<id>" for the holder of a ticket, whose address the caller may not know.
func (s *Server) throttleMail(c *echo.Context, recipients ...string) error {
	checks := []limitCheck{{limitMailIP, "mail-ip|" + c.RealIP()}}
	if sid := visitOf(c).csrfToken(); sid != "" {
		checks = append(checks, limitCheck{limitMailSession, "mail-session|" + sid})
	}
	for _, r := range recipients {
		if r != "" {
			checks = append(checks, limitCheck{limitMailRecipient, "mail-to|" + r})
		}
	}
	return s.throttle(c, checks...)
}

// mailRecipient is the canonical form of an address for throttleMail, or "" when it is not valid.
func mailRecipient(email string) string {
	if c, ok := palaro.CanonicalEmail(email); ok {
		return c
	}
	return ""
}

// transferRecipients are the throttleMail recipients of a ticket transfer to email: the new
// address and the ticket's holder. An invalid address sends nothing, so it costs them nothing.
func transferRecipients(ticketID, email string) []string {
	to := mailRecipient(email)
	if to == "" {
		return nil
	}
	return []string{to, "ticket:" + ticketID}
}

// oneAtATime lets each key run one piece of work at a time (one picture upload per account).
type oneAtATime struct{ running sync.Map }

// begin reports whether key may start; when it may, done must be called when the work ends.
func (o *oneAtATime) begin(key int64) (done func(), ok bool) {
	if _, busy := o.running.LoadOrStore(key, struct{}{}); busy {
		return nil, false
	}
	return func() { o.running.Delete(key) }, true
}

// throttlePurchase limits a purchase (of tickets or of add-ons) by the buyer's session, account and e-mail address, then by
// the address's ceiling; a bucket that is already empty stops the check, so a session that is
// throttled does not use up what its neighbours behind the same address may still buy.
func (s *Server) throttlePurchase(c *echo.Context, email string) error {
	const route = "buy|"
	v := visitOf(c)
	checks := make([]limitCheck, 0, 4)
	if sid, _ := v.session.Values[keySID].(string); sid != "" {
		checks = append(checks, limitCheck{limitPurchaseSession, route + "sid|" + sid})
	}
	if v.user != nil {
		checks = append(checks, limitCheck{limitPurchaseAccount, route + "user|" + strconv.FormatInt(v.user.ID, 10)})
	}
	if email = palaro.NormalizeEmail(email); email != "" { // one bucket per address, however it is spelt
		checks = append(checks, limitCheck{limitPurchaseEmail, route + "email|" + email})
	}
	return s.throttle(c, append(checks, limitCheck{limitPurchaseIP, route + "ip|" + c.RealIP()})...)
}
