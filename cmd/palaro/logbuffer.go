package main

import (
	"bytes"
	"io"
	"sync"
	"time"
)

// logFlushEvery is how long a log line may wait in memory before it is written out.
const logFlushEvery = 100 * time.Millisecond

// logFlushAt is the size of the waiting lines at which they are written out at once.
const logFlushAt = 64 << 10

// logBuffer collects log lines in memory and writes them to w together, every logFlushEvery or
// when logFlushAt bytes wait, and on Close: serve logs one line per request, and a write to the
// log for each of them (one system call each, under the log handler's lock that every request
// queues for) cost the public pages a share of their throughput. Lines are written whole and in
// order. A process killed (SIGKILL) loses at most the last logFlushEvery of lines; an ordinary
// exit (main's Close) loses none.
type logBuffer struct {
	w      io.Writer
	mu     sync.Mutex
	buf    bytes.Buffer
	closed bool // after Close each line is written at once
	stop   chan struct{}
	done   chan struct{}
}

// newLogBuffer starts a logBuffer writing to w; Close it to write the rest.
func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: w, stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushEvery(logFlushEvery)
	return b
}

// Write keeps p (one log line: slog writes each record with one call) for the next flush.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if b.closed || b.buf.Len() >= logFlushAt {
		return len(p), b.flushLocked()
	}
	return len(p), nil
}

// Flush writes the waiting lines out.
func (b *logBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *logBuffer) flushLocked() error {
	if b.buf.Len() == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf.Bytes())
	b.buf.Reset()
	return err
}

func (b *logBuffer) flushEvery(d time.Duration) {
	defer close(b.done)
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = b.Flush() // a log that cannot be written has nowhere to report it
		case <-b.stop:
			return
		}
	}
}

// Close stops the timer and writes what waits; lines written after it are written at once.
func (b *logBuffer) Close() error {
	close(b.stop)
	<-b.done
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return b.flushLocked()
}
