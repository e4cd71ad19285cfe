package notify

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"time"

	"palaro"
	"palaro/internal/metrics"
)

// Worker drains the outbox: it claims due messages, sends them and retries failures with
// exponential backoff until MaxAttempts.
type Worker struct {
	Outbox palaro.Outbox
	Sender Sender
	// Jobs does the work of job messages (palaro.IsJob); a job fails while it is nil.
	Jobs   palaro.JobRunner
	Logger *slog.Logger
	// Interval is the pause between polls when the outbox is empty (2 s when zero).
	Interval time.Duration
	// MaxAttempts is how many sends are tried before a message is marked failed (8 when zero).
	MaxAttempts int
	// Now tells the time; time.Now when nil.
	Now func() time.Time
	// Busy, when set, reports a rush on the store's writer (store.DB.WriterBusy): before each
	// batch the worker waits while it lasts, so that composing e-mails (QR images) does not take
	// the CPUs from the buyers, but never more than MaxWait since its last batch: in a rush it
	// still sends a batch at least every MaxWait, and nothing is dropped.
	Busy func() bool
	// MaxWait bounds each wait for Busy (DefaultMaxWait when zero).
	MaxWait time.Duration
}

// DefaultMaxWait is how long the worker waits at most, before a batch, for the writer's rush to end.
const DefaultMaxWait = 2 * time.Second

// busyPoll is how often a waiting worker asks Busy again.
const busyPoll = 50 * time.Millisecond

// Backoff is the wait before retry number attempt (1-based): 30 s doubling, at most 1 hour.
func Backoff(attempt int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempt && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// lease is how long a claimed message is reserved for one send.
const lease = 2 * time.Minute

// Run drains the outbox until ctx is cancelled; it returns nil after a clean stop.
func (w *Worker) Run(ctx context.Context) error {
	interval := w.Interval
	if interval <= 0 {
		interval = 2 * time.Second
	}
	for {
		if !w.waitForQuiet(ctx) {
			return nil
		}
		n, err := w.Drain(ctx)
		if err != nil && ctx.Err() == nil {
			w.Logger.Error("outbox drain failed", "error", err)
		}
		if n > 0 && err == nil {
			continue // there may be more
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}

// waitForQuiet waits while Busy reports a rush, at most MaxWait; false when ctx ended meanwhile.
func (w *Worker) waitForQuiet(ctx context.Context) bool {
	if w.Busy == nil || !w.Busy() {
		return ctx.Err() == nil
	}
	limit := time.NewTimer(cmp.Or(w.MaxWait, DefaultMaxWait))
	defer limit.Stop()
	poll := time.NewTicker(busyPoll)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-limit.C:
			return true
		case <-poll.C:
			if !w.Busy() {
				return true
			}
		}
	}
}

// Drain sends one batch of due messages and returns how many it attempted.
func (w *Worker) Drain(ctx context.Context) (int, error) {
	now := w.now()
	msgs, err := w.Outbox.ClaimDue(ctx, now, 20, lease)
	if err != nil {
		return 0, err
	}
	maxAttempts := w.MaxAttempts
	if maxAttempts <= 0 {
		maxAttempts = 8
	}
	outcomes := make([]palaro.OutboxOutcome, 0, len(msgs))
	for _, m := range msgs {
		if ctx.Err() != nil {
			break // the lease runs out and another run picks the rest up
		}
		sendCtx, cancel := context.WithTimeout(ctx, time.Minute)
		sendErr := w.deliver(sendCtx, m.Message)
		cancel()
		if sendErr == nil {
			metrics.OutboxSent.Inc()
			outcomes = append(outcomes, palaro.OutboxOutcome{ID: m.ID, Sent: true, SentAt: w.now()})
			continue
		}
		retryAt := w.now().Add(Backoff(m.Attempts))
		if m.Attempts >= maxAttempts {
			retryAt = time.Time{}
		}
		metrics.OutboxSendFailures.Inc()
		w.Logger.Warn("message send failed", "id", m.ID, "to", m.To, "attempt", m.Attempts, "error", sendErr)
		outcomes = append(outcomes, palaro.OutboxOutcome{ID: m.ID, Error: sendErr.Error(), RetryAt: retryAt})
	}
	if len(outcomes) == 0 {
		return 0, nil
	}
	// One write records the whole batch, even when ctx was just cancelled, so a sent message is
	// not sent twice.
	return len(outcomes), w.Outbox.Record(context.WithoutCancel(ctx), outcomes)
}

// deliver sends a message, or does the work of a job message.
func (w *Worker) deliver(ctx context.Context, m palaro.Message) error {
	if !palaro.IsJob(m.Kind) {
		return w.Sender.Send(ctx, m)
	}
	if w.Jobs == nil {
		return errors.New("no job runner for " + m.Kind)
	}
	return w.Jobs.RunJob(ctx, m, w.now())
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}
