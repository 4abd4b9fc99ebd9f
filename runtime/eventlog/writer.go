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
	// At level 1 literals are not entropy-coded while capturing, except
	// in recv_id and the value offsets: a third less CPU for the background
	// writer, about 6% larger files for the example shop
	// (BenchmarkEncoderShop); capture compact recompresses.
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
// a fixed size.
//
// Appenders do not take Writer.mu to add a row: each reserves its row and
// the room for its Values with one atomic add on res, which also gives the
// row its Seq (base+row+1), then fills the row and marks it ready. So the
// rows of a batch hold consecutive Seqs in row order, batches are handed to
// the encoder in Seq order, and every record batch of the file stays in Seq
// order: the order of the reservations, which is the global order of the
// events (an Append that returns before another starts has the smaller
// Seq). The encoder waits until every reserved row is ready: an appender
// preempted between its reservation and its ready mark holds up the write
// of its batch only, never other appenders, which go on into later batches
// while buffers are free.
type batch struct {
	rows []row
	vals []byte

	// res is the reservation word: resSealed, then the rows reserved
	// (bits 32-62, including reservations that found the batch full) and
	// the Values bytes reserved (bits 0-31). Appenders add to it without
	// a lock; Writer.mu opens it (installLocked) and seals it
	// (sealLocked).
	res  atomic.Uint64
	base uint64 // the Seq before row 0's (set before res opens)
	cut  int    // Values bytes at which the batch is handed over (set before res opens)
	open bool   // installed as Writer.cur and not sealed (under Writer.mu)

	n        int // rows, fixed when the batch is sealed
	reserved int // Values bytes reserved when it was sealed (for Size)
	valsUsed int // Values bytes of the n rows (set by waitFilled)
	// ext holds Values reserved past the end of vals (appenders that
	// reserved past the cut before the batch was sealed, or large Values
	// that common-path appenders got ahead of in a fresh batch):
	// waitFilled moves them into a larger vals.
	extMu   sync.Mutex
	ext     []extValues
	upTo    uint64 // every Seq <= upTo is accounted for once this batch is written
	sync    bool   // fsync after writing (Flush with SyncOnFlush)
	valsCap int    // the usual size of vals, restored after an oversized value
	est     int64  // its size as Writer.Size counts it, while queued for the encoder
}

// The fields of batch.res.
const (
	resSealed    = 1 << 63
	resRow       = 1 << 32
	resBytesMask = 1<<32 - 1
)

// resRows is the number of rows reserved in the reservation word r.
func resRows(r uint64) int { return int((r &^ resSealed) >> 32) }

// extValues is the Values of a row that did not fit in vals, at offset off
// of the batch's Values.
type extValues struct {
	off int
	v   []byte
}

// row is one staged event. Its Values are vals[previous row's valEnd:valEnd].
type row struct {
	eventHead
	valEnd int32
	ready  atomic.Uint32 // set by the appender once the row is filled
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
	b := &batch{
		rows:    make([]row, rows),
		vals:    make([]byte, valBytes),
		valsCap: valBytes,
	}
	b.res.Store(resSealed) // closed until installed
	return b
}

// waitFilled returns once every row of the sealed batch is filled by its
// appender, and sets valsUsed, moving Values that did not fit in vals into
// a larger one.
func (b *batch) waitFilled() {
	for i := range b.rows[:b.n] {
		// A row is usually filled within nanoseconds of its reservation;
		// an appender preempted in between may take a scheduler's
		// time slice, for which the encoder sleeps instead of spinning.
		for spins := 0; b.rows[i].ready.Load() == 0; spins++ {
			if spins < 64 {
				runtime.Gosched()
			} else {
				time.Sleep(20 * time.Microsecond)
			}
		}
	}
	b.valsUsed = 0
	if b.n > 0 {
		b.valsUsed = int(b.rows[b.n-1].valEnd)
	}
	b.extMu.Lock()
	if len(b.ext) > 0 {
		vals := make([]byte, b.valsUsed)
		copy(vals, b.vals[:min(len(b.vals), b.valsUsed)])
		for _, x := range b.ext {
			copy(vals[x.off:], x.v)
		}
		b.vals = vals
		clear(b.ext)
		b.ext = b.ext[:0]
	}
	b.extMu.Unlock()
}

func (b *batch) reset() {
	clear(b.rows[:b.n]) // do not keep callers' strings alive; not ready
	if len(b.vals) > b.valsCap {
		b.vals = make([]byte, b.valsCap)
	}
	b.n, b.valsUsed, b.reserved = 0, 0, 0
	b.upTo = 0
	b.sync = false
}

// stage writes row i and copies its Values to off (reserved by the caller):
// for batches filled by one goroutine (compaction), which need no ready
// marks.
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

// lockedFillMax is the largest Values that Append reserves without
// Writer.mu. Larger Values (rare) reserve under it, in a batch with room
// for them (appendSlow), so that a batch's reservation word never counts
// more bytes than a few batches hold; all Values are copied without it.
const lockedFillMax = 512

// Writer appends events to a log file. Append is safe for concurrent use;
// encoding, compression and I/O run on one background goroutine.
type Writer struct {
	opts Options
	path string
	// fastValues is the largest Values that Append's lock-free path
	// takes: min(lockedFillMax, Options.MaxValueBytes).
	fastValues int

	// cur is the batch that appenders reserve rows in: nil while waiting
	// for a free batch, and once closed. It is set under mu.
	cur atomic.Pointer[batch]

	mu sync.Mutex
	// seq is the last Seq assigned when cur was sealed or an event was
	// dropped with no batch open (lastSeqLocked counts cur's rows too).
	seq uint64
	// dispatchedUpTo is the upTo of the batch handed to the encoder last.
	dispatchedUpTo uint64
	batches        int // allocated so far, at most opts.Buffers
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
//
// Its common path takes no lock: one atomic add reserves the row, its Seq
// and the room for its Values in the current batch (see batch).
func (w *Writer) Append(e *Event) uint64 {
	b := w.cur.Load()
	nv := len(e.Values)
	if b == nil || nv > w.fastValues {
		return w.appendSlow(e)
	}
	r := b.res.Add(resRow | uint64(nv))
	i, end := resRows(r)-1, int(r&resBytesMask)
	if r&resSealed != 0 || i >= len(b.rows)-1 || end >= b.cut {
		if r&resSealed == 0 && i < len(b.rows) {
			// The batch's last row, or Values that reach its cut.
			return w.fill(b, i, r, e)
		}
		// The batch is full, or sealed (handed over, or a straggler's
		// view of a batch since recycled): this reservation failed,
		// and counts nowhere.
		return w.appendSlow(e)
	}
	// The common case, fill without its rare branches, here to save a
	// call: a row short of the last whose Values lie before the cut
	// (and so inside vals).
	off := end - nv
	seq := b.base + uint64(i) + 1
	e.Seq = seq
	row := &b.rows[i]
	row.eventHead = *(*eventHead)(unsafe.Pointer(e))
	row.valEnd = int32(end)
	copySmall(b.vals[off:end], e.Values)
	row.ready.Store(1) // from here on the encoder may recycle b
	return seq
}

// copySmall copies src to dst, of the same length. Values of 4 to 16 bytes
// (most events: a few scalars) are copied as two overlapping words, which
// costs a fraction of memmove's call and size dispatch; nothing is written
// outside dst, where appenders of the neighbouring rows may be writing.
func copySmall(dst, src []byte) {
	switch n := len(src); {
	case n >= 8 && n <= 16 && len(dst) == n:
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(src))
		binary.LittleEndian.PutUint64(dst[n-8:], binary.LittleEndian.Uint64(src[n-8:]))
	case n >= 4 && n < 8 && len(dst) == n:
		binary.LittleEndian.PutUint32(dst, binary.LittleEndian.Uint32(src))
		binary.LittleEndian.PutUint32(dst[n-4:], binary.LittleEndian.Uint32(src[n-4:]))
	default:
		copy(dst, src)
	}
}

// fill writes e into row i of b, reserved by the reservation word r (as its
// appender's add returned it), and marks the row ready. The appender whose
// row is the batch's last, or whose Values cross the batch's cut, hands the
// batch to the encoder.
func (w *Writer) fill(b *batch, i int, r uint64, e *Event) uint64 {
	nv := len(e.Values)
	end := int(r & resBytesMask)
	off := end - nv
	base := b.base
	seq := base + uint64(i) + 1
	e.Seq = seq
	b.setRow(i, off, e)
	if end <= len(b.vals) {
		copy(b.vals[off:end], e.Values)
	} else {
		b.extMu.Lock()
		b.ext = append(b.ext, extValues{off, append([]byte(nil), e.Values...)})
		b.extMu.Unlock()
	}
	// Once the row is ready, the encoder may write the batch and recycle
	// it: its fields are read before. Every appender whose Values end at
	// or past the cut tries to hand the batch over, not only the one that
	// crossed it: if that one is preempted before it takes w.mu, the next
	// one seals the batch, so that few rows go on reserving past the end
	// of vals (each of those copies its Values aside).
	last := i == len(b.rows)-1 || end >= b.cut
	b.rows[i].ready.Store(1)
	if last {
		w.mu.Lock()
		// The batch may have been sealed meanwhile (a full batch is
		// sealed by the first appender that finds no row), even
		// recycled and opened again: base tells.
		if w.cur.Load() == b && b.base == base {
			w.dispatchLocked(false)
		}
		w.mu.Unlock()
	}
	return seq
}

// appendSlow is Append for everything but the common case: a closed writer,
// no current batch, a full batch, large or oversized Values. It reserves
// under w.mu (appenders of the common path may reserve in the same batch
// meanwhile) and fills the row after unlocking.
func (w *Writer) appendSlow(e *Event) uint64 {
	nv := len(e.Values)
	w.mu.Lock()
	for {
		if w.closed {
			w.mu.Unlock()
			return 0
		}
		b := w.cur.Load()
		if nv > w.opts.MaxValueBytes {
			// Dropped, but it takes a Seq: the rows of a batch have
			// consecutive ones, so the current batch is handed over
			// first.
			w.dispatchLocked(false)
			w.seq++
			seq := w.seq
			e.Seq = seq
			w.dropped.Add(1)
			w.mu.Unlock()
			return seq
		}
		if b != nil && nv > w.fastValues {
			// Large Values go to a batch with room for them, as before the
			// reservation was lock-free: the current one is handed over
			// if it holds rows and cannot take them. This also bounds the
			// bytes a reservation word counts, well below its 32 bits.
			if r := b.res.Load(); resRows(r) > 0 && int(r&resBytesMask)+nv > len(b.vals) {
				w.dispatchLocked(false)
				b = nil
			}
		}
		if b == nil {
			if b = w.acquireLocked(nv); b == nil {
				w.seq++ // dropped (counted): no batch is free
				seq := w.seq
				e.Seq = seq
				w.mu.Unlock()
				return seq
			}
		}
		r := b.res.Add(resRow | uint64(nv))
		if i := resRows(r) - 1; r&resSealed == 0 && i < len(b.rows) {
			w.mu.Unlock()
			return w.fill(b, i, r, e)
		}
		// b is full: hand it over, and reserve in the next one.
		w.dispatchLocked(false)
	}
}

// acquireLocked gets an empty batch and opens it as w.cur for an event with
// nv bytes of Values, applying the backpressure policy when none is free;
// nil means the event is dropped.
func (w *Writer) acquireLocked(nv int) *batch {
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
	if nv > len(b.vals) {
		b.vals = make([]byte, nv) // b is empty: nobody else writes to it
	}
	w.installLocked(b)
	return b
}

// installLocked opens the empty batch b for appenders as w.cur: its rows
// take the Seqs after w.seq. It arms the flush timer.
func (w *Writer) installLocked(b *batch) {
	b.base = w.seq
	b.cut = min(w.opts.BatchBytes, len(b.vals))
	b.n = 0
	b.open = true
	b.res.Store(0) // publishes base and cut to the appenders that reserve
	w.cur.Store(b)
	w.armTimerLocked()
}

// sealLocked closes the open batch b to further reservations, which fixes
// its rows, and advances w.seq past them. Nothing is done for a batch that
// is not open.
func (w *Writer) sealLocked(b *batch) {
	if b == nil || !b.open {
		return
	}
	b.open = false
	r := b.res.Or(resSealed)
	b.n = min(resRows(r), len(b.rows))
	b.reserved = int(r & resBytesMask)
	w.seq = b.base + uint64(b.n)
}

// lastSeqLocked is the last Seq assigned, including the rows reserved in
// the open batch.
func (w *Writer) lastSeqLocked() uint64 {
	if b := w.cur.Load(); b != nil && b.open {
		return b.base + uint64(min(resRows(b.res.Load()), len(b.rows)))
	}
	return w.seq
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
	b := w.cur.Load()
	if b == nil {
		return
	}
	w.cur.Store(nil)
	w.sealLocked(b)
	w.handOverLocked(b, sync)
}

// handOverLocked queues the sealed (or never opened) batch b for the
// encoder, as covering every Seq up to w.seq.
func (w *Writer) handOverLocked(b *batch, sync bool) {
	b.upTo = w.seq
	b.sync = sync
	b.est = batchEstimate(b)
	w.queuedBytes.Add(b.est)
	w.dispatchedUpTo = w.seq
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
	if b := w.cur.Load(); !w.closed && b != nil && resRows(b.res.Load()) > 0 {
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
	b := w.cur.Load()
	w.cur.Store(nil)
	w.sealLocked(b)
	target := w.seq
	// Even an empty batch is dispatched: it carries the mark up to target,
	// which may end in dropped events that no batch would otherwise cover.
	if b == nil {
		if w.opts.Policy == Drop {
			b = w.tryTakeBatchLocked()
		} else {
			b = w.takeBatchLocked()
		}
	}
	if b == nil {
		target = w.dispatchedUpTo
	} else {
		w.handOverLocked(b, w.opts.SyncOnFlush)
	}
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
		b := w.cur.Load()
		w.cur.Store(nil) // Append's common path needs a current batch: it goes to appendSlow, which sees closed
		w.sealLocked(b)
		w.mu.Unlock()
		if b != nil {
			b.waitFilled()
		}
		return w.finish(b)
	}
	b := w.cur.Load()
	w.cur.Store(nil)
	w.sealLocked(b)
	if b == nil {
		b = w.takeBatchLocked()
	}
	w.handOverLocked(b, false)
	close(w.full)
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
	if b := w.cur.Load(); b != nil && b.open {
		r := b.res.Load()
		pending = int64(r&resBytesMask) + int64(min(resRows(r), len(b.rows)))*rowBytesEstimate
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
	return int64(b.reserved) + int64(b.n)*rowBytesEstimate
}

// rowBytesEstimate is what Size counts for an event's fixed columns, before
// compression (seq, stream, kind, parent, dictionary indices, offsets).
const rowBytesEstimate = 40

// Path returns the path of the log.
func (w *Writer) Path() string { return w.path }
