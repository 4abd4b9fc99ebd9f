// Package app wires the shop together: database, business packages and
// HTTP handlers, plus a server with graceful shutdown. examples/shop (package main) runs it;
// the end-to-end test starts it in-process.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/api"
	"github.com/rules-capture/rules_capture/examples/shop/catalog"
	"github.com/rules-capture/rules_capture/examples/shop/inventory"
	"github.com/rules-capture/rules_capture/examples/shop/pricing"
	"github.com/rules-capture/rules_capture/examples/shop/storage"
	"github.com/rules-capture/rules_capture/examples/shop/tax"
)

// Config configures a shop.
type Config struct {
	DBPath    string
	Pricing   pricing.Config
	Inventory inventory.Config
	// ShutdownTimeout bounds how long Serve waits for in-flight requests
	// once its context is done.
	ShutdownTimeout time.Duration
	Log             *slog.Logger // nil discards logs
}

// DefaultConfig is the shop's configuration with its database at dbPath.
func DefaultConfig(dbPath string) Config {
	return Config{
		DBPath:          dbPath,
		Pricing:         pricing.DefaultConfig(),
		Inventory:       inventory.DefaultConfig(),
		ShutdownTimeout: 10 * time.Second,
	}
}

// App is a shop ready to serve.
type App struct {
	DB      *storage.DB
	Handler http.Handler
	cfg     Config
	log     *slog.Logger
}

// Open opens the database, seeds the catalogue if the database is new, and
// builds the handlers.
func Open(ctx context.Context, cfg Config) (*App, error) {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	db, err := storage.Open(cfg.DBPath)
	if err != nil {
		return nil, err
	}
	a, err := build(ctx, db, cfg, log)
	if err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

func build(ctx context.Context, db *storage.DB, cfg Config, log *slog.Logger) (*App, error) {
	seeded, err := db.Seed(ctx, catalog.Products(), catalog.Stock(), catalog.Coupons())
	if err != nil {
		return nil, err
	}
	if seeded {
		log.Info("seeded a new catalogue", "db", cfg.DBPath, "products", len(catalog.Products()))
	}
	pricer, err := pricing.New(db, cfg.Pricing)
	if err != nil {
		return nil, err
	}
	stock, err := inventory.New(db, cfg.Inventory)
	if err != nil {
		return nil, err
	}
	srv, err := api.New(db, pricer, tax.DefaultCalculator(), stock, log)
	if err != nil {
		return nil, err
	}
	return &App{DB: db, Handler: srv.Handler(), cfg: cfg, log: log}, nil
}

// Serve answers requests on ln until ctx is done, then stops accepting,
// waits up to ShutdownTimeout for in-flight requests, and returns. A nil
// result means a clean shutdown.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.Handler,
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("shop: serve: %w", err)
	case <-ctx.Done():
	}
	timeout := a.cfg.ShutdownTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	a.log.Info("shutting down", "timeout", timeout)
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shop: shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shop: serve: %w", err)
	}
	return nil
}

// Close closes the database.
func (a *App) Close() error { return a.DB.Close() }
