// Package bits is a small bit set whose package declares functions named
// as builtins, here and in its test file (github.com/bits-and-blooms/bitset
// declares func max in bitset_fuzz_test.go): the generated code of an
// observed package must not call them.
package bits

import (
	"fmt"
	"io"
	"strconv"
)

// Set is a set of small non-negative integers.
type Set struct {
	words []uint64
	name  string
}

// New returns an empty set.
func New(name string) *Set { return &Set{name: name} }

// len is the number of words the set holds.
func len(s *Set) uint {
	n := uint(0)
	for range s.words {
		n++
	}
	return n
}

// copy returns a copy of s.
func copy(s *Set) *Set {
	c := &Set{name: s.name}
	c.words = append(c.words, s.words...)
	return c
}

// close reports the set's name, closed.
func close(s *Set) string { return "[" + s.name + "]" }

// panic formats a message as this package reports its faults.
func panic(format string, args ...interface{}) string {
	return "bits: " + fmt.Sprintf(format, args...)
}

// any reports whether the set has a member.
func any(s *Set) bool {
	for _, w := range s.words {
		if w != 0 {
			return true
		}
	}
	return false
}

// Add adds i to the set and returns the set's length in words.
func (s *Set) Add(i uint) uint {
	for len(s) <= i/64 {
		s.words = append(s.words, 0)
	}
	s.words[i/64] |= 1 << (i % 64)
	return len(s)
}

// Has reports whether i is in the set.
func (s *Set) Has(i uint) bool {
	return i/64 < len(s) && s.words[i/64]&(1<<(i%64)) != 0
}

// Span is the larger of a and b, less the smaller.
func Span(a, b uint) uint {
	if a > b {
		return a - b
	}
	return b - a
}

// Clone copies the set.
func (s *Set) Clone() *Set { return copy(s) }

// Empty reports whether the set has no member.
func (s *Set) Empty() bool { return !any(s) }

// String names the set and its members.
func (s *Set) String() string {
	out := close(s)
	for i := uint(0); i < 64*len(s); i++ {
		if s.Has(i) {
			out += " " + strconv.Itoa(int(i))
		}
	}
	return out
}

// ReadFrom adds the members listed in r, one decimal digit per byte, and
// reports how many bytes it read.
func (s *Set) ReadFrom(r io.Reader) (int64, error) {
	var buf [4]byte
	total := int64(0)
	for {
		n, err := r.Read(buf[:])
		for _, c := range buf[:n] {
			if c < '0' || c > '9' {
				return total, fmt.Errorf("%s", panic("not a digit: %q", c))
			}
			s.Add(uint(c - '0'))
		}
		total += int64(n)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Counts adds every count of the map to the set, in the order of the
// names, reporting each to note.
func (s *Set) Counts(counts map[string]uint, note func(name string, n uint)) {
	for name, n := range counts {
		note(name, s.Add(n))
	}
}
