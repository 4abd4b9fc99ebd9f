// Command shop runs the example coffee shop: an HTTP JSON API over a bbolt
// database. See examples/shop/README.md.
//
// The annotation below names the observed set for rules_capture's Gazelle
// extension: the business packages whose boundary a capture build records.
//
//capture:observe github.com/rules-capture/rules_capture/examples/shop/pricing github.com/rules-capture/rules_capture/examples/shop/tax github.com/rules-capture/rules_capture/examples/shop/inventory
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/app"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (port 0 picks a free port)")
	addrFile := flag.String("addr-file", "", "if set, write the bound address to this file once listening (for scripts using port 0)")
	dbPath := flag.String("db", "shop.db", "bbolt database file, created and seeded if missing")
	shutdown := flag.Duration("shutdown-timeout", 10*time.Second, "how long to wait for in-flight requests on SIGINT/SIGTERM")
	percentB := flag.Int("experiment-b-percent", -1, "share of new clients in experiment variant B, 0..100 (default: the pricing default)")
	utcOffset := flag.Int("utc-offset-minutes", 60, "the shop's local time as minutes east of UTC (happy hour and weekends)")
	verbose := flag.Bool("v", false, "log at debug level")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "shop: unexpected arguments %q; all settings are flags (see -help)\n", flag.Args())
		os.Exit(2)
	}

	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	cfg := app.DefaultConfig(*dbPath)
	cfg.ShutdownTimeout = *shutdown
	cfg.Log = log
	cfg.Pricing.UTCOffsetMinutes = *utcOffset
	if *percentB >= 0 {
		cfg.Pricing.Experiment.PercentB = *percentB
	}
	if err := run(cfg, *addr, *addrFile, log); err != nil {
		log.Error("shop stopped", "err", err)
		os.Exit(1)
	}
}

func run(cfg app.Config, addr, addrFile string, log *slog.Logger) error {
	// SIGINT/SIGTERM cancel ctx; Serve then shuts down gracefully and main
	// returns normally, so deferred work (closing the database, and in a
	// capture build flushing the event log) runs.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	a, err := app.Open(ctx, cfg)
	if err != nil {
		return err
	}
	defer a.Close()

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (pick another -addr)", addr, err)
	}
	bound := ln.Addr().String()
	if addrFile != "" {
		if err := os.WriteFile(addrFile, []byte(bound+"\n"), 0o644); err != nil {
			ln.Close()
			return fmt.Errorf("write -addr-file: %w", err)
		}
	}
	log.Info("shop listening", "addr", bound, "db", cfg.DBPath)
	if err := a.Serve(ctx, ln); err != nil {
		return err
	}
	log.Info("shop stopped cleanly")
	return nil
}
