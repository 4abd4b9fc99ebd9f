// Package sliceheader: observed code that turns a string into a []byte
// and back without copying, through reflect.StringHeader and
// reflect.SliceHeader, as fastjson's util.go and gjson do. The headers are
// views of the code's own values (the string it was given, the slice it
// returns), not objects of package reflect.
package sliceheader

import (
	"reflect"
	"unsafe"
)

// s2b returns the bytes of s without copying them.
func s2b(s string) (b []byte) {
	strh := (*reflect.StringHeader)(unsafe.Pointer(&s))
	sh := (*reflect.SliceHeader)(unsafe.Pointer(&b))
	sh.Data = strh.Data
	sh.Len = strh.Len
	sh.Cap = strh.Len
	return b
}

// b2s returns b as a string without copying it.
func b2s(b []byte) string {
	sh := (*reflect.SliceHeader)(unsafe.Pointer(&b))
	var s string
	strh := (*reflect.StringHeader)(unsafe.Pointer(&s))
	strh.Data = sh.Data
	strh.Len = sh.Len
	return s
}

// Upper returns s in upper case (ASCII), going through its bytes.
func Upper(s string) string {
	b := s2b(s)
	out := make([]byte, len(b))
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		out[i] = c
	}
	return b2s(out)
}

// Count counts c in s.
func Count(s string, c byte) int {
	n := 0
	for _, x := range s2b(s) {
		if x == c {
			n++
		}
	}
	return n
}
