package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// lockedBuffer is a bytes.Buffer safe for the flushing goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// TestLogBuffer_WholeLinesInOrderNoneLost proves the serve log's buffer loses no line: 40
// goroutines log 250 lines each; after Close every line is out, whole and once, each goroutine's
// in order; a line logged after Close is written at once; Flush writes what waits.
func TestLogBuffer_WholeLinesInOrderNoneLost(t *testing.T) {
	var out lockedBuffer
	b := newLogBuffer(&out)
	logger := slog.New(slog.NewTextHandler(b, nil))
	var wg sync.WaitGroup
	for g := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 250 {
				logger.Info("request", "g", g, "i", i)
			}
		}()
	}
	wg.Wait()
	require.NoError(t, b.Close())
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 40*250)
	next := map[string]int{}
	for _, l := range lines {
		var g string
		var i int
		f := strings.Fields(l)
		require.Len(t, f, 5, "a whole line: %q", l)
		g = f[3]
		_, err := fmt.Sscanf(f[4], "i=%d", &i)
		require.NoError(t, err)
		require.Equal(t, next[g], i, "goroutine %s's lines in order", g)
		next[g]++
	}
	logger.Info("after close")
	require.Contains(t, out.String(), "after close", "written at once after Close")

	var out2 lockedBuffer
	b2 := newLogBuffer(&out2)
	t.Cleanup(func() { b2.Close() })
	_, _ = b2.Write([]byte("waiting\n"))
	require.NoError(t, b2.Flush())
	require.Equal(t, "waiting\n", out2.String())
}
