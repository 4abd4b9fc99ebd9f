package eventlog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/zstd"
)

// Limits the reader enforces before allocating. The writer stays well
// inside them (Options.fill); anything beyond is treated as hostile.
const (
	maxRowsPerBatch = 1 << 20
	maxValueBytes   = 16 << 20
	maxMetaBytes    = 1 << 20   // one message header (FlatBuffers)
	maxBodyBytes    = 256 << 20 // one message body as stored
	maxBatchBytes   = 512 << 20 // one message body after decompression
	// Values bytes in one record batch (the writer cuts batches at
	// Options.BatchBytes, plus one value of at most maxValueBytes).
	maxBatchValueBytes = 64 << 20
	maxDictBatchBytes  = 64 << 20  // strings in one dictionary batch
	maxDictEntries     = 1 << 22   // per dictionary column, over the whole log
	maxDictBytes       = 256 << 20 // per dictionary column, over the whole log
	maxZstdWindow      = 16 << 20
	fileMagic          = "ARROW1"
	ipcContinuation    = 0xFFFFFFFF
	headerSchema       = 1
	headerDictBatch    = 2
	headerRecBatch     = 3
	codecZstd          = 1
)

// recoverPanics is switched off by the fuzz test, so that a panic the
// checks did not prevent fails the test instead of becoming an error.
var recoverPanics = true

// ErrCorrupt is wrapped by every error about the content of a log (as
// opposed to I/O errors): errors.Is(err, ErrCorrupt).
var ErrCorrupt = errors.New("corrupt event log")

// ErrNotRegular is wrapped by Open's error for a path that is not a
// regular file.
var ErrNotRegular = errors.New("not a regular file")

// notRegularError is Open's error for a directory, FIFO, device or socket.
type notRegularError struct{ msg string }

func (e *notRegularError) Error() string { return e.msg }
func (e *notRegularError) Unwrap() error { return ErrNotRegular }

// checkRegular refuses what is not a regular file, naming what it is.
func checkRegular(path string, st os.FileInfo) error {
	mode := st.Mode()
	var what string
	switch {
	case mode.IsRegular():
		return nil
	case mode.IsDir():
		return &notRegularError{fmt.Sprintf("eventlog: %s is a directory: give the log files, or use a command that takes a folder", path)}
	case mode&os.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case mode&os.ModeSocket != 0:
		what = "a socket"
	case mode&os.ModeDevice != 0:
		what = "a device"
	default:
		what = "not a regular file (" + mode.Type().String() + ")"
	}
	return &notRegularError{fmt.Sprintf("eventlog: %s is %s: an event log is a regular file (copy it to one first)", path, what)}
}

// TornTail describes the end of a capture-time log whose writer did not
// close it (it was killed, or is still writing).
type TornTail struct {
	Offset int64 // file offset where the unreadable tail starts
	Bytes  int64 // bytes ignored there (a partially written batch); 0 if the log ends at a batch boundary
}

// Reader iterates over the events of a log, one record batch in memory at a
// time. It decodes every message itself (no Arrow library: a capture binary
// links this package), checking every size and offset.
type Reader struct {
	src    io.ReaderAt
	closer io.Closer
	path   string
	msgs   *messageReader
	meta   Meta
	isFile bool
	dec    *zstd.Decoder

	dicts   [4][]string // by dictionary id: kind, site, pos, recv_type
	scratch [recordBuffers][]byte
	kindOf  []Kind // kind dictionary entry -> Kind

	row, rows int
	columns   // of the record batch being read (rows counts them; columns.n is unused)

	ev      Event
	lastSeq uint64
	err     error
}

// Open opens a log written by Writer (an IPC stream, possibly ending in a
// torn batch if its writer was killed) or compacted by Compact (an IPC file),
// reads its schema and checks that this reader understands it.
//
// A path that is not a regular file (a directory, a FIFO, a device) is
// refused at once with an error wrapping ErrNotRegular: reading a FIFO
// would wait for a writer, and a directory is a list of logs, not one.
func Open(path string) (*Reader, error) {
	f, st, err := openLog(path)
	if err != nil {
		if errors.Is(err, ErrNotRegular) {
			return nil, err
		}
		return nil, fmt.Errorf("eventlog: %w", err)
	}
	r, err := NewReader(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// NewReader reads a log of size bytes from ra; name is used in errors.
// Close does not close ra.
func NewReader(ra io.ReaderAt, size int64, name string) (*Reader, error) {
	r := &Reader{src: ra, path: name}
	if err := r.open(size); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Reader) corrupt(format string, args ...any) error {
	return fmt.Errorf("eventlog: %s: %w: %s", r.path, ErrCorrupt, fmt.Sprintf(format, args...))
}

func (r *Reader) open(size int64) (err error) {
	defer func() {
		// Last line of defence: the checks are meant to stop hostile
		// schemas before anything indexes them.
		if p := recover(); p != nil {
			if !recoverPanics {
				panic(p)
			}
			err = r.corrupt("undecodable schema (%v)", p)
		}
	}()
	var head [8]byte
	n, _ := r.src.ReadAt(head[:], 0)
	start, end := int64(0), size
	if n == 8 && string(head[:6]) == fileMagic {
		r.isFile = true
		// Compacted: magic, stream, footer, footer length, magic. The footer
		// is not needed to read sequentially, but its absence means the file
		// was cut short.
		var tail [10]byte
		if size < 8+10 {
			return r.corrupt("compacted log of %d bytes is truncated", size)
		}
		if _, err := r.src.ReadAt(tail[:], size-10); err != nil {
			return fmt.Errorf("eventlog: %s: %w", r.path, err)
		}
		if string(tail[4:]) != fileMagic {
			return r.corrupt("compacted log is truncated: no footer (compact the original log again)")
		}
		flen := int64(int32(binary.LittleEndian.Uint32(tail[:4])))
		if flen <= 0 || flen > size-8-10 {
			return r.corrupt("compacted log has a bad footer length %d", flen)
		}
		start, end = 8, size-10-flen
	} else if n == 0 {
		return r.corrupt("empty file: the writer did not get to write the schema")
	}
	// A buffer no larger than the file: a short log (a test process's, or
	// one that capture verify checks among many) need not allocate 64 KiB.
	bufSize := 64 << 10
	if n := end - start; n < int64(bufSize) {
		bufSize = int(max(n, 16))
	}
	r.msgs = &messageReader{
		r:      bufio.NewReaderSize(io.NewSectionReader(r.src, start, end-start), bufSize),
		off:    start,
		end:    end,
		stream: !r.isFile,
		path:   r.path,
	}
	msg, err := r.msgs.next()
	if err == io.EOF {
		return r.corrupt("no schema: the log is truncated or not an event log")
	}
	if err != nil {
		return err
	}
	if msg.htype != headerSchema {
		return r.corrupt("log does not start with a schema message")
	}
	r.msgs.schemaRead = true
	if r.meta, err = checkSchema(msg.schema); err != nil {
		return fmt.Errorf("eventlog: %s: %w: %v", r.path, ErrCorrupt, err)
	}
	if err := checkMetadataChecksum(r.path, msg.schema, r.meta.FormatVersion); err != nil && !ignoreChecksums {
		return err
	}
	r.msgs.needSums = r.meta.FormatVersion >= firstChecksumFormat
	if r.dec, err = sharedDecoder(); err != nil {
		return fmt.Errorf("eventlog: %w", err)
	}
	return nil
}

// sharedDecoder is one zstd decoder for all readers (DecodeAll is safe for
// concurrent use): creating one costs more than reading a small log. Its
// limits bound what a hostile frame can make it allocate.
var sharedDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(4),
		zstd.WithDecoderMaxMemory(maxBatchValueBytes+1<<20), zstd.WithDecoderMaxWindow(maxZstdWindow))
})

// Meta returns the log's metadata and the writer's last recorded status.
func (r *Reader) Meta() Meta { return r.meta }

// Torn reports, once Next has returned io.EOF, whether the log ended without
// the writer closing it, and what was ignored at its end. A compacted log is
// never torn.
func (r *Reader) Torn() (TornTail, bool) {
	if r.msgs == nil || !r.msgs.torn {
		return TornTail{}, false
	}
	return r.msgs.tornAt, true
}

// Next returns the next event in Seq order, or io.EOF after the last one.
// The event and its Values are valid until the next call.
func (r *Reader) Next() (ev *Event, err error) {
	if r.err != nil {
		return nil, r.err
	}
	defer func() {
		if p := recover(); p != nil {
			if !recoverPanics {
				panic(p)
			}
			r.err = r.corrupt("undecodable record batch (%v)", p)
			ev, err = nil, r.err
		}
	}()
	for r.row >= r.rows {
		if err := r.nextBatch(); err != nil {
			r.err = err
			return nil, err
		}
	}
	i := r.row
	r.row++
	e := &r.ev
	e.Seq = r.seq[i]
	if e.Seq <= r.lastSeq {
		r.err = r.corrupt("seq %d follows seq %d: events out of order", e.Seq, r.lastSeq)
		return nil, r.err
	}
	r.lastSeq = e.Seq
	e.Stream = r.stream[i]
	e.Kind = r.kindOf[r.kind[i]]
	e.Parent = r.parent[i]
	e.Site = r.dicts[dictIDSite][r.site[i]]
	e.Pos = r.dicts[dictIDPos][r.pos[i]]
	e.RecvType = r.dicts[dictIDRecvType][r.recv[i]]
	e.RecvID = r.recvID[i]
	e.Values = r.vals[r.valOff[i]:r.valOff[i+1]:r.valOff[i+1]]
	return e, nil
}

// All yields the remaining events in Seq order, as Next returns them, and
// stops after the last one or after the first error, which it yields with
// a nil event. Each event is valid until the loop goes on.
func (r *Reader) All() iter.Seq2[*Event, error] {
	return func(yield func(*Event, error) bool) {
		for {
			e, err := r.Next()
			if errors.Is(err, io.EOF) || !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// nextBatch reads messages up to and including the next record batch.
func (r *Reader) nextBatch() error {
	r.row, r.rows = 0, 0
	for {
		msg, err := r.msgs.next()
		if err == io.EOF {
			return r.checkEnd()
		}
		if err != nil {
			return err
		}
		switch msg.htype {
		case headerSchema:
			return r.msgs.corrupt("second schema message")
		case headerDictBatch:
			if err := r.readDictionary(msg); err != nil {
				return err
			}
		case headerRecBatch:
			return r.readRecordBatch(msg)
		}
	}
}

// checkEnd returns io.EOF at the end of a log, or the error that the log
// has lost events: its writer closed it (so it recorded how many events it
// wrote, and ended it with the end-of-stream marker) but the file ends
// early or holds fewer events. A log whose writer was killed or is still
// writing (state open) ends where it ends.
func (r *Reader) checkEnd() error {
	st := r.meta.Status
	if !st.Closed {
		return io.EOF
	}
	got := r.msgs.events
	if got == st.Events && !r.msgs.torn {
		return io.EOF
	}
	if got > st.Events {
		return &logError{
			msg:  fmt.Sprintf("log %s holds %s events, but its writer closed it with %s: the file is corrupt", r.path, Commas(got), Commas(st.Events)),
			kind: ErrCorrupt,
		}
	}
	if got == st.Events {
		return &logError{
			msg:  fmt.Sprintf("log %s is truncated: its %s events are there, but not the end-of-stream marker; it was cut after it was closed (copy it again)", r.path, Commas(got)),
			kind: ErrTruncated,
		}
	}
	return &logError{
		msg:  fmt.Sprintf("log %s is truncated: %s of %s events; it was cut after it was closed (copy it again)", r.path, Commas(got), Commas(st.Events)),
		kind: ErrTruncated,
	}
}

// Checksummed reports whether the batches read so far carried checksums
// (all verified: a mismatch is an error). Logs of format 4 on always do;
// older logs do once compacted.
func (r *Reader) Checksummed() bool { return r.msgs != nil && r.msgs.sums == sumsPresent }

// Events returns the number of events read so far: once Next has returned
// io.EOF, the events of the log.
func (r *Reader) Events() uint64 {
	if r.msgs == nil {
		return 0
	}
	return r.msgs.events - uint64(r.rows-r.row)
}

// buffer returns buffer i of a checked batch, decompressed.
func (r *Reader) buffer(msg *message, i int) ([]byte, error) {
	b := msg.bufs[i]
	raw := msg.body[b.off : b.off+b.len]
	if !msg.compressed || len(raw) == 0 {
		return raw, nil
	}
	size := int64(binary.LittleEndian.Uint64(raw))
	if size == -1 {
		return raw[8:], nil
	}
	// Decode into the buffer this index used in the previous batch: its
	// events are no longer valid (Next's contract), and reusing it saves
	// allocating and zeroing every batch.
	dst := r.scratch[i][:0]
	if int64(cap(dst)) < size {
		dst = make([]byte, 0, size)
	}
	out, err := r.dec.DecodeAll(raw[8:], dst)
	r.scratch[i] = out
	if err != nil {
		return nil, r.msgs.corruptAt(msg.off, "buffer %d: %v", i, err)
	}
	if int64(len(out)) != size {
		return nil, r.msgs.corruptAt(msg.off, "buffer %d decompresses to %d bytes, header says %d", i, len(out), size)
	}
	return out, nil
}

// fixed returns buffer i as n values of width bytes.
func (r *Reader) fixed(msg *message, i, n, width int, col string) ([]byte, error) {
	b, err := r.buffer(msg, i)
	if err != nil {
		return nil, err
	}
	if len(b) < n*width {
		return nil, r.msgs.corruptAt(msg.off, "column %s: %d bytes for %d values", col, len(b), n)
	}
	b = b[:n*width]
	if width > 1 && n > 0 && uintptr(unsafe.Pointer(&b[0]))%uintptr(width) != 0 {
		b = append([]byte(nil), b...) // realign
	}
	return b, nil
}

func castSlice[T any](b []byte, width int) []T {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/width)
}

// binaryColumn returns the checked offsets and data of a variable-size
// column whose offsets are buffer i and data buffer i+1.
func (r *Reader) binaryColumn(msg *message, i, n int, col string) ([]int32, []byte, error) {
	ob, err := r.fixed(msg, i, n+1, 4, col)
	if err != nil {
		if n == 0 && len(msg.body[msg.bufs[i].off:msg.bufs[i].off+msg.bufs[i].len]) == 0 {
			return []int32{0}, nil, nil
		}
		return nil, nil, err
	}
	data, err := r.buffer(msg, i+1)
	if err != nil {
		return nil, nil, err
	}
	offs := castSlice[int32](ob, 4)
	prev := offs[0]
	if prev < 0 {
		return nil, nil, r.msgs.corruptAt(msg.off, "column %s: negative offset", col)
	}
	for _, o := range offs[1:] {
		if o < prev {
			return nil, nil, r.msgs.corruptAt(msg.off, "column %s: offsets decrease", col)
		}
		prev = o
	}
	if int64(prev) > int64(len(data)) {
		return nil, nil, r.msgs.corruptAt(msg.off, "column %s: offsets point past the data", col)
	}
	return offs, data, nil
}

var dictColumnNames = [4]string{ColKind, ColSite, ColPos, ColRecvType}

func (r *Reader) readDictionary(msg *message) error {
	id := msg.dictID
	col := dictColumnNames[id]
	offs, data, err := r.binaryColumn(msg, 1, msg.rows, col+" dictionary")
	if err != nil {
		return err
	}
	d := r.dicts[id]
	if !msg.delta {
		d = d[:0:0] // replacement (stream format only): earlier batches keep their copy
	}
	for i := 0; i < msg.rows; i++ {
		d = append(d, string(data[offs[i]:offs[i+1]]))
	}
	r.dicts[id] = d
	if id == dictIDKind {
		r.kindOf = r.kindOf[:0]
		for _, name := range d {
			k, ok := ParseKind(name)
			if !ok && name != KindInvalid.String() {
				return r.msgs.corruptAt(msg.off, "unknown event kind %q (written by a newer rules_capture? upgrade to read it)", name)
			}
			r.kindOf = append(r.kindOf, k)
		}
	}
	return nil
}

func (r *Reader) indices(msg *message, i, n int, id int, col string) ([]int32, error) {
	b, err := r.fixed(msg, i, n, 4, col)
	if err != nil {
		return nil, err
	}
	idx := castSlice[int32](b, 4)
	lim := int32(len(r.dicts[id]))
	for _, v := range idx {
		if v < 0 || v >= lim {
			return nil, r.msgs.corruptAt(msg.off, "column %s: dictionary index %d out of range [0,%d)", col, v, lim)
		}
	}
	return idx, nil
}

// readRecordBatch decodes and checks every column of a batch, so that Next
// can index without further checks. Buffer 2c is column c's validity
// bitmap (ignored: nodes were checked to have no nulls), 2c+1 its values;
// values, the last column, has offsets and data.
func (r *Reader) readRecordBatch(msg *message) error {
	n := msg.rows
	var err error
	var b []byte
	if b, err = r.fixed(msg, 2*colSeq+1, n, 8, ColSeq); err != nil {
		return err
	}
	r.seq = castSlice[uint64](b, 8)
	if b, err = r.fixed(msg, 2*colStream+1, n, 4, ColStream); err != nil {
		return err
	}
	r.stream = castSlice[uint32](b, 4)
	if r.kind, err = r.fixed(msg, 2*colKind+1, n, 1, ColKind); err != nil {
		return err
	}
	for _, k := range r.kind {
		if int(k) >= len(r.kindOf) { // int8 index: negative values are >= 128 here
			return r.msgs.corruptAt(msg.off, "column kind: dictionary index %d out of range", int8(k))
		}
	}
	if b, err = r.fixed(msg, 2*colParent+1, n, 8, ColParent); err != nil {
		return err
	}
	r.parent = castSlice[uint64](b, 8)
	if r.site, err = r.indices(msg, 2*colSite+1, n, dictIDSite, ColSite); err != nil {
		return err
	}
	if r.pos, err = r.indices(msg, 2*colPos+1, n, dictIDPos, ColPos); err != nil {
		return err
	}
	if r.recv, err = r.indices(msg, 2*colRecvType+1, n, dictIDRecvType, ColRecvType); err != nil {
		return err
	}
	if b, err = r.fixed(msg, 2*colRecvID+1, n, 8, ColRecvID); err != nil {
		return err
	}
	r.recvID = castSlice[uint64](b, 8)
	if r.valOff, r.vals, err = r.binaryColumn(msg, 2*colValues+1, n, ColValues); err != nil {
		return err
	}
	r.rows = n
	return nil
}

// Close releases the file (if Open opened it).
func (r *Reader) Close() error {
	r.dec = nil
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}
