package value

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"
	"unsafe"
)

// The values one order of examples/shop sends across its boundary, in the
// order its probes encode them (receivers, the request's context, the
// store behind an interface, structs with slices and times, nil errors),
// with types shaped like the shop's own. BenchmarkEncodeShopOrder encodes
// them as the probes do (one Encode per value, against a small object
// table), warm and with the caches evicted before each probe's values
// (cold), which is how they run in place: the shop's own work (HTTP, JSON,
// bbolt) runs between two events.

type shopPricer struct{ rate int }
type shopService struct{ n int }
type shopCalculator struct{ n int }
type shopDB struct{ path string }

type shopCatalog interface {
	Product(ctx context.Context, sku string) (shopProduct, error)
}

type shopStore interface {
	StockLevels(ctx context.Context, skus []string) ([]shopStockLevel, error)
}

func (*shopDB) Product(context.Context, string) (shopProduct, error)            { return shopProduct{}, nil }
func (*shopDB) StockLevels(context.Context, []string) ([]shopStockLevel, error) { return nil, nil }

type shopItem struct {
	SKU      string
	Quantity int
}

type shopRequest struct {
	Items   []shopItem
	Coupon  string
	Variant string
}

type shopAdjustment struct {
	Rule  string
	Cents int64
}

type shopLine struct {
	SKU, Name, Category                            string
	Quantity                                       int
	UnitCents, GrossCents, DiscountCents, NetCents int64
	Adjustments                                    []shopAdjustment
}

type shopQuote struct {
	Variant, Coupon                        string
	Lines                                  []shopLine
	SubtotalCents, DiscountCents, NetCents int64
	PricedAt                               time.Time
}

type shopProduct struct {
	SKU, Name, Category string
	PriceCents          int64
}

type shopTaxLine struct {
	Category    string
	AmountCents int64
}

type shopGroup struct{ RateBP, BaseCents, TaxCents int64 }

type shopAssessment struct {
	Region               string
	Inclusive            bool
	Groups               []shopGroup
	TaxCents, TotalCents int64
}

type shopStockLevel struct {
	SKU                 string
	OnHand, SafetyStock int
}

type shopReservedItem struct {
	SKU      string
	Quantity int
}

type shopStoreReservation struct {
	OrderID              string
	Items                []shopReservedItem
	CreatedAt, ExpiresAt time.Time
}

type shopReservation struct {
	OrderID   string
	Items     []shopItem
	ExpiresAt time.Time
	LowStock  []string
}

var shopTypesOnce = func() struct{} {
	for _, t := range []reflect.Type{reflect.TypeFor[shopPricer](), reflect.TypeFor[shopService](), reflect.TypeFor[shopCalculator]()} {
		RegisterOwnType(t)
	}
	return struct{}{}
}()

// benchObjects numbers objects by address in a small table, as the
// probes' per-stream pins answer repeated sights.
type benchObjects struct {
	p  [16]unsafe.Pointer
	n  int
	id uint64
}

func (o *benchObjects) ID(v reflect.Value, name string, weak bool) (uint64, bool, string) {
	p := v.UnsafePointer()
	for i := range o.n {
		if o.p[i] == p {
			return uint64(i + 1), false, name
		}
	}
	if o.n == len(o.p) {
		o.n = 0
	}
	o.p[o.n] = p
	o.n++
	return uint64(o.n), true, name
}

func (o *benchObjects) Recorded(unsafe.Pointer) (string, []byte, bool) { return "", nil, false }

// shopValues are the values of one order.
type shopValues struct {
	ctx      context.Context
	catalog  shopCatalog
	store    shopStore
	loc      *time.Location
	now, in  time.Time
	request  shopRequest
	products []shopProduct
	quote    shopQuote
	taxLines []shopTaxLine
	assessed shopAssessment
	items    []shopItem
	skus     []string
	levels   []shopStockLevel
	stored   shopStoreReservation
	reserved shopReservation
}

func newShopValues() (*shopValues, context.CancelFunc) {
	db := &shopDB{path: "shop.db"}
	loc := time.FixedZone("shop", 3600)
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), benchKey{}, 1))
	now := time.Now()
	items := []shopItem{{"COF-BRZ-250", 2}, {"COF-COL-250", 2}}
	return &shopValues{
		ctx: ctx, catalog: db, store: db, loc: loc, now: now, in: now.In(loc),
		request:  shopRequest{Items: items, Variant: "B", Coupon: "WELCOME10"},
		products: []shopProduct{{"COF-BRZ-250", "Brazil Cerrado, 250 g", "coffee", 990}, {"COF-COL-250", "Colombia Huila, 250 g", "coffee", 1190}},
		quote: shopQuote{Variant: "B", Coupon: "WELCOME10", Lines: []shopLine{
			{"COF-BRZ-250", "Brazil Cerrado, 250 g", "coffee", 2, 990, 1980, 198, 1782, []shopAdjustment{{"coupon", 198}}},
			{"COF-COL-250", "Colombia Huila, 250 g", "coffee", 2, 1190, 2380, 238, 2142, []shopAdjustment{{"coupon", 238}}},
		}, SubtotalCents: 4360, DiscountCents: 436, NetCents: 3924, PricedAt: now},
		taxLines: []shopTaxLine{{"coffee", 1782}, {"coffee", 2142}},
		assessed: shopAssessment{"FR", true, []shopGroup{{550, 3924, 205}}, 205, 3924},
		items:    items,
		skus:     []string{"COF-BRZ-250", "COF-COL-250"},
		levels:   []shopStockLevel{{"COF-BRZ-250", 999998, 10}, {"COF-COL-250", 1000000, 10}},
		stored:   shopStoreReservation{"ord-00000003", []shopReservedItem{{"COF-BRZ-250", 2}, {"COF-COL-250", 2}}, now, now.Add(30 * time.Minute)},
		reserved: shopReservation{"ord-00000003", items, now.Add(30 * time.Minute), []string{}},
	}, cancel
}

// shopOrder encodes one order's values as its 18 events, calling event
// after each event's values.
func shopOrder(e *Encoder, v *shopValues, event func()) {
	// Quote: CALL_IN, time.Now, Time.In, two Catalog.Product, RETURN_IN.
	Encode(e, benchPricers[0])
	Encode(e, v.ctx)
	Encode(e, v.request)
	event()
	Encode(e, v.now)
	event()
	Encode(e, v.now)
	Encode(e, v.loc)
	event()
	Encode(e, v.in)
	event()
	for _, p := range v.products {
		Encode(e, v.catalog)
		Encode(e, v.ctx)
		Encode(e, p.SKU)
		event()
		Encode(e, p)
		Encode(e, error(nil))
		event()
	}
	Encode(e, v.quote)
	Encode(e, error(nil))
	event()

	// Compute: CALL_IN, RETURN_IN.
	Encode(e, benchCalculators[0])
	Encode(e, v.ctx)
	Encode(e, "FR")
	Encode(e, v.taxLines)
	event()
	Encode(e, v.assessed)
	Encode(e, error(nil))
	event()

	// Reserve: CALL_IN, StockLevels, time.Now, CommitReservation, RETURN_IN.
	Encode(e, benchServices[0])
	Encode(e, v.ctx)
	Encode(e, "ord-00000003")
	Encode(e, v.items)
	event()
	Encode(e, v.store)
	Encode(e, v.ctx)
	Encode(e, v.skus)
	event()
	Encode(e, v.levels)
	Encode(e, error(nil))
	Encode(e, v.skus)
	event()
	Encode(e, v.now)
	event()
	Encode(e, v.store)
	Encode(e, v.ctx)
	Encode(e, v.stored)
	event()
	Encode(e, error(nil))
	event()
	Encode(e, v.reserved)
	Encode(e, error(nil))
	event()
}

type benchKey struct{}

// The receivers are long-lived objects, as the shop's.
var (
	benchPricers     = []*shopPricer{{rate: 1}}
	benchServices    = []*shopService{{n: 1}}
	benchCalculators = []*shopCalculator{{n: 1}}
)

// evictBuf is larger than the machine's L2 cache: walking it pushes the
// encoder's types, plans and tables out of L1 and L2, as the shop's own
// work between two events does.
var evictBuf = make([]byte, 4<<20)

func evictCaches() {
	for i := 0; i < len(evictBuf); i += 64 {
		evictBuf[i]++
	}
}

// BenchmarkEncodeShopOrder: the values of one shop order (18 events).
// warm encodes them one order after the other; cold evicts the caches
// after each event (as the shop's own work does between two events in
// place) and reports encode-ns/op, the median wall time of an order's
// encoding alone
// (the eviction is not timed, and takes ~100 times longer).
func BenchmarkEncodeShopOrder(b *testing.B) {
	e := &Encoder{Objects: &benchObjects{}}
	v, cancel := newShopValues()
	defer cancel()
	bytes, events := 0, 0
	shopOrder(e, v, func() { bytes += len(e.Buf); events++; e.Buf = e.Buf[:0] })
	b.Run("warm", func(b *testing.B) {
		reportCPU(b)
		for b.Loop() {
			shopOrder(e, v, func() { e.Buf = e.Buf[:0] })
		}
		b.ReportMetric(float64(bytes)/float64(events), "value-B/event")
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		var orders []time.Duration // encoding time of each order
		for b.Loop() {
			var encoding time.Duration
			start := time.Now()
			shopOrder(e, v, func() {
				encoding += time.Since(start)
				e.Buf = e.Buf[:0]
				evictCaches()
				start = time.Now()
			})
			orders = append(orders, encoding)
		}
		// The median: an order whose encoding another process preempted
		// says nothing about the encoding.
		slices.Sort(orders)
		b.ReportMetric(float64(orders[len(orders)/2].Nanoseconds()), "encode-ns/op")
	})
}
