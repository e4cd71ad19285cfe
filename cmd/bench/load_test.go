package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func ds(ms ...int) []time.Duration {
	out := make([]time.Duration, len(ms))
	for i, m := range ms {
		out[i] = time.Duration(m) * time.Millisecond
	}
	return out
}

func TestPercentile_NearestRank(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ten := ds(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
		require.Equal(t, 5*time.Millisecond, percentile(ten, 50))
		require.Equal(t, 10*time.Millisecond, percentile(ten, 99))
		require.Equal(t, 9*time.Millisecond, percentile(ten, 90))
		require.Equal(t, 1*time.Millisecond, percentile(ten, 1))
		require.Equal(t, 10*time.Millisecond, percentile(ten, 100))

		hundred := make([]int, 100)
		for i := range hundred {
			hundred[i] = i + 1
		}
		require.Equal(t, 99*time.Millisecond, percentile(ds(hundred...), 99))
		require.Equal(t, 50*time.Millisecond, percentile(ds(hundred...), 50))
		require.Equal(t, 7*time.Millisecond, percentile(ds(7), 99))
	})
	t.Run("ErrEmpty", func(t *testing.T) {
		require.Zero(t, percentile(nil, 99))
	})
}

func TestLoad_MergeAndRPS(t *testing.T) {
	a := Load{Requests: 3, Failures: 1, Elapsed: time.Second, Latencies: ds(1, 5, 9)}
	b := Load{Requests: 2, Refused: 4, Elapsed: time.Second, Latencies: ds(2, 3)}
	m := a.merge(b)
	require.Equal(t, 5, m.Requests)
	require.Equal(t, 4, m.Refused)
	require.Equal(t, 1, m.Failures)
	require.InDelta(t, 2.5, m.RPS(), 1e-9)
	require.Equal(t, ds(1, 2, 3, 5, 9), m.Latencies)
	require.Equal(t, 3*time.Millisecond, m.Percentile(50))
	require.Zero(t, Load{Requests: 3}.RPS())
}

func TestGetLoad_Bounded(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get("Accept-Encoding") != "gzip" || r.URL.Path == "/fail" {
			http.Error(w, "no", http.StatusTeapot)
			return
		}
		_, _ = w.Write([]byte("hello"))
	}))
	defer srv.Close()
	client := newLoadClient(4)

	t.Run("OK", func(t *testing.T) {
		hits.Store(0)
		l := getLoad(context.Background(), client, srv.URL+"/", 4, 10*time.Second, 50)
		require.Equal(t, 50, l.Requests)
		require.Zero(t, l.Failures)
		require.Len(t, l.Latencies, 50)
		require.EqualValues(t, 50, hits.Load())
		require.Less(t, l.Elapsed, 10*time.Second)
	})
	t.Run("ErrStatus", func(t *testing.T) {
		l := getLoad(context.Background(), client, srv.URL+"/fail", 4, 10*time.Second, 20)
		require.Zero(t, l.Requests)
		require.Equal(t, 20, l.Failures)
	})
	t.Run("OKDeadline", func(t *testing.T) {
		l := getLoad(context.Background(), client, srv.URL+"/", 4, 200*time.Millisecond, 1<<40)
		require.Positive(t, l.Requests)
		require.Less(t, l.Elapsed, 2*time.Second)
	})
}

func TestRunLoad_Results(t *testing.T) {
	l := runLoad(context.Background(), 3, 10*time.Second, 30, func(_ context.Context, i int) result {
		return []result{done, refused, failed}[i%3]
	})
	require.Equal(t, 10, l.Requests)
	require.Equal(t, 10, l.Refused)
	require.Equal(t, 10, l.Failures)
	require.Len(t, l.Latencies, 20, "done and refused are timed")
}
