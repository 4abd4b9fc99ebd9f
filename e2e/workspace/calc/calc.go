// Package calc prices order lines: the quantity times the unit price, less a
// volume discount from a minimum quantity on.
package calc

// Line is one line of an order.
type Line struct {
	Item      string
	Quantity  int
	UnitCents int
}

// VolumeMin is the quantity from which a line gets the volume discount.
const VolumeMin = 10

// Total is the line's price in cents: 10% off from VolumeMin items on.
func Total(l Line) int {
	total := l.Quantity * l.UnitCents
	if l.Quantity >= VolumeMin {
		total -= total / 10
	}
	return total
}
