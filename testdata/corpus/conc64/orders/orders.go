// Package orders is the observed package of the conc64 corpus program: 64
// goroutines make incalls at once, and every incall makes outcalls (the
// clock, random numbers, the environment). What an incall returns depends
// only on its own customer's earlier calls and on what its outcalls
// returned, so replay, which releases the boundary events in the recorded
// global order, reproduces every result and every event's order.
package orders

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrUnknown is returned for a customer that was never opened.
var ErrUnknown = errors.New("orders: unknown customer")

// Book holds the baskets of many customers; safe for concurrent use.
type Book struct {
	mu      sync.Mutex
	baskets map[string]*basket
}

type basket struct {
	discount int // percent
	lines    []Line
	opened   time.Time
}

// Line is one item of a basket.
type Line struct {
	Item  string
	Qty   int
	Cents int // unit price
}

// Receipt is what Checkout returns.
type Receipt struct {
	Lines int
	Cents int
	Tax   int           // cents
	Open  time.Duration // from Open to Checkout
}

// New returns an empty book.
func New() *Book { return &Book{baskets: map[string]*basket{}} }

// Open starts customer's basket, with the discount in percent that the
// environment gives (DISCOUNT_<CUSTOMER>, none if unset).
func (b *Book) Open(customer string) error {
	d := 0
	if v := os.Getenv("DISCOUNT_" + strings.ToUpper(customer)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("orders: bad discount %q for %s", v, customer)
		}
		d = n
	}
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.baskets[customer] = &basket{discount: d, opened: now}
	return nil
}

// Add puts qty of item into customer's basket at the current price and
// returns the basket's total in cents.
func (b *Book) Add(customer, item string, qty int) (int, error) {
	if qty <= 0 {
		return 0, fmt.Errorf("orders: quantity %d of %s", qty, item)
	}
	price := 100 + rand.Intn(50)
	b.mu.Lock()
	defer b.mu.Unlock()
	k, ok := b.baskets[customer]
	if !ok {
		return 0, fmt.Errorf("%w %q", ErrUnknown, customer)
	}
	k.lines = append(k.lines, Line{Item: item, Qty: qty, Cents: price})
	return k.total(), nil
}

// Checkout closes customer's basket.
func (b *Book) Checkout(customer string) (Receipt, error) {
	now := time.Now()
	b.mu.Lock()
	k, ok := b.baskets[customer]
	delete(b.baskets, customer)
	b.mu.Unlock()
	if !ok {
		return Receipt{}, fmt.Errorf("%w %q", ErrUnknown, customer)
	}
	r := Receipt{Lines: len(k.lines), Cents: k.total(), Open: now.Sub(k.opened)}
	// The tax of each line is looked up on a goroutine of its own; they
	// report through a WaitGroup and a slice element they get as pointers.
	taxes := make([]int, len(k.lines))
	var wg sync.WaitGroup
	for i, l := range k.lines {
		wg.Add(1)
		go tax(&wg, &taxes[i], l)
	}
	wg.Wait()
	for _, t := range taxes {
		r.Tax += t
	}
	return r, nil
}

// tax sets *out to the tax of line l, at the percentage the environment
// gives for its item (TAX_<ITEM>, default 5).
func tax(wg *sync.WaitGroup, out *int, l Line) {
	defer wg.Done()
	pct := 5
	if v, err := strconv.Atoi(os.Getenv("TAX_" + strings.ToUpper(l.Item))); err == nil {
		pct = v
	}
	*out = l.Qty * l.Cents * pct / 100
}

func (k *basket) total() int {
	t := 0
	for _, l := range k.lines {
		t += l.Qty * l.Cents
	}
	return t * (100 - k.discount) / 100
}
