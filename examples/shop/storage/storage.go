// Package storage keeps the shop's catalogue, stock, reservations and orders
// in a bbolt database (a single file, pure Go, ACID transactions).
//
// It is deliberately outside the observed set: the business packages reach it
// through small interfaces, so a capture records every call into it as an
// outcall, and a replay answers those calls from the log without a database.
//
// Values are stored as JSON under string keys; one bucket per record type.
package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Sentinel errors. Callers test them with errors.Is; the returned errors wrap
// them with the key that was involved.
var (
	// ErrNotFound: no record under the requested key.
	ErrNotFound = errors.New("storage: not found")
	// ErrInsufficientStock: a reservation would take a product's on-hand
	// quantity below its safety stock.
	ErrInsufficientStock = errors.New("storage: insufficient stock")
	// ErrExists: a record with that key already exists.
	ErrExists = errors.New("storage: already exists")
	// ErrOrderState: the order is not in a state that allows the transition.
	ErrOrderState = errors.New("storage: order state does not allow this change")
)

// Order statuses.
const (
	StatusPlaced    = "placed"
	StatusCancelled = "cancelled"
)

// Product is a catalogue entry. Prices are in integer cents.
type Product struct {
	SKU        string `json:"sku"`
	Name       string `json:"name"`
	Category   string `json:"category"`
	PriceCents int64  `json:"price_cents"`
}

// StockLevel is what the warehouse holds for one product. SafetyStock units
// are never reserved: they cover breakage and miscounts.
type StockLevel struct {
	SKU         string `json:"sku"`
	OnHand      int    `json:"on_hand"`
	SafetyStock int    `json:"safety_stock"`
}

// Coupon is a discount code. Exactly one of PercentOffBP (basis points,
// 1000 = 10%) and AmountOffCents is non-zero. Category restricts it to one
// product category; empty means every category. A zero ValidFrom or
// ValidUntil leaves that side of the validity window open.
type Coupon struct {
	Code             string    `json:"code"`
	PercentOffBP     int64     `json:"percent_off_bp,omitempty"`
	AmountOffCents   int64     `json:"amount_off_cents,omitempty"`
	MinSubtotalCents int64     `json:"min_subtotal_cents,omitempty"`
	Category         string    `json:"category,omitempty"`
	ValidFrom        time.Time `json:"valid_from,omitzero"`
	ValidUntil       time.Time `json:"valid_until,omitzero"`
}

// ReservedItem is a quantity of one product held for an order.
type ReservedItem struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// Reservation holds stock for an order until it ships or is cancelled.
type Reservation struct {
	OrderID   string         `json:"order_id"`
	Items     []ReservedItem `json:"items"`
	CreatedAt time.Time      `json:"created_at"`
	ExpiresAt time.Time      `json:"expires_at"`
}

// OrderLine is one priced line of a placed order.
type OrderLine struct {
	SKU           string `json:"sku"`
	Name          string `json:"name"`
	Quantity      int    `json:"quantity"`
	UnitCents     int64  `json:"unit_cents"`
	DiscountCents int64  `json:"discount_cents"`
	NetCents      int64  `json:"net_cents"`
}

// Order is a placed (or cancelled) order with the prices it was placed at.
type Order struct {
	ID            string      `json:"id"`
	Customer      string      `json:"customer"`
	Region        string      `json:"region"`
	Status        string      `json:"status"`
	Variant       string      `json:"variant"`
	Coupon        string      `json:"coupon,omitempty"`
	Lines         []OrderLine `json:"lines"`
	SubtotalCents int64       `json:"subtotal_cents"`
	DiscountCents int64       `json:"discount_cents"`
	TaxCents      int64       `json:"tax_cents"`
	TotalCents    int64       `json:"total_cents"`
	CreatedAt     time.Time   `json:"created_at"`
	CancelledAt   time.Time   `json:"cancelled_at,omitzero"`
}

var (
	bucketProducts     = []byte("products")
	bucketStock        = []byte("stock")
	bucketCoupons      = []byte("coupons")
	bucketReservations = []byte("reservations")
	bucketOrders       = []byte("orders")
	allBuckets         = [][]byte{bucketProducts, bucketStock, bucketCoupons, bucketReservations, bucketOrders}
)

// DB is the shop database. It is safe for concurrent use; bbolt serialises
// writers and lets readers run in parallel.
type DB struct {
	bolt *bolt.DB
}

// Open opens (creating if needed) the database file at path. It fails after
// a second if another process holds the file open, rather than hanging.
func Open(path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("storage: empty database path; pass a file name such as shop.db")
	}
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("storage: %s is locked by another process (is a shop already running on it?)", path)
		}
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	err = b.Update(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	})
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("storage: initialise %s: %w", path, err)
	}
	// A lone writer waits at most this long for others to share its commit.
	b.MaxBatchDelay = batchDelay
	return &DB{bolt: b}, nil
}

const batchDelay = time.Millisecond

// Close releases the database file.
func (db *DB) Close() error { return db.bolt.Close() }

// Seed fills an empty catalogue with products, their stock levels and
// coupons in one transaction. It does nothing and reports false if the
// catalogue already holds products, so restarting the shop keeps its data.
func (db *DB) Seed(ctx context.Context, products []Product, stock []StockLevel, coupons []Coupon) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	seeded := false
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if k, _ := tx.Bucket(bucketProducts).Cursor().First(); k != nil {
			return nil
		}
		for _, p := range products {
			if err := put(tx, bucketProducts, p.SKU, p); err != nil {
				return err
			}
		}
		for _, s := range stock {
			if tx.Bucket(bucketProducts).Get([]byte(s.SKU)) == nil {
				return fmt.Errorf("stock for %q: product %w", s.SKU, ErrNotFound)
			}
			if err := put(tx, bucketStock, s.SKU, s); err != nil {
				return err
			}
		}
		for _, c := range coupons {
			if err := put(tx, bucketCoupons, c.Code, c); err != nil {
				return err
			}
		}
		seeded = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("storage: seed: %w", err)
	}
	return seeded, nil
}

// Products lists the catalogue in SKU order.
func (db *DB) Products(ctx context.Context) ([]Product, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Product
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketProducts).ForEach(func(k, v []byte) error {
			var p Product
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("decode product %q: %w", k, err)
			}
			out = append(out, p)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: products: %w", err)
	}
	return out, nil
}

// Product returns one catalogue entry; the error wraps ErrNotFound for an
// unknown SKU.
func (db *DB) Product(ctx context.Context, sku string) (Product, error) {
	var p Product
	err := db.view(ctx, func(tx *bolt.Tx) error { return get(tx, bucketProducts, sku, &p) })
	if err != nil {
		return Product{}, fmt.Errorf("storage: product %q: %w", sku, err)
	}
	return p, nil
}

// Coupon returns the coupon with that exact code; the error wraps
// ErrNotFound for an unknown code.
func (db *DB) Coupon(ctx context.Context, code string) (Coupon, error) {
	var c Coupon
	err := db.view(ctx, func(tx *bolt.Tx) error { return get(tx, bucketCoupons, code, &c) })
	if err != nil {
		return Coupon{}, fmt.Errorf("storage: coupon %q: %w", code, err)
	}
	return c, nil
}

// StockLevels returns the stock of each SKU, in the order asked. The error
// wraps ErrNotFound if any SKU has no stock record.
func (db *DB) StockLevels(ctx context.Context, skus []string) ([]StockLevel, error) {
	out := make([]StockLevel, len(skus))
	err := db.view(ctx, func(tx *bolt.Tx) error {
		for i, sku := range skus {
			if err := get(tx, bucketStock, sku, &out[i]); err != nil {
				return fmt.Errorf("stock %q: %w", sku, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	return out, nil
}

// CommitReservation takes the reserved quantities off the shelf and records
// the reservation, atomically. It fails with ErrInsufficientStock (naming
// the SKU) if any item would dip into its safety stock, with ErrNotFound if
// a SKU has no stock record, and with ErrExists if the order already holds a
// reservation; in every failure case nothing changes.
func (db *DB) CommitReservation(ctx context.Context, r Reservation) error {
	err := db.update(ctx, func(tx *bolt.Tx) error {
		if tx.Bucket(bucketReservations).Get([]byte(r.OrderID)) != nil {
			return fmt.Errorf("reservation %q: %w", r.OrderID, ErrExists)
		}
		for _, it := range r.Items {
			var s StockLevel
			if err := get(tx, bucketStock, it.SKU, &s); err != nil {
				return fmt.Errorf("stock %q: %w", it.SKU, err)
			}
			if s.OnHand-it.Quantity < s.SafetyStock {
				return fmt.Errorf("%w: %s has %d on hand (safety stock %d), %d requested",
					ErrInsufficientStock, it.SKU, s.OnHand, s.SafetyStock, it.Quantity)
			}
			s.OnHand -= it.Quantity
			if err := put(tx, bucketStock, s.SKU, s); err != nil {
				return err
			}
		}
		return put(tx, bucketReservations, r.OrderID, r)
	})
	if err != nil {
		return fmt.Errorf("storage: commit reservation: %w", err)
	}
	return nil
}

// Reservation returns the reservation held for an order.
func (db *DB) Reservation(ctx context.Context, orderID string) (Reservation, error) {
	var r Reservation
	err := db.view(ctx, func(tx *bolt.Tx) error { return get(tx, bucketReservations, orderID, &r) })
	if err != nil {
		return Reservation{}, fmt.Errorf("storage: reservation %q: %w", orderID, err)
	}
	return r, nil
}

// ReleaseReservation puts an order's reserved items back on the shelf and
// deletes the reservation, atomically, returning what was released. Of two
// concurrent releases of the same order exactly one succeeds; the other gets
// ErrNotFound.
func (db *DB) ReleaseReservation(ctx context.Context, orderID string) (Reservation, error) {
	var r Reservation
	err := db.update(ctx, func(tx *bolt.Tx) error {
		r = Reservation{} // fn may run twice; never decode over a previous attempt
		if err := get(tx, bucketReservations, orderID, &r); err != nil {
			return fmt.Errorf("reservation %q: %w", orderID, err)
		}
		for _, it := range r.Items {
			var s StockLevel
			if err := get(tx, bucketStock, it.SKU, &s); err != nil {
				return fmt.Errorf("stock %q: %w", it.SKU, err)
			}
			s.OnHand += it.Quantity
			if err := put(tx, bucketStock, s.SKU, s); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketReservations).Delete([]byte(orderID))
	})
	if err != nil {
		return Reservation{}, fmt.Errorf("storage: release reservation: %w", err)
	}
	return r, nil
}

// NextOrderID allocates a new, unique, sortable order ID.
func (db *DB) NextOrderID(ctx context.Context) (string, error) {
	var id string
	err := db.update(ctx, func(tx *bolt.Tx) error {
		n, err := tx.Bucket(bucketOrders).NextSequence()
		if err != nil {
			return err
		}
		id = fmt.Sprintf("ord-%08d", n)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("storage: next order id: %w", err)
	}
	return id, nil
}

// CreateOrder stores a new order; ErrExists if the ID is taken.
func (db *DB) CreateOrder(ctx context.Context, o Order) error {
	if o.ID == "" {
		return errors.New("storage: create order: empty order ID (allocate one with NextOrderID)")
	}
	err := db.update(ctx, func(tx *bolt.Tx) error {
		if tx.Bucket(bucketOrders).Get([]byte(o.ID)) != nil {
			return fmt.Errorf("order %q: %w", o.ID, ErrExists)
		}
		return put(tx, bucketOrders, o.ID, o)
	})
	if err != nil {
		return fmt.Errorf("storage: create order: %w", err)
	}
	return nil
}

// Order returns a stored order.
func (db *DB) Order(ctx context.Context, id string) (Order, error) {
	var o Order
	err := db.view(ctx, func(tx *bolt.Tx) error { return get(tx, bucketOrders, id, &o) })
	if err != nil {
		return Order{}, fmt.Errorf("storage: order %q: %w", id, err)
	}
	return o, nil
}

// Orders lists every stored order in ID (= creation) order.
func (db *DB) Orders(ctx context.Context) ([]Order, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Order
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketOrders).ForEach(func(k, v []byte) error {
			var o Order
			if err := json.Unmarshal(v, &o); err != nil {
				return fmt.Errorf("decode order %q: %w", k, err)
			}
			out = append(out, o)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: orders: %w", err)
	}
	return out, nil
}

// CancelOrder moves a placed order to cancelled at the given time and
// returns it. It fails with ErrOrderState if the order is not placed.
func (db *DB) CancelOrder(ctx context.Context, id string, at time.Time) (Order, error) {
	var o Order
	err := db.update(ctx, func(tx *bolt.Tx) error {
		o = Order{} // fn may run twice; never decode over a previous attempt
		if err := get(tx, bucketOrders, id, &o); err != nil {
			return fmt.Errorf("order %q: %w", id, err)
		}
		if o.Status != StatusPlaced {
			return fmt.Errorf("%w: order %s is %s", ErrOrderState, id, o.Status)
		}
		o.Status = StatusCancelled
		o.CancelledAt = at.UTC()
		return put(tx, bucketOrders, id, o)
	})
	if err != nil {
		return Order{}, fmt.Errorf("storage: cancel order: %w", err)
	}
	return o, nil
}

// StockSnapshot returns every stock record in SKU order (for reporting and
// for consistency checks in tests).
func (db *DB) StockSnapshot(ctx context.Context) ([]StockLevel, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []StockLevel
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketStock).ForEach(func(k, v []byte) error {
			var s StockLevel
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("decode stock %q: %w", k, err)
			}
			out = append(out, s)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("storage: stock snapshot: %w", err)
	}
	slices.SortFunc(out, func(a, b StockLevel) int { return strings.Compare(a.SKU, b.SKU) })
	return out, nil
}

func (db *DB) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.bolt.View(fn)
}

// update runs fn in a write transaction. Concurrent writers share one
// transaction and one fsync (bbolt's Batch: group commit), which is what
// keeps order placement from queueing behind the disk. fn may run more than
// once, so it must only assign its results, never accumulate them.
func (db *DB) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.bolt.Batch(fn)
}

func get(tx *bolt.Tx, bucket []byte, key string, v any) error {
	raw := tx.Bucket(bucket).Get([]byte(key))
	if raw == nil {
		return ErrNotFound
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("decode %s/%s: %w", bucket, key, err)
	}
	return nil
}

func put(tx *bolt.Tx, bucket []byte, key string, v any) error {
	if key == "" {
		return fmt.Errorf("put %s: empty key", bucket)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s/%s: %w", bucket, key, err)
	}
	return tx.Bucket(bucket).Put([]byte(key), raw)
}
