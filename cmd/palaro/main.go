// Command palaro runs Palaro: the web server and its operator subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"palaro"
	"palaro/internal/app"
	"palaro/internal/debugserver"
	"palaro/notify"
	"palaro/store"
)

const usage = `Usage: palaro <command> [flags]

Commands:
  serve         run the web server (migrates the database first)
  migrate       apply database migrations
  seed --demo   load the demo data into an empty database
  seed --stadium [--places N] [--sold F]  add the arena event arena-grand-finals (55,000 places, half sold), with or after --demo
  outbox        list the e-mails and SMS in the outbox with their bodies [--to EMAIL] [--status S] [--limit N] [--raw: as MIME]
  orders        list recent orders [--refunds] [--status S] [--limit N]
  payments      list received payment events and why refused ones were refused [--refused] [--limit N]
  reports       list the problem reports sent through /report, newest first
  backup FILE   copy the live database to FILE (a new file) while it serves, check the copy, print its counts
  copy-data --from DB --to DB   copy every table into a new, empty database (SQLite file or postgres:// URL each way), counts checked
  organizers    list organizations [--pending]; organizers approve EMAIL approves the ones EMAIL owns
  news publish FILE.json        create or update a news article (slug, title, summary, body in Markdown, coverUrl, eventCodes, author)
  pnk set home|promo FILE.json  replace the partner bank's page (/pnk) or promo page (/pnk/promo)
  operators [grant|revoke EMAIL]  list the operators, or let the account EMAIL use (or stop using) the /operator console
  tokens create --organizer EMAIL [--role manager|gate] [--organization ID]  print a new organizer API token once
  keys rotate-ticket-key        sign ticket QR codes with a new key from the next restart (codes shown so far stay valid)

Environment:
  PALARO_ADDR       listen address (default :8080)
  PALARO_DB         SQLite database file, or a postgres:// URL for PostgreSQL (default data/palaro.db)
  PALARO_BASE_URL   the site's absolute URL, used in links, e-mails, sitemap and structured data; its host names
                    the e-mails' Message-IDs (serve defaults to http://localhost:8080; commands that send e-mail refuse without it)
  PALARO_DEMO=1     load the demo data when the database is empty (serve)
  (payments, e-mail, holds and partner keys: see README.md)
  PALARO_SESSION_KEY  secret (at least 32 characters) for the session cookie; generated and kept in the database when unset
  PALARO_TRUST_PROXY=1  take the client IP from X-Forwarded-For (only behind a proxy that sets it)
  PALARO_WEBHOOK_ALLOW_PRIVATE=1  let webhooks go to loopback and private addresses (and plain http to them): an internal network, tests
  PALARO_SERVERS        how many app servers share the database (default 1); each enforces that share of the rate limits
  PALARO_SMS_PROVIDER   log (default) or semaphore, with SEMAPHORE_API_KEY and SEMAPHORE_SENDER_NAME
  PALARO_PPROF          loopback address (e.g. 127.0.0.1:6060) serving Go's runtime profiles at /debug/pprof/ (off when unset)
  PALARO_METRICS        loopback address (e.g. 127.0.0.1:9100) serving Prometheus metrics at /metrics (off when unset)
  PALARO_LOG            json (default for serve: one line per request) or text (default for the other commands)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var logs io.Writer = os.Stderr
	var buffered *logBuffer
	if os.Args[1] == "serve" { // one line per request: written out together (logBuffer)
		buffered = newLogBuffer(os.Stderr)
		logs = buffered
	}
	logger, err := newLogger(logs, os.Getenv("PALARO_LOG"), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = run(ctx, loadConfig(), logger, os.Args[1:], os.Stdout)
	if err != nil && !errors.Is(err, errUsage) {
		logger.Error("palaro "+os.Args[1]+" failed", "error", err)
	}
	if buffered != nil {
		buffered.Close() // every line is out before the process ends
	}
	if errors.Is(err, errUsage) {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		os.Exit(1)
	}
}

// errUsage is run's answer to an unknown command: main prints the usage.
var errUsage = errors.New("unknown command")

// run runs the command args[0] with its arguments, writing what it prints to stdout.
func run(ctx context.Context, cfg app.Config, logger *slog.Logger, args []string, stdout io.Writer) error {
	var err error
	switch args[0] {
	case "serve":
		err = serve(ctx, cfg, logger)
	case "migrate":
		err = withDB(ctx, cfg, func(db *store.DB) error { return nil })
	case "seed":
		fs := flag.NewFlagSet("seed", flag.ExitOnError)
		demo := fs.Bool("demo", false, "load the demo data set")
		stadium := fs.Bool("stadium", false, "add the arena event "+store.StadiumEventCode)
		places := fs.Int("places", 55000, "with --stadium: places in all, seats and standing")
		sold := fs.Float64("sold", 0.5, "with --stadium: the share of each price zone sold")
		_ = fs.Parse(args[1:])
		if !*demo && !*stadium {
			err = errors.New("seed: give --demo, --stadium or both")
			break
		}
		err = withDB(ctx, cfg, func(db *store.DB) error {
			if *demo {
				if err := db.SeedDemo(ctx, db.Now()); err != nil {
					return err
				}
			}
			if !*stadium {
				return nil
			}
			seed, err := db.SeedStadium(ctx, db.Now(), store.StadiumOptions{Places: *places, SoldShare: *sold})
			if err == nil {
				fmt.Fprintf(stdout, "%s: %d places (%d seats), %d sold in %d orders; ticket types %s\n", seed.EventCode,
					seed.Places, seed.Seats, seed.Sold, seed.Orders, strings.Join(seed.TicketTypes, ", "))
			}
			return err
		})
	case "outbox":
		fs := flag.NewFlagSet("outbox", flag.ContinueOnError)
		to := fs.String("to", "", "only messages to this address")
		status := fs.String("status", "", "only messages with this status (pending, sent, failed)")
		limit := fs.Int("limit", 50, "at most this many messages, newest first")
		raw := fs.Bool("raw", false, "print each e-mail as the MIME message the SMTP sender sends (headers, text and HTML parts)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		err = withDB(ctx, cfg, func(db *store.DB) error {
			// composed as the server's worker composes them: order and event-change e-mails are
			// stored as rows naming their cause
			outbox := store.NewComposingOutboxService(db, notify.NewComposer(cfg.BaseURL, cfg.SupportEmail))
			f := palaro.OutboxFilter{To: *to, Status: *status, Limit: *limit}
			if *raw {
				return printOutboxRaw(ctx, stdout, outbox, f, cfg.SMTP)
			}
			return printOutbox(ctx, stdout, outbox, f)
		})
	case "orders":
		fs := flag.NewFlagSet("orders", flag.ExitOnError)
		refunds := fs.Bool("refunds", false, "only orders paid after their tickets were gone, to refund")
		status := fs.String("status", "", "only orders with this status (pending, paid, expired, refund, refunded)")
		limit := fs.Int("limit", 50, "at most this many orders, newest first")
		_ = fs.Parse(args[1:])
		if *refunds {
			*status = palaro.OrderRefund
		}
		err = withDB(ctx, cfg, func(db *store.DB) error {
			return printOrders(ctx, stdout, store.NewPurchaseService(db, nil, 0), palaro.OrderFilter{Status: *status, Limit: *limit})
		})
	case "payments":
		fs := flag.NewFlagSet("payments", flag.ExitOnError)
		refused := fs.Bool("refused", false, "only refused events (no matching checkout session, wrong amount, currency or mode)")
		limit := fs.Int("limit", 50, "at most this many events, newest first")
		_ = fs.Parse(args[1:])
		err = withDB(ctx, cfg, func(db *store.DB) error {
			return printPayments(ctx, stdout, store.NewPurchaseService(db, nil, 0), palaro.PaymentEventFilter{Refused: *refused, Limit: *limit})
		})
	case "reports":
		err = withDB(ctx, cfg, func(db *store.DB) error { return listReports(ctx, db, stdout) })
	case "backup":
		err = runBackup(ctx, stdout, cfg.DBPath, args[1:])
	case "copy-data":
		err = runCopyData(ctx, stdout, args[1:])
	case "organizers", "tokens":
		if args[0] == "organizers" && len(args) > 1 && args[1] == "approve" {
			// the approval e-mail links to the site: composed here, it must know the site's address
			if err := requireBaseURL(cfg, "the approval e-mail"); err != nil {
				return err
			}
		}
		err = withDB(ctx, cfg, func(db *store.DB) error {
			svc := store.NewOrganizerService(db, notify.NewComposer(cfg.BaseURL, cfg.SupportEmail))
			if args[0] == "tokens" {
				return tokensCommand(ctx, stdout, svc, args[1:])
			}
			return organizersCommand(ctx, stdout, svc, args[1:])
		})
	case "operators":
		err = withDB(ctx, cfg, func(db *store.DB) error {
			return operatorsCommand(ctx, stdout, store.NewOperatorService(db), args[1:])
		})
	case "news", "pnk":
		err = withDB(ctx, cfg, func(db *store.DB) error {
			return newsCommand(ctx, stdout, store.NewNewsService(db), args[0], args[1:])
		})
	case "keys":
		err = withDB(ctx, cfg, func(db *store.DB) error { return keysCommand(ctx, stdout, db, cfg.Now(), args[1:]) })
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		return errUsage
	}
	return err
}

// loadConfig reads the app's configuration from the environment.
func loadConfig() app.Config {
	return app.Config{
		Addr:          env("PALARO_ADDR", ":8080"),
		DBPath:        env("PALARO_DB", "data/palaro.db"),
		BaseURL:       env("PALARO_BASE_URL", defaultBaseURL),
		BaseURLSet:    os.Getenv("PALARO_BASE_URL") != "",
		Demo:          os.Getenv("PALARO_DEMO") == "1",
		SupportEmail:  env("PALARO_SUPPORT_EMAIL", "support@palaro.ph"),
		TagManagerID:  os.Getenv("PALARO_GTM_ID"),
		PixelID:       os.Getenv("PALARO_PIXEL_ID"),
		Hold:          time.Duration(envInt("PALARO_HOLD_MINUTES", 15)) * time.Minute,
		PartnerKeys:   palaro.ParsePartnerKeys(os.Getenv("PALARO_PARTNER_KEYS")),
		PartnerAPIURL: os.Getenv("PALARO_PARTNER_API_URL"),
		PartnerAPIKey: os.Getenv("PALARO_PARTNER_API_KEY"),
		PartnerID:     envInt("PALARO_PARTNER_ID", palaro.DefaultPartnerID),

		PaymentProvider:       os.Getenv("PALARO_PAYMENT_PROVIDER"),
		PaymentSecret:         []byte(os.Getenv("PALARO_PAYMENT_SECRET")),
		PaymongoSecretKey:     os.Getenv("PAYMONGO_SECRET_KEY"),
		PaymongoWebhookSecret: os.Getenv("PAYMONGO_WEBHOOK_SECRET"),
		PaymongoLive:          os.Getenv("PAYMONGO_LIVE") == "true",
		SMTP: notify.SMTPConfig{
			Host:     os.Getenv("PALARO_SMTP_HOST"),
			Port:     envInt("PALARO_SMTP_PORT", 587),
			User:     os.Getenv("PALARO_SMTP_USER"),
			Password: os.Getenv("PALARO_SMTP_PASSWORD"),
			From:     env("PALARO_MAIL_FROM", "Palaro <tickets@palaro.ph>"),
			TLS:      os.Getenv("PALARO_SMTP_TLS"),
			Domain:   notify.SiteDomain(env("PALARO_BASE_URL", defaultBaseURL)),
		},
		JobInterval: time.Duration(envInt("PALARO_JOB_SECONDS", 30)) * time.Second,
		EventCache:  eventCacheTTL(),
		SessionKey:  []byte(os.Getenv("PALARO_SESSION_KEY")),
		TrustProxy:  os.Getenv("PALARO_TRUST_PROXY") == "1",
		// an operator's internal network, and tests' receivers on 127.0.0.1
		WebhookAllowPrivate: os.Getenv("PALARO_WEBHOOK_ALLOW_PRIVATE") == "1",
		Servers:             envInt("PALARO_SERVERS", 1),
		Metrics:             os.Getenv("PALARO_METRICS"),
		Now:                 time.Now,

		// the refund job's pause, and a slow sandbox gateway for the tests that stop it mid-way
		RefundInterval:     time.Duration(envInt("PALARO_REFUND_SECONDS", 5)) * time.Second,
		SandboxRefundDelay: time.Duration(envInt("PALARO_SANDBOX_REFUND_MS", 0)) * time.Millisecond,
	}
}

// defaultBaseURL is the site's address when PALARO_BASE_URL is unset: a development server's.
const defaultBaseURL = "http://localhost:8080"

// requireBaseURL refuses, naming what would link to the wrong place, when PALARO_BASE_URL is unset:
// a command's e-mail would otherwise link to the development address.
func requireBaseURL(c app.Config, what string) error {
	if c.BaseURLSet {
		return nil
	}
	return fmt.Errorf("PALARO_BASE_URL is not set, so %s would link to %s: set it to the site's address (such as https://palaro.ph) and run the command again", what, defaultBaseURL)
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// envInt reads a positive integer variable, or def when it is unset or not a positive integer.
// eventCacheTTL reads PALARO_CACHE_SECONDS, where 0 turns the event cache off.
func eventCacheTTL() time.Duration {
	if os.Getenv("PALARO_CACHE_SECONDS") == "0" {
		return 0
	}
	return time.Duration(envInt("PALARO_CACHE_SECONDS", 2)) * time.Second
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// withDB opens and migrates the database, runs fn and closes it.
func withDB(ctx context.Context, cfg app.Config, fn func(*store.DB) error) error {
	db, err := app.OpenDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
}

func serve(ctx context.Context, cfg app.Config, logger *slog.Logger) error {
	a, err := app.New(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer a.Close()
	jobsCtx, stopJobs := context.WithCancel(ctx)
	jobsDone := make(chan struct{})
	go func() { a.RunJobs(jobsCtx); close(jobsDone) }()
	defer func() { stopJobs(); <-jobsDone }()
	logWriterStats(jobsCtx, a.DB(), logger)
	if addr := os.Getenv("PALARO_PPROF"); addr != "" {
		if err := debugserver.Start(jobsCtx, addr, logger); err != nil {
			return err
		}
	}
	if cfg.Metrics != "" {
		if err := a.ServeMetrics(jobsCtx, cfg.Metrics); err != nil {
			return err
		}
	}
	logger.Info("serving", "addr", cfg.Addr, "base_url", cfg.BaseURL, "db", store.DisplayName(cfg.DBPath), "payments", a.Payments().Name())
	return a.Server().Start(ctx, cfg.Addr)
}

// newLogger returns the logger of a command, writing to w in the format PALARO_LOG names (json or
// text); when it is empty, serve logs JSON lines for log tools and the other commands text.
func newLogger(w io.Writer, format, command string) (*slog.Logger, error) {
	if format == "" {
		format = "text"
		if command == "serve" {
			format = "json"
		}
	}
	switch format {
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("PALARO_LOG: unknown format %q (json or text)", format)
}
