// Package loadgen drives the shop with a reproducible mixed workload and
// measures it: per-request latency on the monotonic clock, warm-up
// excluded, summarised as throughput, percentiles and status counts.
//
// The workload (which operation, which cart, which coupon, which order to
// look at) is a pure function of the seed and the catalogue's SKUs. What
// concurrency cannot make reproducible is which order ID a "get" or
// "cancel" resolves to, since order IDs are assigned by the server in
// arrival order; the pick among the orders created so far is seeded.
package loadgen

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Op is a kind of request.
type Op int

const (
	OpProducts Op = iota // GET /products
	OpQuote              // POST /quote
	OpOrder              // POST /orders
	OpGetOrder           // GET /orders/{id}
	OpCancel             // POST /orders/{id}/cancel
	numOps
)

var opNames = [numOps]string{"products", "quote", "order", "get", "cancel"}

func (o Op) String() string {
	if o >= 0 && o < numOps {
		return opNames[o]
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// Mix is the relative weight of each operation.
type Mix [numOps]int

// DefaultMix: mostly browsing and quoting, a third orders, some follow-ups.
var DefaultMix = Mix{OpProducts: 15, OpQuote: 40, OpOrder: 30, OpGetOrder: 10, OpCancel: 5}

// ParseMix reads "products=15,quote=40,order=30,get=10,cancel=5"; omitted
// operations get weight 0.
func ParseMix(s string) (Mix, error) {
	var m Mix
	for _, part := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Mix{}, fmt.Errorf("mix entry %q: want name=weight, e.g. quote=40", part)
		}
		i := slices.Index(opNames[:], name)
		if i < 0 {
			return Mix{}, fmt.Errorf("mix entry %q: unknown operation, want one of %s", part, strings.Join(opNames[:], ", "))
		}
		w, err := strconv.Atoi(val)
		if err != nil || w < 0 {
			return Mix{}, fmt.Errorf("mix entry %q: weight must be a non-negative integer", part)
		}
		m[i] = w
	}
	return m, m.validate()
}

func (m Mix) String() string {
	parts := make([]string, numOps)
	for i, w := range m {
		parts[i] = fmt.Sprintf("%s=%d", opNames[i], w)
	}
	return strings.Join(parts, ",")
}

func (m Mix) validate() error {
	total := 0
	for _, w := range m {
		if w < 0 {
			return errors.New("mix weights must be non-negative")
		}
		total += w
	}
	if total == 0 {
		return errors.New("mix has no operation with a positive weight")
	}
	return nil
}

// Cart is the JSON body of a quote or order.
type Cart struct {
	Customer string `json:"customer,omitempty"`
	Region   string `json:"region"`
	Items    []Item `json:"items"`
	Coupon   string `json:"coupon,omitempty"`
	Variant  string `json:"variant,omitempty"`
}

// Item is one cart line.
type Item struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// Step is one planned request.
type Step struct {
	Op   Op
	Cart *Cart // for OpQuote and OpOrder
	// Pick selects the order for OpGetOrder and OpCancel among those
	// created so far (Pick modulo their number).
	Pick uint64
}

// Body returns the request body, nil for bodiless requests.
func (s Step) Body() []byte {
	if s.Cart == nil {
		return nil
	}
	b, err := json.Marshal(s.Cart)
	if err != nil {
		panic(err) // Cart holds only strings and ints
	}
	return b
}

type weighted[T any] struct {
	v T
	w int
}

func pick[T any](r *rand.Rand, choices []weighted[T]) T {
	total := 0
	for _, c := range choices {
		total += c.w
	}
	n := r.IntN(total)
	for _, c := range choices {
		if n < c.w {
			return c.v
		}
		n -= c.w
	}
	panic("unreachable")
}

// Regions with their share of traffic; XX is not a region the shop ships
// to, so 1% of carts are rejected with 400.
var regions = []weighted[string]{
	{"DE", 30}, {"FR", 15}, {"GB", 10}, {"JP", 5}, {"US-CA", 20}, {"US-NY", 10}, {"US-OR", 9}, {"XX", 1},
}

// Coupon codes: valid ones, expired and future ones, and a made-up one, as
// customers type them (case varies).
var coupons = []weighted[string]{
	{"WELCOME10", 8}, {"welcome10", 2}, {"BEANS5", 5}, {"TEATIME", 4}, {"BIGSPENDER", 3},
	{"SUMMER26", 2}, {"NEXTYEAR", 1}, {"BOGUS", 2},
}

var lineCounts = []weighted[int]{{1, 40}, {2, 30}, {3, 20}, {4, 10}}

// Workload generates the steps of a run. It is not safe for concurrent use;
// one goroutine plans, others execute.
type Workload struct {
	rng  *rand.Rand
	skus []string
	mix  []weighted[Op]
}

// NewWorkload returns the workload for a seed over the catalogue's SKUs.
func NewWorkload(seed uint64, skus []string, mix Mix) (*Workload, error) {
	if len(skus) == 0 {
		return nil, errors.New("loadgen: empty catalogue; the shop listed no products")
	}
	if err := mix.validate(); err != nil {
		return nil, fmt.Errorf("loadgen: %w", err)
	}
	w := &Workload{
		// PCG with a fixed second word ("shop"): the seed alone determines
		// the run.
		rng:  rand.New(rand.NewPCG(seed, 0x73686f70)),
		skus: slices.Sorted(slices.Values(skus)),
	}
	for op, weight := range mix {
		if weight > 0 {
			w.mix = append(w.mix, weighted[Op]{Op(op), weight})
		}
	}
	return w, nil
}

// Next plans the next request.
func (w *Workload) Next() Step {
	op := pick(w.rng, w.mix)
	switch op {
	case OpQuote, OpOrder:
		return Step{Op: op, Cart: w.cart(op == OpOrder)}
	case OpGetOrder, OpCancel:
		return Step{Op: op, Pick: w.rng.Uint64()}
	}
	return Step{Op: op}
}

func (w *Workload) cart(order bool) *Cart {
	c := &Cart{Region: pick(w.rng, regions)}
	if order {
		c.Customer = fmt.Sprintf("cust-%04d", w.rng.IntN(500))
	}
	n := pick(w.rng, lineCounts)
	for range n {
		q := 1 + w.rng.IntN(3)
		switch r := w.rng.IntN(100); {
		case r < 5: // a café restocking: reaches the higher volume tiers
			q = 50 + w.rng.IntN(71)
		case r < 20:
			q = 4 + w.rng.IntN(17)
		}
		c.Items = append(c.Items, Item{SKU: w.skus[w.rng.IntN(len(w.skus))], Quantity: q})
	}
	if w.rng.IntN(100) < 25 {
		c.Coupon = pick(w.rng, coupons)
	}
	// Half the carts come from returning clients who know their variant.
	switch r := w.rng.IntN(4); r {
	case 0:
		c.Variant = "A"
	case 1:
		c.Variant = "B"
	}
	return c
}
