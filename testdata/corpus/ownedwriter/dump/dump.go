// Package dump has a buffer the observed code owns reaching an
// outcall through a parameter that external callers also use: bitset's
// MarshalBinary gives `&buf` to its exported WriteTo, whose binary.Write and
// stream.Write fill it; spew's Sdump gives `&buf` to fdump, which keeps the
// writer in a struct field that Fdump fills with the caller's writer.
package dump

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
)

// Set is a set of small integers kept as bit words.
type Set struct{ words []uint64 }

// Add puts i in the set.
func (s *Set) Add(i uint) {
	for int(i/64) >= len(s.words) {
		s.words = append(s.words, 0)
	}
	s.words[i/64] |= 1 << (i % 64)
}

// WriteTo writes the set to stream: its word count, then its words.
func (s *Set) WriteTo(stream io.Writer) (int64, error) {
	if err := binary.Write(stream, binary.BigEndian, uint64(len(s.words))); err != nil {
		return 0, err
	}
	b := make([]byte, 8*len(s.words))
	for i, w := range s.words {
		binary.BigEndian.PutUint64(b[8*i:], w)
	}
	n, err := stream.Write(b)
	return int64(8 + n), err
}

// MarshalBinary is WriteTo into a buffer of its own.
func (s *Set) MarshalBinary() ([]byte, error) {
	var buf bytes.Buffer
	if _, err := s.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// state keeps the writer a dump goes to, as spew's dumpState does.
type state struct {
	w     io.Writer
	depth int
}

func (d *state) dump(v interface{}) {
	switch x := v.(type) {
	case []interface{}:
		d.w.Write([]byte("["))
		d.depth++
		for i, e := range x {
			if i > 0 {
				d.w.Write([]byte(" "))
			}
			d.dump(e)
		}
		d.depth--
		d.w.Write([]byte("]"))
	case int:
		d.w.Write([]byte(strconv.Itoa(x)))
	default:
		fmt.Fprintf(d.w, "%q", fmt.Sprint(x))
	}
}

func fdump(w io.Writer, vs ...interface{}) {
	for _, v := range vs {
		d := state{w: w}
		d.dump(v)
		d.w.Write([]byte("\n"))
	}
}

// Fdump writes each value to w, one a line.
func Fdump(w io.Writer, vs ...interface{}) { fdump(w, vs...) }

// Sdump returns what Fdump writes.
func Sdump(vs ...interface{}) string {
	var buf bytes.Buffer
	fdump(&buf, vs...)
	return buf.String()
}
