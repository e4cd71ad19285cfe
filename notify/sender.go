package notify

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/wneessen/go-mail"

	"palaro"
)

// Sender delivers one message.
type Sender interface {
	// Send delivers m, or returns why it could not; the worker retries failed messages.
	Send(ctx context.Context, m palaro.Message) error
}

// LogSender is the default sender: it only logs each message, so development needs no mail server.
// The outbox (bin/palaro outbox) still holds every message in full.
type LogSender struct{ Logger *slog.Logger }

// Send logs the message's recipient, kind and subject.
func (s LogSender) Send(ctx context.Context, m palaro.Message) error {
	s.Logger.Info("message (log sender; not delivered)", "channel", m.Channel, "to", m.To, "kind", m.Kind, "subject", m.Subject)
	return nil
}

// SMTPConfig configures the SMTP sender.
type SMTPConfig struct {
	Host     string // PALARO_SMTP_HOST
	Port     int    // PALARO_SMTP_PORT; 587 when zero
	User     string // PALARO_SMTP_USER; no authentication when empty
	Password string // PALARO_SMTP_PASSWORD
	From     string // PALARO_MAIL_FROM, such as "Palaro <tickets@palaro.ph>"
	// TLS is "mandatory", "opportunistic" (default: STARTTLS when offered) or "none".
	TLS     string
	Timeout time.Duration
	// Domain is the site's domain (PALARO_BASE_URL's host), the right-hand part of each
	// Message-ID; "palaro.ph" when empty. Never the machine's host name.
	Domain string
}

// SiteDomain returns the host name of a site's base URL, without port, for Message-IDs;
// "palaro.ph" when the URL has none.
func SiteDomain(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "palaro.ph"
}

// MIME builds the message the SMTP sender sends for m: headers (From, To, Subject, Date and a
// Message-ID at the site's domain), its text and HTML parts and the HTML's inline images.
func MIME(m palaro.Message, cfg SMTPConfig) (*mail.Msg, error) {
	if m.Channel != "" && m.Channel != palaro.ChannelEmail {
		return nil, fmt.Errorf("smtp sender cannot send %s messages", m.Channel)
	}
	msg := mail.NewMsg()
	if err := msg.From(cmp.Or(cfg.From, "Palaro <tickets@palaro.ph>")); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	msg.SetMessageIDWithValue(rand.Text() + "@" + cmp.Or(cfg.Domain, "palaro.ph"))
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	if m.HTML == "" {
		return msg, nil
	}
	msg.AddAlternativeString(mail.TypeTextHTML, m.HTML)
	for _, img := range m.Images { // inline images beside the HTML, by Content-ID (multipart/related)
		if err := msg.EmbedReader(img.Name, bytes.NewReader(img.PNG), mail.WithFileContentID("<"+img.ContentID+">"),
			mail.WithFileContentType(mail.ContentType("image/png"))); err != nil {
			return nil, fmt.Errorf("inline image %s: %w", img.Name, err)
		}
	}
	return msg, nil
}

// SMTPSender delivers e-mails through an SMTP server.
type SMTPSender struct{ cfg SMTPConfig }

// NewSMTPSender returns an SMTP sender. Returns EINVALID without a host or a from address.
func NewSMTPSender(cfg SMTPConfig) (*SMTPSender, error) {
	if cfg.Host == "" || cfg.From == "" {
		return nil, palaro.Errorf(palaro.EINVALID, "SMTP needs a host and a from address.")
	}
	if cfg.Port == 0 {
		cfg.Port = 587
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 20 * time.Second
	}
	return &SMTPSender{cfg: cfg}, nil
}

// Send delivers an e-mail with its text and HTML parts.
func (s *SMTPSender) Send(ctx context.Context, m palaro.Message) error {
	msg, err := MIME(m, s.cfg)
	if err != nil {
		return err
	}
	policy := mail.TLSOpportunistic
	switch s.cfg.TLS {
	case "mandatory":
		policy = mail.TLSMandatory
	case "none":
		policy = mail.NoTLS
	}
	opts := []mail.Option{mail.WithPort(s.cfg.Port), mail.WithTLSPolicy(policy), mail.WithTimeout(s.cfg.Timeout)}
	if s.cfg.User != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(s.cfg.User),
			mail.WithPassword(s.cfg.Password))
	}
	client, err := mail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return err
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return errors.Join(errors.New("smtp send"), err)
	}
	return nil
}
