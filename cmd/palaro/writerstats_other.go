//go:build !unix

package main

import (
	"context"
	"log/slog"

	"palaro/store"
)

// logWriterStats does nothing where there is no SIGUSR1.
func logWriterStats(context.Context, *store.DB, *slog.Logger) {}
