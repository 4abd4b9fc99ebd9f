package probe

import (
	"reflect"
	"unsafe"
	"weak"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Backing arrays of the slices that cross the boundary (value.TagView,
// runtime/value/sliceview.go): a slice is recorded as a view of its array,
// by the array's object ID and the slice's capacity, so that replay
// rebuilds subslices of one array as subslices of one array.
//
// An array is known by its end (the address past its last element): every
// subslice of a slice ends there too (s[i:j] keeps the end of its
// capacity; only a three-index slice moves it), and two live arrays never
// share an end. Arrays take their IDs from the object table's counter, so
// that the machinery that keeps replay's numbering in step with the
// capture's (numbering.go: an event's first appearances; events replay
// skips; a checkpoint's next ID) covers them too.
//
// The capture's table holds no array alive: an entry keeps a weak pointer
// into its array and goes when the array is collected (a queue checked two
// entries per first sight, as the object table's). Arrays outside the heap
// (package variables, read-only data) are static: their end is their
// identity. A slice of stack memory, of zero capacity or of zero-size
// elements is written by value, as before views, and so is a slice over a
// string's memory that the observed code marked, unless its array was
// numbered before (stringmem.go).
//
// Replay holds every array it numbered alive (a log's worth) and makes the
// array of a view it decodes first as large as that view's capacity. A
// later view with a larger capacity than replay's array (the capture saw a
// short subslice of an array first, then a longer one) gets a new array
// under the same ID: later views alias it, earlier ones keep their memory,
// and they cross as views of that ID still (the earlier array's end keeps
// naming it).

// arrayEntry is the capture's entry for an array, by its end.
type arrayEntry struct {
	wp     weak.Pointer[byte] // into the array; zero for a static array
	static bool
	id     uint64
	elem   reflect.Type
}

// captureArrays is guarded by captureObjects.mu (its counter numbers them).
type captureArrays struct {
	ends  map[uintptr]*arrayEntry
	queue []uintptr // ends of entries with a weak pointer, oldest first from head
	head  int
}

// array is value.Arrays for the capture's object table.
func (o *objects) array(data unsafe.Pointer, c int, elem reflect.Type) uint64 {
	size := elem.Size()
	if data == nil || c <= 0 || size == 0 {
		return 0
	}
	end := uintptr(data) + uintptr(c)*size
	o.mu.Lock()
	defer o.mu.Unlock()
	a := &o.arrays
	if e := a.ends[end]; e != nil {
		if e.static || e.wp.Value() != nil {
			if e.elem != elem {
				// The same memory as elements of another type (unsafe):
				// replay could not make one array of both.
				return 0
			}
			return e.id
		}
		delete(a.ends, end) // collected; the memory holds a new array
	}
	if stringMemory(data, c, elem) {
		return 0
	}
	var wp weak.Pointer[byte]
	static := false
	switch {
	case onStack(data):
		return 0
	case o.inHeapRegion(data):
		wp = weak.Make((*byte)(data))
	default:
		ok, heap := addCleanup(data, &objCell{o: o})
		switch {
		case heap:
			o.heapRegions[uintptr(data)>>heapRegionShift] = struct{}{}
			o.lastRegion = uintptr(data)>>heapRegionShift + 1
			wp = weak.Make((*byte)(data))
		case ok: // a package variable
			static = true
		default: // read-only data, memory outside Go's heap
			static = true
		}
	}
	if a.ends == nil {
		a.ends = map[uintptr]*arrayEntry{}
	}
	o.next++
	a.ends[end] = &arrayEntry{wp: wp, static: static, id: o.next, elem: elem}
	if !static {
		a.queue = append(a.queue, end)
		a.sweepSome()
	}
	return o.next
}

// sweepSome removes the entries of collected arrays among the two oldest
// queued, and queues again those still alive.
func (a *captureArrays) sweepSome() {
	for range 2 {
		if a.head == len(a.queue) {
			break
		}
		end := a.queue[a.head]
		a.queue[a.head] = 0
		a.head++
		e := a.ends[end]
		if e == nil {
			continue
		}
		if e.wp.Value() != nil {
			a.queue = append(a.queue, end)
			continue
		}
		delete(a.ends, end)
	}
	if a.head > 1024 && a.head > len(a.queue)/2 {
		n := copy(a.queue, a.queue[a.head:])
		a.queue = a.queue[:n]
		a.head = 0
	}
}

// Array implements value.Arrays for the capture's object table.
func (o *objects) Array(data unsafe.Pointer, c int, elem reflect.Type) uint64 {
	return o.array(data, c, elem)
}

// Array implements value.Arrays for a stream's encodings in the capture.
func (c *objectPins) Array(data unsafe.Pointer, n int, elem reflect.Type) uint64 {
	return captureObjects.array(data, n, elem)
}

// replayArray is an array replay numbered: whole is a slice of all of it
// (which keeps it alive), end its end.
type replayArray struct {
	whole reflect.Value
	end   uintptr
	// earlier holds the arrays replay made for this ID before a view
	// reached further back than they did (View): the views decoded into
	// them are still the code's, and they end where the capture's array
	// ended, so their ends keep naming the ID, and they stay alive, so
	// that no other array comes to end there.
	earlier []reflect.Value
}

// replayArrays is a player's table of arrays, guarded by its objMu.
type replayArrays struct {
	owner *player
	byID  map[uint64]*replayArray
	ends  map[uintptr]uint64
}

var playArrays replayArrays

// arrays returns p's table (p.objMu held).
func (p *player) arrays() *replayArrays {
	a := &playArrays
	if a.owner != p {
		*a = replayArrays{owner: p, byID: map[uint64]*replayArray{}, ends: map[uintptr]uint64{}}
	}
	return a
}

// views reports whether p's log records slices as views.
func (p *player) views() bool { return p.format > value.LastPlainSliceFormat }

// knownArrayLocked returns the ID of the array that the slice at data of
// capacity c and element type elem ends in, if replay numbered it; a
// slice reaching further back than the array replay holds becomes the
// array of that ID (p.objMu held).
func (p *player) knownArrayLocked(data unsafe.Pointer, c int, elem reflect.Type) (uint64, bool) {
	a := p.arrays()
	end := uintptr(data) + uintptr(c)*elem.Size()
	id, ok := a.ends[end]
	if !ok || id >= localIDs {
		// (A checkpoint's local ID names the array only inside the
		// checkpoint: the capture numbered it on its first crossing.)
		return 0, false
	}
	r := a.byID[id]
	if r.whole.Type().Elem() != elem {
		return 0, true
	}
	if c > r.whole.Cap() {
		r.whole = reflect.SliceAt(elem, data, c)
	}
	return id, true
}

// bindArrayLocked numbers the array of the slice at data (p.objMu held).
func (p *player) bindArrayLocked(id uint64, data unsafe.Pointer, c int, elem reflect.Type) {
	a := p.arrays()
	if old, ok := a.byID[id]; ok && a.ends[old.end] == id {
		delete(a.ends, old.end)
	}
	r := &replayArray{whole: reflect.SliceAt(elem, data, c), end: uintptr(data) + uintptr(c)*elem.Size()}
	a.byID[id] = r
	a.ends[r.end] = id
	if id >= localIDs {
		return
	}
	if _, bound := p.byID[id]; !bound {
		// Taken, for the numbering of objects (numbering.go).
		p.byID[id] = r.whole
	}
	if id > p.maxID && id < varIDs {
		p.maxID = id
	}
}

// arrayID numbers, outside the events being built, the array the slice
// ends in: the next number, as the capture's counter gave it.
func (p *player) arrayID(data unsafe.Pointer, c int, elem reflect.Type) uint64 {
	if !p.views() || data == nil || c <= 0 || elem.Size() == 0 || onStack(data) {
		return 0
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if id, ok := p.knownArrayLocked(data, c, elem); ok {
		return id
	}
	if stringMemory(data, c, elem) {
		return 0
	}
	id := p.maxID + 1
	for p.first.names.has(id) {
		id++
	}
	p.bindArrayLocked(id, data, c, elem)
	return id
}

// Array implements value.Arrays for replay's object table.
func (p *player) Array(data unsafe.Pointer, c int, elem reflect.Type) uint64 {
	return p.arrayID(data, c, elem)
}

// Array implements value.Arrays for a stream's encodings of boundary
// events in replay: a new array is numbered at the turn of the stream's
// next event, by the IDs that first appear in the log's event (as
// idAtTurn numbers objects).
func (t *turnObjects) Array(data unsafe.Pointer, c int, elem reflect.Type) uint64 {
	p, s := play, t.s
	if !p.views() || data == nil || c <= 0 || elem.Size() == 0 || onStack(data) {
		return 0
	}
	p.objMu.Lock()
	id, ok := p.knownArrayLocked(data, c, elem)
	p.objMu.Unlock()
	if ok {
		return id
	}
	if stringMemory(data, c, elem) {
		return 0
	}
	sr := s.replay
	if sr != nil && sr.cur >= sr.total && p.cut {
		p.parkAtEnd(s)
	}
	if sr == nil || sr.cur >= sr.total {
		return p.arrayID(data, c, elem)
	}
	i, e := p.at(sr, sr.cur)
	p.waitTurn(i)
	p.first.once.Do(p.computeFirstAppearances)
	p.objMu.Lock()
	defer p.objMu.Unlock()
	if id, ok := p.knownArrayLocked(data, c, elem); ok {
		return id
	}
	call := e.Kind == eventlog.KindCallIn || e.Kind == eventlog.KindCallOut
	if !call || (s.site != nil && e.Site == s.site.Name) {
		ids, taken := p.firstIDs(i)
		for *taken < len(ids) {
			id := ids[*taken]
			*taken++
			if _, bound := p.byID[id]; !bound {
				p.bindArrayLocked(id, data, c, elem)
				return id
			}
		}
	}
	id = p.maxID + 1
	for p.first.names.has(id) {
		id++
	}
	p.bindArrayLocked(id, data, c, elem)
	return id
}

// View implements value.ArrayResolver: s, just decoded, as a view of the
// array numbered id, which replay makes on its first view.
func (p *player) View(id uint64, c int, s reflect.Value) reflect.Value {
	t := s.Type()
	elem := t.Elem()
	if elem.Size() == 0 {
		return s
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	a := p.arrays()
	r, ok := a.byID[id]
	if !ok || r.whole.Type().Elem() != elem || c > r.whole.Cap() {
		arr := reflect.MakeSlice(reflect.SliceOf(elem), c, c)
		p.bindArrayLocked(id, arr.UnsafePointer(), c, elem)
		if ok && r.whole.Type().Elem() == elem {
			// A longer view of the array than replay made (the capture
			// saw a short subslice first: goldmark's reader hands out
			// a line, then the whole source). The views of the shorter
			// array are subslices of the capture's array too, at the
			// same distance from its end: they still cross as views of
			// this ID (a line passed on after the source was seen).
			nr := a.byID[id]
			nr.earlier = append(append(nr.earlier, r.earlier...), r.whole)
			a.ends[r.end] = id
		}
		r = a.byID[id]
	}
	start := unsafe.Add(r.whole.UnsafePointer(), uintptr(r.whole.Cap()-c)*elem.Size())
	v := reflect.SliceAt(elem, start, c).Slice(0, s.Len())
	reflect.Copy(v, s)
	return v.Convert(t)
}

// bytesView appends v (Stream.Bytes) as a view of its array. An outcall's
// results are views too: replay decodes one into an array of the recorded
// capacity (or into the array that an argument of the same ID named), so
// that observed code passing the result, or a subslice of it, across the
// boundary later shows the capture's capacity and array.
func (s *Stream) bytesView(v []byte) {
	s.enc.Objects = s.objectTable()
	s.enc.SliceBytes(v)
}

// OutBytes appends an outcall's []byte out-parameter in its RETURN_OUT by
// value: a Read-like outcall's buffer crosses its CALL_OUT as a length
// only, so its array would be numbered first by the RETURN_OUT, which
// replay decodes into a copy, never binding the number to replay's own
// buffer. The generated code copies those bytes into the caller's slice,
// which keeps its array.
func (s *Stream) OutBytes(v []byte) {
	if !s.idleCall {
		s.enc.Bytes(v)
	}
}

// Array implements value.Arrays for a checkpoint's encoding of the observed
// state (captureObjects.mu held): a slice of an array that crossed the
// boundary is written as its view, so that a segment cut there rebuilds
// the state's slice in the array that the segment's later views name. An
// array that never crossed gets an ID valid only inside the checkpoint
// (from localArrayIDs; the table's counter does not move), so that replay
// rebuilds it with its capacity, which later appends and views depend on,
// and its slices in the state as views of one array.
func (c *ckptObjects) Array(data unsafe.Pointer, n int, elem reflect.Type) uint64 {
	size := elem.Size()
	if data == nil || n <= 0 || size == 0 {
		return 0
	}
	end := uintptr(data) + uintptr(n)*size
	e := captureObjects.arrays.ends[end]
	if e != nil && (e.static || e.wp.Value() != nil) {
		if e.elem != elem {
			return 0
		}
		return e.id
	}
	if stringMemory(data, n, elem) {
		return 0
	}
	l := &ckptLocalArrays
	if l.owner != c {
		*l = ckptArrays{owner: c, ends: map[uintptr]uint64{}}
	}
	id, ok := l.ends[end]
	if !ok {
		id = localArrayIDs + uint64(len(l.ends)) + 1
		l.ends[end] = id
	}
	return id
}

// localArrayIDs is the first of the IDs a checkpoint gives arrays that
// never crossed: in the checkpoint's range of local IDs (localIDs), above
// those of its objects.
const localArrayIDs = localIDs + 1<<40

// ckptArrays numbers the arrays of one checkpoint's encoding that never
// crossed (captureObjects.mu held).
type ckptArrays struct {
	owner *ckptObjects
	ends  map[uintptr]uint64
}

var ckptLocalArrays ckptArrays
