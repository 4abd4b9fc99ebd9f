// Package sv makes slices over a string's memory that cross the boundary:
// goldmark's util.StringToReadOnlyBytes makes
// `unsafe.Slice(unsafe.StringData(s), len(s))`, and gjson's stringBytes
// reads the string's header through `unsafe.Pointer(&s)`, to hand its bytes
// to an outcall (`pretty.Ugly(stringBytes(json))`). A string
// crosses by value, so replay decodes a literal passed twice into two
// strings, where the capture saw one string's memory twice.
package sv

import (
	"unsafe"

	"example.com/stringview/ext"
)

// readOnlyBytes returns the bytes of s without copying them.
func readOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// Trimmed returns s without its spaces, from a view of its bytes handed to
// the compactor.
func Trimmed(s string) string {
	return string(ext.Compact(readOnlyBytes(s)))
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

// Offset returns where s[i:] starts in s, from the two strings' headers, as
// gjson's fillIndex computes a result's index: the distance between two
// addresses of one string's memory, the same in capture and replay.
func Offset(s string, i int) int {
	part := s[i:]
	sh := (*stringHeader)(unsafe.Pointer(&s))
	ph := (*stringHeader)(unsafe.Pointer(&part))
	return int(uintptr(ph.data) - uintptr(sh.data))
}
