package e2e

import (
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"
)

// scrape reads the metrics at url with Prometheus's text parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return families
}

// seriesValue returns the value of the series of family with exactly the labels given (a
// histogram's count), and whether it exists.
func seriesValue(f *dto.MetricFamily, labels map[string]string) (float64, bool) {
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		if len(m.GetLabel()) != len(labels) {
			continue
		}
		for _, l := range m.GetLabel() {
			if labels[l.GetName()] != l.GetValue() {
				continue next
			}
		}
		switch {
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		}
	}
	return 0, false
}

// TestMetrics_OnTheirListenerOnly: bin/palaro serve with PALARO_METRICS serves Prometheus
// metrics on that loopback listener (Go's, the process's and Palaro's own, by route pattern),
// a page request counts there, and the public listener has no /metrics.
func TestMetrics_OnTheirListenerOnly(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	metricsAddr := ln.Addr().String()
	ln.Close()
	p := startServe(t, buildPalaro(t), "PALARO_DB="+filepath.Join(t.TempDir(), "palaro.db"), "PALARO_DEMO=1",
		"PALARO_METRICS="+metricsAddr)
	metricsURL := "http://" + metricsAddr + "/metrics"

	home := map[string]string{"route": "/", "method": "GET", "status": "200"}
	var before map[string]*dto.MetricFamily
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		before = scrape(t, metricsURL)
		if n, _ := seriesValue(before["palaro_http_request_duration_seconds"], home); n >= 1 {
			break // startServe's request of / is counted
		}
	}
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "palaro_outbox_messages",
		"palaro_writer_batch_units", "palaro_writer_wait_seconds", "palaro_page_cache_requests_total",
		"palaro_webhook_deliveries", "palaro_webhook_send_failures_total", "palaro_webhook_sent_total", "palaro_refunds"} {
		require.Contains(t, before, name, "the scrape has %s", name)
	}
	require.NotContains(t, before, "palaro_metrics_read_errors", "every figure read from the database")
	pending, ok := seriesValue(before["palaro_outbox_messages"], map[string]string{"status": "pending"})
	require.True(t, ok, "the outbox's pending messages are counted")
	require.GreaterOrEqual(t, pending, 0.0)
	// the webhooks' queue and the refunds, read from the demo database: none yet
	for _, family := range []string{"palaro_webhook_deliveries", "palaro_refunds"} {
		for _, status := range []string{"pending", "failed"} {
			n, ok := seriesValue(before[family], map[string]string{"status": status})
			require.True(t, ok, "%s{status=%q} is counted", family, status)
			require.Zero(t, n, "%s{status=%q}", family, status)
		}
	}
	failures, ok := seriesValue(before["palaro_webhook_send_failures_total"], map[string]string{})
	require.True(t, ok)
	require.Zero(t, failures)
	wasHome, _ := seriesValue(before["palaro_http_request_duration_seconds"], home)
	require.Equal(t, 1.0, wasHome, "startServe asked for / once")

	client := &http.Client{Timeout: 10 * time.Second}
	for range 3 {
		resp, err := client.Get(p.url + "/")
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	resp, err := client.Get(p.url + "/t/no-such-ticket")
	require.NoError(t, err)
	resp.Body.Close()

	// a request is counted once its answer has left, so the scrape may come just before
	ticket := map[string]string{"route": "/t/:id", "method": "GET", "status": "404"}
	var after map[string]*dto.MetricFamily
	var nowHome float64
	var ticketSeen bool
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		after = scrape(t, metricsURL)
		nowHome, _ = seriesValue(after["palaro_http_request_duration_seconds"], home)
		_, ticketSeen = seriesValue(after["palaro_http_request_duration_seconds"], ticket)
		if nowHome >= wasHome+3 && ticketSeen {
			break
		}
	}
	require.Equal(t, wasHome+3, nowHome, "each request of / counts once, by its route pattern")
	require.True(t, ticketSeen, "a ticket page is counted under its pattern /t/:id, never its path")
	for _, m := range after["palaro_http_request_duration_seconds"].GetMetric() {
		for _, l := range m.GetLabel() {
			require.NotContains(t, l.GetValue(), "no-such-ticket", "no raw path in a label")
		}
	}
	hits, _ := seriesValue(after["palaro_page_cache_requests_total"], map[string]string{"result": "hit"})
	require.Greater(t, hits, 0.0, "the home page came from the page cache")

	resp, err = client.Get(p.url + "/metrics")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusNotFound, resp.StatusCode, "no metrics on the public listener")
}
