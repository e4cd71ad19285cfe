// Package webhook sends webhook deliveries to organizers' endpoints: it signs each body, dials
// only addresses palaro.WebhookAddressAllowed (checked again at every send, after resolving the
// host: no DNS rebinding between the check and the dial), follows no redirects, and retries
// failures with palaro.WebhookBackoff.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync"
	"time"

	"palaro"
	"palaro/internal/metrics"
)

// Sign returns the Palaro-Signature header of body sent at t: "t=<unix seconds>,v1=<hex
// HMAC-SHA256 of "<t>.<body>" with secret>".
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Sender posts deliveries to their endpoints.
type Sender struct {
	// AllowPrivate lets deliveries go to loopback and private addresses, and over plain HTTP to
	// them (PALARO_WEBHOOK_ALLOW_PRIVATE=1).
	AllowPrivate bool
	// Timeout bounds one attempt, connection to answer (10 s when zero).
	Timeout time.Duration
	// Resolver looks hosts up (net.DefaultResolver when nil).
	Resolver palaro.Resolver
}

// Send posts d's body to its URL, signed at now, and returns the answer's status code; an error
// when the endpoint could not be reached or did not answer 2xx.
func (s *Sender) Send(ctx context.Context, d *palaro.WebhookDelivery, now time.Time) (int, error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resolver := s.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	addrs, err := palaro.CheckWebhookURL(ctx, resolver, d.URL, s.AllowPrivate)
	if err != nil {
		return 0, errors.New(palaro.ErrorMessage(err))
	}
	u, _ := url.Parse(d.URL)
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	client := &http.Client{
		Transport: &http.Transport{
			Proxy:             nil, // never through a proxy: the checked address is the one dialled
			DialContext:       dialChecked(addrs, port),
			DisableKeepAlives: true,
			ForceAttemptHTTP2: true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Palaro-Webhooks/1")
	req.Header.Set(palaro.WebhookSignatureHeader, Sign(d.Secret, now, d.Body))
	req.Header.Set("Palaro-Event-Id", d.EventID)
	res, err := client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // the URL is shown beside the error already
		}
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	switch {
	case res.StatusCode >= 300 && res.StatusCode < 400:
		return res.StatusCode, fmt.Errorf("answered %d: a redirect, which is not followed", res.StatusCode)
	case res.StatusCode < 200 || res.StatusCode > 299:
		return res.StatusCode, fmt.Errorf("answered %d", res.StatusCode)
	}
	return res.StatusCode, nil
}

// dialChecked dials the checked addresses in turn, whatever host the transport asks for.
func dialChecked(addrs []netip.Addr, port string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		var errs []error
		for _, ip := range addrs {
			c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
			if err == nil {
				return c, nil
			}
			errs = append(errs, err)
		}
		return nil, errors.Join(errs...)
	}
}

// Store is the job runner's side of the deliveries (store.WebhookService).
type Store interface {
	ClaimDeliveries(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]*palaro.WebhookDelivery, error)
	RecordDeliveries(ctx context.Context, outcomes []palaro.WebhookOutcome) error
}

// Worker sends due deliveries. With several app servers each runs one; every delivery is claimed
// by one of them (store.WebhookService.ClaimDeliveries).
type Worker struct {
	Store  Store
	Sender *Sender
	Logger *slog.Logger
	// Interval is the pause between polls when nothing is due (1 s when zero).
	Interval time.Duration
	// Now tells the time: when deliveries are due, and the signatures' timestamps.
	Now func() time.Time
}

// batch is how many deliveries a worker claims at once, all sent at the same time; lease is how
// long they are reserved for that one attempt: longer than a send's Timeout, short enough that a
// server that died mid-send leaves its deliveries to the others within half a minute.
const (
	batch = 8
	lease = 30 * time.Second
)

// Run sends deliveries until ctx is cancelled.
func (w *Worker) Run(ctx context.Context) {
	interval := w.Interval
	if interval <= 0 {
		interval = time.Second
	}
	for {
		n, err := w.Drain(ctx)
		if err != nil && ctx.Err() == nil {
			w.Logger.Error("webhook deliveries failed", "error", err)
		}
		if n > 0 && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// Drain sends one batch of due deliveries at once, records their outcomes in one write and
// returns how many it attempted.
func (w *Worker) Drain(ctx context.Context) (int, error) {
	due, err := w.Store.ClaimDeliveries(ctx, w.Now(), batch, lease)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	outcomes := make([]palaro.WebhookOutcome, len(due))
	var wg sync.WaitGroup
	for i, d := range due {
		wg.Go(func() {
			code, err := w.Sender.Send(ctx, d, w.Now())
			at := w.Now()
			o := palaro.WebhookOutcome{ID: d.ID, AnswerCode: code, At: at}
			if err == nil {
				metrics.WebhookSent.Inc()
			} else {
				metrics.WebhookSendFailures.Inc()
				o.Error = err.Error()
				o.RetryAt = at.Add(palaro.WebhookBackoff(d.Attempts))
				w.Logger.Warn("webhook delivery failed", "delivery", d.ID, "type", d.Type, "attempt", d.Attempts, "error", err)
			}
			outcomes[i] = o
		})
	}
	wg.Wait()
	// One write records the batch even when ctx was just cancelled, so a sent delivery is not sent again.
	return len(outcomes), w.Store.RecordDeliveries(context.WithoutCancel(ctx), outcomes)
}
