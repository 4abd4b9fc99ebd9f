package probe

import "maps"

// Writes external code makes, during an outcall, to memory replay holds as
// the observed code's own (docs/design/boundary-model.md, "Out-parameters"):
// a map the outcall gets as its receiver or an argument (`values.Add(k, v)`
// on a url.Values the code made: replay rebuilds every map as a real one,
// by value), the pointee of a pointer receiver that is an address the
// observed code owns (`h.Write(p)` on a local `h` of an external type), the
// pointee of an owned address passed as an interface (`binary.Write(&buf,
// order, x)`). The capture records that memory after the call, with the
// results; replay, where the external code does not run, writes it into its
// own object before the observed code continues.

// LastUnwrittenOutFormat is the last log format version whose RETURN_OUT
// events do not hold the post-call contents of an outcall's map receiver
// or argument, of an owned pointer receiver's pointee, or of an owned
// address passed as an interface. Replay of such a log leaves that memory
// as it was, as the capture's player did.
const LastUnwrittenOutFormat = 7

// writesBack reports whether the log replayed holds the values OutMap and
// OutPointee record: always in the capture.
func writesBack() bool {
	return play == nil || play.format > LastUnwrittenOutFormat
}

// LastUnmarkedOutFormat is the last log format version whose RETURN_OUT
// events do not hold the post-call pointee of an address the observed code
// marked owned at run time (Own, OutPointeeIfOwned), of an argument that
// points to a struct of an observed type, or of the receiver of a method
// promoted from an external struct embedded by value in observed memory.
// Replay of such a log leaves that memory as it was.
const LastUnmarkedOutFormat = 8

// writesBackMarked reports whether the log replayed holds the pointees
// LastUnmarkedOutFormat names: always in the capture.
func writesBackMarked() bool {
	return play == nil || play.format > LastUnmarkedOutFormat
}

// LastUnrebuiltOutFormat is the last log format version whose RETURN_OUT
// events do not hold the post-call pointee of memory an incall's reflected
// argument brought into the set (markRebuilt: toml's UnmarshalText on
// `&x.D`) or of memory reflect.New made in observed code (OwnNew).
// Replay of such a log counts neither as owned, and leaves that memory as
// it was.
const LastUnrebuiltOutFormat = 9

// writesBackRebuilt reports whether the log replayed holds the pointees
// LastUnrebuiltOutFormat names: always in the capture.
func writesBackRebuilt() bool {
	return play == nil || play.format > LastUnrebuiltOutFormat
}

// SetMarkedOutPointee writes the recorded pointee back through p (replay),
// for the out-parameters that logs after LastUnmarkedOutFormat record.
func SetMarkedOutPointee(s *Stream, p any) {
	if !writesBackMarked() {
		return
	}
	SetPointee(s, p)
}

// OutMap appends m's contents after the outcall (capture).
func OutMap[M ~map[K]V, K comparable, V any](s *Stream, m M) {
	Encode(s, m)
}

// SetMap makes m hold the recorded contents (replay): the entries external
// code added, changed or deleted in the capture. m stays the same map, so
// every reference the observed code holds to it sees them.
func SetMap[M ~map[K]V, K comparable, V any](s *Stream, m M) {
	if !writesBack() {
		return
	}
	d := Decode[M](s)
	if m == nil {
		return // the capture's call got nil too and could not write it
	}
	clear(m)
	maps.Copy(m, d)
}

// OutPointee appends the pointee of p after the outcall (capture), as
// Pointee does for the pointer out-parameters logs of every version hold.
func OutPointee(s *Stream, p any) {
	Pointee(s, p)
	noteOwned(s, p) // kept.go
}

// SetOutPointee writes the recorded pointee back through p (replay).
func SetOutPointee(s *Stream, p any) {
	if !writesBack() {
		return
	}
	SetPointee(s, p)
	noteOwned(s, p) // kept.go
}
