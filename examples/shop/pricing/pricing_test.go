package pricing

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

// memCatalog is an in-memory Catalog.
type memCatalog struct {
	products map[string]storage.Product
	coupons  map[string]storage.Coupon
	fail     error // returned by every lookup when set
}

func (m memCatalog) Product(_ context.Context, sku string) (storage.Product, error) {
	if m.fail != nil {
		return storage.Product{}, m.fail
	}
	p, ok := m.products[sku]
	if !ok {
		return storage.Product{}, fmt.Errorf("product %q: %w", sku, storage.ErrNotFound)
	}
	return p, nil
}

func (m memCatalog) Coupon(_ context.Context, code string) (storage.Coupon, error) {
	c, ok := m.coupons[code]
	if !ok {
		return storage.Coupon{}, fmt.Errorf("coupon %q: %w", code, storage.ErrNotFound)
	}
	return c, nil
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func testCatalog() memCatalog {
	return memCatalog{
		products: map[string]storage.Product{
			"COF-1": {SKU: "COF-1", Name: "Espresso beans", Category: "coffee", PriceCents: 1250},
			"TEA-1": {SKU: "TEA-1", Name: "Sencha", Category: "tea", PriceCents: 800},
			"EQP-1": {SKU: "EQP-1", Name: "Grinder", Category: "equipment", PriceCents: 4999},
			"MER-1": {SKU: "MER-1", Name: "Mug", Category: "merch", PriceCents: 1500},
			"LUX-1": {SKU: "LUX-1", Name: "Roaster", Category: "equipment", PriceCents: 200_000},
		},
		coupons: map[string]storage.Coupon{
			"TENOFF":  {Code: "TENOFF", PercentOffBP: 1000, MinSubtotalCents: 2000},
			"BEANS5":  {Code: "BEANS5", AmountOffCents: 500, MinSubtotalCents: 2000, Category: "coffee"},
			"SPLIT":   {Code: "SPLIT", AmountOffCents: 100},
			"HUGE":    {Code: "HUGE", AmountOffCents: 1_000_000},
			"OLD":     {Code: "OLD", PercentOffBP: 500, ValidUntil: utc("2026-01-01T00:00:00Z")},
			"SOON":    {Code: "SOON", PercentOffBP: 500, ValidFrom: utc("2027-01-01T00:00:00Z")},
			"EDGE":    {Code: "EDGE", PercentOffBP: 500, ValidUntil: utc("2026-11-23T09:00:00Z")},
			"NOTHING": {Code: "NOTHING"},
		},
	}
}

// Store time is UTC+1 (DefaultConfig). 2026-11-23 is a Monday, 2026-11-28 a
// Saturday.
const (
	mondayMorning = "2026-11-23T09:00:00Z" // 10:00 local
)

func newTestPricer(t *testing.T, cat Catalog, now string) *Pricer {
	t.Helper()
	p, err := New(cat, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	at := utc(now)
	p.clock = func() time.Time { return at }
	p.intn = func(int) int { t.Fatal("unexpected random draw"); return 0 }
	return p
}

type wantLine struct {
	sku   string
	gross int64
	adj   []Adjustment
}

func TestQuote(t *testing.T) {
	tests := []struct {
		name   string
		now    string
		req    Request
		want   []wantLine
		coupon string
	}{
		{
			name: "no promotion on a weekday morning",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"COF-1", 2}}},
			want: []wantLine{{"COF-1", 2500, nil}},
		},
		{
			// 15% of 1250 = 187.5 -> 188.
			name: "happy hour starts at 15:00 local",
			now:  "2026-11-23T14:00:00Z",
			req:  Request{Items: []Item{{"COF-1", 1}}},
			want: []wantLine{{"COF-1", 1250, []Adjustment{{RuleHappyHour, 188}}}},
		},
		{
			name: "one second before happy hour",
			now:  "2026-11-23T13:59:59Z",
			req:  Request{Items: []Item{{"COF-1", 1}}},
			want: []wantLine{{"COF-1", 1250, nil}},
		},
		{
			name: "last second of happy hour",
			now:  "2026-11-23T15:59:59Z",
			req:  Request{Items: []Item{{"TEA-1", 1}}},
			want: []wantLine{{"TEA-1", 800, []Adjustment{{RuleHappyHour, 120}}}},
		},
		{
			name: "happy hour ends at 17:00 local",
			now:  "2026-11-23T16:00:00Z",
			req:  Request{Items: []Item{{"TEA-1", 1}}},
			want: []wantLine{{"TEA-1", 800, nil}},
		},
		{
			name: "happy hour is for coffee and tea only",
			now:  "2026-11-23T14:30:00Z",
			req:  Request{Items: []Item{{"EQP-1", 1}, {"COF-1", 1}}},
			want: []wantLine{{"COF-1", 1250, []Adjustment{{RuleHappyHour, 188}}}, {"EQP-1", 4999, nil}},
		},
		{
			// 10% of 4999 = 499.9 -> 500; no happy hour on Saturdays.
			name: "weekend discount on equipment",
			now:  "2026-11-28T14:30:00Z",
			req:  Request{Items: []Item{{"EQP-1", 1}, {"COF-1", 1}}},
			want: []wantLine{{"COF-1", 1250, nil}, {"EQP-1", 4999, []Adjustment{{RuleWeekend, 500}}}},
		},
		{
			name: "weekend starts at local midnight, 23:30 UTC on Friday",
			now:  "2026-11-27T23:30:00Z",
			req:  Request{Items: []Item{{"EQP-1", 1}}},
			want: []wantLine{{"EQP-1", 4999, []Adjustment{{RuleWeekend, 500}}}},
		},
		{
			name: "Sunday 23:30 local is still weekend, Monday 00:00 local is not",
			now:  "2026-11-29T22:59:59Z",
			req:  Request{Items: []Item{{"EQP-1", 2}}},
			want: []wantLine{{"EQP-1", 9998, []Adjustment{{RuleWeekend, 1000}}}},
		},
		{
			name: "Monday 00:00 local",
			now:  "2026-11-29T23:00:00Z",
			req:  Request{Items: []Item{{"EQP-1", 2}}},
			want: []wantLine{{"EQP-1", 9998, nil}},
		},
		{
			name: "below the first volume tier",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"TEA-1", 9}}},
			want: []wantLine{{"TEA-1", 7200, nil}},
		},
		{
			name: "first volume tier at 10",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"TEA-1", 10}}},
			want: []wantLine{{"TEA-1", 8000, []Adjustment{{RuleVolume, 400}}}},
		},
		{
			name: "49 units stay in the first tier",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"TEA-1", 49}}},
			want: []wantLine{{"TEA-1", 39200, []Adjustment{{RuleVolume, 1960}}}},
		},
		{
			name: "second tier at 50",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"TEA-1", 50}}},
			want: []wantLine{{"TEA-1", 40000, []Adjustment{{RuleVolume, 4000}}}},
		},
		{
			name: "promotions do not stack: happy hour beats the first volume tier",
			now:  "2026-11-23T15:00:00Z",
			req:  Request{Items: []Item{{"TEA-1", 10}}},
			want: []wantLine{{"TEA-1", 8000, []Adjustment{{RuleHappyHour, 1200}}}},
		},
		{
			name: "a tie goes to the volume tier",
			now:  "2026-11-23T15:00:00Z",
			req:  Request{Items: []Item{{"TEA-1", 100}}},
			want: []wantLine{{"TEA-1", 80000, []Adjustment{{RuleVolume, 12000}}}},
		},
		{
			name: "repeated SKUs are merged before the volume tier is chosen",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"COF-1", 1}, {"TEA-1", 2}, {"COF-1", 9}}},
			want: []wantLine{{"COF-1", 12500, []Adjustment{{RuleVolume, 625}}}, {"TEA-1", 1600, nil}},
		},
		{
			name:   "percentage coupon",
			now:    mondayMorning,
			req:    Request{Items: []Item{{"COF-1", 2}}, Coupon: "TENOFF"},
			want:   []wantLine{{"COF-1", 2500, []Adjustment{{RuleCoupon, 250}}}},
			coupon: "TENOFF",
		},
		{
			// 15% of 2500 = 375; then 10% of 2125 = 212.5 -> 213.
			name:   "coupon applies after the promotion, code normalised",
			now:    "2026-11-23T14:30:00Z",
			req:    Request{Items: []Item{{"COF-1", 2}}, Coupon: "  tenoff "},
			want:   []wantLine{{"COF-1", 2500, []Adjustment{{RuleHappyHour, 375}, {RuleCoupon, 213}}}},
			coupon: "TENOFF",
		},
		{
			name:   "category coupon discounts only its category",
			now:    mondayMorning,
			req:    Request{Items: []Item{{"TEA-1", 1}, {"COF-1", 2}}, Coupon: "BEANS5"},
			want:   []wantLine{{"COF-1", 2500, []Adjustment{{RuleCoupon, 500}}}, {"TEA-1", 800, nil}},
			coupon: "BEANS5",
		},
		{
			// 100 cents over 1250/1500/800 (sum 3550): floors 35/42/22 = 99;
			// the last cent goes to TEA-1, whose remainder (1900/3550) is largest.
			name:   "fixed amount split by largest remainder",
			now:    mondayMorning,
			req:    Request{Items: []Item{{"TEA-1", 1}, {"COF-1", 1}, {"MER-1", 1}}, Coupon: "SPLIT", Variant: VariantA},
			want:   []wantLine{{"COF-1", 1250, []Adjustment{{RuleCoupon, 35}}}, {"MER-1", 1500, []Adjustment{{RuleCoupon, 42}}}, {"TEA-1", 800, []Adjustment{{RuleCoupon, 23}}}},
			coupon: "SPLIT",
		},
		{
			name:   "fixed amount larger than the cart makes it free, not negative",
			now:    mondayMorning,
			req:    Request{Items: []Item{{"TEA-1", 1}, {"COF-1", 1}}, Coupon: "HUGE"},
			want:   []wantLine{{"COF-1", 1250, []Adjustment{{RuleCoupon, 1250}}}, {"TEA-1", 800, []Adjustment{{RuleCoupon, 800}}}},
			coupon: "HUGE",
		},
		{
			name:   "coupon valid until one nanosecond later",
			now:    "2026-11-23T08:59:59.999999999Z",
			req:    Request{Items: []Item{{"EQP-1", 1}}, Coupon: "EDGE"},
			want:   []wantLine{{"EQP-1", 4999, []Adjustment{{RuleCoupon, 250}}}},
			coupon: "EDGE",
		},
		{
			// 3% each: 37.5 -> 38, 45, 24.
			name: "variant B: bundle discount on three products",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"TEA-1", 1}, {"COF-1", 1}, {"MER-1", 1}}, Variant: VariantB},
			want: []wantLine{{"COF-1", 1250, []Adjustment{{RuleBundle, 38}}}, {"MER-1", 1500, []Adjustment{{RuleBundle, 45}}}, {"TEA-1", 800, []Adjustment{{RuleBundle, 24}}}},
		},
		{
			name: "variant B: no bundle for two products",
			now:  mondayMorning,
			req:  Request{Items: []Item{{"TEA-1", 1}, {"COF-1", 1}}, Variant: VariantB},
			want: []wantLine{{"COF-1", 1250, nil}, {"TEA-1", 800, nil}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.req.Variant == "" {
				tc.req.Variant = VariantA
			}
			p := newTestPricer(t, testCatalog(), tc.now)
			q, err := p.Quote(context.Background(), tc.req)
			if err != nil {
				t.Fatalf("Quote: %v", err)
			}
			if len(q.Lines) != len(tc.want) {
				t.Fatalf("got %d lines %+v, want %d", len(q.Lines), q.Lines, len(tc.want))
			}
			var sub, disc int64
			for i, w := range tc.want {
				l := q.Lines[i]
				var d int64
				for _, a := range w.adj {
					d += a.Cents
				}
				if w.adj == nil {
					w.adj = []Adjustment{}
				}
				if l.SKU != w.sku || l.GrossCents != w.gross || !reflect.DeepEqual(l.Adjustments, w.adj) ||
					l.DiscountCents != d || l.NetCents != w.gross-d {
					t.Errorf("line %d = %+v\nwant sku %s gross %d adjustments %v (discount %d, net %d)", i, l, w.sku, w.gross, w.adj, d, w.gross-d)
				}
				sub += w.gross
				disc += d
			}
			if q.SubtotalCents != sub || q.DiscountCents != disc || q.NetCents != sub-disc {
				t.Errorf("totals subtotal %d discount %d net %d, want %d %d %d", q.SubtotalCents, q.DiscountCents, q.NetCents, sub, disc, sub-disc)
			}
			if q.Coupon != tc.coupon || q.Variant != tc.req.Variant {
				t.Errorf("coupon %q variant %q, want %q %q", q.Coupon, q.Variant, tc.coupon, tc.req.Variant)
			}
			if want := utc(tc.now); !q.PricedAt.Equal(want) || q.PricedAt.Location() != time.UTC {
				t.Errorf("PricedAt = %v, want %v in UTC", q.PricedAt, want)
			}
		})
	}
}

func TestQuoteErrors(t *testing.T) {
	tests := []struct {
		name    string
		req     Request
		fail    error
		want    error
		message string
	}{
		{name: "empty cart", req: Request{}, want: ErrEmptyCart},
		{name: "zero quantity", req: Request{Items: []Item{{"COF-1", 0}}}, want: ErrInvalidQuantity},
		{name: "negative quantity", req: Request{Items: []Item{{"COF-1", -3}}}, want: ErrInvalidQuantity},
		{name: "quantity above limit", req: Request{Items: []Item{{"COF-1", MaxQuantity + 1}}}, want: ErrInvalidQuantity},
		{name: "merged quantity above limit", req: Request{Items: []Item{{"COF-1", 600}, {"COF-1", 600}}}, want: ErrInvalidQuantity, message: "1200 x COF-1 in total"},
		{name: "line value above limit", req: Request{Items: []Item{{"LUX-1", 600}}}, want: ErrInvalidQuantity, message: "line limit"},
		{name: "missing SKU", req: Request{Items: []Item{{"", 1}}}, want: ErrUnknownProduct},
		{name: "unknown SKU", req: Request{Items: []Item{{"COF-1", 1}, {"NOPE", 1}}}, want: ErrUnknownProduct, message: `"NOPE"`},
		{name: "unknown coupon", req: Request{Items: []Item{{"COF-1", 2}}, Coupon: "bogus"}, want: ErrUnknownCoupon, message: `"BOGUS"`},
		{name: "expired coupon", req: Request{Items: []Item{{"COF-1", 2}}, Coupon: "OLD"}, want: ErrCouponExpired, message: "ended 2026-01-01"},
		{name: "coupon not yet valid", req: Request{Items: []Item{{"COF-1", 2}}, Coupon: "SOON"}, want: ErrCouponExpired, message: "starts 2027-01-01"},
		{name: "coupon ends exactly now", req: Request{Items: []Item{{"COF-1", 2}}, Coupon: "EDGE"}, want: ErrCouponExpired},
		{name: "coupon below minimum", req: Request{Items: []Item{{"TEA-1", 1}}, Coupon: "TENOFF"}, want: ErrCouponNotApplicable, message: "needs 2000"},
		{name: "coupon minimum counts eligible products only", req: Request{Items: []Item{{"TEA-1", 10}, {"COF-1", 1}}, Coupon: "BEANS5"}, want: ErrCouponNotApplicable, message: "needs 2000 cents of eligible products, cart has 1250"},
		{name: "coupon for another category", req: Request{Items: []Item{{"TEA-1", 3}}, Coupon: "BEANS5"}, want: ErrCouponNotApplicable, message: "coffee products only"},
		{name: "coupon without discount", req: Request{Items: []Item{{"TEA-1", 3}}, Coupon: "NOTHING"}, want: ErrCouponNotApplicable},
		{name: "invalid variant", req: Request{Items: []Item{{"TEA-1", 1}}, Variant: "C"}, want: ErrInvalidVariant},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.req.Variant == "" {
				tc.req.Variant = VariantA
			}
			p := newTestPricer(t, testCatalog(), "2026-11-23T09:00:00Z")
			_, err := p.Quote(context.Background(), tc.req)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Quote error = %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.message) {
				t.Errorf("error %q does not mention %q", err, tc.message)
			}
		})
	}
}

func TestQuoteCatalogFailureIsNotUnknownProduct(t *testing.T) {
	cat := testCatalog()
	cat.fail = errors.New("disk on fire")
	p := newTestPricer(t, cat, mondayMorning)
	_, err := p.Quote(context.Background(), Request{Items: []Item{{"COF-1", 1}}, Variant: VariantA})
	if err == nil || errors.Is(err, ErrUnknownProduct) || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Quote error = %v, want the catalogue's error, not ErrUnknownProduct", err)
	}
}

func TestAssignVariant(t *testing.T) {
	tests := []struct {
		percentB  int
		requested string
		draw      int // -1: no draw expected
		want      string
	}{
		{50, "A", -1, "A"},
		{50, "B", -1, "B"},
		{0, "", -1, "A"},
		{100, "", -1, "B"},
		{50, "", 49, "B"},
		{50, "", 50, "A"},
		{10, "", 9, "B"},
		{10, "", 10, "A"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d%%/%q/%d", tc.percentB, tc.requested, tc.draw), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Experiment.PercentB = tc.percentB
			p, err := New(testCatalog(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			draws := 0
			p.intn = func(n int) int {
				draws++
				if n != 100 {
					t.Errorf("draw over %d, want 100", n)
				}
				return tc.draw
			}
			got, err := p.assignVariant(tc.requested)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("variant %q, want %q", got, tc.want)
			}
			if wantDraws := map[bool]int{true: 0, false: 1}[tc.draw < 0]; draws != wantDraws {
				t.Errorf("%d draws, want %d", draws, wantDraws)
			}
		})
	}
}

// With the real random source, the split is close to PercentB. For 10000
// draws at 30% the standard deviation is about 46, so the bounds are more
// than 6 sigma wide.
func TestAssignVariantSplit(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Experiment.PercentB = 30
	p, err := New(testCatalog(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := 0
	for range 10000 {
		v, err := p.assignVariant("")
		if err != nil {
			t.Fatal(err)
		}
		if v == VariantB {
			b++
		}
	}
	if b < 2700 || b > 3300 {
		t.Fatalf("%d of 10000 assigned to B, want about 3000", b)
	}
}

func TestAllocate(t *testing.T) {
	tests := []struct {
		total   int64
		weights []int64
		want    []int64
	}{
		{100, []int64{1250, 1500, 800}, []int64{35, 42, 23}},
		{10, []int64{1, 1, 1}, []int64{4, 3, 3}}, // ties: earlier first
		{0, []int64{5, 5}, []int64{0, 0}},
		{7, []int64{0, 0}, []int64{0, 0}},
		{5, []int64{0, 3}, []int64{0, 5}},
		{1_000_000, []int64{MaxLineCents, 1}, []int64{1_000_000, 0}}, // 999999 + the leftover cent
	}
	for _, tc := range tests {
		got := allocate(tc.total, tc.weights)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("allocate(%d, %v) = %v, want %v", tc.total, tc.weights, got, tc.want)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Config)
		want   string
	}{
		{"offset", func(c *Config) { c.UTCOffsetMinutes = 15 * 60 }, "UTC offset"},
		{"happy hour order", func(c *Config) { c.HappyHourStart, c.HappyHourEnd = 18, 16 }, "happy hour 18-16"},
		{"happy hour past midnight", func(c *Config) { c.HappyHourEnd = 25 }, "happy hour"},
		{"discount over 100%", func(c *Config) { c.WeekendBP = 10001 }, "weekend discount"},
		{"tiers not ascending", func(c *Config) { c.VolumeTiers = []Tier{{10, 100}, {10, 200}} }, "must ascend"},
		{"tier quantity", func(c *Config) { c.VolumeTiers = []Tier{{0, 100}} }, "MinQuantity >= 1"},
		{"experiment split", func(c *Config) { c.Experiment.PercentB = 101 }, "PercentB 101"},
		{"bundle of one", func(c *Config) { c.Experiment.BundleMinSKUs = 1 }, "BundleMinSKUs 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tc.modify(&cfg)
			_, err := New(testCatalog(), cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New error = %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := New(nil, DefaultConfig()); err == nil {
		t.Error("New(nil catalog) succeeded")
	}
}

// BenchmarkQuote prices a three-line cart with a coupon during happy hour
// against an in-memory catalogue: the cost of the observed code itself,
// which a capture build's probes add to.
func BenchmarkQuote(b *testing.B) {
	p, err := New(testCatalog(), DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	at := utc("2026-11-23T14:30:00Z")
	p.clock = func() time.Time { return at }
	req := Request{Items: []Item{{"TEA-1", 12}, {"COF-1", 2}, {"MER-1", 1}}, Coupon: "TENOFF", Variant: VariantB}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Quote(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
