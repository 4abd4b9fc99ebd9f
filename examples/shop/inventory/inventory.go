// Package inventory reserves stock for orders and releases it on
// cancellation.
//
// The policy lives here: quantity limits, merging repeated products, the
// safety stock that is never sold, how long a reservation holds, and which
// products are running low. The database applies a reservation atomically
// and re-checks the stock inside its transaction, so two concurrent orders
// for the last unit cannot both succeed; the loser gets ErrOutOfStock like
// any other customer who asks for too much.
//
// The package is part of the shop's observed set; the clock and the
// database are its outcalls.
package inventory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

// Errors returned (wrapped, with details) by this package. Callers test them
// with errors.Is.
var (
	ErrOutOfStock          = errors.New("inventory: out of stock")
	ErrUnknownProduct      = errors.New("inventory: unknown product")
	ErrInvalidQuantity     = errors.New("inventory: invalid quantity")
	ErrReservationNotFound = errors.New("inventory: no reservation for order")
	ErrDuplicateOrder      = errors.New("inventory: order already holds a reservation")
)

// Store is what inventory needs from the database.
type Store interface {
	// StockLevels returns the levels in the order asked; the error wraps
	// storage.ErrNotFound if a SKU has no stock record.
	StockLevels(ctx context.Context, skus []string) ([]storage.StockLevel, error)
	// CommitReservation removes the items from stock and records the
	// reservation atomically; it fails with storage.ErrInsufficientStock if
	// any item would dip into safety stock, storage.ErrExists if the order
	// already has a reservation.
	CommitReservation(ctx context.Context, r storage.Reservation) error
	// ReleaseReservation restocks and deletes a reservation atomically; the
	// error wraps storage.ErrNotFound if there is none.
	ReleaseReservation(ctx context.Context, orderID string) (storage.Reservation, error)
}

// Config is the stock policy.
type Config struct {
	// MaxPerOrder caps the units of one product in one order.
	MaxPerOrder int
	// Hold is how long a reservation is kept for an unpaid order.
	Hold time.Duration
	// LowStockBelow flags a product whose sellable stock (on hand minus
	// safety stock) falls below it after a reservation.
	LowStockBelow int
}

// DefaultConfig is the example shop's stock policy.
func DefaultConfig() Config {
	return Config{MaxPerOrder: 1000, Hold: 30 * time.Minute, LowStockBelow: 20}
}

// Item is a quantity of one product.
type Item struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// Reservation is stock held for an order.
type Reservation struct {
	OrderID   string    `json:"order_id"`
	Items     []Item    `json:"items"` // by SKU
	ExpiresAt time.Time `json:"expires_at"`
	// LowStock lists the reserved products whose sellable stock is now below
	// the reorder threshold, by SKU.
	LowStock []string `json:"low_stock"`
}

// Availability is the sellable stock of one product.
type Availability struct {
	SKU       string `json:"sku"`
	Available int    `json:"available"`
}

// Service applies the stock policy on top of a Store. It keeps no state of
// its own, so it is safe for concurrent use.
type Service struct {
	store Store
	cfg   Config
	clock func() time.Time // replaces time.Now in this package's tests
}

// New checks the policy and returns a Service.
func New(store Store, cfg Config) (*Service, error) {
	if store == nil {
		return nil, errors.New("inventory: nil store")
	}
	if cfg.MaxPerOrder < 1 {
		return nil, fmt.Errorf("inventory: MaxPerOrder %d, want >= 1", cfg.MaxPerOrder)
	}
	if cfg.Hold <= 0 {
		return nil, fmt.Errorf("inventory: Hold %v, want a positive duration", cfg.Hold)
	}
	if cfg.LowStockBelow < 0 {
		return nil, fmt.Errorf("inventory: LowStockBelow %d, want >= 0", cfg.LowStockBelow)
	}
	return &Service{store: store, cfg: cfg}, nil
}

// Reserve holds the items for an order. It checks every item before
// touching stock, so a failed reservation changes nothing; when several
// items are short, the error names the first by SKU.
func (s *Service) Reserve(ctx context.Context, orderID string, items []Item) (Reservation, error) {
	if orderID == "" {
		return Reservation{}, errors.New("inventory: empty order ID")
	}
	merged, err := s.merge(items)
	if err != nil {
		return Reservation{}, err
	}
	skus := make([]string, len(merged))
	for i, it := range merged {
		skus[i] = it.SKU
	}
	levels, err := s.store.StockLevels(ctx, skus)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return Reservation{}, fmt.Errorf("%w: %v", ErrUnknownProduct, err)
		}
		return Reservation{}, fmt.Errorf("inventory: read stock: %w", err)
	}
	if len(levels) != len(merged) {
		return Reservation{}, fmt.Errorf("inventory: store returned %d stock levels for %d products", len(levels), len(merged))
	}
	var low []string
	for i, it := range merged {
		avail := sellable(levels[i])
		if it.Quantity > avail {
			return Reservation{}, fmt.Errorf("%w: %s: %d requested, %d available", ErrOutOfStock, it.SKU, it.Quantity, avail)
		}
		if avail-it.Quantity < s.cfg.LowStockBelow {
			low = append(low, it.SKU)
		}
	}

	now := s.now().UTC()
	rec := storage.Reservation{OrderID: orderID, CreatedAt: now, ExpiresAt: now.Add(s.cfg.Hold)}
	for _, it := range merged {
		rec.Items = append(rec.Items, storage.ReservedItem{SKU: it.SKU, Quantity: it.Quantity})
	}
	if err := s.store.CommitReservation(ctx, rec); err != nil {
		switch {
		case errors.Is(err, storage.ErrInsufficientStock):
			// Another order took the stock between our check and the commit.
			return Reservation{}, fmt.Errorf("%w: %v", ErrOutOfStock, err)
		case errors.Is(err, storage.ErrExists):
			return Reservation{}, fmt.Errorf("%w %s", ErrDuplicateOrder, orderID)
		case errors.Is(err, storage.ErrNotFound):
			return Reservation{}, fmt.Errorf("%w: %v", ErrUnknownProduct, err)
		}
		return Reservation{}, fmt.Errorf("inventory: commit reservation: %w", err)
	}
	if low == nil {
		low = []string{}
	}
	return Reservation{OrderID: orderID, Items: merged, ExpiresAt: rec.ExpiresAt, LowStock: low}, nil
}

// Release returns an order's reserved items to stock. Of two concurrent
// releases of the same order one succeeds and the other gets
// ErrReservationNotFound.
func (s *Service) Release(ctx context.Context, orderID string) ([]Item, error) {
	rec, err := s.store.ReleaseReservation(ctx, orderID)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil, fmt.Errorf("%w %s", ErrReservationNotFound, orderID)
		}
		return nil, fmt.Errorf("inventory: release %s: %w", orderID, err)
	}
	items := make([]Item, len(rec.Items))
	for i, it := range rec.Items {
		items[i] = Item{SKU: it.SKU, Quantity: it.Quantity}
	}
	return items, nil
}

// Available returns the sellable stock of each SKU, in the order asked.
func (s *Service) Available(ctx context.Context, skus []string) ([]Availability, error) {
	levels, err := s.store.StockLevels(ctx, skus)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil, fmt.Errorf("%w: %v", ErrUnknownProduct, err)
		}
		return nil, fmt.Errorf("inventory: read stock: %w", err)
	}
	out := make([]Availability, len(levels))
	for i, l := range levels {
		out[i] = Availability{SKU: l.SKU, Available: sellable(l)}
	}
	return out, nil
}

func (s *Service) now() time.Time {
	if s.clock != nil {
		return s.clock()
	}
	return time.Now()
}

// merge validates the items and folds repeated SKUs, sorted by SKU so that
// stock is always read and written in the same order.
func (s *Service) merge(items []Item) ([]Item, error) {
	if len(items) == 0 {
		return nil, fmt.Errorf("%w: nothing to reserve", ErrInvalidQuantity)
	}
	var merged []Item
	for _, it := range items {
		if it.SKU == "" {
			return nil, fmt.Errorf("%w: item without SKU", ErrUnknownProduct)
		}
		if it.Quantity < 1 {
			return nil, fmt.Errorf("%w: %d x %s, want at least 1", ErrInvalidQuantity, it.Quantity, it.SKU)
		}
		i, found := slices.BinarySearchFunc(merged, it.SKU, func(m Item, sku string) int { return cmp.Compare(m.SKU, sku) })
		if found {
			merged[i].Quantity += it.Quantity
		} else {
			merged = slices.Insert(merged, i, it)
		}
		if q := merged[i].Quantity; q > s.cfg.MaxPerOrder {
			return nil, fmt.Errorf("%w: %d x %s, at most %d per order", ErrInvalidQuantity, q, it.SKU, s.cfg.MaxPerOrder)
		}
	}
	return merged, nil
}

func sellable(l storage.StockLevel) int {
	return max(l.OnHand-l.SafetyStock, 0)
}
