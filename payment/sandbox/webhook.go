package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"palaro/payment"
)

// attemptTimeout bounds one webhook delivery attempt.
const attemptTimeout = 10 * time.Second

// deliver POSTs the signed event body to the webhook URL in a goroutine, retrying after each of
// the configured delays while the app answers anything but 2xx. Every attempt carries the same
// body, so the event id is the same, with a fresh signature. The returned channel is closed once
// the first attempt is over.
func (p *Provider) deliver(body []byte) <-chan struct{} {
	first := make(chan struct{})
	p.deliveries.Add(1)
	go func() {
		defer p.deliveries.Done()
		for attempt := 0; ; attempt++ {
			err := p.post(body)
			if attempt == 0 {
				close(first)
			}
			if err == nil {
				return
			}
			if attempt >= len(p.cfg.RetryDelays) {
				p.cfg.Logger.Error("sandbox webhook gave up", "attempts", attempt+1, "err", err)
				return
			}
			p.cfg.Logger.Warn("sandbox webhook failed, retrying", "attempt", attempt+1, "err", err)
			time.Sleep(p.cfg.RetryDelays[attempt])
		}
	}()
	return first
}

// post makes one delivery attempt.
func (p *Provider) post(body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), attemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(payment.SignatureHeader, payment.Sign(p.cfg.Secret, p.cfg.Now(), body, false))
	resp, err := p.cfg.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("webhook answered %s", resp.Status)
	}
	return nil
}
