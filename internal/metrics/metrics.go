// Package metrics holds Palaro's Prometheus metrics (every name begins with palaro_): the
// packages that do the work count into them, and the operator's listener (PALARO_METRICS,
// debugserver.StartMetrics) serves them with the Go runtime's and the process's. Counting is
// atomic adds on collectors made once: nothing is allocated per request.
package metrics

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Palaro's own metrics, counted by the packages that do the work.
var (
	// requestDuration counts and times the HTTP requests by route pattern (never the raw path),
	// method and status (Request).
	requestDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "palaro_http_request_duration_seconds",
		Help:    "HTTP requests by route pattern, method and status, with how long each took to answer.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route", "method", "status"})

	// WriterBatchUnits is the number of units of work in each batch the store's writer commits.
	WriterBatchUnits = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "palaro_writer_batch_units",
		Help:    "Units of work in each batch (one transaction, one fsync) of the store's writer.",
		Buckets: prometheus.ExponentialBuckets(1, 2, 9), // 1 … 256 (store's maxBatch)
	})
	// WriterWait is how long each unit of work waited, from being queued to its batch's commit.
	WriterWait = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "palaro_writer_wait_seconds",
		Help:    "How long each unit of work of the store's writer waited, from being queued to its batch's commit.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	})
	// WriterFailedBatches counts the batches whose transaction broke (every unit got the error).
	WriterFailedBatches = counter("palaro_writer_failed_batches_total",
		"Batches of the store's writer whose transaction could not begin or commit.")

	// OrdersPlaced counts the orders stored, by channel: "online" (the buy page and API) or
	// "box_office" (sold at the door).
	OrdersPlaced = counterVec("palaro_orders_placed_total",
		"Orders placed, by channel (online, box_office).", "channel")

	// OutboxSendFailures counts the outbox messages whose send failed (each attempt).
	OutboxSendFailures = counter("palaro_outbox_send_failures_total",
		"Outbox messages (e-mail, SMS, jobs) whose send or job failed, each attempt.")
	// OutboxSent counts the outbox messages sent (or jobs done).
	OutboxSent = counter("palaro_outbox_sent_total",
		"Outbox messages sent and jobs done.")

	// WebhookSendFailures counts the webhook deliveries whose send failed (each attempt).
	WebhookSendFailures = counter("palaro_webhook_send_failures_total",
		"Webhook deliveries whose send failed (no answer, or not a 2xx), each attempt.")
	// WebhookSent counts the webhook deliveries an endpoint accepted.
	WebhookSent = counter("palaro_webhook_sent_total",
		"Webhook deliveries an endpoint accepted (a 2xx answer).")

	// QueueAdmissions counts the places of on-sale queues admitted to buy (each once).
	QueueAdmissions = counter("palaro_queue_admissions_total",
		"Places of the on-sale queues admitted to buy, each once.")

	// JobRounds counts the rounds of the periodic jobs this server ran (as the holder of the job's
	// lease), by job: "settle" (reconcile, release holds, queue reminders, ...) and "refunds".
	JobRounds = counterVec("palaro_job_rounds_total",
		"Rounds of the periodic jobs this server ran as the holder of the job's lease, by job (settle, refunds).", "job")

	// Checkpoints counts the passes of the store's checkpointer (the SQLite write-ahead log copied
	// into the database file beside the writer), by outcome: done, busy or failed.
	Checkpoints = counterVec("palaro_checkpoints_total",
		"Passes of the store's checkpointer copying SQLite's write-ahead log into the database file, by outcome (done, busy, failed).", "outcome")

	// PageCache counts the public page cache's answers by result: "hit" (served from memory) or
	// "miss" (rendered).
	PageCache = counterVec("palaro_page_cache_requests_total",
		"Public pages asked of the page cache, by result (hit, miss).", "result")

	// PageCacheHit and PageCacheMiss are PageCache's two counters, made once.
	PageCacheHit  = PageCache.WithLabelValues("hit")
	PageCacheMiss = PageCache.WithLabelValues("miss")
	// OrdersOnline and OrdersBoxOffice are OrdersPlaced's two counters, made once.
	OrdersOnline    = OrdersPlaced.WithLabelValues("online")
	OrdersBoxOffice = OrdersPlaced.WithLabelValues("box_office")
)

// counter returns a new counter named name.
func counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}

// counterVec returns a new counter named name with one label.
func counterVec(name, help, label string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label})
}

// own are the collectors above, registered in every registry NewRegistry makes.
var own = []prometheus.Collector{requestDuration, WriterBatchUnits, WriterWait, WriterFailedBatches,
	OrdersPlaced, OutboxSendFailures, OutboxSent, WebhookSendFailures, WebhookSent, QueueAdmissions, JobRounds, Checkpoints, PageCache}

// NewRegistry returns a registry of the Go runtime's and the process's collectors, Palaro's own
// metrics and extra (collectors read at scrape time, such as the outbox's depth).
func NewRegistry(extra ...prometheus.Collector) (*prometheus.Registry, error) {
	reg := prometheus.NewRegistry()
	all := append([]prometheus.Collector{collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})}, own...)
	for _, c := range append(all, extra...) {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// Handler serves the registry's metrics in Prometheus's text format.
func Handler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}

// requestKey names one series of requestDuration.
type requestKey struct {
	route, method string
	status        int
}

// requests keeps the observer of each series made so far, so a request looks its series up in a
// map (no allocation) instead of building its labels.
var requests = struct {
	sync.RWMutex
	m map[requestKey]prometheus.Observer
}{m: map[requestKey]prometheus.Observer{}}

// Request counts a request answered with status after d, by its route pattern (such as /t/:id;
// "" when none matched). Methods beyond the standard ones count as "other", so a client cannot
// make series of its own.
func Request(route, method string, status int, d time.Duration) {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
	default:
		method = "other"
	}
	k := requestKey{route, method, status}
	requests.RLock()
	o, ok := requests.m[k]
	requests.RUnlock()
	if !ok {
		o = requestDuration.WithLabelValues(route, method, strconv.Itoa(status))
		requests.Lock()
		requests.m[k] = o
		requests.Unlock()
	}
	o.Observe(d.Seconds())
}

// Descriptions of the figures read at scrape time.
var (
	outboxDesc = prometheus.NewDesc("palaro_outbox_messages",
		"Outbox messages waiting to be sent (pending) and given up on (failed).", []string{"status"}, nil)
	webhookDesc = prometheus.NewDesc("palaro_webhook_deliveries",
		"Webhook deliveries waiting to be sent (pending: the queue's depth) and given up on (failed).", []string{"status"}, nil)
	refundDesc = prometheus.NewDesc("palaro_refunds",
		"Refunds waiting for the gateway (pending) and refused by it (failed, until retried).", []string{"status"}, nil)
	queueWaitingDesc = prometheus.NewDesc("palaro_queue_waiting",
		"Places of an on-sale queue not admitted yet, by event code.", []string{"event"}, nil)
	queueAdmittedDesc = prometheus.NewDesc("palaro_queue_admitted",
		"Places of an on-sale queue whose turn has come, by event code.", []string{"event"}, nil)
)

// scrapeCollector reads its figures when scraped.
type scrapeCollector struct {
	descs   []*prometheus.Desc
	collect func(ch chan<- prometheus.Metric)
}

func (c scrapeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

func (c scrapeCollector) Collect(ch chan<- prometheus.Metric) { c.collect(ch) }

// Outbox is a collector of the outbox's pending and failed messages, which counts returns at
// scrape time (a read of the database).
func Outbox(counts func() (pending, failed int, err error)) prometheus.Collector {
	return statusCounts(outboxDesc, "outbox", counts)
}

// Webhooks is a collector of the webhook deliveries pending (the queue's depth) and failed,
// which counts returns at scrape time (a read of the database).
func Webhooks(counts func() (pending, failed int, err error)) prometheus.Collector {
	return statusCounts(webhookDesc, "webhooks", counts)
}

// Refunds is a collector of the refunds pending (waiting for the gateway) and failed, which
// counts returns at scrape time (a read of the database).
func Refunds(counts func() (pending, failed int, err error)) prometheus.Collector {
	return statusCounts(refundDesc, "refunds", counts)
}

// statusCounts is a collector of desc's pending and failed series, read by counts at scrape
// time; when counts fails, palaro_metrics_read_errors{figure} says so instead.
func statusCounts(desc *prometheus.Desc, figure string, counts func() (pending, failed int, err error)) prometheus.Collector {
	// one error series per figure, its label constant: the collectors' descriptors stay distinct
	errDesc := prometheus.NewDesc("palaro_metrics_read_errors",
		"1 when a figure read at scrape time (such as the outbox's) could not be read.", nil, prometheus.Labels{"figure": figure})
	return scrapeCollector{descs: []*prometheus.Desc{desc, errDesc}, collect: func(ch chan<- prometheus.Metric) {
		pending, failed, err := counts()
		if err != nil {
			ch <- prometheus.MustNewConstMetric(errDesc, prometheus.GaugeValue, 1)
			return
		}
		ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, float64(pending), "pending")
		ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, float64(failed), "failed")
	}}
}

// Queues is a collector of each on-sale queue's waiting and admitted places, which each reports
// at scrape time (from memory) by calling its argument once per queue.
func Queues(each func(report func(event string, waiting, admitted int))) prometheus.Collector {
	return scrapeCollector{descs: []*prometheus.Desc{queueWaitingDesc, queueAdmittedDesc}, collect: func(ch chan<- prometheus.Metric) {
		each(func(event string, waiting, admitted int) {
			ch <- prometheus.MustNewConstMetric(queueWaitingDesc, prometheus.GaugeValue, float64(waiting), event)
			ch <- prometheus.MustNewConstMetric(queueAdmittedDesc, prometheus.GaugeValue, float64(admitted), event)
		})
	}}
}
