package main

import (
	"context"
	"crypto/rand"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"palaro/handlers"
	"palaro/notify"
	"palaro/static"
	"palaro/store"
)

// app is a wired Palaro: the database, the domain services and the HTTP server.
type app struct {
	db        *store.DB
	server    *handlers.Server
	purchases *store.PurchaseService
	outbox    *store.OutboxService
}

// newApp opens and migrates the database, loads demo data when configured and the database is
// empty, and wires the services into the HTTP server.
func newApp(ctx context.Context, cfg config, logger *slog.Logger) (*app, error) {
	if err := os.MkdirAll(filepath.Dir(cfg.DBPath), 0o755); err != nil {
		return nil, err
	}
	db, err := store.Open(cfg.DBPath)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if cfg.Demo {
		empty, err := db.IsEmpty(ctx)
		if err == nil && empty {
			err = db.SeedDemo(ctx, time.Now())
			logger.Info("loaded demo data")
		}
		if err != nil {
			db.Close()
			return nil, err
		}
	}
	events := store.NewEventService(db)
	composer := notify.NewComposer(cfg.BaseURL, cfg.SupportEmail)
	purchases := store.NewPurchaseService(db, composer, cfg.Hold)
	server := handlers.New(handlers.Config{
		BaseURL:      cfg.BaseURL,
		SupportEmail: cfg.SupportEmail,
		TagManagerID: cfg.TagManagerID,
		PixelID:      cfg.PixelID,
		PartnerKeys:  cfg.PartnerKeys,
		TicketKey:    ticketKey(cfg.TicketKey, logger),
	}, handlers.Services{
		Events:      events,
		TicketTypes: events,
		Purchases:   purchases,
	}, static.Default(), logger)
	return &app{db: db, server: server, purchases: purchases, outbox: store.NewOutboxService(db)}, nil
}

// Close releases the database.
func (a *app) Close() error { return a.db.Close() }

// ticketKey returns the configured ticket signing key, or a random one (with a warning) when none
// is set: QR codes then change when the server restarts.
func ticketKey(key []byte, logger *slog.Logger) []byte {
	if len(key) > 0 {
		return key
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	logger.Warn("PALARO_TICKET_KEY is not set: using a random key, so ticket QR codes change on restart")
	return key
}
