package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	if m.Channel != "" && m.Channel != palaro.ChannelEmail {
		return fmt.Errorf("smtp sender cannot send %s messages", m.Channel)
	}
	msg, err := composeMIME(s.cfg.From, m)
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

// composeMIME builds an e-mail: the text part, the HTML alternative and, beside the HTML, its
// inline images as related parts with their Content-IDs (multipart/related).
func composeMIME(from string, m palaro.Message) (*mail.Msg, error) {
	msg := mail.NewMsg()
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	if m.HTML == "" {
		return msg, nil
	}
	msg.AddAlternativeString(mail.TypeTextHTML, m.HTML)
	for _, img := range m.Images {
		if err := msg.EmbedReader(img.Name, bytes.NewReader(img.PNG), mail.WithFileContentID("<"+img.ContentID+">"),
			mail.WithFileContentType(mail.ContentType("image/png"))); err != nil {
			return nil, fmt.Errorf("inline image %s: %w", img.Name, err)
		}
	}
	return msg, nil
}
