package eventlog

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Backpressure says what Append does when the writer cannot keep up and
// every batch buffer is full (docs/log-format.md, "Backpressure").
type Backpressure uint8

const (
	// Block makes Append wait until the background writer frees a batch.
	// Nothing is lost; the waits are counted in Status.Blocked. A writer
	// stalled by its disk stalls its callers.
	Block Backpressure = iota
	// Drop makes Append discard the event (it still consumes a Seq, so the
	// gap shows where) and count it in Status.Dropped; the log is then
	// incomplete, and replay refuses it. A caller never waits for the
	// disk: capture builds use it unless CAPTURE_POLICY=block.
	Drop
)

// Compression of the record batch buffers.
type Compression uint8

const (
	Zstd Compression = iota // default
	Uncompressed
)

// Options tune a Writer. The zero value gives the documented defaults.
type Options struct {
	BatchEvents   int           // events per record batch (default 16384)
	BatchBytes    int           // Values bytes per record batch before it is cut (default 1 MiB)
	FlushInterval time.Duration // a non-empty batch is written at least this often (default 100ms)
	Buffers       int           // batches in flight; bounds memory (default 4)
	Policy        Backpressure  // default Block
	Compression   Compression   // default Zstd
	// ZstdLevel trades write speed for size: 1 fastest (the default), 2,
	// 3 better, 4 best (klauspost/compress levels; see BenchmarkLogSize).
	// At level 1 literals are not entropy-coded while capturing: a third
	// less CPU for the background writer, about 6% larger files for the
	// example shop (BenchmarkEncoderShop); capture compact recompresses.
	ZstdLevel int
	// AlwaysCompress compresses every record batch. By default a batch is
	// written uncompressed when the writer is behind (another full batch
	// is already waiting for it): compression costs several times more CPU
	// than writing, so this keeps the writer ahead of bursts, at the price
	// of a bigger file (capture compact recompresses it). A small log (up
	// to 16 KiB of data, smallLogBytes) is written uncompressed too: the
	// zstd encoder's creation costs a short process more than the bytes
	// are worth.
	AlwaysCompress bool
	SyncOnFlush    bool // fsync after every batch and at Close (survives power loss, not just a crash)
	MaxValueBytes  int  // larger Values are dropped and counted (default 16 MiB)
	// MaxBytes caps the file's size (0: no cap). The batch that would
	// pass it is dropped and the log ends (end-of-stream marker); later
	// events are dropped too, all counted in Status.Lost with LostWhy
	// "size_cap".
	MaxBytes int64
	// Warn receives the writer's one-line reports of lost events: when a
	// run of write errors starts and ends, and the size cap (default:
	// standard error). It is called on the writer's goroutine.
	Warn func(msg string)
	// OnSizeCap, if set, is called once, on the writer's goroutine, when
	// the log reaches MaxBytes: from then on nothing appended reaches the
	// file, so the appender may stop producing events (the recorder stops
	// recording at its next quiescent point).
	OnSizeCap func()

	// wrapFile lets tests interpose on the file's writes.
	wrapFile func(logFile) logFile
}

// stderr is where the writer reports lost events without Options.Warn.
var stderr io.Writer = os.Stderr

func (o *Options) fill() {
	if o.BatchEvents <= 0 {
		o.BatchEvents = 16384
	}
	if o.BatchEvents > maxRowsPerBatch {
		o.BatchEvents = maxRowsPerBatch
	}
	if o.ZstdLevel < 1 || o.ZstdLevel > 4 {
		o.ZstdLevel = 1
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = 1 << 20
	}
	if o.FlushInterval <= 0 {
		o.FlushInterval = 100 * time.Millisecond
	}
	if o.Buffers < 2 {
		o.Buffers = 4
	}
	if o.MaxValueBytes <= 0 || o.MaxValueBytes > maxValueBytes {
		o.MaxValueBytes = maxValueBytes
	}
}

// A batch stages events as rows until the encoder takes it: an appender
// stores its event as one row struct (one bounds check, one contiguous
// write; the encoder transposes the rows into Arrow columns). Its slices have
// a fixed size: an appender reserves a row (and room for its Values) under
// Writer.mu and fills it there too, unless its Values are large: then it
// copies them after unlocking (so that a long copy does not hold up other
// appenders), and the encoder waits until every such copy is done.
type batch struct {
	rows []row
	vals []byte

	n        int          // rows reserved (under Writer.mu)
	valsUsed int          // Values bytes reserved (under Writer.mu)
	outside  atomic.Int32 // rows whose Values are being copied outside the lock
	upTo     uint64       // every Seq <= upTo is accounted for once this batch is written
	sync     bool         // fsync after writing (Flush with SyncOnFlush)
	valsCap  int          // the usual size of vals, restored after an oversized value
	est      int64        // its size as Writer.Size counts it, while queued for the encoder
}

// row is one staged event. Its Values are vals[previous row's valEnd:valEnd].
type row struct {
	eventHead
	valEnd int32
}

// eventHead is Event without its Values, with Event's memory layout (checked
// by init below), so that an appender copies an event into its row as one
// block move instead of field by field.
type eventHead struct {
	seq      uint64
	stream   uint32
	kind     Kind
	parent   uint64
	site     string
	pos      string
	recvType string
	recvID   uint64
}

func init() {
	var e Event
	var h eventHead
	if unsafe.Offsetof(e.Stream) != unsafe.Offsetof(h.stream) || unsafe.Offsetof(e.Kind) != unsafe.Offsetof(h.kind) ||
		unsafe.Offsetof(e.Parent) != unsafe.Offsetof(h.parent) || unsafe.Offsetof(e.Site) != unsafe.Offsetof(h.site) ||
		unsafe.Offsetof(e.Pos) != unsafe.Offsetof(h.pos) || unsafe.Offsetof(e.RecvType) != unsafe.Offsetof(h.recvType) ||
		unsafe.Offsetof(e.RecvID) != unsafe.Offsetof(h.recvID) || unsafe.Offsetof(e.Values) != unsafe.Sizeof(h) {
		panic("eventlog: eventHead does not match the layout of Event")
	}
}

func newBatch(rows, valBytes int) *batch {
	return &batch{
		rows:    make([]row, rows),
		vals:    make([]byte, valBytes),
		valsCap: valBytes,
	}
}

// waitFilled returns once every reserved row's Values have been copied by
// its appender (large Values are copied right after the appender released
// the lock).
func (b *batch) waitFilled() {
	for b.outside.Load() != 0 {
		runtime.Gosched()
	}
}

func (b *batch) reset() {
	clear(b.rows[:b.n]) // do not keep callers' strings alive
	if len(b.vals) > b.valsCap {
		b.vals = make([]byte, b.valsCap)
	}
	b.n, b.valsUsed = 0, 0
	b.upTo = 0
	b.sync = false
}

// stage writes row i and copies its Values to off (reserved by the caller).
func (b *batch) stage(i, off int, e *Event) {
	b.setRow(i, off, e)
	copy(b.vals[off:], e.Values)
}

// setRow writes row i, whose Values are reserved at off, except the Values.
func (b *batch) setRow(i, off int, e *Event) {
	r := &b.rows[i]
	r.eventHead = *(*eventHead)(unsafe.Pointer(e))
	r.valEnd = int32(off + len(e.Values))
}

// copyValues copies v to vals[off:], where room for it is reserved. Values
// of up to 16 bytes (most events: a few scalars) are copied as one or two
// 8-byte words when the slices' capacities allow, which costs a fraction of
// memmove's call and size dispatch. The bytes written past the reservation
// are not part of any row yet: the rows reserved next overwrite them, and
// the encoder reads only reserved bytes.
func copyValues(vals []byte, off int, v []byte) {
	if room := vals[off:]; len(room) >= 16 {
		if len(v) <= 8 && cap(v) >= 8 {
			binary.LittleEndian.PutUint64(room, binary.LittleEndian.Uint64(v[:8]))
			return
		}
		if len(v) <= 16 && cap(v) >= 16 {
			binary.LittleEndian.PutUint64(room, binary.LittleEndian.Uint64(v[:8]))
			binary.LittleEndian.PutUint64(room[8:], binary.LittleEndian.Uint64(v[8:16]))
			return
		}
	}
	copy(vals[off:], v)
}

// lockedFillMax is the largest Values an appender copies while holding
// Writer.mu. Filling small rows under the lock saves an atomic operation per
// event (the lock's release publishes the row); larger copies are done
// after unlocking, in parallel with other appenders.
const lockedFillMax = 512

// Writer appends events to a log file. Append is safe for concurrent use;
// encoding, compression and I/O run on one background goroutine.
type Writer struct {
	opts Options
	path string
	// fastValues is the largest Values that Append's common path takes:
	// min(lockedFillMax, Options.MaxValueBytes).
	fastValues int

	mu  sync.Mutex
	seq uint64 // last assigned
	// dispatchedUpTo is the upTo of the batch handed to the encoder last.
	dispatchedUpTo uint64
	cur            *batch // nil while waiting for a free batch, and once closed
	batches        int    // allocated so far, at most opts.Buffers
	closed         bool
	free           chan *batch
	full           chan *batch
	dropped        atomic.Uint64
	blocked        atomic.Uint64

	// Progress of the background goroutine, for Flush.
	doneMu   sync.Mutex
	doneCond *sync.Cond
	doneSeq  uint64
	lost     uint64 // events lost to write errors and the size cap
	failures uint64 // writes that failed (losing events or not: a status, an fsync)
	err      error  // the latest such error (a batch after it may have succeeded)

	// encodeGate is locked by benchmarks to hold the encoder back, so that
	// they time the appenders alone.
	encodeGate sync.Mutex

	// The background goroutine and the flush timer start only when needed
	// (under mu): the encoder at the first batch handed over before Close,
	// the timer when a batch gets its first event. A short process, such
	// as one test under capture test, has neither: Close writes its only
	// batch itself. Each goroutine a fresh process starts wakes an idle P
	// and so starts an OS thread.
	encoding    bool        // encodeLoop runs
	timer       *time.Timer // calls flushTick FlushInterval after a batch's first event
	timerArmed  bool
	encDone     chan struct{}
	closeCalled bool

	sink *sink
	// fileBytes is the size of the file written so far, queuedBytes the
	// estimated size of the batches handed to the encoder and not yet
	// written (Size).
	fileBytes, queuedBytes atomic.Int64
	writtenEst             atomic.Int64 // the estimated size of the batches written
}

// Create starts a new log at path and writes its schema, so that even a log
// killed before its first flush is readable. It never opens an existing
// file (nor one a symbolic link at path names): that is an error, which
// says so if the file is the log of a live writer. The file is created
// with mode 0600 and locked (flock) for the writer's life, so that
// capture compact and others can tell that it is live (Live).
func Create(path string, meta Meta, opts Options) (*Writer, error) {
	opts.fill()
	meta.FormatVersion = FormatVersion
	if meta.GoVersion == "" {
		meta.GoVersion = runtime.Version()
	}
	if meta.StartTime.IsZero() {
		meta.StartTime = time.Now()
	}
	if meta.RunID == "" {
		// Unique, not secret: the runtime's generator (seeded from the
		// kernel at start) instead of crypto/rand, whose first use costs
		// a fresh process 0.1 ms.
		var id [16]byte
		binary.LittleEndian.PutUint64(id[:8], rand.Uint64())
		binary.LittleEndian.PutUint64(id[8:], rand.Uint64())
		meta.RunID = hex.EncodeToString(id[:])
	}
	f, err := createFile(path)
	if err != nil {
		return nil, createError(path, err)
	}
	var lf logFile = f
	if opts.wrapFile != nil {
		lf = opts.wrapFile(f)
	}
	s, err := newSink(lf, path, meta, opts)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	s.pid = uint64(os.Getpid())
	w := &Writer{
		opts:       opts,
		path:       path,
		fastValues: min(lockedFillMax, opts.MaxValueBytes),
		free:       make(chan *batch, opts.Buffers),
		full:       make(chan *batch, opts.Buffers),
		encDone:    make(chan struct{}),
		sink:       s,
	}
	w.doneCond = sync.NewCond(&w.doneMu)
	w.fileBytes.Store(s.off)
	// Batches are allocated when needed (the first event takes the first
	// one), the first one small: a full set is megabytes, whose allocation
	// (and the garbage collections it triggers) used to dominate short
	// processes such as one test of a test binary, which mostly record a
	// few hundred events.
	return w, nil
}

// ErrLive is the error of Create and Compact on the log of a live writer.
var ErrLive = errors.New("is being written by a live process")

// Live reports whether the log at path is being written: its writer's
// process holds the lock Create took (false where the platform or file
// system has no such locks), and that process's id if its log says.
func Live(path string) (live bool, pid uint64) {
	if !locked(path) {
		return false, 0
	}
	if r, err := Open(path); err == nil {
		pid = r.Meta().Status.PID
		r.Close()
	}
	return true, pid
}

// liveError is the error for the log of a live writer at path.
func liveError(path string, pid uint64, then string) error {
	who := ""
	if pid != 0 {
		who = fmt.Sprintf(" (pid %d)", pid)
	}
	return fmt.Errorf("%s %w%s; %s", path, ErrLive, who, then)
}

// createError explains why Create could not create path.
func createError(path string, err error) error {
	if !errExist(err) {
		return fmt.Errorf("eventlog: %w", err)
	}
	if live, pid := Live(path); live {
		return fmt.Errorf("eventlog: %w", liveError(path, pid, "a log is never overwritten"))
	}
	return fmt.Errorf("eventlog: %s already exists (or is a symbolic link), and a log is never overwritten: remove it first or choose another path: %w", path, fs.ErrExist)
}

// Append records e: it assigns e.Seq (the next sequence number, which it also
// returns) and copies e.Values; the strings are kept as they are. After Close
// it does nothing and returns 0.
func (w *Writer) Append(e *Event) uint64 {
	w.mu.Lock()
	b := w.cur
	nv := len(e.Values)
	// The common case: a batch with room for the row and its (small)
	// Values. Everything else is in appendSlow, including a closed
	// writer, which has no current batch.
	if b == nil || b.valsUsed+nv > len(b.vals) || nv > w.fastValues {
		return w.appendSlow(e)
	}
	w.seq++
	seq := w.seq
	e.Seq = seq
	i, off := b.n, b.valsUsed
	b.n = i + 1
	b.valsUsed = off + nv
	b.setRow(i, off, e)
	copyValues(b.vals, off, e.Values)
	if b.n == len(b.rows) || b.valsUsed >= w.opts.BatchBytes {
		w.dispatchLocked(false)
	}
	w.mu.Unlock()
	return seq
}

// appendSlow is Append, called with w.mu held, for everything but the
// common case: a closed writer, no current batch, a full batch, large or
// oversized Values.
func (w *Writer) appendSlow(e *Event) uint64 {
	if w.closed {
		w.mu.Unlock()
		return 0
	}
	w.seq++
	seq := w.seq
	e.Seq = seq
	nv := len(e.Values)
	if nv > w.opts.MaxValueBytes {
		w.dropped.Add(1)
		w.mu.Unlock()
		return seq
	}
	b := w.cur
	if b != nil && b.n > 0 && b.valsUsed+nv > len(b.vals) {
		w.dispatchLocked(false)
		b = w.cur
	}
	if b == nil {
		if b = w.acquireLocked(); b == nil {
			w.mu.Unlock()
			return seq
		}
		w.armTimerLocked()
	}
	if nv > len(b.vals) {
		b.vals = make([]byte, nv) // b is empty: nobody else writes to it
	}
	i, off := b.n, b.valsUsed
	b.n++
	b.valsUsed += nv
	outside := nv > lockedFillMax
	if outside {
		b.setRow(i, off, e)
		b.outside.Add(1)
	} else {
		b.stage(i, off, e)
	}
	if b.n == len(b.rows) || b.valsUsed >= w.opts.BatchBytes {
		w.dispatchLocked(false)
	}
	w.mu.Unlock()
	if outside {
		copy(b.vals[off:], e.Values)
		b.outside.Add(-1)
	}
	return seq
}

// acquireLocked gets an empty batch for w.cur, applying the backpressure
// policy when none is free; nil means the event is dropped.
func (w *Writer) acquireLocked() *batch {
	var b *batch
	select {
	case b = <-w.free:
	default:
		if w.batches < w.opts.Buffers {
			b = w.newBatchLocked()
			break
		}
		if w.opts.Policy == Drop {
			w.dropped.Add(1)
			return nil
		}
		w.blocked.Add(1)
		b = <-w.free // holding mu: other appenders queue behind us, in Seq order
	}
	w.cur = b
	return b
}

// smallBatchEvents and smallBatchBytes size the first batch of a log.
const (
	smallBatchEvents = 1024
	smallBatchBytes  = 64 << 10
)

// newBatchLocked allocates a batch: the first one of the log small, the
// others of the configured size.
func (w *Writer) newBatchLocked() *batch {
	rows, valBytes := w.opts.BatchEvents, w.opts.BatchBytes
	if w.batches == 0 {
		rows, valBytes = min(rows, smallBatchEvents), min(valBytes, smallBatchBytes)
	}
	w.batches++
	return newBatch(rows, valBytes)
}

// takeBatchLocked gets an empty batch whatever the policy: a free one, a
// new one while fewer than Buffers exist, else it waits for the encoder.
func (w *Writer) takeBatchLocked() *batch {
	if b := w.tryTakeBatchLocked(); b != nil {
		return b
	}
	return <-w.free
}

// tryTakeBatchLocked is takeBatchLocked without the wait: nil when every
// batch is waiting for the encoder.
func (w *Writer) tryTakeBatchLocked() *batch {
	select {
	case b := <-w.free:
		return b
	default:
	}
	if w.batches < w.opts.Buffers {
		return w.newBatchLocked()
	}
	return nil
}

// dispatchLocked hands the current batch to the encoder, starting it at
// the first batch. w.full has room for every batch, so this never blocks.
// The next Append takes the next batch (appendSlow), and arms the flush
// timer for it.
func (w *Writer) dispatchLocked(sync bool) {
	b := w.cur
	if b == nil {
		return
	}
	b.upTo = w.seq
	b.sync = sync
	b.est = batchEstimate(b)
	w.queuedBytes.Add(b.est)
	w.dispatchedUpTo = w.seq
	w.cur = nil
	if !w.encoding {
		w.encoding = true
		go w.encodeLoop()
	}
	w.full <- b
}

// armTimerLocked makes sure the current batch, which just got its first
// event, is written within FlushInterval: if no flush timer is pending,
// it starts one. A pending timer fires sooner than that.
func (w *Writer) armTimerLocked() {
	if w.timerArmed {
		return
	}
	w.timerArmed = true
	if w.timer == nil {
		w.timer = time.AfterFunc(w.opts.FlushInterval, w.flushTick)
		return
	}
	w.timer.Reset(w.opts.FlushInterval)
}

// flushTick hands the current batch to the encoder, FlushInterval after
// the timer was armed.
func (w *Writer) flushTick() {
	w.mu.Lock()
	w.timerArmed = false
	if !w.closed && w.cur != nil && w.cur.n > 0 {
		w.dispatchLocked(false)
	}
	w.mu.Unlock()
}

// Flush returns once every event appended before the call is written to
// the file (and fsynced with Options.SyncOnFlush); if some of them, or
// events appended meanwhile, were lost to write errors or the size cap, it
// returns the latest such error.
func (w *Writer) Flush() error {
	return w.FlushWithin(0)
}

// Policy is the writer's backpressure policy.
func (w *Writer) Policy() Backpressure { return w.opts.Policy }

// ErrFlushTimeout is FlushWithin's error when the writer did not write
// everything in time (a stalled disk).
var ErrFlushTimeout = errors.New("eventlog: flush timed out: the log's disk did not keep up")

// FlushWithin is Flush that waits at most d (d <= 0: no limit) for the
// writer, and returns ErrFlushTimeout if the events are not written by
// then; they still are once the disk answers. With the Drop policy it
// never waits for a free batch either: when every batch is waiting for
// the disk, what was dispatched is what there is to flush (the events
// after it were dropped). Otherwise a flush on a stalled disk would hold
// the appenders' lock and so stall every goroutine that records an event
// (TestFlushWithinStalledDisk).
func (w *Writer) FlushWithin(d time.Duration) error {
	w.doneMu.Lock()
	failures := w.failures
	w.doneMu.Unlock()
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return w.writeErr()
	}
	target := w.seq
	// Even an empty batch is dispatched: it carries the mark up to target,
	// which may end in dropped events that no batch would otherwise cover.
	if w.cur == nil {
		if w.opts.Policy == Drop {
			w.cur = w.tryTakeBatchLocked()
		} else {
			w.cur = w.takeBatchLocked()
		}
	}
	if w.cur == nil {
		target = w.dispatchedUpTo
	}
	w.dispatchLocked(w.opts.SyncOnFlush)
	w.mu.Unlock()
	var timedOut bool
	if d > 0 {
		t := time.AfterFunc(d, func() {
			w.doneMu.Lock()
			timedOut = true
			w.doneCond.Broadcast()
			w.doneMu.Unlock()
		})
		defer t.Stop()
	}
	w.doneMu.Lock()
	for w.doneSeq < target && !timedOut {
		w.doneCond.Wait()
	}
	var err error
	if w.failures > failures {
		err = w.err
	} else if w.doneSeq < target {
		err = ErrFlushTimeout
	}
	w.doneMu.Unlock()
	return err
}

// writeErr sums up the events lost to write errors and the size cap, if
// any.
func (w *Writer) writeErr() error {
	w.doneMu.Lock()
	defer w.doneMu.Unlock()
	if w.lost == 0 {
		return nil
	}
	return fmt.Errorf("%d events lost (the log is incomplete; see its status), the latest: %w", w.lost, w.err)
}

// noteErr records a failed write, which lost n events (n may be 0: the
// status or an fsync failed).
func (w *Writer) noteErr(n int, err error) {
	w.dropped.Add(uint64(n))
	w.doneMu.Lock()
	w.lost += uint64(n)
	w.failures++
	if err == errSizeCap {
		w.err = fmt.Errorf("eventlog: %s: %w (%d bytes)", w.path, err, w.opts.MaxBytes)
	} else {
		w.err = fmt.Errorf("eventlog: writing %s: %w", w.path, err)
	}
	w.doneMu.Unlock()
}

// Close flushes, writes the end-of-stream marker and the final status, and
// closes the file. Appends after Close are ignored.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closeCalled {
		w.mu.Unlock()
		return errors.New("eventlog: writer already closed")
	}
	w.closeCalled = true
	w.closed = true // the timer's flushTick, if it runs now, dispatches nothing
	if w.timer != nil {
		w.timer.Stop()
	}
	if !w.encoding {
		// Nothing was handed to the encoder (a short process): the last
		// batch, if any, is written here, with the end-of-stream marker.
		b := w.cur
		w.cur = nil // Append's common path needs a current batch: it goes to appendSlow, which sees closed
		w.mu.Unlock()
		if b != nil {
			b.waitFilled()
		}
		return w.finish(b)
	}
	if w.cur == nil {
		w.cur = w.takeBatchLocked()
	}
	w.dispatchLocked(false)
	close(w.full)
	w.cur = nil
	w.mu.Unlock()
	<-w.encDone
	return w.finish(nil)
}

// finish writes the last batch b (if any) and closes the log: it returns
// an error if events were lost, to write errors or the size cap, at any
// time (the status has the details), or if closing failed.
func (w *Writer) finish(b *batch) error {
	lost := w.sink.lost
	err := w.sink.finish(b, w.status(true), w.opts.SyncOnFlush)
	w.fileBytes.Store(w.sink.off)
	if err != nil {
		w.noteErr(int(w.sink.lost-lost), err)
	}
	if lerr := w.writeErr(); lerr != nil {
		return lerr
	}
	return err
}

func (w *Writer) status(closed bool) Status {
	return Status{
		Closed:  closed,
		Events:  w.sink.events,
		Dropped: w.dropped.Load(),
		Blocked: w.blocked.Load(),
		EndTime: time.Now(),
	}
}

func (w *Writer) encodeLoop() {
	defer close(w.encDone)
	for b := range w.full {
		w.encodeGate.Lock()
		w.encodeGate.Unlock()
		b.waitFilled()
		if b.n > 0 || b.sync {
			// A write error does not stop the writer: every batch is
			// tried, so capture resumes when the disk has room again.
			behind := len(w.full) > 0 && !w.opts.AlwaysCompress
			lost := w.sink.lost
			if err := w.sink.write(b, w.status(false), behind); err != nil {
				w.noteErr(int(w.sink.lost-lost), err)
			}
		}
		w.fileBytes.Store(w.sink.off)
		w.writtenEst.Add(b.est)
		w.queuedBytes.Add(-b.est)
		b.est = 0
		w.doneMu.Lock()
		if b.upTo > w.doneSeq {
			w.doneSeq = b.upTo
		}
		w.doneCond.Broadcast()
		w.doneMu.Unlock()
		if (len(b.rows) < w.opts.BatchEvents || b.valsCap < w.opts.BatchBytes) && (b.n == len(b.rows) || 2*b.valsUsed >= b.valsCap) {
			// The small first batch filled up: a busy log, which gets
			// full-size batches from now on.
			b = newBatch(w.opts.BatchEvents, w.opts.BatchBytes)
		} else {
			b.reset()
		}
		w.free <- b
	}
}

// Size returns how large the log is: the bytes of the file written so far
// plus an estimate for the events not yet written: their Values and
// rowBytesEstimate each, scaled by the ratio of the file's size to that
// estimate for the events already written (which compression shrank). The recorder's rotation (CAPTURE_ROTATE) compares
// it with its size limit at quiescent points.
func (w *Writer) Size() int64 {
	w.mu.Lock()
	var pending int64
	if b := w.cur; b != nil {
		pending = batchEstimate(b)
	}
	w.mu.Unlock()
	file, est := w.fileBytes.Load(), w.writtenEst.Load()
	pending += w.queuedBytes.Load()
	if est > 0 && file < est {
		// What is written so far says how much compression shrinks it.
		pending = int64(float64(pending) * float64(file) / float64(est))
	}
	return file + pending
}

// batchEstimate is what Size counts for the events of b.
func batchEstimate(b *batch) int64 {
	return int64(b.valsUsed) + int64(b.n)*rowBytesEstimate
}

// rowBytesEstimate is what Size counts for an event's fixed columns, before
// compression (seq, stream, kind, parent, dictionary indices, offsets).
const rowBytesEstimate = 40

// Path returns the path of the log.
func (w *Writer) Path() string { return w.path }
