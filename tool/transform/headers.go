package transform

import "go/types"

// memoryHeader reports whether n is reflect.SliceHeader or
// reflect.StringHeader. Code reaches one only by converting an
// unsafe.Pointer to a slice or string it holds
// (`(*reflect.SliceHeader)(unsafe.Pointer(&b))`, fastjson's s2b and b2s):
// the header is that value's own memory, not an object of package reflect,
// so its fields are read and written natively, in capture and in replay.
// Recorded as reads and writes of an external object, the Data address of
// the capture came back from the log in replay, and the replayed program
// built a slice of the capture's memory and faulted.
func memoryHeader(n *types.Named) bool {
	if n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" {
		return false
	}
	return n.Obj().Name() == "SliceHeader" || n.Obj().Name() == "StringHeader"
}
