// Package tax computes sales tax and VAT per region with integer arithmetic.
//
// Rates are in basis points (1 bp = 0.01%, so 19% = 1900 and 5.5% = 550).
// Regions differ in three ways that change the cents on an invoice:
//   - inclusive (EU, UK, JP: shelf prices contain VAT, which is extracted)
//     or exclusive (US: tax is added on top);
//   - rounding per line or once per rate on the invoice;
//   - the rounding mode (half up, half to even, or down).
//
// The package is part of the shop's observed set: pure computation, no
// outcalls.
package tax

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Errors returned (wrapped) by Compute.
var (
	ErrUnknownRegion = errors.New("tax: unknown region")
	ErrInvalidAmount = errors.New("tax: invalid amount")
)

// MaxAmountCents bounds a line amount so that amount*rate cannot overflow
// int64 (10^12 cents = ten billion in currency units).
const MaxAmountCents = 1_000_000_000_000

// Rounding is how a fractional cent is resolved.
type Rounding int

const (
	// HalfUp rounds 0.5 cent away from zero (most EU states, US states).
	HalfUp Rounding = iota
	// HalfEven rounds 0.5 cent to the even cent (banker's rounding).
	HalfEven
	// Down truncates fractional cents (Japan's common practice).
	Down
)

func (r Rounding) String() string {
	switch r {
	case HalfUp:
		return "half-up"
	case HalfEven:
		return "half-even"
	case Down:
		return "down"
	}
	return fmt.Sprintf("Rounding(%d)", int(r))
}

// Rule is the tax rule of one region.
type Rule struct {
	Region     string
	StandardBP int64
	// ReducedBP holds category-specific rates; categories not listed pay the
	// standard rate.
	ReducedBP map[string]int64
	Inclusive bool
	// PerLine rounds each line's tax; otherwise lines are summed per rate
	// and each sum is rounded once, as on a VAT invoice.
	PerLine  bool
	Rounding Rounding
}

// RateFor returns the rate in basis points that applies to a category.
func (r Rule) RateFor(category string) int64 {
	if bp, ok := r.ReducedBP[category]; ok {
		return bp
	}
	return r.StandardBP
}

// Line is one taxable amount: the net price of an order line after
// discounts, in cents, with the product category that selects the rate.
type Line struct {
	Category    string
	AmountCents int64
}

// Group is the tax of all lines sharing one rate.
type Group struct {
	RateBP    int64 `json:"rate_bp"`
	BaseCents int64 `json:"base_cents"` // sum of the line amounts at this rate, as priced
	TaxCents  int64 `json:"tax_cents"`
}

// Assessment is the tax on a set of lines.
type Assessment struct {
	Region    string  `json:"region"`
	Inclusive bool    `json:"inclusive"`
	Groups    []Group `json:"groups"` // ascending by rate
	TaxCents  int64   `json:"tax_cents"`
	// TotalCents is what the customer pays: the sum of the lines when
	// prices include tax, the sum plus tax otherwise.
	TotalCents int64 `json:"total_cents"`
}

// Calculator applies the rules of a fixed set of regions. The zero value is
// not usable; use NewCalculator or DefaultCalculator.
type Calculator struct {
	rules map[string]Rule
}

// NewCalculator checks and indexes the rules.
func NewCalculator(rules []Rule) (*Calculator, error) {
	c := &Calculator{rules: make(map[string]Rule, len(rules))}
	for _, r := range rules {
		if r.Region == "" {
			return nil, errors.New("tax: rule with empty region")
		}
		if _, dup := c.rules[r.Region]; dup {
			return nil, fmt.Errorf("tax: region %s defined twice", r.Region)
		}
		if r.StandardBP < 0 || r.StandardBP > 10000 {
			return nil, fmt.Errorf("tax: region %s: standard rate %d bp outside 0..10000", r.Region, r.StandardBP)
		}
		// Sorted, so that with several bad rates the error is always the same.
		for _, cat := range slices.Sorted(maps.Keys(r.ReducedBP)) {
			if bp := r.ReducedBP[cat]; bp < 0 || bp > 10000 {
				return nil, fmt.Errorf("tax: region %s: rate for %q %d bp outside 0..10000", r.Region, cat, bp)
			}
		}
		if r.Rounding < HalfUp || r.Rounding > Down {
			return nil, fmt.Errorf("tax: region %s: unknown rounding %v", r.Region, r.Rounding)
		}
		c.rules[r.Region] = r
	}
	return c, nil
}

// DefaultRules are the regions the example shop ships to. Coffee and tea are
// food and pay reduced rates where a region has them.
func DefaultRules() []Rule {
	food := func(bp int64) map[string]int64 { return map[string]int64{"coffee": bp, "tea": bp} }
	return []Rule{
		{Region: "DE", StandardBP: 1900, ReducedBP: food(700), Inclusive: true, Rounding: HalfUp},
		{Region: "FR", StandardBP: 2000, ReducedBP: food(550), Inclusive: true, Rounding: HalfUp},
		{Region: "GB", StandardBP: 2000, ReducedBP: food(0), Inclusive: true, PerLine: true, Rounding: HalfUp},
		{Region: "JP", StandardBP: 1000, ReducedBP: food(800), Inclusive: true, Rounding: Down},
		{Region: "US-CA", StandardBP: 725, Rounding: HalfUp},
		{Region: "US-NY", StandardBP: 888, PerLine: true, Rounding: HalfEven},
		{Region: "US-OR", StandardBP: 0, Rounding: HalfUp},
	}
}

// DefaultCalculator returns a calculator for DefaultRules.
func DefaultCalculator() *Calculator {
	c, err := NewCalculator(DefaultRules())
	if err != nil {
		panic(err) // DefaultRules is a constant table; a failure is a bug here
	}
	return c
}

// Regions lists the known regions in sorted order.
func (c *Calculator) Regions(ctx context.Context) []string {
	return slices.Sorted(maps.Keys(c.rules))
}

// Rule returns the rule of a region.
func (c *Calculator) Rule(ctx context.Context, region string) (Rule, error) {
	r, ok := c.rules[region]
	if !ok {
		return Rule{}, fmt.Errorf("%w %q", ErrUnknownRegion, region)
	}
	return r, nil
}

// Compute returns the tax on the lines in a region.
func (c *Calculator) Compute(ctx context.Context, region string, lines []Line) (Assessment, error) {
	rule, err := c.Rule(ctx, region)
	if err != nil {
		return Assessment{}, err
	}
	for i, l := range lines {
		if l.AmountCents < 0 || l.AmountCents > MaxAmountCents {
			return Assessment{}, fmt.Errorf("%w: line %d amount %d cents outside 0..%d", ErrInvalidAmount, i, l.AmountCents, int64(MaxAmountCents))
		}
	}

	// Groups in ascending rate order; a slice, not a map, so the order (and
	// thus the output) never depends on map iteration.
	var groups []Group
	index := func(bp int64) int {
		i, found := slices.BinarySearchFunc(groups, bp, func(g Group, bp int64) int {
			return cmp.Compare(g.RateBP, bp)
		})
		if !found {
			groups = slices.Insert(groups, i, Group{RateBP: bp})
		}
		return i
	}
	var sum int64
	for _, l := range lines {
		bp := rule.RateFor(l.Category)
		g := &groups[index(bp)]
		g.BaseCents += l.AmountCents
		if rule.PerLine {
			g.TaxCents += taxOn(l.AmountCents, bp, rule)
		}
		sum += l.AmountCents
	}
	a := Assessment{Region: rule.Region, Inclusive: rule.Inclusive, Groups: groups}
	for i := range groups {
		if !rule.PerLine {
			groups[i].TaxCents = taxOn(groups[i].BaseCents, groups[i].RateBP, rule)
		}
		a.TaxCents += groups[i].TaxCents
	}
	a.TotalCents = sum
	if !rule.Inclusive {
		a.TotalCents += a.TaxCents
	}
	if a.Groups == nil {
		a.Groups = []Group{}
	}
	return a, nil
}

// taxOn is the tax on amount cents at bp basis points: added on top
// (amount*bp/10000) or, for inclusive prices, contained in it
// (amount*bp/(10000+bp)).
func taxOn(amount, bp int64, rule Rule) int64 {
	den := int64(10000)
	if rule.Inclusive {
		den += bp
	}
	return divRound(amount*bp, den, rule.Rounding)
}

// divRound divides a non-negative numerator by a positive denominator,
// rounding the remainder by mode, without floating point.
func divRound(num, den int64, mode Rounding) int64 {
	q, r := num/den, num%den
	switch mode {
	case HalfUp:
		if 2*r >= den {
			q++
		}
	case HalfEven:
		if 2*r > den || (2*r == den && q%2 == 1) {
			q++
		}
	case Down:
	}
	return q
}
