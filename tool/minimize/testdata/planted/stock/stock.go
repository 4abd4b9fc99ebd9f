// Package stock keeps the stock of a warehouse and the reservations held
// against it. Reservations of bulkSize items or more are accounted apart
// from the small ones, so that a bulk order never starves the counter.
package stock

import (
	"fmt"
	"time"
)

const bulkSize = 5

var (
	onHand = map[string]int{}
	small  = map[string]int{} // items held by small reservations, per sku
	bulk   = map[string]int{} // items held by bulk reservations, per sku
	holds  = map[string]hold{}
)

type hold struct {
	sku   string
	n     int
	since time.Time
}

// Restock adds n items of sku and returns how many are on hand.
func Restock(sku string, n int) int {
	onHand[sku] += n
	return onHand[sku]
}

// Reserve holds n items of sku under id, or says why it cannot.
func Reserve(id, sku string, n int) error {
	if _, dup := holds[id]; dup {
		return fmt.Errorf("reserve %s: already held", id)
	}
	if f := Free(sku); f < n {
		return fmt.Errorf("reserve %s: %d of %s wanted, %d free", id, n, sku, f)
	}
	holds[id] = hold{sku, n, time.Now()}
	if n >= bulkSize {
		bulk[sku] += n
	} else {
		small[sku] += n
	}
	return nil
}

// Cancel releases the reservation id; false if there is none.
func Cancel(id string) bool {
	h, ok := holds[id]
	if !ok {
		return false
	}
	delete(holds, id)
	if h.n >= bulkSize {
		bulk[h.sku] -= h.n
		return true
	}
	small[h.sku] -= h.n
	return true
}

// Free is how many items of sku no reservation holds.
func Free(sku string) int {
	return onHand[sku] - small[sku] - bulk[sku]
}
