package inventory

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

	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

// memStore is an in-memory Store with the database's semantics. commitErr,
// when set, makes CommitReservation fail as if the stock had changed since
// it was read.
type memStore struct {
	mu           sync.Mutex
	levels       map[string]storage.StockLevel
	reservations map[string]storage.Reservation
	commitErr    error
	readErr      error
}

func newMemStore(levels ...storage.StockLevel) *memStore {
	m := &memStore{levels: map[string]storage.StockLevel{}, reservations: map[string]storage.Reservation{}}
	for _, l := range levels {
		m.levels[l.SKU] = l
	}
	return m
}

func (m *memStore) StockLevels(_ context.Context, skus []string) ([]storage.StockLevel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.readErr != nil {
		return nil, m.readErr
	}
	out := make([]storage.StockLevel, len(skus))
	for i, sku := range skus {
		l, ok := m.levels[sku]
		if !ok {
			return nil, fmt.Errorf("stock %q: %w", sku, storage.ErrNotFound)
		}
		out[i] = l
	}
	return out, nil
}

func (m *memStore) CommitReservation(_ context.Context, r storage.Reservation) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.commitErr != nil {
		return m.commitErr
	}
	if _, ok := m.reservations[r.OrderID]; ok {
		return fmt.Errorf("reservation %q: %w", r.OrderID, storage.ErrExists)
	}
	for _, it := range r.Items {
		if l := m.levels[it.SKU]; l.OnHand-it.Quantity < l.SafetyStock {
			return fmt.Errorf("%w: %s", storage.ErrInsufficientStock, it.SKU)
		}
	}
	for _, it := range r.Items {
		l := m.levels[it.SKU]
		l.OnHand -= it.Quantity
		m.levels[it.SKU] = l
	}
	m.reservations[r.OrderID] = r
	return nil
}

func (m *memStore) ReleaseReservation(_ context.Context, orderID string) (storage.Reservation, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.reservations[orderID]
	if !ok {
		return storage.Reservation{}, fmt.Errorf("reservation %q: %w", orderID, storage.ErrNotFound)
	}
	for _, it := range r.Items {
		l := m.levels[it.SKU]
		l.OnHand += it.Quantity
		m.levels[it.SKU] = l
	}
	delete(m.reservations, orderID)
	return r, nil
}

func (m *memStore) onHand(sku string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.levels[sku].OnHand
}

var now = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func newTestService(t *testing.T, store Store) *Service {
	t.Helper()
	s, err := New(store, Config{MaxPerOrder: 100, Hold: 15 * time.Minute, LowStockBelow: 5})
	if err != nil {
		t.Fatal(err)
	}
	s.clock = func() time.Time { return now }
	return s
}

func testLevels() []storage.StockLevel {
	return []storage.StockLevel{
		{SKU: "A", OnHand: 50, SafetyStock: 0},
		{SKU: "B", OnHand: 12, SafetyStock: 2}, // 10 sellable
		{SKU: "C", OnHand: 3, SafetyStock: 3},  // none sellable
	}
}

func TestReserve(t *testing.T) {
	tests := []struct {
		name       string
		items      []Item
		wantItems  []Item
		wantLow    []string
		wantOnHand map[string]int
	}{
		{
			name:       "single item",
			items:      []Item{{"A", 5}},
			wantItems:  []Item{{"A", 5}},
			wantLow:    []string{},
			wantOnHand: map[string]int{"A": 45, "B": 12},
		},
		{
			name:       "repeated SKUs are merged and sorted",
			items:      []Item{{"B", 1}, {"A", 2}, {"B", 3}},
			wantItems:  []Item{{"A", 2}, {"B", 4}},
			wantLow:    []string{},
			wantOnHand: map[string]int{"A": 48, "B": 8},
		},
		{
			// B: 10 sellable - 6 = 4 < 5 -> low; A: 50-45 = 5, not below 5.
			name:       "low stock is flagged below the threshold",
			items:      []Item{{"B", 6}, {"A", 45}},
			wantItems:  []Item{{"A", 45}, {"B", 6}},
			wantLow:    []string{"B"},
			wantOnHand: map[string]int{"A": 5, "B": 6},
		},
		{
			name:       "the last sellable unit",
			items:      []Item{{"B", 10}},
			wantItems:  []Item{{"B", 10}},
			wantLow:    []string{"B"},
			wantOnHand: map[string]int{"A": 50, "B": 2},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			store := newMemStore(testLevels()...)
			s := newTestService(t, store)
			r, err := s.Reserve(context.Background(), "ord-1", tc.items)
			if err != nil {
				t.Fatalf("Reserve: %v", err)
			}
			want := Reservation{OrderID: "ord-1", Items: tc.wantItems, ExpiresAt: now.Add(15 * time.Minute), LowStock: tc.wantLow}
			if !reflect.DeepEqual(r, want) {
				t.Errorf("Reserve = %+v\nwant      %+v", r, want)
			}
			for sku, n := range tc.wantOnHand {
				if got := store.onHand(sku); got != n {
					t.Errorf("on hand %s = %d, want %d", sku, got, n)
				}
			}
			rec := store.reservations["ord-1"]
			if !rec.CreatedAt.Equal(now) || !rec.ExpiresAt.Equal(now.Add(15*time.Minute)) {
				t.Errorf("stored reservation times %v..%v, want %v..+15m", rec.CreatedAt, rec.ExpiresAt, now)
			}
		})
	}
}

func TestReserveErrors(t *testing.T) {
	tests := []struct {
		name      string
		orderID   string
		items     []Item
		commitErr error
		want      error
		message   string
	}{
		{name: "more than sellable", items: []Item{{"B", 11}}, want: ErrOutOfStock, message: "B: 11 requested, 10 available"},
		{name: "safety stock is not sold", items: []Item{{"C", 1}}, want: ErrOutOfStock, message: "C: 1 requested, 0 available"},
		{name: "first short SKU is named", items: []Item{{"C", 1}, {"B", 20}, {"A", 1}}, want: ErrOutOfStock, message: "B: 20"},
		{name: "merged quantity is checked", items: []Item{{"B", 6}, {"B", 6}}, want: ErrOutOfStock, message: "B: 12 requested"},
		{name: "unknown product", items: []Item{{"A", 1}, {"Z", 1}}, want: ErrUnknownProduct, message: `"Z"`},
		{name: "no SKU", items: []Item{{"", 1}}, want: ErrUnknownProduct},
		{name: "zero quantity", items: []Item{{"A", 0}}, want: ErrInvalidQuantity},
		{name: "no items", items: nil, want: ErrInvalidQuantity},
		{name: "over the per-order cap", items: []Item{{"A", 60}, {"A", 41}}, want: ErrInvalidQuantity, message: "101 x A, at most 100"},
		{name: "stock taken concurrently", items: []Item{{"A", 1}}, commitErr: fmt.Errorf("commit: %w", storage.ErrInsufficientStock), want: ErrOutOfStock},
		{name: "order already reserved", items: []Item{{"A", 1}}, commitErr: storage.ErrExists, want: ErrDuplicateOrder},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			store := newMemStore(testLevels()...)
			store.commitErr = tc.commitErr
			s := newTestService(t, store)
			_, err := s.Reserve(context.Background(), "ord-1", tc.items)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Reserve error = %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.message) {
				t.Errorf("error %q does not mention %q", err, tc.message)
			}
			for _, l := range testLevels() {
				if got := store.onHand(l.SKU); got != l.OnHand {
					t.Errorf("failed reservation changed %s: on hand %d, was %d", l.SKU, got, l.OnHand)
				}
			}
		})
	}
}

func TestReserveStoreFailure(t *testing.T) {
	store := newMemStore(testLevels()...)
	store.readErr = errors.New("disk on fire")
	s := newTestService(t, store)
	_, err := s.Reserve(context.Background(), "ord-1", []Item{{"A", 1}})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") ||
		errors.Is(err, ErrOutOfStock) || errors.Is(err, ErrUnknownProduct) {
		t.Fatalf("Reserve error = %v, want the store's error and no business sentinel", err)
	}
	if _, err := s.Reserve(context.Background(), "", []Item{{"A", 1}}); err == nil {
		t.Fatal("Reserve with empty order ID succeeded")
	}
}

func TestRelease(t *testing.T) {
	store := newMemStore(testLevels()...)
	s := newTestService(t, store)
	ctx := context.Background()
	if _, err := s.Reserve(ctx, "ord-1", []Item{{"B", 4}, {"A", 7}}); err != nil {
		t.Fatal(err)
	}
	items, err := s.Release(ctx, "ord-1")
	if err != nil {
		t.Fatalf("Release: %v", err)
	}
	if want := []Item{{"A", 7}, {"B", 4}}; !reflect.DeepEqual(items, want) {
		t.Errorf("Release = %v, want %v", items, want)
	}
	if store.onHand("A") != 50 || store.onHand("B") != 12 {
		t.Errorf("stock not restored: A %d B %d", store.onHand("A"), store.onHand("B"))
	}
	if _, err := s.Release(ctx, "ord-1"); !errors.Is(err, ErrReservationNotFound) {
		t.Fatalf("second Release error = %v, want ErrReservationNotFound", err)
	}
}

func TestAvailable(t *testing.T) {
	s := newTestService(t, newMemStore(testLevels()...))
	got, err := s.Available(context.Background(), []string{"C", "A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Availability{{"C", 0}, {"A", 50}, {"B", 10}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Available = %v, want %v", got, want)
	}
	if _, err := s.Available(context.Background(), []string{"A", "nope"}); !errors.Is(err, ErrUnknownProduct) {
		t.Errorf("Available(unknown) error = %v, want ErrUnknownProduct", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	store := newMemStore()
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{MaxPerOrder: 0, Hold: time.Minute}, "MaxPerOrder"},
		{Config{MaxPerOrder: 1, Hold: 0}, "Hold"},
		{Config{MaxPerOrder: 1, Hold: time.Minute, LowStockBelow: -1}, "LowStockBelow"},
	} {
		if _, err := New(store, tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) error = %v, want one mentioning %s", tc.cfg, err, tc.want)
		}
	}
	if _, err := New(nil, DefaultConfig()); err == nil {
		t.Error("New(nil store) succeeded")
	}
}

// Against the real database, concurrent orders for scarce stock never
// oversell: with 20 sellable units and 60 one-unit orders, exactly 20
// succeed and the rest get ErrOutOfStock.
func TestReserveConcurrentNoOversell(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Seed(ctx,
		[]storage.Product{{SKU: "X", Name: "Scarce", Category: "coffee", PriceCents: 100}},
		[]storage.StockLevel{{SKU: "X", OnHand: 25, SafetyStock: 5}}, nil); err != nil {
		t.Fatal(err)
	}
	s, err := New(db, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var ok, out atomic.Int32
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			_, err := s.Reserve(ctx, fmt.Sprintf("ord-%d", i), []Item{{"X", 1}})
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, ErrOutOfStock):
				out.Add(1)
			default:
				t.Errorf("order %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 20 || out.Load() != 40 {
		t.Fatalf("%d reserved, %d out of stock; want 20 and 40", ok.Load(), out.Load())
	}
	levels, err := db.StockLevels(ctx, []string{"X"})
	if err != nil {
		t.Fatal(err)
	}
	if levels[0].OnHand != 5 {
		t.Fatalf("on hand %d after selling out, want the safety stock of 5", levels[0].OnHand)
	}
}
