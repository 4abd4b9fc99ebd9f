package probe

import (
	"slices"
	"strconv"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// Maps an incall returns are watched like the slices it returns
// (slicewatch.go): a map crosses by value, yet a document that hands out
// its own metadata map (goldmark's Document.Meta) reads in later results
// what the caller put in it. The capture keeps the map with a shallow copy
// of its entries, compares the two before each top-level incall that
// starts alone and records a change as a WRITE_IN with the same site and
// parent as a slice's ("result K of <incall site>"), whose values are K and
// the whole map now. Replay's incall wrapper registers the map the
// replayed incall returned, and the player makes its entries the recorded
// ones.
//
// An entry is compared by the bytes of its key and element: a pointer or
// an interface by the address it holds, so a write through it is not
// seen (as for a slice's elements). Only the latest maxWatchedMaps maps of
// at most maxWatchedMapEntries entries are watched.

const (
	maxWatchedMaps       = 64
	maxWatchedMapEntries = 256
)

type watchedMapMem struct {
	m       unsafe.Pointer // the map, once in the list
	seq     uint64
	k       int
	site    string
	changed func() bool     // the map's entries differ from the copy
	retake  func()          // copies the map's entries again
	enc     func(s *Stream) // encodes the map as it is now
}

// WatchMap watches result k of the incall of frame f, a map: in the
// capture its entries, in replay the map itself, for recorded writes into
// it. The incall wrapper calls it after encoding the results.
func WatchMap[M ~map[K]V, K comparable, V any](s *Stream, f int, k int, r M) {
	if r == nil || f >= len(s.frames) || s.idleCall {
		return
	}
	fr := s.frames[f]
	w := &watchedSlices
	if replaying {
		w.replayWrite(sliceKey{fr.seq, k}, func(s *Stream) bool {
			v := Decode[M](s)
			if s.dec.Err != nil {
				return false
			}
			clear(r)
			for k, e := range v {
				r[k] = e
			}
			return true
		})
		return
	}
	if len(r) > maxWatchedMapEntries {
		return
	}
	site := ""
	if fr.site != nil {
		site = fr.site.Name
	}
	shadow := make(M, len(r))
	retake := func() {
		clear(shadow)
		for k, e := range r {
			shadow[k] = e
		}
	}
	retake()
	m := &watchedMapMem{m: *(*unsafe.Pointer)(unsafe.Pointer(&r)), seq: fr.seq, k: k, site: site, retake: retake,
		changed: func() bool {
			if len(r) != len(shadow) {
				return len(r) <= maxWatchedMapEntries
			}
			for k, e := range r {
				old, ok := shadow[k]
				if !ok || !sameBytes(&e, &old) {
					return true
				}
			}
			return false
		},
		enc: func(s *Stream) { Encode(s, r) }}
	w.mu.Lock()
	// A map returned again is watched under its latest incall only.
	w.maps = slices.DeleteFunc(w.maps, func(o *watchedMapMem) bool { return o.m == m.m })
	w.maps = append(w.maps, m)
	if len(w.maps) > maxWatchedMaps {
		w.maps[0] = nil
		w.maps = w.maps[1:]
	}
	w.mu.Unlock()
	if !w.any.Load() {
		w.any.Store(true)
		entryChecks.Or(entrySlices)
	}
}

// sameBytes compares two values by their memory.
func sameBytes[V any](a, b *V) bool {
	n := unsafe.Sizeof(*a)
	return n == 0 || string(unsafe.Slice((*byte)(unsafe.Pointer(a)), n)) == string(unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}

// checkMaps records a WRITE_IN for every watched map whose entries changed
// since its copy (checkSlices, with the lock held).
func checkMaps(s *Stream) {
	w := &watchedSlices
	for _, m := range w.maps {
		if !m.changed() {
			continue
		}
		m.retake()
		s.enc.Buf = s.enc.Buf[:0]
		s.enc.Outgoing = false // external code's values enter the set
		s.Int(int64(m.k))
		m.enc(s)
		s.ev = eventlog.Event{Stream: s.id, Kind: eventlog.KindWriteIn, Parent: m.seq,
			Site: sliceWritePrefix + strconv.Itoa(m.k) + " of " + m.site, Values: s.enc.Buf}
		s.append()
		s.evSite = nil
	}
}

// refreshMaps copies the watched maps' entries again when the last
// top-level incall ends (refreshSlices, with the lock held).
func refreshMaps() {
	for _, m := range watchedSlices.maps {
		m.retake()
	}
}
