package app_test

import (
	"context"
	"net"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/app"
	"github.com/rules-capture/rules_capture/examples/shop/catalog"
	"github.com/rules-capture/rules_capture/examples/shop/loadgen"
	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

// startShop serves a shop on a free loopback port with a fresh database and
// returns its URL, the app, and a stop function that shuts it down
// gracefully and reports Serve's result.
func startShop(t *testing.T, dbPath string) (string, *app.App, func() error) {
	t.Helper()
	a, err := app.Open(context.Background(), app.DefaultConfig(dbPath))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx, ln) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-served:
			if cerr := a.Close(); err == nil {
				err = cerr
			}
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("shop did not shut down within 30s")
			return nil
		}
	}
	t.Cleanup(func() { stop() })
	return "http://" + ln.Addr().String(), a, stop
}

// The load generator's workload against the real shop: every request is
// answered without a server error, and afterwards the books balance: for
// every product, what is on the shelf plus what placed orders hold equals
// the opening stock, and every placed order (and no cancelled one) still
// holds its reservation.
func TestShopUnderLoad(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "shop.db")
	url, a, stop := startShop(t, dbPath)

	s, err := loadgen.Run(context.Background(), loadgen.Config{
		BaseURL: url, Seed: 11, Requests: 400, Warmup: 50, Concurrency: 8,
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Requests != 400 {
		t.Fatalf("measured %d requests, want 400", s.Requests)
	}
	if s.Failed() {
		t.Fatalf("shop failed requests: %d server errors, %d transport errors: %v", s.ServerErrors, s.TransportErrors, s.SampleFailures)
	}
	for status := range s.Statuses {
		if !slices.Contains([]string{"200", "201", "400", "409", "422"}, status) {
			t.Errorf("unexpected status %s (%d times)", status, s.Statuses[status])
		}
	}
	if s.OrdersCreated == 0 || s.Ops["cancel"].Statuses["200"] == 0 || s.Ops["quote"].Statuses["200"] == 0 {
		t.Fatalf("workload did not exercise orders, cancels and quotes: %+v", s.Ops)
	}
	if s.Statuses["422"] == 0 {
		t.Errorf("no 422: the mix's bogus and expired coupons were not rejected")
	}

	ctx := context.Background()
	orders, err := a.DB.Orders(ctx)
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]int{}
	placed, cancelled := 0, 0
	for _, o := range orders {
		_, rerr := a.DB.Reservation(ctx, o.ID)
		switch o.Status {
		case storage.StatusPlaced:
			placed++
			if rerr != nil {
				t.Errorf("placed order %s has no reservation: %v", o.ID, rerr)
			}
			for _, l := range o.Lines {
				held[l.SKU] += l.Quantity
			}
		case storage.StatusCancelled:
			cancelled++
			if rerr == nil {
				t.Errorf("cancelled order %s still holds a reservation", o.ID)
			}
		default:
			t.Errorf("order %s has status %q", o.ID, o.Status)
		}
		var sum int64
		for _, l := range o.Lines {
			sum += l.NetCents
		}
		if sum != o.SubtotalCents-o.DiscountCents {
			t.Errorf("order %s: lines net %d != subtotal %d - discount %d", o.ID, sum, o.SubtotalCents, o.DiscountCents)
		}
	}
	// Warm-up orders count too: they are in the database.
	if placed+cancelled < s.OrdersCreated || cancelled == 0 {
		t.Fatalf("database holds %d placed and %d cancelled orders; the measured phase alone created %d", placed, cancelled, s.OrdersCreated)
	}
	snap, err := a.DB.StockSnapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	opening := map[string]int{}
	for _, l := range catalog.Stock() {
		opening[l.SKU] = l.OnHand
	}
	for _, l := range snap {
		if l.OnHand+held[l.SKU] != opening[l.SKU] {
			t.Errorf("%s: %d on hand + %d held by placed orders != %d opening stock", l.SKU, l.OnHand, held[l.SKU], opening[l.SKU])
		}
		if l.OnHand < l.SafetyStock {
			t.Errorf("%s sold into its safety stock: %d on hand, safety %d", l.SKU, l.OnHand, l.SafetyStock)
		}
	}

	if err := stop(); err != nil {
		t.Fatalf("graceful shutdown: %v", err)
	}
	// The data survives a restart, and the catalogue is not seeded twice.
	_, a2, _ := startShop(t, dbPath)
	again, err := a2.DB.Orders(ctx)
	if err != nil || len(again) != len(orders) {
		t.Fatalf("after restart: %d orders (err %v), want %d", len(again), err, len(orders))
	}
	snap2, err := a2.DB.StockSnapshot(ctx)
	if err != nil || !slices.Equal(snap, snap2) {
		t.Fatalf("stock changed across a restart (err %v)", err)
	}
}
