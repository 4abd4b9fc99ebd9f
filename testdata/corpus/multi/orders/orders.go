// Package orders is the other observed package of the multi corpus program.
package orders

import (
	"fmt"
	"time"

	"example.com/multi/pricing"
)

// Order is a priced order.
type Order struct {
	ID    string
	Cents int
	At    time.Time
}

// Place prices an order (a call inside the observed set) and stamps it.
func Place(id string, unit, qty int) Order {
	return Order{ID: id, Cents: pricing.Price(unit, qty), At: time.Now()}
}

// Receipt formats an order.
func Receipt(o Order) string {
	return fmt.Sprintf("%s: %d.%02d", o.ID, o.Cents/100, o.Cents%100)
}
