package probe

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
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
