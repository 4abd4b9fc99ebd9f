package probe

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Slices an incall returns share memory with the observed state: a buffer
// hands out b.data[len(b.data)-n:] for the caller to fill, and its later
// results read what the caller wrote. The slice crossed by value, so those
// writes are no event, and replay's buffer would keep zeros. The capture
// therefore watches the memory of a slice of plain memory (numbers,
// booleans, strings and arrays and structs of them) that an incall returns,
// as it watches the exported fields of observed objects
// (writefields.go): before a top-level incall it compares the memory with
// a shadow taken when the slice was returned and again when the last
// top-level incall ended, and records a change as a WRITE_IN whose site
// names the result ("result 0 of (*example.com/p.Buffer).Extend"), whose
// parent is the incall's CALL_IN (tools that renumber a log's events
// renumber parents) and whose values are the result's index and the
// slice's elements now. Replay's incall wrapper registers the slice it
// returned under the same CALL_IN and index, and the player copies the
// recorded elements into it.
//
// Only the latest maxWatchedSlices slices of at most maxWatchedSliceBytes
// each are watched (the capture keeps their arrays alive while it does,
// and compares them at every top-level incall's entry); a write through an
// older or a larger one is not recorded, as before.

const (
	maxWatchedSlices     = 64
	maxWatchedSliceBytes = 4 << 10
)

// sliceWritePrefix starts the site of a WRITE_IN into a returned slice.
const sliceWritePrefix = "result "

// entrySlices: a slice is watched (checkWrites).
const entrySlices uint32 = 1 << 8

type watchedSliceMem struct {
	seq    uint64         // the incall's CALL_IN
	k      int            // the result's index
	site   string         // the incall's site name
	p      unsafe.Pointer // the first element: it keeps the array alive
	n      uintptr        // bytes
	shadow []byte
	enc    func(s *Stream) // encodes the slice's elements as they are now
}

type sliceKey struct {
	seq uint64
	k   int
}

var watchedSlices sliceWatch

// sliceWatch holds the slices and maps incalls returned that are watched
// for the caller's writes.
type sliceWatch struct {
	mu   sync.Mutex
	any  atomic.Bool
	list []*watchedSliceMem // capture: oldest first
	maps []*watchedMapMem   // capture: maps incalls returned (mapwatch.go)
	held []*watchedMapMem   // capture: maps held in structs incalls returned, for checkpoints only (heldresults.go)

	// Replay: what writes the recorded elements into the slice the
	// replayed incall returned, by its CALL_IN and index.
	write map[sliceKey]func(s *Stream) bool
	order []sliceKey
}

// plainTypes caches plainMemory by type.
var plainTypes sync.Map // reflect.Type -> bool

// WatchSlice watches result k of the incall of frame f, a slice: in the
// capture its memory, in replay the slice itself, for recorded writes into
// it. The incall wrapper calls it after encoding the results.
func WatchSlice[S ~[]E, E any](s *Stream, f int, k int, r S) {
	if len(r) == 0 || f >= len(s.frames) || s.idleCall {
		return
	}
	et := reflect.TypeFor[E]()
	plain, ok := plainTypes.Load(et)
	if !ok {
		plain, _ = plainTypes.LoadOrStore(et, plainMemory(et))
	}
	if !plain.(bool) {
		return
	}
	fr := s.frames[f]
	w := &watchedSlices
	if replaying {
		w.replayWrite(sliceKey{fr.seq, k}, func(s *Stream) bool {
			v := Decode[S](s)
			if s.dec.Err != nil || len(v) != len(r) {
				return false
			}
			copy(r, v)
			return true
		})
		return
	}
	n := uintptr(len(r)) * unsafe.Sizeof(r[0])
	if n == 0 || n > maxWatchedSliceBytes {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(r))
	site := ""
	if fr.site != nil {
		site = fr.site.Name
	}
	m := &watchedSliceMem{seq: fr.seq, k: k, site: site, p: p, n: n,
		shadow: bytes.Clone(unsafe.Slice((*byte)(p), n)),
		enc:    func(s *Stream) { Encode(s, r) }}
	w.mu.Lock()
	w.list = append(w.list, m)
	if len(w.list) > maxWatchedSlices {
		w.list[0] = nil
		w.list = w.list[1:]
	}
	w.mu.Unlock()
	if !w.any.Load() {
		w.any.Store(true)
		entryChecks.Or(entrySlices)
	}
}

// checkSlices records a WRITE_IN for every watched slice whose memory
// changed since its shadow, before s's top-level incall (when it is the
// only one in progress).
func checkSlices(s *Stream) {
	w := &watchedSlices
	w.mu.Lock()
	defer w.mu.Unlock()
	saved := s.site
	for _, m := range w.list {
		if !changedMemory(m) {
			continue
		}
		copy(m.shadow, unsafe.Slice((*byte)(m.p), m.n))
		s.enc.Buf = s.enc.Buf[:0]
		s.enc.Outgoing = false // external code's values enter the set
		s.Int(int64(m.k))
		m.enc(s)
		s.ev = eventlog.Event{Stream: s.id, Kind: eventlog.KindWriteIn, Parent: m.seq,
			Site: sliceWritePrefix + strconv.Itoa(m.k) + " of " + m.site, Values: s.enc.Buf}
		s.append()
		s.evSite = nil
	}
	checkMaps(s)
	s.enc.Buf = s.enc.Buf[:0]
	s.site = saved
}

// changedMemory compares without the race detector: the comparison reads
// memory other goroutines may write (a torn read only records the slice
// again at the next check).
//
//go:norace
func changedMemory(m *watchedSliceMem) bool {
	return !bytes.Equal(unsafe.Slice((*byte)(m.p), m.n), m.shadow)
}

// refreshSlices takes the watched slices' memory as their shadows when the
// last top-level incall ends: observed code's own writes are no WRITE_IN.
//
//go:norace
func refreshSlices() {
	w := &watchedSlices
	w.mu.Lock()
	for _, m := range w.list {
		copy(m.shadow, unsafe.Slice((*byte)(m.p), m.n))
	}
	refreshMaps()
	w.mu.Unlock()
}

// writeSlice performs a recorded WRITE_IN into a slice an incall returned.
func (p *player) writeSlice(s *Stream, e *eventlog.Event) bool {
	s.dec = value.Decoder{Buf: e.Values}
	k := s.DecodeInt()
	w := &watchedSlices
	w.mu.Lock()
	write := w.write[sliceKey{e.Parent, int(k)}]
	w.mu.Unlock()
	if s.dec.Err != nil || write == nil {
		p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the log writes into a slice that the replayed incall did not return",
			Expected: p.describe(e), Actual: "no such slice"})
		return false
	}
	s.res = performed{p}
	ok := write(s)
	s.res = nil
	if !ok || s.dec.Off != len(s.dec.Buf) {
		p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: "the recorded elements do not fit the slice the replayed incall returned",
			Expected: p.describe(e), Actual: strings.TrimPrefix(e.Site, sliceWritePrefix)})
		return false
	}
	return true
}

// replayWrite keeps how replay performs a recorded WRITE_IN of result
// key.k of the incall key.seq (a slice or a map it returned), the latest
// 64*maxWatchedSlices of them.
func (w *sliceWatch) replayWrite(key sliceKey, write func(*Stream) bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.write == nil {
		w.write = map[sliceKey]func(*Stream) bool{}
	}
	if _, dup := w.write[key]; !dup {
		w.order = append(w.order, key)
	}
	w.write[key] = write
	if len(w.order) > 64*maxWatchedSlices {
		delete(w.write, w.order[0])
		w.order = w.order[1:]
	}
}
