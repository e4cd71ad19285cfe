// Package app wires Palaro: it opens the database, builds the domain services, the payment
// provider and the senders, hands them to the HTTP server, and runs the background jobs.
package app

import (
	"cmp"
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"palaro"
	"palaro/handlers"
	"palaro/internal/debugserver"
	"palaro/internal/metrics"
	"palaro/notify"
	"palaro/payment/paymongo"
	"palaro/payment/sandbox"
	"palaro/queue"
	"palaro/static"
	"palaro/store"
	"palaro/webhook"
)

// App is a wired Palaro: the database, the domain services and the HTTP server.
type App struct {
	db        *store.DB
	server    *handlers.Server
	purchases *store.PurchaseService
	waitlist  *store.WaitlistService
	// tournaments keeps tournaments and teams; the job loop closes their check-ins.
	tournaments *store.TournamentService
	outbox      *store.OutboxService
	webhooks    *store.WebhookService
	// webhookSender sends the deliveries of webhooks (its AllowPrivate from the config).
	webhookSender *webhook.Sender
	mail          *store.EventMailService
	refunds       *store.RefundService
	queues        *queue.Manager
	payments      palaro.PaymentProvider
	sandbox       *sandbox.Provider // the built-in provider, when selected
	sender        notify.Sender
	changes       store.ChangeFeed // tells the other app servers of the database that event data changed
	logger        *slog.Logger
	jobEvery      time.Duration
	// refundEvery is the pause of the refund job.
	refundEvery time.Duration
	// jobHolder names this server in the leases of the periodic jobs (store.DB.TryLease).
	jobHolder string
	now       func() time.Time
}

// OpenDB creates the database's folder (for a SQLite file), opens the database and applies its
// migrations.
func OpenDB(ctx context.Context, cfg Config) (*store.DB, error) {
	if !store.IsPostgresURL(cfg.DBPath) {
		if err := os.MkdirAll(filepath.Dir(cfg.DBPath), 0o755); err != nil {
			return nil, err
		}
	}
	db, err := store.Open(cfg.DBPath)
	if err != nil {
		return nil, err
	}
	if cfg.Now != nil {
		db.Now = cfg.Now
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// New opens and migrates the database, loads demo data when configured and the database is
// empty, and wires the services into the HTTP server.
func New(ctx context.Context, cfg Config, logger *slog.Logger) (a *App, err error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	db, err := OpenDB(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	if cfg.Demo {
		empty, err := db.IsEmpty(ctx)
		if err != nil {
			return nil, err
		}
		if empty {
			if err := db.SeedDemo(ctx, cfg.Now()); err != nil {
				return nil, err
			}
			logger.Info("loaded demo data")
		}
	}
	sessionKey, err := secret(ctx, db, "PALARO_SESSION_KEY", cfg.SessionKey, "session-key", 64)
	if err != nil {
		return nil, err
	}
	signingKey, previousKeys, err := db.TicketSigningKeys(ctx)
	if err != nil {
		return nil, err
	}
	gateListKey, err := db.AppSecret(ctx, "gate-list-key", 32)
	if err != nil {
		return nil, err
	}
	boothKey, err := db.AppSecret(ctx, "booth-code-key", 32)
	if err != nil {
		return nil, err
	}
	events := store.NewEventService(db)
	composer := notify.NewComposer(cfg.BaseURL, cfg.SupportEmail)
	composer.TicketQR = func(code string) string { return palaro.SignedTicketQR(signingKey, code) } // QR codes inline in e-mails
	purchases := store.NewPurchaseService(db, composer, cfg.Hold)
	a = &App{db: db, purchases: purchases, waitlist: store.NewWaitlistService(db, composer), tournaments: store.NewTournamentService(db, composer), outbox: store.NewOutboxService(db), logger: logger, jobEvery: cfg.JobInterval,
		jobHolder: jobHolder(), now: cfg.Now, webhooks: store.NewWebhookService(db, composer), mail: store.NewEventMailService(db, composer),
		refunds: store.NewRefundService(db, composer), refundEvery: cfg.RefundInterval,
		webhookSender: &webhook.Sender{AllowPrivate: cfg.WebhookAllowPrivate}}
	a.tournaments.SetPayments(a.refunds, cfg.Hold) // entry fees: held like tickets, refunded like orders
	if a.payments, a.sandbox, err = newPaymentProvider(ctx, cfg, db, logger); err != nil {
		return nil, err
	}
	if a.sender, err = newSender(cfg, logger); err != nil {
		return nil, err
	}
	accounts := store.NewAccountService(db, sessionKey, composer)
	activities := store.NewActivityService(db)
	a.queues = queue.NewManager(store.NewQueueStore(db))
	if err := a.queues.Load(ctx); err != nil {
		return nil, err
	}
	cached := store.NewCachedEventService(events, cfg.EventCache)
	cached.Now = a.now
	a.changes = store.NewChangeFeed(cfg.DBPath, logger) // nothing below fails, so the feed is always closed by Close
	var paymentPages http.Handler                       // the sandbox's hosted checkout, a route of the handlers' table
	if a.sandbox != nil {
		paymentPages = a.sandbox.Handler()
	}
	server := handlers.New(handlers.Config{
		BaseURL:      cfg.BaseURL,
		SupportEmail: cfg.SupportEmail,
		TagManagerID: cfg.TagManagerID,
		PixelID:      cfg.PixelID,
		PartnerKeys:  cfg.PartnerKeys,
		// The gate verifies QR codes with the public half; the private key never leaves the server.
		TicketSigningKey: signingKey,
		GateListKey:      gateListKey,
		SessionKey:       sessionKey,
		BoothKey:         boothKey,
		TrustProxy:       cfg.TrustProxy,
		PageCacheTTL:     cfg.EventCache,
		Servers:          cfg.Servers,
		// QR codes signed before a rotation (bin/palaro keys rotate-ticket-key) still verify.
		PreviousTicketKeys:  previousKeys,
		WebhookAllowPrivate: cfg.WebhookAllowPrivate,
	}, handlers.Services{
		Webhooks:      a.webhooks,
		Events:        cached,
		EventCache:    cached,
		Organizers:    store.NewOrganizerService(db, composer),
		CheckIns:      store.NewCheckInService(db),
		Activities:    activities,
		ActivityAdmin: activities,
		News:          store.NewNewsService(db),
		Operators:     store.NewOperatorService(db),
		PartnerLogin:  partnerLogin(cfg, logger),
		TicketTypes:   events,
		Purchases:     purchases,
		Waitlist:      a.waitlist,
		Tournaments:   a.tournaments,
		Returns:       store.NewReturnsService(db, composer),
		Seats:         store.NewSeatService(db),
		Series:        store.NewSeriesService(db),
		Payments:      a.payments,
		Refunds:       a.refunds,
		PaymentPages:  paymentPages,
		Accounts:      accounts,
		Queues:        a.queues,
		Changes:       a.changes,
		Mail:          a.mail,
	}, static.Default(), logger)
	server.Now = a.now
	a.changes.Subscribe(server.DropCaches) // another server changed event data
	a.changes.Subscribe(db.ChangedElsewhere)
	a.server = server
	return a, nil
}

// secret returns the configured value of the environment variable env (at least 32 bytes), or,
// when it is unset, the named secret generated once and kept in the database, so that sessions,
// ticket QR codes and webhook signatures survive restarts.
func secret(ctx context.Context, db *store.DB, env string, configured []byte, name string, size int) ([]byte, error) {
	switch {
	case len(configured) >= 32:
		return configured, nil
	case len(configured) > 0:
		return nil, fmt.Errorf("%s must be at least 32 characters", env)
	}
	return db.AppSecret(ctx, name, size)
}

// newPaymentProvider builds the provider PALARO_PAYMENT_PROVIDER selects: the sandbox (default)
// or PayMongo.
func newPaymentProvider(ctx context.Context, cfg Config, db *store.DB, logger *slog.Logger) (palaro.PaymentProvider, *sandbox.Provider, error) {
	webhook := strings.TrimRight(cfg.BaseURL, "/") + "/v1/payment/webhook/"
	switch cfg.PaymentProvider {
	case "", sandbox.Name:
		key, err := secret(ctx, db, "PALARO_PAYMENT_SECRET", cfg.PaymentSecret, "sandbox-webhook-secret", 32)
		if err != nil {
			return nil, nil, err
		}
		sessions := sandbox.NewSQLStoreIn(db.Reader(), db.Write)
		p, err := sandbox.New(sandbox.Config{BaseURL: cfg.BaseURL, WebhookURL: webhook + sandbox.Name, Secret: key,
			Store: sessions, Logger: logger, Now: cfg.Now, RefundDelay: cfg.SandboxRefundDelay})
		return p, p, err
	case paymongo.Name:
		p, err := paymongo.New(paymongo.Config{SecretKey: cfg.PaymongoSecretKey, WebhookSecret: cfg.PaymongoWebhookSecret,
			Live: cfg.PaymongoLive})
		if err == nil {
			logger.Info("payments by PayMongo", "webhook_url", webhook+paymongo.Name)
		}
		return p, nil, err
	}
	return nil, nil, fmt.Errorf("unknown PALARO_PAYMENT_PROVIDER %q (sandbox or paymongo)", cfg.PaymentProvider)
}

// newSender returns the SMTP sender when PALARO_SMTP_HOST is set, else the log sender.
func newSender(cfg Config, logger *slog.Logger) (notify.Sender, error) {
	senders := notify.ByChannel{Email: notify.LogSender{Logger: logger}, SMS: notify.LogSender{Logger: logger}}
	var err error
	if cfg.SMTP.Host != "" {
		if senders.Email, err = notify.NewSMTPSender(cfg.SMTP); err != nil {
			return nil, err
		}
	}
	switch cfg.SMSProvider {
	case "", "log":
	case "semaphore":
		if senders.SMS, err = notify.NewSemaphoreSender(cfg.SemaphoreAPIKey, cfg.SemaphoreSenderName); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("PALARO_SMS_PROVIDER: unknown provider %q (log or semaphore)", cfg.SMSProvider)
	}
	return senders, nil
}

// settleLease names the lease of the reconcile-and-release loop; it lasts settleLeaseRounds
// rounds of the loop, so another server takes the loop over when its holder misses that many.
const (
	settleLease       = "settle"
	settleLeaseRounds = 3
)

// jobHolder returns a name for this server process in the job leases: host, process id and a
// random part (a restarted process is a new holder).
func jobHolder() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s/%d/%x", host, os.Getpid(), b)
}

// RunJobs runs the background work until ctx is cancelled: the outbox worker, the webhook
// deliveries' worker, the queues' sync, the refund job (runRefunds) and the job loop (SettleOnce:
// payments reconciled, expired holds released, ID numbers masked, waiting lists moved on,
// reminders queued). It returns when every job has stopped. With several app servers on one
// database every server drains the outbox and the webhook deliveries (each message or delivery is
// claimed by one of them), and the refund job and the job loop each run on the one server that
// holds its lease.
func (a *App) RunJobs(ctx context.Context) {
	var wg sync.WaitGroup
	worker := &notify.Worker{Outbox: a.outbox, Sender: a.sender, Jobs: a.purchases, Logger: a.logger, Now: a.now,
		Busy: a.db.WriterBusy}
	wg.Go(func() { _ = worker.Run(ctx) })
	hooks := &webhook.Worker{Store: a.webhooks, Sender: a.webhookSender, Logger: a.logger, Now: a.now}
	wg.Go(func() { hooks.Run(ctx) })
	wg.Go(func() { a.syncQueues(ctx) })
	wg.Go(func() { a.runRefunds(ctx) })
	wg.Go(func() { a.leasedLoop(ctx, settleLease, cmp.Or(a.jobEvery, 30*time.Second), a.SettleOnce) })
	wg.Wait()
}

// leasedLoop runs round every pause until ctx is cancelled, on the one server that holds the
// job's lease; the lease lasts settleLeaseRounds pauses, so another server takes the job over
// when its holder misses that many (a round longer than that may overlap another server's). Each
// round run is counted in palaro_job_rounds_total{job=name} (the bench waits for the first).
func (a *App) leasedLoop(ctx context.Context, name string, every time.Duration, round func(context.Context, time.Time)) {
	rounds := metrics.JobRounds.WithLabelValues(name)
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		held, err := a.db.TryLease(ctx, name, a.jobHolder, a.now(), settleLeaseRounds*every)
		if err != nil && ctx.Err() == nil {
			a.logger.Error("job lease", "job", name, "error", err)
		}
		if held {
			round(ctx, a.now())
			rounds.Inc()
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// refundLease names the lease of the refund job: one server settles refunds at a time.
const refundLease = "refunds"

// runRefunds is the refund job until ctx is cancelled: each round (on the server holding its
// lease) writes the pending refunds of cancelled events being refunded whole, then settles the
// pending refunds through the gateway. A restart goes on where it stopped: what is left is in
// the database, and the gateway's idempotency key makes a refund asked twice happen once (so
// rounds of two servers may overlap harmlessly).
func (a *App) runRefunds(ctx context.Context) {
	a.leasedLoop(ctx, refundLease, cmp.Or(a.refundEvery, 5*time.Second), a.RefundOnce)
}

// Refund job batch sizes: orders of a cancelled event written per round, refunds settled per round.
const (
	refundEventBatch  = 50
	refundSettleBatch = 20
)

// RefundOnce runs one round of the refund job.
func (a *App) RefundOnce(ctx context.Context, now time.Time) {
	if n, err := a.refunds.RefundEventOrders(ctx, refundEventBatch); err != nil && ctx.Err() == nil {
		a.logger.Error("refund every order", "error", err)
	} else if n > 0 {
		a.logger.Info("refunds written for cancelled events", "orders", n)
		if a.server != nil {
			a.server.EventsChanged()
		}
	}
	if a.payments == nil {
		return
	}
	if n, err := palaro.SettleRefunds(ctx, a.refunds, a.payments, refundSettleBatch, now); err != nil && ctx.Err() == nil {
		a.logger.Warn("refunds", "asked", n, "error", err)
	} else if n > 0 {
		a.logger.Info("refunds settled", "asked", n)
	}
}

// queueSyncEvery is how often the queues in memory follow the database: places given by other
// servers, and the draw when a sale opens.
const queueSyncEvery = time.Second

// syncQueues keeps the queues in memory in step with the database until ctx is cancelled.
func (a *App) syncQueues(ctx context.Context) {
	ticker := time.NewTicker(queueSyncEvery)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		if err := a.queues.Sync(ctx, a.now()); err != nil && ctx.Err() == nil {
			a.logger.Error("queue sync", "error", err)
		}
	}
}

// SettleOnce reconciles pending orders with the payment provider, then releases expired holds
// (in that order, so a payment whose webhook was lost is found before its hold is released),
// then masks the senior citizen and PWD ID numbers past their record period, then moves the
// waiting lists on, then closes the tournaments' check-ins that ended, then queues the reminders
// that are due, then prunes the gate's old changes.
func (a *App) SettleOnce(ctx context.Context, now time.Time) {
	if a.payments != nil {
		if n, err := palaro.ReconcilePayments(ctx, a.purchases, a.payments, now); err != nil && ctx.Err() == nil {
			a.logger.Warn("payment reconciliation", "checked", n, "error", err)
		}
	}
	if n, err := a.purchases.ExpireHolds(ctx, now); err != nil && ctx.Err() == nil {
		a.logger.Error("expire holds", "error", err)
	} else if n > 0 {
		a.logger.Info("released expired holds", "orders", n)
		if a.server != nil {
			a.server.EventsChanged() // the released tickets are on sale again
		}
	}
	// senior citizen and PWD ID numbers past the BIR's record period: reduced to their last 4
	if n, err := a.purchases.MaskDiscountIDs(ctx, now); err != nil && ctx.Err() == nil {
		a.logger.Error("mask discount IDs", "error", err)
	} else if n > 0 {
		a.logger.Info("masked discount ID numbers", "tickets", n)
	}
	// unclaimed waiting-list offers expire and pass on; tickets freed otherwise (a capacity
	// raised, an order replaced) go to the waiting lists too
	if expired, offered, err := a.waitlist.Advance(ctx, now); err != nil && ctx.Err() == nil {
		a.logger.Error("waiting lists", "error", err)
	} else if expired+offered > 0 {
		a.logger.Info("waiting lists", "offersExpired", expired, "offersMade", offered)
		if a.server != nil {
			a.server.EventsChanged()
		}
	}
	// tournaments whose check-in closed: teams that missed it drop out, waiting teams move up
	if dropped, movedUp, err := a.tournaments.CloseCheckIns(ctx, now); err != nil && ctx.Err() == nil {
		a.logger.Error("tournament check-ins", "error", err)
	} else if dropped+movedUp > 0 {
		a.logger.Info("tournament check-ins closed", "dropped", dropped, "movedUp", movedUp)
		if a.server != nil {
			a.server.EventsChanged()
		}
	}
	// rosters locked: the players of placed teams get their competitor passes, out teams' are voided
	if issued, voided, err := a.tournaments.IssueCompetitorPasses(ctx, now); err != nil && ctx.Err() == nil {
		a.logger.Error("competitor passes", "error", err)
	} else if issued+voided > 0 {
		a.logger.Info("competitor passes", "issued", issued, "voided", voided)
	}
	// tournaments that started: standbys that never got a place get their entry fees back
	if n, err := a.tournaments.RefundStandbys(ctx, now); err != nil && ctx.Err() == nil {
		a.logger.Error("tournament standbys", "error", err)
	} else if n > 0 {
		a.logger.Info("tournament standbys refunded", "teams", n)
	}
	if n, err := a.mail.QueueReminders(ctx, now); err != nil && ctx.Err() == nil {
		a.logger.Error("reminders", "error", err)
	} else if n > 0 {
		a.logger.Info("queued reminders", "tickets", n)
	}
	// the gate's changes older than a phone may be behind: such a phone gets the whole list
	if n, err := a.db.PruneGateChanges(ctx, now, store.GateChangesKept); err != nil && ctx.Err() == nil {
		a.logger.Error("prune gate changes", "error", err)
	} else if n > 0 {
		a.logger.Info("pruned gate changes", "rows", n)
	}
}

// ServeMetrics serves the Prometheus metrics at /metrics on addr, a loopback address
// (PALARO_METRICS), until ctx ends: the Go runtime's and the process's, Palaro's own counters, the
// outbox's, the webhook deliveries' and the refunds' pending and failed counts (read from the
// database at each scrape) and the queues' lengths (from memory).
func (a *App) ServeMetrics(ctx context.Context, addr string) error {
	// each count is a read of the database at scrape time, given at most 5 s
	atScrape := func(count func(context.Context) (int, int, error)) func() (int, int, error) {
		return func() (int, int, error) {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			return count(ctx)
		}
	}
	reg, err := metrics.NewRegistry(
		metrics.Outbox(atScrape(a.outbox.OutboxCounts)),
		metrics.Webhooks(atScrape(a.webhooks.DeliveryCounts)),
		metrics.Refunds(atScrape(a.refunds.RefundCounts)),
		metrics.Queues(func(report func(event string, waiting, admitted int)) {
			a.queues.EachStats(a.now(), func(code string, st palaro.QueueStats) { report(code, st.Waiting, st.Admitted) })
		}))
	if err != nil {
		return err
	}
	return debugserver.StartMetrics(ctx, addr, metrics.Handler(reg), a.logger)
}

// Close waits for the sandbox's webhook deliveries, stops the change feed and releases the database.
func (a *App) Close() error {
	if a.sandbox != nil {
		a.sandbox.Wait()
	}
	a.changes.Close()
	return a.db.Close()
}

// partnerLogin returns the partner bank's login client, or nil when it is not configured.
func partnerLogin(cfg Config, logger *slog.Logger) palaro.PartnerLogin {
	if cfg.PartnerAPIURL == "" || cfg.PartnerAPIKey == "" {
		return nil
	}
	return &handlers.PartnerClient{BaseURL: cfg.PartnerAPIURL, APIKey: cfg.PartnerAPIKey, PartnerID: cmp.Or(cfg.PartnerID, palaro.DefaultPartnerID),
		Client: &http.Client{Timeout: 10 * time.Second}, Logger: logger}
}
