// Package pricing turns a cart into a priced quote: list prices from the
// catalogue, automatic promotions that depend on the time of day, the day of
// the week and the quantity, coupon codes, and the bundle discount of an A/B
// experiment.
//
// The package is part of the shop's observed set. Its sources of
// nondeterminism are all outcalls a capture records: the clock (time.Now),
// the experiment draw (math/rand) and the catalogue (an interface, backed by
// the database). Given the same answers from those, a quote is the same.
// Money is integer cents; rates are basis points (1500 = 15%).
package pricing

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

// Errors returned (wrapped, with details) by Quote.
var (
	ErrEmptyCart           = errors.New("pricing: empty cart")
	ErrInvalidQuantity     = errors.New("pricing: invalid quantity")
	ErrUnknownProduct      = errors.New("pricing: unknown product")
	ErrUnknownCoupon       = errors.New("pricing: unknown coupon")
	ErrCouponExpired       = errors.New("pricing: coupon not valid at this time")
	ErrCouponNotApplicable = errors.New("pricing: coupon does not apply to this cart")
	ErrInvalidVariant      = errors.New("pricing: invalid experiment variant")
)

// Limits on a cart. They keep every intermediate product of the integer
// arithmetic far from int64 overflow.
const (
	MaxQuantity  = 1000          // units of one SKU
	MaxLines     = 50            // distinct SKUs
	MaxLineCents = 100_000_000   // gross value of one line
	bpScale      = int64(10_000) // basis points in 100%
)

// Rule names, as they appear on priced lines.
const (
	RuleVolume    = "volume"
	RuleHappyHour = "happy-hour"
	RuleWeekend   = "weekend"
	RuleCoupon    = "coupon"
	RuleBundle    = "bundle"
)

// Catalog is what pricing needs from the database.
type Catalog interface {
	// Product returns a catalogue entry; its error wraps storage.ErrNotFound
	// for an unknown SKU.
	Product(ctx context.Context, sku string) (storage.Product, error)
	// Coupon returns a coupon by its upper-case code; its error wraps
	// storage.ErrNotFound for an unknown code.
	Coupon(ctx context.Context, code string) (storage.Coupon, error)
}

// Tier is a volume discount: BP off a line of at least MinQuantity units.
type Tier struct {
	MinQuantity int
	BP          int64
}

// Config holds the promotion rules. Times of day are in the shop's local
// time, a fixed offset from UTC.
type Config struct {
	UTCOffsetMinutes int
	// Happy hour: weekdays, from HappyHourStart (inclusive) to
	// HappyHourEnd (exclusive), in whole hours of local time.
	HappyHourStart      int
	HappyHourEnd        int
	HappyHourBP         int64
	HappyHourCategories []string
	// Weekend: all of Saturday and Sunday, local time.
	WeekendBP         int64
	WeekendCategories []string
	// VolumeTiers in ascending MinQuantity; the highest tier reached applies.
	VolumeTiers []Tier
	Experiment  Experiment
}

// DefaultConfig is the example shop's promotion calendar.
func DefaultConfig() Config {
	return Config{
		UTCOffsetMinutes:    60,
		HappyHourStart:      15,
		HappyHourEnd:        17,
		HappyHourBP:         1500,
		HappyHourCategories: []string{"coffee", "tea"},
		WeekendBP:           1000,
		WeekendCategories:   []string{"equipment"},
		VolumeTiers:         []Tier{{10, 500}, {50, 1000}, {100, 1500}},
		Experiment:          Experiment{Name: "bundle-discount", PercentB: 50, BundleMinSKUs: 3, BundleBP: 300},
	}
}

// Item is a quantity of one SKU in a cart.
type Item struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// Request is a cart to price.
type Request struct {
	Items  []Item
	Coupon string
	// Variant is the experiment variant the client already belongs to ("A"
	// or "B"); empty assigns one at random.
	Variant string
}

// Adjustment is one discount applied to a line.
type Adjustment struct {
	Rule  string `json:"rule"`
	Cents int64  `json:"cents"`
}

// Line is one priced SKU. NetCents = GrossCents - DiscountCents.
type Line struct {
	SKU           string       `json:"sku"`
	Name          string       `json:"name"`
	Category      string       `json:"category"`
	Quantity      int          `json:"quantity"`
	UnitCents     int64        `json:"unit_cents"`
	GrossCents    int64        `json:"gross_cents"`
	DiscountCents int64        `json:"discount_cents"`
	NetCents      int64        `json:"net_cents"`
	Adjustments   []Adjustment `json:"adjustments"`
}

// Quote is a priced cart, lines in SKU order. Prices are as listed in the
// catalogue; tax is computed separately because whether it is included
// depends on the region.
type Quote struct {
	Variant       string    `json:"variant"`
	Coupon        string    `json:"coupon,omitempty"`
	Lines         []Line    `json:"lines"`
	SubtotalCents int64     `json:"subtotal_cents"`
	DiscountCents int64     `json:"discount_cents"`
	NetCents      int64     `json:"net_cents"`
	PricedAt      time.Time `json:"priced_at"`
}

// Pricer prices carts. It is safe for concurrent use.
type Pricer struct {
	catalog Catalog
	cfg     Config
	zone    *time.Location
	// clock and intn replace time.Now and rand.Intn in this package's tests.
	clock func() time.Time
	intn  func(n int) int
}

// New checks the configuration and returns a Pricer reading the catalogue.
func New(catalog Catalog, cfg Config) (*Pricer, error) {
	if catalog == nil {
		return nil, errors.New("pricing: nil catalog")
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg.VolumeTiers = slices.Clone(cfg.VolumeTiers)
	cfg.HappyHourCategories = slices.Clone(cfg.HappyHourCategories)
	cfg.WeekendCategories = slices.Clone(cfg.WeekendCategories)
	return &Pricer{
		catalog: catalog,
		cfg:     cfg,
		zone:    time.FixedZone("shop", cfg.UTCOffsetMinutes*60),
	}, nil
}

func (c Config) validate() error {
	if c.UTCOffsetMinutes < -14*60 || c.UTCOffsetMinutes > 14*60 {
		return fmt.Errorf("pricing: UTC offset %d minutes outside ±14h", c.UTCOffsetMinutes)
	}
	if c.HappyHourStart < 0 || c.HappyHourEnd > 24 || c.HappyHourStart > c.HappyHourEnd {
		return fmt.Errorf("pricing: happy hour %d-%d: want 0 <= start <= end <= 24", c.HappyHourStart, c.HappyHourEnd)
	}
	for _, d := range []struct {
		name string
		bp   int64
	}{{"happy hour", c.HappyHourBP}, {"weekend", c.WeekendBP}, {"bundle", c.Experiment.BundleBP}} {
		if d.bp < 0 || d.bp > bpScale {
			return fmt.Errorf("pricing: %s discount %d bp outside 0..%d", d.name, d.bp, bpScale)
		}
	}
	for i, t := range c.VolumeTiers {
		if t.MinQuantity < 1 || t.BP < 0 || t.BP > bpScale {
			return fmt.Errorf("pricing: volume tier %d {%d, %d}: want MinQuantity >= 1 and 0 <= BP <= %d", i, t.MinQuantity, t.BP, bpScale)
		}
		if i > 0 && t.MinQuantity <= c.VolumeTiers[i-1].MinQuantity {
			return fmt.Errorf("pricing: volume tiers must ascend by MinQuantity (tier %d has %d after %d)", i, t.MinQuantity, c.VolumeTiers[i-1].MinQuantity)
		}
	}
	return c.Experiment.validate()
}

// Quote prices a cart at the current time.
func (p *Pricer) Quote(ctx context.Context, req Request) (Quote, error) {
	items, err := mergeItems(req.Items)
	if err != nil {
		return Quote{}, err
	}
	variant, err := p.assignVariant(req.Variant)
	if err != nil {
		return Quote{}, err
	}
	now := p.now().UTC()
	local := now.In(p.zone)

	q := Quote{Variant: variant, PricedAt: now, Lines: make([]Line, 0, len(items))}
	for _, it := range items {
		prod, err := p.catalog.Product(ctx, it.SKU)
		if err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				return Quote{}, fmt.Errorf("%w %q", ErrUnknownProduct, it.SKU)
			}
			return Quote{}, fmt.Errorf("pricing: look up %q: %w", it.SKU, err)
		}
		gross := prod.PriceCents * int64(it.Quantity)
		if prod.PriceCents < 0 || gross > MaxLineCents {
			return Quote{}, fmt.Errorf("%w: %d x %s at %d cents exceeds the line limit of %d cents",
				ErrInvalidQuantity, it.Quantity, it.SKU, prod.PriceCents, MaxLineCents)
		}
		line := Line{
			SKU: prod.SKU, Name: prod.Name, Category: prod.Category, Quantity: it.Quantity,
			UnitCents: prod.PriceCents, GrossCents: gross, NetCents: gross,
			Adjustments: []Adjustment{},
		}
		if rule, bp := p.automaticDiscount(prod.Category, it.Quantity, local); bp > 0 {
			line.apply(rule, percentOf(line.NetCents, bp))
		}
		q.Lines = append(q.Lines, line)
	}

	if code := strings.ToUpper(strings.TrimSpace(req.Coupon)); code != "" {
		if err := p.applyCoupon(ctx, code, now, q.Lines); err != nil {
			return Quote{}, err
		}
		q.Coupon = code
	}
	if variant == VariantB {
		p.cfg.Experiment.applyBundle(q.Lines)
	}
	for _, l := range q.Lines {
		q.SubtotalCents += l.GrossCents
		q.DiscountCents += l.DiscountCents
		q.NetCents += l.NetCents
	}
	return q, nil
}

func (p *Pricer) now() time.Time {
	if p.clock != nil {
		return p.clock()
	}
	return time.Now()
}

// mergeItems validates the cart and folds repeated SKUs into one line,
// sorted by SKU so that the pricing order never depends on the client's.
func mergeItems(items []Item) ([]Item, error) {
	if len(items) == 0 {
		return nil, fmt.Errorf("%w: add at least one item", ErrEmptyCart)
	}
	merged := make([]Item, 0, len(items))
	for _, it := range items {
		if it.SKU == "" {
			return nil, fmt.Errorf("%w: item without SKU", ErrUnknownProduct)
		}
		if it.Quantity < 1 || it.Quantity > MaxQuantity {
			return nil, fmt.Errorf("%w: %d x %s (want 1..%d)", ErrInvalidQuantity, it.Quantity, it.SKU, MaxQuantity)
		}
		i, found := slices.BinarySearchFunc(merged, it.SKU, func(m Item, sku string) int { return cmp.Compare(m.SKU, sku) })
		if found {
			merged[i].Quantity += it.Quantity
			if merged[i].Quantity > MaxQuantity {
				return nil, fmt.Errorf("%w: %d x %s in total (want 1..%d)", ErrInvalidQuantity, merged[i].Quantity, it.SKU, MaxQuantity)
			}
			continue
		}
		merged = slices.Insert(merged, i, it)
	}
	if len(merged) > MaxLines {
		return nil, fmt.Errorf("%w: %d distinct products, at most %d per order", ErrInvalidQuantity, len(merged), MaxLines)
	}
	return merged, nil
}

// automaticDiscount picks the best promotion that applies to a line without
// a coupon. Promotions do not stack; on a tie the earlier rule in the order
// volume, happy hour, weekend wins.
func (p *Pricer) automaticDiscount(category string, qty int, local time.Time) (string, int64) {
	rule, best := "", int64(0)
	consider := func(name string, bp int64) {
		if bp > best {
			rule, best = name, bp
		}
	}
	for _, t := range p.cfg.VolumeTiers {
		if qty >= t.MinQuantity {
			consider(RuleVolume, t.BP) // tiers ascend, the last reached wins
		}
	}
	weekend := local.Weekday() == time.Saturday || local.Weekday() == time.Sunday
	if !weekend && local.Hour() >= p.cfg.HappyHourStart && local.Hour() < p.cfg.HappyHourEnd &&
		slices.Contains(p.cfg.HappyHourCategories, category) {
		consider(RuleHappyHour, p.cfg.HappyHourBP)
	}
	if weekend && slices.Contains(p.cfg.WeekendCategories, category) {
		consider(RuleWeekend, p.cfg.WeekendBP)
	}
	return rule, best
}

// applyCoupon checks the coupon against the cart and the time and discounts
// the eligible lines: a percentage per line, or a fixed amount split across
// the eligible lines in proportion to their value.
func (p *Pricer) applyCoupon(ctx context.Context, code string, now time.Time, lines []Line) error {
	c, err := p.catalog.Coupon(ctx, code)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return fmt.Errorf("%w %q", ErrUnknownCoupon, code)
		}
		return fmt.Errorf("pricing: look up coupon %q: %w", code, err)
	}
	if !c.ValidFrom.IsZero() && now.Before(c.ValidFrom) {
		return fmt.Errorf("%w: %s starts %s", ErrCouponExpired, code, c.ValidFrom.UTC().Format(time.RFC3339))
	}
	if !c.ValidUntil.IsZero() && !now.Before(c.ValidUntil) {
		return fmt.Errorf("%w: %s ended %s", ErrCouponExpired, code, c.ValidUntil.UTC().Format(time.RFC3339))
	}
	var eligible []int
	var eligibleNet int64
	for i, l := range lines {
		if c.Category == "" || l.Category == c.Category {
			eligible = append(eligible, i)
			eligibleNet += l.NetCents
		}
	}
	if len(eligible) == 0 {
		return fmt.Errorf("%w: %s is for %s products only", ErrCouponNotApplicable, code, c.Category)
	}
	if eligibleNet < c.MinSubtotalCents {
		return fmt.Errorf("%w: %s needs %d cents of eligible products, cart has %d",
			ErrCouponNotApplicable, code, c.MinSubtotalCents, eligibleNet)
	}
	switch {
	case c.PercentOffBP > 0:
		for _, i := range eligible {
			lines[i].apply(RuleCoupon, percentOf(lines[i].NetCents, min(c.PercentOffBP, bpScale)))
		}
	case c.AmountOffCents > 0:
		weights := make([]int64, len(eligible))
		for k, i := range eligible {
			weights[k] = lines[i].NetCents
		}
		for k, share := range allocate(min(c.AmountOffCents, eligibleNet), weights) {
			lines[eligible[k]].apply(RuleCoupon, share)
		}
	default:
		return fmt.Errorf("%w: %s grants no discount", ErrCouponNotApplicable, code)
	}
	return nil
}

func (l *Line) apply(rule string, cents int64) {
	if cents <= 0 {
		return
	}
	cents = min(cents, l.NetCents)
	l.Adjustments = append(l.Adjustments, Adjustment{Rule: rule, Cents: cents})
	l.DiscountCents += cents
	l.NetCents -= cents
}

// percentOf returns bp basis points of a non-negative amount, rounded half up
// to the cent.
func percentOf(amount, bp int64) int64 {
	return (amount*bp + bpScale/2) / bpScale
}

// allocate splits total cents across weights in proportion, exactly: each
// share is rounded down, and the cents left over go one each to the largest
// fractional remainders (earlier entries first on ties). Largest-remainder
// allocation keeps the shares summing to total, which rounding each share
// independently would not.
func allocate(total int64, weights []int64) []int64 {
	shares := make([]int64, len(weights))
	var sum int64
	for _, w := range weights {
		sum += w
	}
	if sum == 0 || total == 0 {
		return shares
	}
	rem := make([]int64, len(weights))
	left := total
	for i, w := range weights {
		shares[i] = total * w / sum
		rem[i] = total * w % sum
		left -= shares[i]
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rem[b], rem[a]) })
	for _, i := range order[:left] {
		shares[i]++
	}
	return shares
}
