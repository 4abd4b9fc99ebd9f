package probe

import (
	"testing"
	"time"
	"unsafe"
)

// TestRebuiltSpanCoversFields: a reflected argument's memory counts as
// owned at its start and at a field's address inside it, and not past its
// end; an observed outcall's pointer elsewhere is not owned.
func TestRebuiltSpanCoversFields(t *testing.T) {
	x := &struct {
		When time.Time
		Name string
		N    int64
	}{}
	other := new(time.Time)
	markRebuilt(any(x))
	if !owned(&x.When) {
		t.Error("the object's first field is not owned")
	}
	if !owned(&x.N) {
		t.Error("a field inside the object is not owned")
	}
	if !owned(x) {
		t.Error("the object itself is not owned")
	}
	if owned(other) {
		t.Error("another object is owned")
	}
	if inRebuiltAddr(uintptr(unsafe.Pointer(x)) + unsafe.Sizeof(*x)) {
		t.Error("the address past the object's end is owned")
	}
}

// TestRebuiltSkipsNonPointers: values that are not pointers mark nothing.
func TestRebuiltSkipsNonPointers(t *testing.T) {
	n := len(rebuilt.spans)
	markRebuilt(any(42))
	markRebuilt(any(nil))
	markRebuilt(any((*int)(nil)))
	if len(rebuilt.spans) != n {
		t.Errorf("spans went from %d to %d", n, len(rebuilt.spans))
	}
}
