//go:build unix

package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"palaro/store"
)

// logWriterStats logs the batching writer's counts (units of work, commits, fsyncs) each time the
// process gets SIGUSR1, until ctx ends; the benchmark reads them around its purchase storm.
func logWriterStats(ctx context.Context, db *store.DB, logger *slog.Logger) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		defer signal.Stop(sig)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sig:
				s := db.WriterStats()
				logger.Info("writer stats", "units", s.Units, "commits", s.Commits, "syncs", s.Syncs)
			}
		}
	}()
}
