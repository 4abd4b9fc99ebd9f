package probe

import (
	"reflect"
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

// TestRebuiltSkipsStaticMemory: a reflected argument that points to
// read-only data (a reflect.Type is a pointer to the binary's type
// descriptor: go-toml's `assert.Equal(t, reflect.TypeOf(m["A"]),
// reflect.TypeOf(toml.LocalTime{}))`) is no object an outcall writes, and
// marking it must not make a weak pointer to it (a fatal error that killed
// the test under capture). A package variable's memory is marked.
func TestRebuiltSkipsStaticMemory(t *testing.T) {
	n := len(rebuilt.spans)
	markRebuilt(any(reflect.TypeOf(0)))
	markRebuilt(reflect.ValueOf(reflect.TypeOf(time.Time{})))
	if len(rebuilt.spans) != n {
		t.Errorf("spans went from %d to %d for type descriptors", n, len(rebuilt.spans))
	}
	markRebuilt(any(&rebuiltGlobal))
	if !inRebuilt(unsafe.Pointer(&rebuiltGlobal.N)) {
		t.Error("a package variable's memory is not marked")
	}
}

var rebuiltGlobal struct{ A, N int64 }
