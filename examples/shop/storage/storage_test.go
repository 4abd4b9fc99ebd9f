package storage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

var (
	products = []Product{
		{SKU: "TEA-1", Name: "Sencha", Category: "tea", PriceCents: 800},
		{SKU: "COF-1", Name: "Espresso", Category: "coffee", PriceCents: 1250},
	}
	stock = []StockLevel{
		{SKU: "COF-1", OnHand: 10, SafetyStock: 2},
		{SKU: "TEA-1", OnHand: 5},
	}
	coupons = []Coupon{{Code: "TENOFF", PercentOffBP: 1000, ValidUntil: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}}
)

func seed(t *testing.T, db *DB) {
	t.Helper()
	ok, err := db.Seed(context.Background(), products, stock, coupons)
	if err != nil || !ok {
		t.Fatalf("Seed = %v, %v; want true, nil", ok, err)
	}
}

func TestSeedOnceAndPersist(t *testing.T) {
	db, path := openTemp(t)
	ctx := context.Background()
	seed(t, db)
	if ok, err := db.Seed(ctx, []Product{{SKU: "NEW"}}, nil, nil); ok || err != nil {
		t.Fatalf("second Seed = %v, %v; want false, nil", ok, err)
	}
	got, err := db.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []Product{products[1], products[0]} // SKU order
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Products = %v, want %v", got, want)
	}

	// Data survives closing and reopening the file.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	p, err := db2.Product(ctx, "TEA-1")
	if err != nil || p != products[0] {
		t.Fatalf("Product after reopen = %v, %v", p, err)
	}
	c, err := db2.Coupon(ctx, "TENOFF")
	if err != nil || !c.ValidUntil.Equal(coupons[0].ValidUntil) || c.PercentOffBP != 1000 {
		t.Fatalf("Coupon after reopen = %+v, %v", c, err)
	}
}

func TestSeedRejectsStockWithoutProduct(t *testing.T) {
	db, _ := openTemp(t)
	_, err := db.Seed(context.Background(), products, []StockLevel{{SKU: "GHOST", OnHand: 1}}, nil)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Seed error = %v, want ErrNotFound", err)
	}
	if ps, _ := db.Products(context.Background()); len(ps) != 0 {
		t.Fatalf("failed seed left %d products behind", len(ps))
	}
}

func TestNotFound(t *testing.T) {
	db, _ := openTemp(t)
	seed(t, db)
	ctx := context.Background()
	checks := map[string]error{}
	_, checks["Product"] = db.Product(ctx, "NOPE")
	_, checks["Coupon"] = db.Coupon(ctx, "NOPE")
	_, checks["StockLevels"] = db.StockLevels(ctx, []string{"COF-1", "NOPE"})
	_, checks["Order"] = db.Order(ctx, "ord-404")
	_, checks["Reservation"] = db.Reservation(ctx, "ord-404")
	_, checks["ReleaseReservation"] = db.ReleaseReservation(ctx, "ord-404")
	_, checks["CancelOrder"] = db.CancelOrder(ctx, "ord-404", time.Now())
	for name, err := range checks {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s error = %v, want ErrNotFound", name, err)
		}
	}
}

func TestReservationLifecycle(t *testing.T) {
	db, _ := openTemp(t)
	seed(t, db)
	ctx := context.Background()
	at := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	r := Reservation{OrderID: "ord-1", Items: []ReservedItem{{"COF-1", 8}, {"TEA-1", 5}}, CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
	if err := db.CommitReservation(ctx, r); err != nil {
		t.Fatalf("CommitReservation: %v", err)
	}
	levels, err := db.StockLevels(ctx, []string{"TEA-1", "COF-1"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []StockLevel{{"TEA-1", 0, 0}, {"COF-1", 2, 2}}; !reflect.DeepEqual(levels, want) {
		t.Fatalf("levels after commit = %v, want %v", levels, want)
	}
	if err := db.CommitReservation(ctx, Reservation{OrderID: "ord-1"}); !errors.Is(err, ErrExists) {
		t.Fatalf("second commit for the same order: %v, want ErrExists", err)
	}
	got, err := db.Reservation(ctx, "ord-1")
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("Reservation = %+v, %v; want %+v", got, err, r)
	}
	released, err := db.ReleaseReservation(ctx, "ord-1")
	if err != nil || !reflect.DeepEqual(released, r) {
		t.Fatalf("ReleaseReservation = %+v, %v", released, err)
	}
	snap, err := db.StockSnapshot(ctx)
	if err != nil || !reflect.DeepEqual(snap, stock) {
		t.Fatalf("StockSnapshot after release = %v, %v; want %v", snap, err, stock)
	}
}

func TestCommitReservationIsAllOrNothing(t *testing.T) {
	db, _ := openTemp(t)
	seed(t, db)
	ctx := context.Background()
	// COF-1 fits, TEA-1 does not: nothing may change.
	err := db.CommitReservation(ctx, Reservation{OrderID: "ord-1", Items: []ReservedItem{{"COF-1", 1}, {"TEA-1", 6}}})
	if !errors.Is(err, ErrInsufficientStock) || !strings.Contains(err.Error(), "TEA-1") {
		t.Fatalf("CommitReservation error = %v, want ErrInsufficientStock naming TEA-1", err)
	}
	// Safety stock: COF-1 has 10 on hand, 2 of them safety stock.
	err = db.CommitReservation(ctx, Reservation{OrderID: "ord-2", Items: []ReservedItem{{"COF-1", 9}}})
	if !errors.Is(err, ErrInsufficientStock) {
		t.Fatalf("reserving into safety stock: %v, want ErrInsufficientStock", err)
	}
	snap, _ := db.StockSnapshot(ctx)
	if !reflect.DeepEqual(snap, stock) {
		t.Fatalf("stock changed by failed commits: %v", snap)
	}
	if _, err := db.Reservation(ctx, "ord-1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("failed commit left a reservation: %v", err)
	}
}

func TestOrders(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	id1, err := db.NextOrderID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id2, _ := db.NextOrderID(ctx)
	if id1 != "ord-00000001" || id2 != "ord-00000002" {
		t.Fatalf("order IDs %q, %q", id1, id2)
	}
	created := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	o := Order{ID: id1, Customer: "c1", Region: "DE", Status: StatusPlaced, Variant: "A",
		Lines:         []OrderLine{{SKU: "COF-1", Name: "Espresso", Quantity: 2, UnitCents: 1250, NetCents: 2500}},
		SubtotalCents: 2500, TaxCents: 164, TotalCents: 2500, CreatedAt: created}
	if err := db.CreateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateOrder(ctx, o); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate CreateOrder: %v, want ErrExists", err)
	}
	if err := db.CreateOrder(ctx, Order{}); err == nil || !strings.Contains(err.Error(), "NextOrderID") {
		t.Fatalf("CreateOrder without ID: %v", err)
	}
	got, err := db.Order(ctx, id1)
	if err != nil || !reflect.DeepEqual(got, o) {
		t.Fatalf("Order = %+v, %v; want %+v", got, err, o)
	}
	cancelAt := created.Add(time.Minute)
	c, err := db.CancelOrder(ctx, id1, cancelAt)
	if err != nil || c.Status != StatusCancelled || !c.CancelledAt.Equal(cancelAt) {
		t.Fatalf("CancelOrder = %+v, %v", c, err)
	}
	if _, err := db.CancelOrder(ctx, id1, cancelAt); !errors.Is(err, ErrOrderState) {
		t.Fatalf("second CancelOrder: %v, want ErrOrderState", err)
	}
	all, err := db.Orders(ctx)
	if err != nil || len(all) != 1 || all[0].Status != StatusCancelled {
		t.Fatalf("Orders = %+v, %v", all, err)
	}
}

// Concurrent reservations and releases keep the books balanced: what is on
// hand plus what is reserved equals the initial stock.
func TestConcurrentReservations(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if _, err := db.Seed(ctx, []Product{{SKU: "X", PriceCents: 1}}, []StockLevel{{SKU: "X", OnHand: 100}}, nil); err != nil {
		t.Fatal(err)
	}
	var reserved atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				id := fmt.Sprintf("ord-%d-%d", g, i)
				err := db.CommitReservation(ctx, Reservation{OrderID: id, Items: []ReservedItem{{"X", 3}}})
				if errors.Is(err, ErrInsufficientStock) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				reserved.Add(3)
				if i%2 == 0 {
					if _, err := db.ReleaseReservation(ctx, id); err != nil {
						t.Error(err)
						return
					}
					reserved.Add(-3)
				}
			}
		})
	}
	wg.Wait()
	levels, err := db.StockLevels(ctx, []string{"X"})
	if err != nil {
		t.Fatal(err)
	}
	if got := int64(levels[0].OnHand) + reserved.Load(); got != 100 || levels[0].OnHand < 0 {
		t.Fatalf("on hand %d + reserved %d = %d, want 100", levels[0].OnHand, reserved.Load(), got)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(""); err == nil || !strings.Contains(err.Error(), "empty database path") {
		t.Fatalf("Open(\"\") = %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing-dir", "shop.db")); err == nil {
		t.Fatal("Open in a missing directory succeeded")
	}
	_, path := openTemp(t) // holds the file lock
	start := time.Now()
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("second Open = %v, want a lock error", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("second Open hung instead of timing out")
	}
}

func TestCancelledContext(t *testing.T) {
	db, _ := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.Product(ctx, "COF-1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Product with cancelled context: %v", err)
	}
	if err := db.CommitReservation(ctx, Reservation{OrderID: "x"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("CommitReservation with cancelled context: %v", err)
	}
}
