// Package width is go-runewidth's Condition in small: callers set an
// exported field on their own condition and ask it for widths, from many
// goroutines at once.
package width

// Condition says how wide ambiguous runes are.
type Condition struct {
	EastAsian bool // ambiguous runes are two cells wide
	table     []byte
}

// NewCondition returns a condition for narrow ambiguous runes.
func NewCondition() *Condition {
	return &Condition{table: []byte{1, 1, 2}}
}

// RuneWidth returns how many cells r takes.
func (c *Condition) RuneWidth(r rune) int {
	switch {
	case r < 0x80:
		return int(c.table[0])
	case r >= 0x1100 && r < 0x1160:
		return int(c.table[2])
	case c.EastAsian:
		return 2
	}
	return int(c.table[1])
}

// Hold calls wait and returns what it returns: while wait blocks, Hold is an
// incall in progress.
func Hold(wait func() int) int {
	return wait() + 1
}
