package eventlog

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A minimal, bounds-checked reader for the FlatBuffers tables of Arrow IPC
// message headers. Generated FlatBuffers accessors (Arrow's own included)
// trust every offset; this one checks each before use, so that hostile
// input fails with an error instead of a panic or a huge allocation.

var errFlatbuf = errors.New("malformed message header")

type fbTable struct {
	buf []byte
	pos int // start of the table
	vt  int // start of its vtable
	vl  int // vtable length in bytes
}

func fbU16(b []byte, at int) (int, bool) {
	if at < 0 || at+2 > len(b) {
		return 0, false
	}
	return int(binary.LittleEndian.Uint16(b[at:])), true
}

func fbU32(b []byte, at int) (uint32, bool) {
	if at < 0 || at+4 > len(b) {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b[at:]), true
}

func fbI64(b []byte, at int) (int64, bool) {
	if at < 0 || at+8 > len(b) {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint64(b[at:])), true
}

func fbTableAt(b []byte, pos int) (fbTable, error) {
	so, ok := fbU32(b, pos)
	if !ok {
		return fbTable{}, errFlatbuf
	}
	vt := pos - int(int32(so))
	vl, ok := fbU16(b, vt)
	if !ok || vl < 4 || vl%2 != 0 || vt+vl > len(b) {
		return fbTable{}, errFlatbuf
	}
	// Every field must start inside the buffer (typed readers check their
	// width); the table's inline size must fit too.
	tl, _ := fbU16(b, vt+2)
	if pos+tl > len(b) {
		return fbTable{}, errFlatbuf
	}
	for vo := 4; vo+2 <= vl; vo += 2 {
		o, _ := fbU16(b, vt+vo)
		if o != 0 && (o >= tl || pos+o >= len(b)) {
			return fbTable{}, errFlatbuf
		}
	}
	return fbTable{buf: b, pos: pos, vt: vt, vl: vl}, nil
}

func fbRoot(b []byte) (fbTable, error) {
	off, ok := fbU32(b, 0)
	if !ok || int64(off) >= int64(len(b)) {
		return fbTable{}, errFlatbuf
	}
	return fbTableAt(b, int(off))
}

// field returns the absolute position of a field's value, or -1 if absent.
func (t fbTable) field(slot int) int {
	vo := 4 + 2*slot
	if vo+2 > t.vl {
		return -1
	}
	o, _ := fbU16(t.buf, t.vt+vo)
	if o == 0 {
		return -1
	}
	return t.pos + o
}

func (t fbTable) u8(slot int, def uint8) (uint8, error) {
	at := t.field(slot)
	if at < 0 {
		return def, nil
	}
	if at >= len(t.buf) {
		return 0, errFlatbuf
	}
	return t.buf[at], nil
}

// fbScalar reads a fixed-size field of t with read: def if the field is
// absent, an error if it does not lie inside the buffer.
func fbScalar[T any](t fbTable, slot int, def T, read func(b []byte, at int) (T, bool)) (T, error) {
	at := t.field(slot)
	if at < 0 {
		return def, nil
	}
	v, ok := read(t.buf, at)
	if !ok {
		var zero T
		return zero, errFlatbuf
	}
	return v, nil
}

func (t fbTable) i16(slot int, def int16) (int16, error) {
	v, err := fbScalar(t, slot, int(def), fbU16)
	return int16(v), err
}

func (t fbTable) i64(slot int, def int64) (int64, error) {
	return fbScalar(t, slot, def, fbI64)
}

// table returns the sub-table of a field; ok is false if it is absent.
func (t fbTable) table(slot int) (fbTable, bool, error) {
	at := t.field(slot)
	if at < 0 {
		return fbTable{}, false, nil
	}
	off, ok := fbU32(t.buf, at)
	if !ok {
		return fbTable{}, false, errFlatbuf
	}
	sub, err := fbTableAt(t.buf, at+int(off))
	return sub, err == nil, err
}

// structVector returns the start and length of a vector of fixed-size
// structs, checked to lie inside the buffer.
func (t fbTable) structVector(slot, size int) (start, n int, err error) {
	at := t.field(slot)
	if at < 0 {
		return 0, 0, nil
	}
	off, ok := fbU32(t.buf, at)
	if !ok {
		return 0, 0, errFlatbuf
	}
	vec := at + int(off)
	cnt, ok := fbU32(t.buf, vec)
	if !ok || int64(cnt)*int64(size) > int64(len(t.buf)-vec-4) {
		return 0, 0, errFlatbuf
	}
	return vec + 4, int(cnt), nil
}

func (t fbTable) i32(slot int, def int32) (int32, error) {
	v, err := fbScalar(t, slot, uint32(def), fbU32)
	return int32(v), err
}

// str checks a string field and returns it ("" if absent).
func (t fbTable) str(slot int) (string, error) {
	start, n, err := t.strPos(slot)
	if err != nil || n == 0 {
		return "", err
	}
	return string(t.buf[start : start+n]), nil
}

// strPos checks a string field and returns where its bytes are in the
// buffer (0, 0 if absent): a FlatBuffers string is laid out as a vector of
// bytes.
func (t fbTable) strPos(slot int) (start, n int, err error) {
	return t.structVector(slot, 1)
}

// tables returns the tables of a vector-of-tables field (nil if absent),
// refusing more than max.
func (t fbTable) tables(slot, max int) ([]fbTable, error) {
	start, n, err := t.structVector(slot, 4)
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, fmt.Errorf("%d entries, at most %d", n, max)
	}
	out := make([]fbTable, 0, n)
	for i := 0; i < n; i++ {
		at := start + 4*i
		off, _ := fbU32(t.buf, at)
		sub, err := fbTableAt(t.buf, at+int(off))
		if err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, nil
}
