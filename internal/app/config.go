package app

import (
	"time"

	"palaro/notify"
)

// Config is Palaro's configuration; cmd/palaro reads it from the environment.
type Config struct {
	// Addr is the listen address (PALARO_ADDR).
	Addr string
	// DBPath is a SQLite file or a postgres:// URL (PALARO_DB).
	DBPath string
	// BaseURL is the site's absolute URL, used in links and e-mails (PALARO_BASE_URL).
	BaseURL string
	// BaseURLSet says PALARO_BASE_URL is set; without it BaseURL is the development default.
	BaseURLSet bool
	// Demo loads the demo data when the database is empty (PALARO_DEMO=1).
	Demo bool
	// SupportEmail is the address people are told to write to (PALARO_SUPPORT_EMAIL).
	SupportEmail string
	// TagManagerID and PixelID name the tag manager and the ad pixel loaded after cookie consent (PALARO_GTM_ID, PALARO_PIXEL_ID).
	TagManagerID string
	PixelID      string
	// Hold is how long a pending order holds its tickets (PALARO_HOLD_MINUTES).
	Hold time.Duration
	// PartnerKeys are the partners' secrets for signed ticket status calls (PALARO_PARTNER_KEYS).
	PartnerKeys map[string]string
	// PartnerAPIURL, PartnerAPIKey and PartnerID configure "Open in partner app" (PALARO_PARTNER_API_URL,
	// PALARO_PARTNER_API_KEY, PALARO_PARTNER_ID default 25); the button is hidden without a URL and key.
	PartnerAPIURL string
	PartnerAPIKey string
	PartnerID     int
	// PaymentProvider is "sandbox" (default) or "paymongo" (PALARO_PAYMENT_PROVIDER).
	PaymentProvider string
	// PaymentSecret signs the sandbox's webhooks (PALARO_PAYMENT_SECRET); generated and kept in the database when empty.
	PaymentSecret []byte
	// PaymongoSecretKey, PaymongoWebhookSecret and PaymongoLive configure PayMongo (PAYMONGO_SECRET_KEY,
	// PAYMONGO_WEBHOOK_SECRET, PAYMONGO_LIVE=true).
	PaymongoSecretKey     string
	PaymongoWebhookSecret string
	PaymongoLive          bool
	// SMTP configures e-mail delivery; the log sender is used when its host is empty.
	SMTP notify.SMTPConfig
	// JobInterval is the pause of the job loop (App.SettleOnce: payments reconciled, holds
	// released, waiting lists moved on, reminders queued; PALARO_JOB_SECONDS, default 30 s).
	JobInterval time.Duration
	// RefundInterval is the pause of the refund job (PALARO_REFUND_SECONDS, default 5 s).
	RefundInterval time.Duration
	// SandboxRefundDelay makes each of the sandbox's refunds take this long, a slow gateway for
	// tests (PALARO_SANDBOX_REFUND_MS; none by default).
	SandboxRefundDelay time.Duration
	// EventCache is how long public event reads are served from memory (PALARO_CACHE_SECONDS, default 2 s; 0 turns it off).
	EventCache time.Duration
	// SessionKey signs and encrypts the session cookie (PALARO_SESSION_KEY); generated and kept in the database when empty.
	SessionKey []byte
	// TrustProxy takes the client IP from X-Forwarded-For (PALARO_TRUST_PROXY=1).
	TrustProxy bool
	// WebhookAllowPrivate lets webhook endpoints be loopback or private addresses, and plain
	// http to them (PALARO_WEBHOOK_ALLOW_PRIVATE=1); without it they are refused when saved and
	// when sent to.
	WebhookAllowPrivate bool
	// Servers is how many app servers share the database (PALARO_SERVERS, default 1): each
	// enforces that share of every rate limit.
	Servers int
	// SMSProvider is "log" (default) or "semaphore" (PALARO_SMS_PROVIDER), with Semaphore's key and sender name.
	SMSProvider         string
	SemaphoreAPIKey     string
	SemaphoreSenderName string
	// Metrics is the loopback address (such as 127.0.0.1:9100) of the listener serving Prometheus
	// metrics at /metrics (PALARO_METRICS); empty turns it off.
	Metrics string
	// Now is the app's one clock, used by the database, the handlers, the event cache, the jobs,
	// the payment sandbox and the demo data; time.Now when nil. Tests pin it.
	Now func() time.Time
}
