// Package buf hands out slices of memory it keeps for the caller to fill:
// the caller's writes are no boundary event, and the package's later
// results read them.
package buf

// Buffer collects bytes.
type Buffer struct{ data []byte }

// New returns an empty buffer.
func New() *Buffer { return &Buffer{data: make([]byte, 0, 64)} }

// Extend grows the buffer by n zero bytes and returns them for the caller
// to fill.
func (b *Buffer) Extend(n int) []byte {
	b.data = append(b.data, make([]byte, n)...)
	return b.data[len(b.data)-n:]
}

// Bytes returns the buffer's bytes, which the caller may change.
func (b *Buffer) Bytes() []byte { return b.data }

// String is what the buffer holds.
func (b *Buffer) String() string { return string(b.data) }

// Counts is a histogram the caller updates in place.
type Counts struct{ n []int }

// NewCounts makes a histogram of k buckets.
func NewCounts(k int) *Counts { return &Counts{n: make([]int, k)} }

// Buckets returns the buckets themselves.
func (c *Counts) Buckets() []int { return c.n }

// Total adds the buckets.
func (c *Counts) Total() int {
	t := 0
	for _, v := range c.n {
		t += v
	}
	return t
}
