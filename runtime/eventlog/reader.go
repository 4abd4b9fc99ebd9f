package eventlog

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Limits the reader enforces before allocating. The writer stays well
// inside them (Options.fill); anything beyond is treated as hostile.
const (
	maxRowsPerBatch   = 1 << 20
	maxValueBytes     = 16 << 20
	maxMetaBytes      = 1 << 20   // one message header (FlatBuffers)
	maxBodyBytes      = 256 << 20 // one message body as stored
	maxBatchBytes     = 512 << 20 // one message body after decompression
	maxDictEntries    = 1 << 22   // per dictionary column, over the whole log
	maxDictBytes      = 256 << 20 // per dictionary column, over the whole log
	maxZstdWindow     = 16 << 20
	fileMagic         = "ARROW1"
	ipcContinuation   = 0xFFFFFFFF
	headerSchema      = 1
	headerDictBatch   = 2
	headerRecordBatch = 3
	codecZstd         = 1
)

// ErrCorrupt is wrapped by every error about the content of a log (as
// opposed to I/O errors): errors.Is(err, ErrCorrupt).
var ErrCorrupt = errors.New("corrupt event log")

// TornTail describes the end of a capture-time log whose writer did not
// close it (it was killed, or is still writing).
type TornTail struct {
	Offset int64 // file offset where the unreadable tail starts
	Bytes  int64 // bytes ignored there (a partially written batch); 0 if the log ends at a batch boundary
}

// Reader iterates over the events of a log, one record batch in memory at a
// time.
type Reader struct {
	f      *os.File
	path   string
	msgs   *messageReader
	ipcr   *ipc.Reader
	meta   Meta
	isFile bool

	rec       arrow.Record
	row, rows int
	seq       []uint64
	stream    []uint32
	kindIdx   []int8
	parent    []uint64
	siteIdx   []int32
	posIdx    []int32
	recvIdx   []int32
	recvID    []uint64
	values    *array.Binary
	kinds     dictStrings
	sites     dictStrings
	poss      dictStrings
	recvTypes dictStrings
	kindOf    []Kind

	ev      Event
	lastSeq uint64
	events  uint64
	err     error
}

// Open opens a log written by Writer (an IPC stream, possibly ending in a
// torn batch if its writer was killed) or compacted by Compact (an IPC file),
// reads its schema and checks that this reader understands it.
func Open(path string) (r *Reader, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("eventlog: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("eventlog: %w", err)
	}
	r = &Reader{f: f, path: path}
	if err := r.open(st.Size()); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Reader) corrupt(format string, args ...any) error {
	return fmt.Errorf("eventlog: %s: %w: %s", r.path, ErrCorrupt, fmt.Sprintf(format, args...))
}

func (r *Reader) open(size int64) (err error) {
	defer func() {
		// Last line of defence: the checks in messageReader and checkBatch
		// are meant to stop hostile input before Arrow sees it.
		if p := recover(); p != nil {
			err = r.corrupt("undecodable schema (%v)", p)
		}
	}()
	var head [8]byte
	n, _ := io.ReadFull(r.f, head[:])
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
		if _, err := r.f.ReadAt(tail[:], size-10); err != nil {
			return fmt.Errorf("eventlog: %s: %w", r.path, err)
		}
		if string(tail[4:]) != fileMagic {
			return r.corrupt("compacted log is truncated: no footer (re-run capture compact on the original)")
		}
		flen := int64(int32(binary.LittleEndian.Uint32(tail[:4])))
		if flen <= 0 || flen > size-8-10 {
			return r.corrupt("compacted log has a bad footer length %d", flen)
		}
		start, end = 8, size-10-flen
	} else if n == 0 {
		return r.corrupt("empty file: the writer did not get to write the schema")
	}
	r.msgs = &messageReader{
		r:      bufio.NewReaderSize(io.NewSectionReader(r.f, start, end-start), 64<<10),
		off:    start,
		end:    end,
		stream: !r.isFile,
		path:   r.path,
	}
	if first, err := r.msgs.peekSchema(); err != nil {
		return err
	} else if !first {
		return r.corrupt("log does not start with an Arrow schema message (not an event log?)")
	}
	r.ipcr, err = ipc.NewReaderFromMessageReader(r.msgs, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		if r.msgs.err != nil {
			return r.msgs.err
		}
		return r.corrupt("%v", err)
	}
	if r.meta, err = checkSchema(r.ipcr.Schema()); err != nil {
		return fmt.Errorf("eventlog: %s: %w: %v", r.path, ErrCorrupt, err)
	}
	r.msgs.schemaRead = true
	return nil
}

// Meta returns the log's metadata and the writer's last recorded status.
func (r *Reader) Meta() Meta { return r.meta }

// Torn reports, once Next has returned io.EOF, whether the log ended without
// the writer closing it and what was ignored at its end. A compacted log is
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
	e.Kind = r.kindOf[r.kindIdx[i]]
	e.Parent = r.parent[i]
	e.Site = r.sites.s[r.siteIdx[i]]
	e.Pos = r.poss.s[r.posIdx[i]]
	e.RecvType = r.recvTypes.s[r.recvIdx[i]]
	e.RecvID = r.recvID[i]
	e.Values = r.values.Value(i)
	r.events++
	return e, nil
}

func (r *Reader) nextBatch() error {
	if r.rec != nil {
		r.rec = nil // released by the ipc reader's next Next
	}
	r.row, r.rows = 0, 0
	if !r.ipcr.Next() {
		if r.msgs.err != nil {
			return r.msgs.err
		}
		if r.msgs.torn {
			return io.EOF
		}
		if err := r.ipcr.Err(); err != nil {
			return r.corrupt("%v", err)
		}
		if r.isFile && !r.msgs.sawEOS {
			return r.corrupt("compacted log has no end-of-stream marker")
		}
		return io.EOF
	}
	rec := r.ipcr.Record()
	if err := r.checkBatch(rec); err != nil {
		return err
	}
	r.rec = rec
	r.rows = int(rec.NumRows())
	return nil
}

// dictStrings caches the Go strings of one dictionary array.
type dictStrings struct {
	arr arrow.Array
	s   []string
}

func (d *dictStrings) load(dict arrow.Array, r *Reader, col string) error {
	if d.arr == dict {
		return nil
	}
	sa, ok := dict.(*array.String)
	if !ok {
		return r.corrupt("column %s: dictionary is %s, want utf8", col, dict.DataType())
	}
	if err := checkOffsets(sa.Data(), r, col+" dictionary"); err != nil {
		return err
	}
	d.s = d.s[:0]
	for i := 0; i < sa.Len(); i++ {
		d.s = append(d.s, sa.Value(i))
	}
	d.arr = dict
	return nil
}

func checkOffsets(d arrow.ArrayData, r *Reader, col string) error {
	n := d.Len()
	if d.Offset() != 0 || d.NullN() != 0 {
		return r.corrupt("column %s: unexpected offset or nulls", col)
	}
	bufs := d.Buffers()
	if len(bufs) != 3 || bufs[1] == nil {
		return r.corrupt("column %s: missing offsets", col)
	}
	if bufs[1].Len() < 4*(n+1) {
		if n == 0 && bufs[1].Len() == 0 {
			return nil
		}
		return r.corrupt("column %s: offsets buffer too short", col)
	}
	offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[:n+1]
	dataLen := 0
	if bufs[2] != nil {
		dataLen = bufs[2].Len()
	}
	prev := offs[0]
	if prev < 0 {
		return r.corrupt("column %s: negative offset", col)
	}
	for _, o := range offs[1:] {
		if o < prev {
			return r.corrupt("column %s: offsets decrease", col)
		}
		prev = o
	}
	if int(prev) > dataLen {
		return r.corrupt("column %s: offsets point past the data", col)
	}
	return nil
}

func fixedBuf[T any](arr arrow.Array, width int, r *Reader, col string, conv func([]byte) []T) ([]T, error) {
	d := arr.Data()
	n := d.Len()
	bufs := d.Buffers()
	if d.Offset() != 0 || d.NullN() != 0 || len(bufs) < 2 {
		return nil, r.corrupt("column %s: unexpected offset or nulls", col)
	}
	if n == 0 {
		return nil, nil
	}
	if bufs[1] == nil || bufs[1].Len() < width*n {
		return nil, r.corrupt("column %s: buffer holds fewer than %d values", col, n)
	}
	return conv(bufs[1].Bytes())[:n], nil
}

func (r *Reader) dictColumn(rec arrow.Record, col int, ds *dictStrings) ([]int32, error) {
	name := schemaFields[col].Name
	da, ok := rec.Column(col).(*array.Dictionary)
	if !ok {
		return nil, r.corrupt("column %s is not dictionary-encoded", name)
	}
	if err := ds.load(da.Dictionary(), r, name); err != nil {
		return nil, err
	}
	idx, err := fixedBuf(da.Indices(), 4, r, name, arrow.Int32Traits.CastFromBytes)
	if err != nil {
		return nil, err
	}
	lim := int32(len(ds.s))
	for _, v := range idx {
		if v < 0 || v >= lim {
			return nil, r.corrupt("column %s: dictionary index %d out of range [0,%d)", name, v, lim)
		}
	}
	return idx, nil
}

// checkBatch validates what Next will index without further checks.
func (r *Reader) checkBatch(rec arrow.Record) error {
	var err error
	n := int(rec.NumRows())
	if int(rec.NumCols()) != numCols {
		return r.corrupt("record batch has %d columns, want %d", rec.NumCols(), numCols)
	}
	for c := 0; c < numCols; c++ {
		if rec.Column(c).Len() != n {
			return r.corrupt("column %s has %d rows, batch has %d", schemaFields[c].Name, rec.Column(c).Len(), n)
		}
	}
	if r.seq, err = fixedBuf(rec.Column(colSeq), 8, r, ColSeq, arrow.Uint64Traits.CastFromBytes); err != nil {
		return err
	}
	if r.stream, err = fixedBuf(rec.Column(colStream), 4, r, ColStream, arrow.Uint32Traits.CastFromBytes); err != nil {
		return err
	}
	if r.parent, err = fixedBuf(rec.Column(colParent), 8, r, ColParent, arrow.Uint64Traits.CastFromBytes); err != nil {
		return err
	}
	if r.recvID, err = fixedBuf(rec.Column(colRecvID), 8, r, ColRecvID, arrow.Uint64Traits.CastFromBytes); err != nil {
		return err
	}
	kd, ok := rec.Column(colKind).(*array.Dictionary)
	if !ok {
		return r.corrupt("column kind is not dictionary-encoded")
	}
	if r.kinds.arr != kd.Dictionary() {
		if err := r.kinds.load(kd.Dictionary(), r, ColKind); err != nil {
			return err
		}
		r.kindOf = r.kindOf[:0]
		for _, name := range r.kinds.s {
			k, ok := ParseKind(name)
			if !ok && name != KindInvalid.String() {
				return r.corrupt("unknown event kind %q (written by a newer rules_capture? upgrade to read it)", name)
			}
			r.kindOf = append(r.kindOf, k)
		}
	}
	if r.kindIdx, err = fixedBuf(kd.Indices(), 1, r, ColKind, arrow.Int8Traits.CastFromBytes); err != nil {
		return err
	}
	for _, v := range r.kindIdx {
		if v < 0 || int(v) >= len(r.kindOf) {
			return r.corrupt("column kind: dictionary index %d out of range", v)
		}
	}
	if r.siteIdx, err = r.dictColumn(rec, colSite, &r.sites); err != nil {
		return err
	}
	if r.posIdx, err = r.dictColumn(rec, colPos, &r.poss); err != nil {
		return err
	}
	if r.recvIdx, err = r.dictColumn(rec, colRecvType, &r.recvTypes); err != nil {
		return err
	}
	vals, ok := rec.Column(colValues).(*array.Binary)
	if !ok {
		return r.corrupt("column values is not binary")
	}
	if err := checkOffsets(vals.Data(), r, ColValues); err != nil {
		return err
	}
	r.values = vals
	return nil
}

// Close releases the file.
func (r *Reader) Close() error {
	if r.ipcr != nil {
		r.ipcr.Release()
		r.ipcr = nil
	}
	return r.f.Close()
}

// messageReader frames IPC messages itself (instead of ipc.NewMessageReader)
// so that every length is checked against the limits and the file size
// before anything is allocated or parsed by Arrow.
type messageReader struct {
	r          *bufio.Reader
	off, end   int64
	stream     bool // capture-time log: a cut-off tail is a torn write, not corruption
	path       string
	msg        *ipc.Message
	err        error // a corruption error, reported by Reader instead of Arrow's wrapping
	torn       bool
	tornAt     TornTail
	sawEOS     bool
	schemaRead bool
	dictRows   map[int64]int64
	dictBytes  map[int64]int64
}

func (m *messageReader) Retain()  {}
func (m *messageReader) Release() {}

func (m *messageReader) corrupt(format string, args ...any) error {
	m.err = fmt.Errorf("eventlog: %s: %w at offset %d: %s", m.path, ErrCorrupt, m.off, fmt.Sprintf(format, args...))
	return m.err
}

// cut handles a message that extends past the end of the data.
func (m *messageReader) cut(what string) error {
	if m.stream && m.schemaRead {
		m.torn = true
		m.tornAt = TornTail{Offset: m.off, Bytes: m.end - m.off}
		return io.EOF
	}
	if !m.schemaRead {
		return m.corrupt("file ends inside the schema (%s): truncated, or not an event log", what)
	}
	return m.corrupt("file ends inside a message (%s): truncated compacted log", what)
}

func (m *messageReader) peekSchema() (bool, error) {
	b, err := m.r.Peek(8)
	if err != nil {
		return false, m.cut("message length")
	}
	if binary.LittleEndian.Uint32(b) != ipcContinuation {
		return false, nil
	}
	return true, nil
}

func (m *messageReader) Message() (*ipc.Message, error) {
	if m.err != nil {
		return nil, m.err
	}
	if m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
	if m.off == m.end {
		// A capture-time log whose writer has not closed it ends without
		// the end-of-stream marker.
		if m.stream && m.schemaRead {
			m.torn = true
			m.tornAt = TornTail{Offset: m.off}
			return nil, io.EOF
		}
		return nil, m.cut("message length")
	}
	var hdr [8]byte
	if _, err := io.ReadFull(m.r, hdr[:]); err != nil {
		return nil, m.cut("message length")
	}
	if binary.LittleEndian.Uint32(hdr[:4]) != ipcContinuation {
		return nil, m.corrupt("expected an IPC continuation marker, found %x", hdr[:4])
	}
	mlen := int64(int32(binary.LittleEndian.Uint32(hdr[4:])))
	if mlen == 0 {
		m.sawEOS = true
		m.off += 8
		return nil, io.EOF
	}
	if mlen < 0 || mlen > maxMetaBytes {
		return nil, m.corrupt("message header length %d out of range (max %d)", mlen, maxMetaBytes)
	}
	if mlen > m.end-m.off-8 {
		return nil, m.cut("message header")
	}
	meta := make([]byte, mlen)
	if _, err := io.ReadFull(m.r, meta); err != nil {
		return nil, m.cut("message header")
	}
	bodyLen, err := m.checkHeader(meta)
	if err != nil {
		return nil, err
	}
	if bodyLen > m.end-m.off-8-mlen {
		return nil, m.cut("message body")
	}
	body := make([]byte, bodyLen)
	if _, err := io.ReadFull(m.r, body); err != nil {
		return nil, m.cut("message body")
	}
	if err := m.checkBody(meta, body); err != nil {
		return nil, err
	}
	m.off += 8 + mlen + bodyLen
	m.msg = ipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(body))
	return m.msg, nil
}

// checkHeader validates the message header enough that Arrow's unchecked
// FlatBuffers accessors stay in bounds, and returns the body length.
func (m *messageReader) checkHeader(meta []byte) (int64, error) {
	t, err := fbRoot(meta)
	if err != nil {
		return 0, m.corrupt("%v", err)
	}
	ver, err := t.i16(0, 0)
	if err != nil {
		return 0, m.corrupt("%v", err)
	}
	if ver < 4 || ver > 4 { // MetadataVersion V5 is 4
		return 0, m.corrupt("unsupported Arrow metadata version %d (want V5)", ver+1)
	}
	htype, err := t.u8(1, 0)
	if err != nil {
		return 0, m.corrupt("%v", err)
	}
	h, ok, err := t.table(2)
	if err != nil || !ok {
		return 0, m.corrupt("message without header")
	}
	bodyLen, err := t.i64(3, 0)
	if err != nil {
		return 0, m.corrupt("%v", err)
	}
	if bodyLen < 0 || bodyLen > maxBodyBytes {
		return 0, m.corrupt("message body length %d out of range (max %d)", bodyLen, maxBodyBytes)
	}
	if bodyLen%8 != 0 {
		return 0, m.corrupt("message body length %d not a multiple of 8", bodyLen)
	}
	switch htype {
	case headerSchema:
		if m.schemaRead {
			return 0, m.corrupt("second schema message")
		}
		if bodyLen != 0 {
			return 0, m.corrupt("schema message with a body")
		}
	case headerDictBatch, headerRecordBatch:
		if !m.schemaRead && htype == headerRecordBatch {
			// Arrow reads the schema itself before; this cannot happen.
			return 0, m.corrupt("record batch before the schema")
		}
	default:
		return 0, m.corrupt("unexpected message type %d", htype)
	}
	if htype == headerSchema {
		return bodyLen, nil
	}
	_ = h
	return bodyLen, nil
}

// bodyLayout is the expected node and buffer count of a record batch of
// our schema, and of one dictionary batch (utf8 values).
const (
	recordNodes   = numCols
	recordBuffers = 2*(numCols-1) + 3
	dictNodes     = 1
	dictBuffers   = 3
)

func (m *messageReader) checkBody(meta, body []byte) error {
	t, _ := fbRoot(meta)
	htype, _ := t.u8(1, 0)
	if htype == headerSchema {
		return nil
	}
	h, _, _ := t.table(2)
	rb := h
	wantNodes, wantBufs := recordNodes, recordBuffers
	if htype == headerDictBatch {
		id, err := h.i64(0, 0)
		if err != nil {
			return m.corrupt("%v", err)
		}
		if id < 0 || id > 3 {
			return m.corrupt("dictionary id %d unknown to the schema", id)
		}
		data, ok, err := h.table(1)
		if err != nil || !ok {
			return m.corrupt("dictionary batch without data")
		}
		delta, err := h.u8(2, 0)
		if err != nil {
			return m.corrupt("%v", err)
		}
		rb = data
		wantNodes, wantBufs = dictNodes, dictBuffers
		rows, err := rb.i64(0, 0)
		if err != nil || rows < 0 || rows > maxDictEntries {
			return m.corrupt("dictionary batch of %d entries out of range (max %d)", rows, maxDictEntries)
		}
		if m.dictRows == nil {
			m.dictRows, m.dictBytes = map[int64]int64{}, map[int64]int64{}
		}
		if delta == 0 {
			m.dictRows[id], m.dictBytes[id] = 0, 0
		}
		m.dictRows[id] += rows
		m.dictBytes[id] += int64(len(body))
		if m.dictRows[id] > maxDictEntries || m.dictBytes[id] > maxDictBytes {
			return m.corrupt("dictionary %d grows past %d entries or %d bytes", id, maxDictEntries, maxDictBytes)
		}
	}
	rows, err := rb.i64(0, 0)
	if err != nil {
		return m.corrupt("%v", err)
	}
	if rows < 0 || (htype == headerRecordBatch && rows > maxRowsPerBatch) {
		return m.corrupt("record batch of %d rows out of range (max %d)", rows, maxRowsPerBatch)
	}
	nstart, nn, err := rb.structVector(1, 16)
	if err != nil {
		return m.corrupt("%v", err)
	}
	bstart, nb, err := rb.structVector(2, 16)
	if err != nil {
		return m.corrupt("%v", err)
	}
	if nn != wantNodes || nb != wantBufs {
		return m.corrupt("batch has %d field nodes and %d buffers, the schema needs %d and %d", nn, nb, wantNodes, wantBufs)
	}
	for i := 0; i < nn; i++ {
		l, _ := fbI64(meta, nstart+16*i)
		nulls, _ := fbI64(meta, nstart+16*i+8)
		if l != rows || nulls != 0 {
			return m.corrupt("field node %d: %d rows (%d null), batch has %d rows and no nulls", i, l, nulls, rows)
		}
	}
	comp, compressed, err := rb.table(3)
	if err != nil {
		return m.corrupt("%v", err)
	}
	if compressed {
		codec, err := comp.u8(0, 0)
		if err != nil {
			return m.corrupt("%v", err)
		}
		if codec != codecZstd {
			return m.corrupt("compression codec %d unsupported (rules_capture writes zstd)", codec)
		}
	}
	var total int64
	for i := 0; i < nb; i++ {
		off, _ := fbI64(meta, bstart+16*i)
		l, _ := fbI64(meta, bstart+16*i+8)
		if off < 0 || l < 0 || off > int64(len(body)) || l > int64(len(body))-off {
			return m.corrupt("buffer %d [%d,+%d) outside the %d-byte body", i, off, l, len(body))
		}
		size := l
		if compressed && l > 0 {
			if l < 8 {
				return m.corrupt("compressed buffer %d shorter than its length prefix", i)
			}
			size = int64(binary.LittleEndian.Uint64(body[off:]))
			if size == -1 {
				size = l - 8 // stored uncompressed
			} else if size < 0 || size > maxBatchBytes {
				return m.corrupt("buffer %d claims %d bytes uncompressed (max %d)", i, size, maxBatchBytes)
			} else if err := checkZstdFrame(body[off+8:off+l], size); err != nil {
				return m.corrupt("buffer %d: %v", i, err)
			}
		}
		total += size
		if total > maxBatchBytes {
			return m.corrupt("batch decompresses to more than %d bytes", maxBatchBytes)
		}
	}
	return nil
}

// checkZstdFrame bounds the memory the zstd decoder will take for a frame:
// its window (from the frame header) must be small.
func checkZstdFrame(b []byte, size int64) error {
	if size == 0 {
		return nil
	}
	if len(b) < 6 || !bytes.Equal(b[:4], []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		return errors.New("not a zstd frame")
	}
	fhd := b[4]
	if fhd&0x08 != 0 {
		return errors.New("zstd frame header has reserved bit set")
	}
	if fhd&0x03 != 0 {
		return errors.New("zstd frame needs a dictionary")
	}
	single := fhd&0x20 != 0
	if !single {
		wd := b[5]
		exp := uint(wd >> 3)
		window := int64(1) << (10 + exp)
		window += window / 8 * int64(wd&7)
		if window > maxZstdWindow {
			return fmt.Errorf("zstd window of %d bytes too large (max %d)", window, maxZstdWindow)
		}
		return nil
	}
	// Single segment: the window is the content size.
	pos := 5
	var fcs int64
	switch fhd >> 6 {
	case 0:
		if pos+1 > len(b) {
			return errors.New("short zstd frame header")
		}
		fcs = int64(b[pos])
	case 1:
		if pos+2 > len(b) {
			return errors.New("short zstd frame header")
		}
		fcs = int64(binary.LittleEndian.Uint16(b[pos:])) + 256
	case 2:
		if pos+4 > len(b) {
			return errors.New("short zstd frame header")
		}
		fcs = int64(binary.LittleEndian.Uint32(b[pos:]))
	case 3:
		if pos+8 > len(b) {
			return errors.New("short zstd frame header")
		}
		fcs = int64(binary.LittleEndian.Uint64(b[pos:]))
	}
	if fcs < 0 || fcs > maxZstdWindow && fcs > size {
		return fmt.Errorf("zstd frame content size %d larger than the buffer's %d", fcs, size)
	}
	return nil
}
