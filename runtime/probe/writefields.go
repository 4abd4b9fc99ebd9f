package probe

import (
	"bytes"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// WRITE_IN for exported fields of observed objects (pflag's tests set
// flag.NoOptDefVal, fs.SortFlags, fs.Usage,
// fs.ParseErrorsAllowlist.UnknownFlags between incalls; corpus fields).
//
// What is watched: every object of an observed struct type with exported
// fields that got an object ID in the capture (it crossed the boundary, or
// it is the object an exported variable holds after initialisation), for
// as long as it lives. Its exported fields — and the exported fields of
// unexported structs it embeds by value — are copied, as raw memory, into
// a shadow when it gets its ID and again at the end of every top-level
// incall (what observed code left); before every top-level incall the
// fields are compared with the shadow, and each field whose memory changed
// is recorded as a WRITE_IN (site "(*T).Field", receiver = the object, the
// new value in the log's encoding). Replay's driver performs the write on
// its own object before the incall.
//
// Comparing raw memory detects every assignment of a field (a string, a
// slice, map or function value replaced, a struct-valued field changed in
// any of its parts), not writes below it: elements of a slice or map field,
// fields of an object an exported pointer field points to (unless that
// object is watched itself). Types without exported fields are never
// watched: what they cost is one atomic load per top-level incall.

// fieldsType describes the watched fields of an observed struct type.
type fieldsType struct {
	recv   string       // the log's name of the pointer type, "*example.com/p.T"
	fields []fieldSpan  // in memory order
	ranges []memRange   // the fields' memory, adjacent fields merged
	typ    reflect.Type // the struct type
	// whole: ranges is the whole object (wholeFieldsOf); a change outside the
	// exported fields is recorded as a write of the whole value.
	whole bool
}

type fieldSpan struct {
	name   string // the field's name (promoted through unexported embedded structs)
	site   string // "(*example.com/p.T).Name"
	off    uintptr
	typ    reflect.Type
	shadow uintptr // offset of its copy in the shadow
}

// overlaps reports whether one of the ranges rs lies in [from, to).
func overlaps(rs []value.Span, from, to uintptr) bool {
	for _, r := range rs {
		if r.Offset < to && r.Offset+r.Size > from {
			return true
		}
	}
	return false
}

type memRange struct{ off, size uintptr }

// fieldsTypes caches fieldsOf per struct type (nil: nothing to watch).
var fieldsTypes sync.Map // reflect.Type -> *fieldsType

// fieldsOf returns the watched fields of struct type t, or nil if it has
// none.
func fieldsOf(t reflect.Type) *fieldsType {
	if ft, ok := fieldsTypes.Load(t); ok {
		return ft.(*fieldsType)
	}
	ft := &fieldsType{recv: value.TypeName(reflect.PointerTo(t)), typ: t}
	exported, hidden := value.ExportedFields(t) // hidden: the unexported fields' memory
	for _, f := range exported {
		ft.fields = append(ft.fields, fieldSpan{name: f.Name, site: "(" + ft.recv + ")." + f.Name, off: f.Offset, typ: f.Type})
	}
	if len(ft.fields) == 0 {
		ft = nil
	} else {
		sort.Slice(ft.fields, func(i, j int) bool { return ft.fields[i].off < ft.fields[j].off })
		// One comparison per run of exported fields: padding between them
		// joins the run (nothing writes padding but a copy of the whole
		// struct, which is a write of every field anyway), an unexported
		// field ends it.
		for _, f := range ft.fields {
			n := len(ft.ranges)
			if n > 0 && !overlaps(hidden, ft.ranges[n-1].off+ft.ranges[n-1].size, f.off) {
				ft.ranges[n-1].size = f.off + f.typ.Size() - ft.ranges[n-1].off
			} else {
				ft.ranges = append(ft.ranges, memRange{f.off, f.typ.Size()})
			}
		}
		// Where each field's copy is in the shadow (the ranges, concatenated).
		at, r := uintptr(0), 0
		for i := range ft.fields {
			f := &ft.fields[i]
			for f.off >= ft.ranges[r].off+ft.ranges[r].size {
				at += ft.ranges[r].size
				r++
			}
			f.shadow = at + f.off - ft.ranges[r].off
		}
	}
	actual, _ := fieldsTypes.LoadOrStore(t, ft)
	return actual.(*fieldsType)
}

// Whole values. External code cannot write an unexported field of an
// observed type, but it can overwrite the whole value where the memory is
// its own: goldmark's ast.BaseBlock.SetLines does b.lines = *v, a
// text.Segments inside an external node that text.NewBlockReader then
// reads; a range variable of a file older than go1.22 is one variable for
// the whole loop, and go-toml hands its address to e.Key() at every
// iteration. Objects whose first sight is in values entering the set (an
// incall's receiver or argument, an outcall's result: external code had
// their address first) are watched whole: their shadow is all of their
// memory, and a change outside the exported fields is recorded as a
// WRITE_IN of the whole value (site "(*T).*"), which replay writes over its
// own object. Objects observed code made and handed out are watched by
// their exported fields only: external code reaches their unexported
// fields only through a pointer (*p = v), which is rare, and watching
// every object that crosses whole would make each check compare them all.
// Types holding a sync or sync/atomic value are not watched whole: a lock
// another goroutine holds is no write, and replay must not overwrite its
// own.

// wholeWriteSuffix ends the site of a WRITE_IN of a whole value.
const wholeWriteSuffix = ".*"

// wholeTypes caches wholeFieldsOf per struct type (nil: not watched whole).
var wholeTypes sync.Map // reflect.Type -> *fieldsType

// wholeFieldsOf returns the whole-object variant of fieldsOf(t), or nil if t
// holds a sync value or has no memory.
func wholeFieldsOf(t reflect.Type) *fieldsType {
	if ft, ok := wholeTypes.Load(t); ok {
		return ft.(*fieldsType)
	}
	var ft *fieldsType
	if t.Size() != 0 && !holdsSync(t, 0) {
		ft = &fieldsType{recv: value.TypeName(reflect.PointerTo(t)), typ: t, whole: true,
			ranges: []memRange{{0, t.Size()}}}
		exported, _ := value.ExportedFields(t)
		for _, f := range exported {
			ft.fields = append(ft.fields, fieldSpan{name: f.Name, site: "(" + ft.recv + ")." + f.Name, off: f.Offset, typ: f.Type, shadow: f.Offset})
		}
		sort.Slice(ft.fields, func(i, j int) bool { return ft.fields[i].off < ft.fields[j].off })
	}
	actual, _ := wholeTypes.LoadOrStore(t, ft)
	return actual.(*fieldsType)
}

// holdsSync reports whether a value of type t holds, by value, a value of a
// type from sync or sync/atomic.
func holdsSync(t reflect.Type, depth int) bool {
	if p := t.PkgPath(); p == "sync" || p == "sync/atomic" {
		return true
	}
	if depth > 16 {
		return true // not worth watching whole
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsSync(t.Field(i).Type, depth+1) {
				return true
			}
		}
	case reflect.Array:
		return holdsSync(t.Elem(), depth+1)
	}
	return false
}

// onlyExportedChanged reports whether old and now, shadows of ft (whole),
// differ in exported fields only.
func (ft *fieldsType) onlyExportedChanged(old, now []byte) bool {
	at := uintptr(0)
	for _, f := range ft.fields {
		if !bytes.Equal(old[at:f.off], now[at:f.off]) {
			return false
		}
		at = f.off + f.typ.Size()
	}
	return bytes.Equal(old[at:], now[at:])
}

func (ft *fieldsType) field(name string) *fieldSpan {
	for i := range ft.fields {
		if ft.fields[i].name == name {
			return &ft.fields[i]
		}
	}
	return nil
}

// watchedObject is an object whose exported fields are watched.
type watchedObject struct {
	wp     weak.Pointer[byte] // the object; nil once collected
	id     uint64             // its object ID in the log
	ft     *fieldsType
	shadow atomic.Pointer[[]byte] // the fields' memory at the last check
	// addr is the object's address, for the comparison of an unchanged
	// object without its weak pointer (checkFieldsSlow).
	addr uintptr
	// gone is set once the object is known to be collected: by a cleanup
	// attached to it, or when its weak pointer yields nil.
	gone atomic.Bool
	// users counts the top-level incalls in progress that received the
	// object (enterObjects), under mu, which also orders their per-object
	// checks and refreshes.
	mu    sync.Mutex
	users int32
}

// watchedFields is the set of watched objects.
var watchedFields struct {
	// add guards list's growth; it is taken under the object table's lock
	// (watchFields), so it must never be held while taking that lock.
	add  sync.Mutex
	all  []*watchedObject                 // under add
	list atomic.Pointer[[]*watchedObject] // all's elements, read without a lock
	byID sync.Map                         // object ID -> *watchedObject (enterObjects)
	any  atomic.Bool                      // keeps the checks off the hot path while nothing is watched
	// record serialises the recording of changes (a change is recorded
	// once, should several streams see it); it may take the object table's
	// lock (encoding), never the other way round.
	record sync.Mutex
	// recording: an incall's entry check holds record and encodes fields
	// (instrumented reads, under -race). An incall that begins meanwhile
	// waits for it before its observed code may write them (enterFields).
	recording atomic.Bool
}

// watchFields starts watching the object v points to, which just got ID
// id in the capture's object table (called with the table's lock held), if
// it is a pointer to an observed struct type: whole if it was first seen
// entering the set (incoming), else if the type has exported fields.
func watchFields(v reflect.Value, wp weak.Pointer[byte], id uint64, incoming bool) {
	if v.Kind() != reflect.Pointer || v.Type().Elem().Kind() != reflect.Struct {
		return
	}
	t := v.Type().Elem()
	if !value.IsObservedType(t) {
		return
	}
	var ft *fieldsType
	if incoming {
		ft = wholeFieldsOf(t)
	}
	if ft == nil {
		ft = fieldsOf(t)
	}
	if ft == nil {
		return
	}
	w := &watchedObject{wp: wp, id: id, ft: ft, addr: uintptr(v.UnsafePointer())}
	sh := ft.copyOf(v.UnsafePointer(), nil)
	w.shadow.Store(&sh)
	markGoneWhenCollected(v.UnsafePointer(), w)
	watchedFields.add.Lock()
	// Appending in place is amortised and safe: readers see only the
	// elements of the slice they loaded.
	watchedFields.all = append(watchedFields.all, w)
	watchedFields.byID.Store(id, w)
	list := watchedFields.all[:len(watchedFields.all):len(watchedFields.all)]
	watchedFields.list.Store(&list)
	watchedFields.any.Store(true)
	entryChecks.Or(entryFields)
	watchedFields.add.Unlock()
}

// copyOf copies the watched fields' memory of the object at p into buf.
//
// go:norace, as same: the object may be written by another goroutine at
// the same time (a goroutine started by observed code, external code's own
// goroutine), which the program's own synchronisation orders with its own
// uses but not with this copy. A torn copy is harmless: it differs from the
// memory, and the next check or refresh takes it again.
//
//go:norace
func (ft *fieldsType) copyOf(p unsafe.Pointer, buf []byte) []byte {
	buf = buf[:0]
	for _, r := range ft.ranges {
		for i := uintptr(0); i < r.size; i++ {
			buf = append(buf, *(*byte)(unsafe.Add(p, r.off+i)))
		}
	}
	return buf
}

// same reports whether the watched fields of the object at p still hold
// shadow's memory (word by word, then the tail).
//
//go:norace
func (ft *fieldsType) same(p unsafe.Pointer, shadow []byte) bool {
	at := uintptr(0)
	for _, r := range ft.ranges {
		sh := unsafe.Pointer(unsafe.SliceData(shadow[at : at+r.size]))
		i := uintptr(0)
		for ; i+8 <= r.size; i += 8 {
			if *(*uint64)(unsafe.Add(p, r.off+i)) != *(*uint64)(unsafe.Add(sh, i)) {
				return false
			}
		}
		for ; i < r.size; i++ {
			if *(*byte)(unsafe.Add(p, r.off+i)) != *(*byte)(unsafe.Add(sh, i)) {
				return false
			}
		}
		at += r.size
	}
	return true
}

// fieldIncalls counts the top-level incalls in progress. Fields are
// compared only by an incall that starts when no other is in progress, and
// taken as the new shadow only by the last to end: while another goroutine
// runs observed code or waits for an outcall, a field may be in the middle
// of a write by observed code or by the outcall's callee (an
// out-parameter), which is no write between incalls.
//
// Every top-level incall counts, also while nothing is watched: an incall
// that began before the first object was watched may be the one that
// watches it (an outcall's argument, such as freshids' &lv to kv.Decode)
// and then write it, by its callee, while another goroutine's incall
// compares (TestWatchedFieldsOfIncallBegunBeforeWatching: the race
// detector reported the recording's reads of the changed fields against
// the callee's writes, and the capture logged the out-parameter's write as
// a WRITE_IN).
//
// The low 32 bits are the count, the high 32 count entries (modulo 2^32):
// a value tells whether any incall began since it was read, also one that
// has ended since (an entry check must not take a change that incall's
// observed code made for a write between incalls, nor the last incall to
// end miss a change made by one that began and ended during its refresh).
var fieldIncalls atomic.Uint64

// fieldIncall is what an entry adds to fieldIncalls.
const fieldIncall = 1<<32 | 1

// incallsInProgress is the count part of v, a value of fieldIncalls.
func incallsInProgress(v uint64) uint32 { return uint32(v) }

// enterFields counts s's top-level incall and reports whether it is the
// only one in progress (then checkWrites compares the watched fields).
func enterFields(s *Stream) (alone bool) {
	if s.inFields {
		return false
	}
	s.inFields = true
	s.fieldsEntry = fieldIncalls.Add(fieldIncall)
	if incallsInProgress(s.fieldsEntry) == 1 {
		return true
	}
	if watchedFields.recording.Load() {
		// An entry check that found this count 1 is encoding fields: let
		// it end before observed code may write them (checkFieldsSlow).
		watchedFields.record.Lock()
		watchedFields.record.Unlock()
	}
	return false
}

// refreshFields ends s's top-level incall: the last one to end takes what
// observed code left in the watched fields as the new shadow (only changes
// made between incalls are WRITE_IN). Inlined: one load of the stream.
func refreshFields(s *Stream) {
	if s.inFields {
		leaveFields(s)
	}
}

// The count goes down by compare-and-swap from the value the decision was
// made on, so that of incalls ending at the same time one sees itself the
// last, and the last takes the shadow after every other incall ended (with
// a load and an add, both could see the other and neither take it;
// TestWatchedFieldsConcurrentOutParams).
func leaveFields(s *Stream) {
	s.inFields = false
	if len(s.heldObjs) != 0 {
		releaseObjects(s)
	}
	for {
		v := fieldIncalls.Load()
		if incallsInProgress(v) == 1 && watchedFields.any.Load() {
			checkFieldsSlow(s, false)
		}
		if incallsInProgress(v) == 1 && watchedSlices.any.Load() {
			refreshSlices()
		}
		// Fails if an incall began (or ended) since v: then again.
		if fieldIncalls.CompareAndSwap(v, v-1) {
			return
		}
	}
}

// checkFieldsSlow records a WRITE_IN for every watched field that external
// code changed since the last check, when s is about to make a top-level
// incall (record; from checkWrites: while nothing is watched that is one
// atomic load for variables and fields together); else it takes the
// fields' memory as the new shadow.
//
// An unchanged object is compared at its address, without its weak
// pointer (TestWatchedGarbageCollectedWhileIncallsRun): weak.Pointer.Value
// during a collection's mark phase marks the object reachable, so checks
// that took every watched object's weak pointer kept every watched object
// alive through every collection they overlapped, and a program making
// incalls all the time never freed one: the set grew with every object
// that crossed. The memory at the address is the heap's even after the
// object was collected (a cleanup marks it gone soon after); if it no
// longer holds the shadow, the weak pointer tells a changed object from a
// collected one.
//
// Recording holds record, with recording set, from the first change found
// to the end, and goes on only if no incall began since s's: one that did
// may have written the fields by observed code (then nothing is recorded:
// the change cannot be told from observed code's, and the last incall to
// end takes it into the shadow), and one that begins later waits for the
// lock (enterFields).
func checkFieldsSlow(s *Stream, record bool) {
	dead := 0
	locked := false
	for _, w := range *watchedFields.list.Load() {
		if w.gone.Load() {
			dead++
			continue
		}
		if w.ft.sameAt(w.addr, *w.shadow.Load()) {
			continue
		}
		obj := w.wp.Value()
		if obj == nil {
			w.gone.Store(true)
			dead++
			continue
		}
		p := unsafe.Pointer(obj)
		if w.ft.same(p, *w.shadow.Load()) {
			continue
		}
		if !locked {
			watchedFields.record.Lock()
			locked = true
			if record {
				watchedFields.recording.Store(true)
				if fieldIncalls.Load() != s.fieldsEntry {
					break
				}
			}
		}
		if old := *w.shadow.Load(); !w.ft.same(p, old) {
			sh := w.ft.copyOf(p, nil)
			if record {
				recordFieldWrites(s, w, p, old, sh)
			}
			w.shadow.Store(&sh)
		}
	}
	if locked {
		if record {
			watchedFields.recording.Store(false)
		}
		watchedFields.record.Unlock()
	}
	if dead > 0 {
		dropCollected()
	}
}

// recordFieldWrites emits a WRITE_IN for each field of the object at p
// whose memory differs between old and now.
func recordFieldWrites(s *Stream, w *watchedObject, p unsafe.Pointer, old, now []byte) {
	saved := s.site
	if w.ft.whole && !w.ft.onlyExportedChanged(old, now) {
		s.enc.Buf = s.enc.Buf[:0]
		s.enc.Objects = captureObjects
		s.enc.Outgoing = false // external code's value enters the set
		s.enc.EncodeValue(reflect.NewAt(w.ft.typ, p).Elem())
		s.ev = eventlog.Event{Stream: s.id, Kind: eventlog.KindWriteIn, Site: "(" + w.ft.recv + ")" + wholeWriteSuffix,
			Parent: s.parent(), RecvType: w.ft.recv, RecvID: w.id, Values: s.enc.Buf}
		s.append()
		s.evSite = nil
		s.enc.Buf = s.enc.Buf[:0]
		s.site = saved
		return
	}
	for i := range w.ft.fields {
		f := &w.ft.fields[i]
		n := f.typ.Size()
		if bytes.Equal(old[f.shadow:f.shadow+n], now[f.shadow:f.shadow+n]) {
			continue
		}
		s.enc.Buf = s.enc.Buf[:0]
		s.enc.Objects = captureObjects
		s.enc.Outgoing = false // external code's value enters the set
		// The log's encoding: numbered, with the contents of objects the
		// log has not seen (a function value from outside gets its ID).
		s.enc.EncodeValue(reflect.NewAt(f.typ, unsafe.Add(p, f.off)).Elem())
		s.ev = eventlog.Event{Stream: s.id, Kind: eventlog.KindWriteIn, Site: f.site, Parent: s.parent(),
			RecvType: w.ft.recv, RecvID: w.id, Values: s.enc.Buf}
		s.append()
		s.evSite = nil // ev no longer holds a site's strings (see emit)
	}
	s.enc.Buf = s.enc.Buf[:0]
	s.site = saved
}

// Writes while other incalls are in progress. A program whose incalls
// overlap (goroutines that each set a field of their own object and call
// its methods, go-runewidth's TestRuneWidthConcurrent; a busy server) may
// never make an incall alone, so the check above would record such writes
// late or never. So each top-level incall also checks the watched objects
// it receives (its receiver, its arguments and the known objects their
// encoding names), whatever else is in progress: its observed code is
// about to read them on this goroutine, so a write by external code that
// the program orders before that read is ordered before this check too.
// An object is compared only while no other incall that received it is in
// progress (users): such an incall's observed code may be writing it (a
// method taking the object's own lock). The change is recorded as a
// WRITE_IN just before the incall's CALL_IN, and replay's driver performs
// it there, at that event's turn. When the last incall that received the
// object ends, what observed code left is taken as its shadow, so that
// observed code's own writes are not taken for external code's by the next
// incall that receives it.

// enterObjects counts s's top-level incall, whose CALL_IN is in s.enc.Buf,
// as a user of each watched object the CALL_IN names, and records a
// WRITE_IN for each watched field of one that changed since its shadow,
// unless another incall in progress received it.
func enterObjects(s *Stream) {
	for _, id := range s.pins.noted {
		v, ok := watchedFields.byID.Load(id)
		if !ok {
			continue
		}
		if w := v.(*watchedObject); !slices.Contains(s.heldObjs, w) {
			s.heldObjs = append(s.heldObjs, w)
		}
	}
	if len(s.heldObjs) == 0 {
		return
	}
	saved := false
	for _, w := range s.heldObjs {
		w.mu.Lock()
		if w.users == 0 && !w.gone.Load() && !w.ft.sameAt(w.addr, *w.shadow.Load()) {
			if obj := w.wp.Value(); obj != nil {
				if !saved {
					// The CALL_IN's values, built already; the WRITE_IN
					// goes before it.
					s.heldSaved = append(s.heldSaved[:0], s.enc.Buf...)
					saved = true
				}
				p := unsafe.Pointer(obj)
				watchedFields.record.Lock() // with the entry checks of incalls that start alone
				if old := *w.shadow.Load(); !w.ft.same(p, old) {
					sh := w.ft.copyOf(p, nil)
					recordFieldWrites(s, w, p, old, sh)
					w.shadow.Store(&sh)
				}
				watchedFields.record.Unlock()
			}
		}
		w.users++
		w.mu.Unlock()
	}
	if saved {
		s.enc.Buf = append(s.enc.Buf[:0], s.heldSaved...)
		s.enc.Outgoing = false
	}
}

// releaseObjects ends s's use of the objects its top-level incall
// received: the last user takes what observed code left as the shadow.
func releaseObjects(s *Stream) {
	for i, w := range s.heldObjs {
		w.mu.Lock()
		if w.users--; w.users == 0 && !w.ft.sameAt(w.addr, *w.shadow.Load()) {
			if obj := w.wp.Value(); obj != nil {
				sh := w.ft.copyOf(unsafe.Pointer(obj), nil)
				w.shadow.Store(&sh)
			}
		}
		w.mu.Unlock()
		s.heldObjs[i] = nil
	}
	s.heldObjs = s.heldObjs[:0]
}

// Writes during an outcall. External code that observed code called may
// write a watched field and then call observed code back, before the
// outcall returns: chi's middleware sets rctx.RoutePath on the router's
// *chi.Context and then serves the next handler, the router's own
// routeHTTP, which reads it. Such a write is recorded as a WRITE_IN whose
// Parent is the outcall's CALL_OUT, before the nested CALL_IN, and replay
// performs it there. For that, what observed code left is taken as the
// shadow whenever it hands control to external code inside a top-level
// incall (a CALL_OUT, a nested incall's return), and the nested incall's
// entry compares. A process that never handed external code an observed
// function value (a callback, a returned or stored closure) and never saw
// external code call observed code inside an outcall (a method of an
// observed object: goldmark's inline parsers set a delimiter's Segment,
// then push it with the parser's pc.PushDelimiter) skips both: comparing
// every watched object at every outcall is what the top-level check costs
// per incall, and without a nested incall nothing of the outcall's can be
// recorded before the outcall returns. The first nested incall turns the
// checks on (in), from its own return.
var fieldsCallbacks atomic.Bool

// nestedFieldsOn: syncNestedFields and checkNestedFields have work.
func nestedFieldsOn() bool { return fieldsCallbacks.Load() && watchedFields.any.Load() }

// syncNestedFields takes what observed code left in the watched fields as
// the shadow, when s hands control to external code inside its top-level
// incall and no other top-level incall began since s's (one that did may
// be writing them by observed code, as enterFields says).
func syncNestedFields(s *Stream) {
	if s.inFields && fieldIncalls.Load() == s.fieldsEntry {
		checkFieldsSlow(s, false)
	}
}

// checkNestedFields records, as WRITE_INs nested in the outcall being made
// (their Parent), the watched fields external code changed since
// syncNestedFields, when external code calls observed code back inside it.
func checkNestedFields(s *Stream) {
	if s.inFields && fieldIncalls.Load() == s.fieldsEntry {
		checkFieldsSlow(s, true)
	}
}

// dropCollected removes the entries of collected objects.
func dropCollected() {
	watchedFields.add.Lock()
	defer watchedFields.add.Unlock()
	var all []*watchedObject // a new array: readers may still range over the old one
	for _, w := range watchedFields.all {
		if !w.gone.Load() {
			all = append(all, w)
		} else {
			watchedFields.byID.CompareAndDelete(w.id, w)
		}
	}
	watchedFields.all = all
	list := all[:len(all):len(all)]
	watchedFields.list.Store(&list)
}

// writeField performs, in replay, a recorded WRITE_IN of a field of an
// observed object (e.RecvID): the object replay bound to that ID gets the
// recorded value.
func (p *player) writeField(s *Stream, e *eventlog.Event) bool {
	fail := func(reason, actual string) bool {
		p.diverge(&Divergence{Seq: e.Seq, Stream: e.Stream, Reason: reason, Expected: p.describe(e), Actual: actual})
		return false
	}
	obj, ok := p.Object(e.RecvID)
	if !ok {
		return fail("the log sets a field of an object that replay does not know", "no object "+e.RecvType+"#"+itoa(e.RecvID))
	}
	obj = concrete(obj)
	if rt, ok := value.LookupType(e.RecvType); ok && rt != obj.Type() && rt.Kind() == reflect.Pointer &&
		obj.Kind() == reflect.Pointer && !obj.IsNil() && value.LeadsWith(obj.Type().Elem(), rt.Elem()) {
		// The capture watched the part at the object's start that it saw
		// first; replay made the whole object (wholes.go), whose own field
		// of the same name may be another.
		obj = reflect.NewAt(rt.Elem(), obj.UnsafePointer())
	}
	if obj.Kind() != reflect.Pointer || obj.IsNil() || obj.Type().Elem().Kind() != reflect.Struct {
		return fail("the log sets a field of an object that is not a struct here", obj.Type().String())
	}
	if strings.HasSuffix(e.Site, wholeWriteSuffix) {
		// The whole value, unexported fields included (wholeFieldsOf).
		s.dec = value.Decoder{Buf: e.Values}
		s.dec.Resolver = performed{p}
		s.dec.DecodeValue(obj.Elem())
		if s.dec.Err != nil || s.dec.Off != len(s.dec.Buf) {
			actual := e.Site
			if s.dec.Err != nil {
				actual += ": " + s.dec.Err.Error()
			}
			return fail("the recorded value does not fit the object's type (changed?)", actual)
		}
		return true
	}
	ft := fieldsOf(obj.Type().Elem())
	name := e.Site[strings.LastIndexByte(e.Site, '.')+1:]
	var f *fieldSpan
	if ft != nil {
		f = ft.field(name)
	}
	if f == nil {
		return fail("the log sets an exported field that this build does not have (removed or renamed?)",
			"no exported field "+name+" in "+value.TypeName(obj.Type()))
	}
	s.dec = value.Decoder{Buf: e.Values}
	s.dec.Resolver = performed{p}
	s.dec.DecodeValue(reflect.NewAt(f.typ, unsafe.Add(obj.UnsafePointer(), f.off)).Elem())
	if s.dec.Err != nil || s.dec.Off != len(s.dec.Buf) {
		actual := f.site
		if s.dec.Err != nil {
			actual += ": " + s.dec.Err.Error()
		}
		return fail("the recorded value does not fit the field's type (changed?)", actual)
	}
	return true
}

func itoa(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// alive reports whether w's object has not been collected.
func (w *watchedObject) alive() bool { return !w.gone.Load() && w.wp.Value() != nil }

// markGoneWhenCollected attaches a cleanup to the object at p that marks w
// gone. Objects of the watched set are heap objects or package variables
// (which are never collected: the runtime attaches nothing to them).
func markGoneWhenCollected(p unsafe.Pointer, w *watchedObject) {
	defer func() { _ = recover() }() // not a heap object: never collected either
	runtime.AddCleanup((*byte)(p), func(w *watchedObject) { w.gone.Store(true) }, w)
}

// sameAt is same for the object at addr, which may have been collected
// (checkFieldsSlow). It holds no pointer to the object that the collector
// could find: it makes one for each load only, in registers, and neither
// calls nor grows its stack (nosplit) while one exists, so a collector
// that stops it sees at most the registers of the innermost frame, which
// it scans conservatively (a pointer to a freed object there is ignored).
// It is exempt from checkptr, which rejects a pointer made from an integer.
//
//go:norace
//go:nocheckptr
//go:nosplit
func (ft *fieldsType) sameAt(addr uintptr, shadow []byte) bool {
	at := uintptr(0)
	for _, r := range ft.ranges {
		if at+r.size > uintptr(len(shadow)) {
			return false
		}
		sh := uintptr(unsafe.Pointer(unsafe.SliceData(shadow))) + at
		i := uintptr(0)
		for ; i+8 <= r.size; i += 8 {
			if load64(addr+r.off+i) != load64(sh+i) {
				return false
			}
		}
		for ; i < r.size; i++ {
			if load8(addr+r.off+i) != load8(sh+i) {
				return false
			}
		}
		at += r.size
	}
	return true
}

// load64 and load8 read memory at an address (sameAt).
//
//go:norace
//go:nocheckptr
//go:nosplit
func load64(a uintptr) uint64 { return *(*uint64)(*(*unsafe.Pointer)(unsafe.Pointer(&a))) }

//go:norace
//go:nocheckptr
//go:nosplit
func load8(a uintptr) byte { return *(*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&a))) }
