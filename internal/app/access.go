package app

import (
	"log/slog"
	"time"

	"palaro"
	"palaro/handlers"
	"palaro/queue"
	"palaro/store"
)

// DB returns the app's database.
func (a *App) DB() *store.DB { return a.db }

// Server returns the app's HTTP server.
func (a *App) Server() *handlers.Server { return a.server }

// Purchases returns the purchase service the server and the jobs use.
func (a *App) Purchases() *store.PurchaseService { return a.purchases }

// Waitlist returns the waiting-list service the server and the jobs use.
func (a *App) Waitlist() *store.WaitlistService { return a.waitlist }

// Outbox returns the outbox the notification worker drains.
func (a *App) Outbox() *store.OutboxService { return a.outbox }

// Queues returns the on-sale queues held in memory.
func (a *App) Queues() *queue.Manager { return a.queues }

// Payments returns the payment provider the configuration selected.
func (a *App) Payments() palaro.PaymentProvider { return a.payments }

// Logger returns the app's logger.
func (a *App) Logger() *slog.Logger { return a.logger }

// Now reads the app's one clock.
func (a *App) Now() time.Time { return a.now() }

// Tournaments returns the tournaments' service the server and the job loop use.
func (a *App) Tournaments() *store.TournamentService { return a.tournaments }
