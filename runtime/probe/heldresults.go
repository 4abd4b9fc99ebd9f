package probe

import (
	"bytes"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// A struct an incall returns by value may hold a map of the observed state
// (gods' linkedhashmap returns Iterator{table: m.table}). The caller keeps
// its copy (it := m.Iterator()) and hands it back later (it.Next() on &it):
// the log gives the copy's contents at that sight by value, a map by its
// entries (a slice has its array's identity, a map none), and replay used
// to rebuild the map as a new one, which the observed code's later writes
// (m.Put) did not reach, so a later read through the copy (it.Value())
// differed.
//
// Replay therefore keeps the latest values of such types that its incalls
// returned (KeepResult; the transform calls it for results of a struct or
// array type holding a map in its own memory), and a value of one of those
// types that the log introduces (an object first seen with its contents,
// or a value Decode reads: an argument) whose recorded contents equal a
// kept value as it is now (pointers by address, maps by their entries: the
// comparison encoding of watched variables, sameness) is made a copy of
// that value, so it shares its maps as the capture's copy did. Where two
// kept values equal it but do not share their memory, which one it copied
// is unknown, and it is rebuilt from the log as before.

const maxHeldResults = 64

type heldResults struct {
	n     atomic.Int32 // values kept
	mu    sync.Mutex
	list  []reflect.Value // pointers to the kept values, oldest first
	types map[reflect.Type]int
}

var held heldResults

// KeepResult keeps, in replay, a copy of result r of an incall, a struct or
// array holding a map (see heldResults). The incall wrapper calls
// it after encoding the results.
func KeepResult[T any](s *Stream, r T) {
	if s.idleCall {
		return
	}
	if !replaying {
		if ckptOn {
			holdMaps(reflect.ValueOf(&r).Elem())
		}
		return
	}
	c := new(T)
	*c = r
	held.add(reflect.ValueOf(c))
}

func (h *heldResults) add(p reflect.Value) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.types == nil {
		h.types = map[reflect.Type]int{}
	}
	h.list = append(h.list, p)
	h.types[p.Type().Elem()]++
	if len(h.list) > maxHeldResults {
		old := h.list[0].Type().Elem()
		if h.types[old]--; h.types[old] == 0 {
			delete(h.types, old)
		}
		h.list[0] = reflect.Value{}
		h.list = h.list[1:]
	}
	h.n.Store(int32(len(h.list)))
}

// holdMaps notes, in the capture with checkpoints on, the maps result v
// holds in its own memory: a checkpoint holds maps by their entries, so
// the restored state would not share a map with the caller's copy of v,
// and replay from it has no kept value to share with. A checkpoint is
// refused while the observed state reaches one of them, as for the maps
// incalls return (mapwatch.go).
func holdMaps(v reflect.Value) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Map:
			if !v.IsNil() {
				watchedSlices.hold(v.UnsafePointer())
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		}
	}
	walk(v)
}

// hold adds map m to the maps results held (the latest maxHeldResults).
func (w *sliceWatch) hold(m unsafe.Pointer) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, o := range w.held {
		if o.m == m {
			return
		}
	}
	w.held = append(w.held, &watchedMapMem{m: m})
	if len(w.held) > maxHeldResults {
		w.held[0] = nil
		w.held = w.held[1:]
	}
}

// share makes v, a value just decoded (settable), the kept value equal to
// it, if there is exactly one such value's memory.
func (h *heldResults) share(v reflect.Value) {
	if h.n.Load() == 0 || !v.CanSet() {
		return
	}
	t := v.Type()
	h.mu.Lock()
	var cands []reflect.Value
	if h.types[t] > 0 {
		for _, p := range h.list {
			if p.Type().Elem() == t {
				cands = append(cands, p)
			}
		}
	}
	h.mu.Unlock()
	if len(cands) == 0 {
		return
	}
	want := sameEncoding(v)
	var match reflect.Value
	for i := len(cands) - 1; i >= 0; i-- {
		c := cands[i]
		if !bytes.Equal(sameEncoding(c.Elem()), want) {
			continue
		}
		if !match.IsValid() {
			match = c
			continue
		}
		if !sameMemory(match.UnsafePointer(), c.UnsafePointer(), t.Size()) {
			return // two values it may be a copy of
		}
	}
	if match.IsValid() {
		v.Set(match.Elem())
	}
}

// sameEncoding encodes v for comparison: objects by address, never with
// contents, numbering and marking nothing (no event's encoding).
func sameEncoding(v reflect.Value) []byte {
	e := value.Encoder{Objects: &sameness{}, Unmarked: true}
	e.EncodeValue(v)
	return e.Buf
}

// Shared implements value.SharedResolver for the decoder's objects first
// seen with their contents.
func (p *player) Shared(v reflect.Value) { held.share(v) }
