package probe

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// TestAddressesOfOlderLogsReadNatively: the capture of a log of
// LastUnrecordedAddressFormat or before read addresses natively, without
// an event, so replay of it does too (the integer is replay's own, and
// the fmt calls that may print one run natively); replay of a newer log
// records and answers them.
func TestAddressesOfOlderLogsReadNatively(t *testing.T) {
	oldPlay, oldReplaying := play, replaying
	defer func() { play, replaying = oldPlay, oldReplaying }()
	replaying = true
	x := new(int)
	site := &Site{Name: "uintptr(unsafe.Pointer)", Pos: "p/p.go:1"}
	for _, format := range []int{9, LastUnrecordedAddressFormat} {
		play = &player{format: format}
		if !AddressesUnrecorded() {
			t.Fatalf("format %d: addresses are recorded", format)
		}
		if got := AddressOf(site, unsafe.Pointer(x)); got != uintptr(unsafe.Pointer(x)) {
			t.Errorf("format %d: AddressOf = %#x, want the address %p", format, got, x)
		}
		if got := PointerOf(site, reflect.ValueOf(x)); got != uintptr(unsafe.Pointer(x)) {
			t.Errorf("format %d: PointerOf = %#x, want the address %p", format, got, x)
		}
	}
	play = &player{format: eventlog.FormatVersion}
	if AddressesUnrecorded() {
		t.Fatalf("format %d: addresses are not recorded", eventlog.FormatVersion)
	}
	if got := AddressOf(site, nil); got != 0 {
		t.Errorf("AddressOf(nil) = %#x, want 0", got)
	}
}

// TestAddressReadNumbersNothing: an address read of an object no event
// numbered names it by its number among the objects only address reads
// met, and leaves the objects' table without it, so that the object's
// first sight with its contents is where it crosses later, as without the
// read (go-spew reads the address of an error the log holds by its
// message, which replay stands in for, before the test passes the pointer
// itself).
func TestAddressReadNumbersNothing(t *testing.T) {
	oldReplaying := replaying
	defer func() { replaying = oldReplaying }()
	replaying = false
	x, y := new(int), new(int)
	read := func(p *int) []byte {
		s := &Stream{}
		addressArg(s, unsafe.Pointer(p))
		return s.enc.Buf
	}
	rx, ry, rx2 := read(x), read(y), read(x)
	if numbered(unsafe.Pointer(x)) || numbered(unsafe.Pointer(y)) {
		t.Fatal("an address read numbered its object in the objects' table")
	}
	if len(rx) == 0 || rx[0] != value.TagUint || !bytes.Equal(rx, rx2) || bytes.Equal(rx, ry) {
		t.Errorf("reads of x, y, x appended % x, % x, % x: want one number for x, another for y", rx, ry, rx2)
	}
}
