// Package sv makes slices over a string's memory that cross the boundary:
// goldmark's util.StringToReadOnlyBytes returns
// `unsafe.Slice(unsafe.StringData(s), len(s))` to its callers, and gjson's
// stringBytes reads the string's header through `unsafe.Pointer(&s)` to
// hand its bytes to an outcall (`pretty.Ugly(stringBytes(json))`). A string
// crosses by value, so replay decodes a literal passed twice into two
// strings, where the capture saw one string's memory twice.
package sv

import (
	"unsafe"

	"example.com/stringview/ext"
)

// ReadOnlyBytes returns the bytes of s without copying them.
func ReadOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

type stringHeader struct {
	data unsafe.Pointer
	len  int
}

type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

func stringBytes(s string) []byte {
	return *(*[]byte)(unsafe.Pointer(&sliceHeader{
		data: (*stringHeader)(unsafe.Pointer(&s)).data,
		len:  len(s),
		cap:  len(s),
	}))
}

func bytesString(b []byte) string {
	return *(*string)(unsafe.Pointer(&b))
}

// Ugly returns json without its spaces.
func Ugly(json string) string {
	return bytesString(ext.Compact(stringBytes(json)))
}

// Last returns the last byte of b, which it reads as a string whose memory
// it takes, as gjson's GetBytes reads its argument: the string views the
// caller's array, which keeps its identity.
func Last(b []byte) byte {
	s := *(*string)(unsafe.Pointer(&b))
	return *unsafe.StringData(s[len(s)-1:])
}
