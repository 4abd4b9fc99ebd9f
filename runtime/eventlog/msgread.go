package eventlog

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// message is one checked IPC message.
type message struct {
	off        int64 // file offset, for errors
	htype      byte
	meta, body []byte
	// Batches (record or dictionary):
	rows       int
	bufs       []ipcBuf
	compressed bool
	dictID     int64
	delta      bool
	schema     *schemaInfo // schema messages
	// The checksum in the Message's custom_metadata (MetaChecksum): where
	// its digits are in meta (-1: none), their value, and whether they
	// are valid hex.
	sumAt  int
	sum    uint32
	sumBad bool
}

// Whether a log's batches carry checksums, as far as read.
const (
	sumsUnknown = iota
	sumsPresent
	sumsAbsent
)

// messageReader frames IPC messages itself (instead of ipc.NewMessageReader)
// so that every length is checked against the limits and the file size
// before anything is allocated or parsed.
type messageReader struct {
	r          *bufio.Reader
	off, end   int64
	stream     bool // capture-time log: a cut-off tail is a torn write, not corruption
	path       string
	err        error // the first corruption error: sticky
	torn       bool
	tornAt     TornTail
	schemaRead bool
	bodyBuf    []byte
	dictRows   map[int64]int64
	dictBytes  map[int64]int64

	// needSums: the format version requires a checksum on every batch
	// (set once the schema is read). sums: whether the batches so far had
	// one; a log has them on every batch or on none.
	needSums bool
	sums     int
	// Record batches and their rows read so far, for errors and for
	// checking the count of a closed log.
	recordBatches, events uint64
}

func (m *messageReader) corrupt(format string, args ...any) error {
	return m.corruptAt(m.off, format, args...)
}

func (m *messageReader) corruptAt(off int64, format string, args ...any) error {
	m.err = fmt.Errorf("eventlog: %s: %w at offset %d: %s", m.path, ErrCorrupt, off, fmt.Sprintf(format, args...))
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

// next reads and checks the next message; io.EOF at the end-of-stream
// marker or, for a capture-time log, at a torn or unclosed end.
func (m *messageReader) next() (*message, error) {
	if m.err != nil {
		return nil, m.err
	}
	if m.off == m.end {
		// A capture-time log whose writer has not closed it ends without
		// the end-of-stream marker.
		if m.stream && m.schemaRead {
			m.torn = true
			m.tornAt = TornTail{Offset: m.off}
			return nil, io.EOF
		}
		// So may the messages of a file: its footer marks their end, and
		// Arrow Go's file writer omits the marker (C++ and Compact write it).
		if !m.stream && m.schemaRead {
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
	msg := &message{off: m.off, meta: meta}
	bodyLen, err := m.checkHeader(msg)
	if err != nil {
		return nil, err
	}
	if bodyLen > m.end-m.off-8-mlen {
		return nil, m.cut("message body")
	}
	// The body buffer is reused: the previous message's data is no longer
	// referenced (dictionary strings are copied; events are valid only until
	// the next call).
	if int64(cap(m.bodyBuf)) < bodyLen {
		m.bodyBuf = make([]byte, bodyLen)
	}
	body := m.bodyBuf[:bodyLen]
	if _, err := io.ReadFull(m.r, body); err != nil {
		return nil, m.cut("message body")
	}
	msg.body = body
	// The checksum first: if it fails, the bytes are damaged, and that is
	// the error to report, not what the damage looks like to the parser.
	if err := m.checkSum(msg); err != nil {
		return nil, err
	}
	if err := m.checkBody(msg); err != nil {
		return nil, err
	}
	m.off += 8 + mlen + bodyLen
	if msg.htype == headerRecBatch {
		m.recordBatches++
		m.events += uint64(msg.rows)
	}
	return msg, nil
}

// checkSum verifies the checksum of a batch message.
func (m *messageReader) checkSum(msg *message) error {
	if msg.htype == headerSchema {
		return nil
	}
	if msg.sumAt < 0 {
		switch {
		case m.needSums:
			return m.sumError(msg, "has no checksum (format version 4 requires one on every batch)")
		case m.sums == sumsPresent:
			return m.sumError(msg, "has no checksum, unlike the batches before it")
		}
		m.sums = sumsAbsent
		return nil
	}
	if m.sums == sumsAbsent {
		return m.sumError(msg, "has a checksum, unlike the batches before it")
	}
	m.sums = sumsPresent
	if ignoreChecksums {
		return nil
	}
	if msg.sumBad || messageChecksum(msg.meta, msg.sumAt, msg.body) != msg.sum {
		return m.sumError(msg, "fails its checksum")
	}
	return nil
}

func (m *messageReader) sumError(msg *message, what string) error {
	m.err = &logError{
		msg:  fmt.Sprintf("log %s: %s %s: the file is corrupt", m.path, batchName(msg, m.recordBatches, m.events), what),
		kind: ErrChecksum,
	}
	return m.err
}

// checkHeader validates the message header (a schema message is decoded
// completely) and returns the body length.
func (m *messageReader) checkHeader(msg *message) (int64, error) {
	t, err := fbRoot(msg.meta)
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
	msg.htype = htype
	switch htype {
	case headerSchema:
		if m.schemaRead {
			return 0, m.corrupt("second schema message")
		}
		if bodyLen != 0 {
			return 0, m.corrupt("schema message with a body")
		}
	case headerDictBatch, headerRecBatch:
		if !m.schemaRead {
			return 0, m.corrupt("batch before the schema")
		}
		if err := m.readSum(msg, t); err != nil {
			return 0, err
		}
		// Rows and dictionary id name the batch in a checksum error;
		// checkBody checks them.
		if htype == headerRecBatch {
			rows, _ := h.i64(0, 0)
			msg.rows = int(min(max(rows, 0), maxRowsPerBatch))
		} else {
			msg.dictID, _ = h.i64(0, 0)
		}
	default:
		return 0, m.corrupt("unexpected message type %d", htype)
	}
	if htype == headerSchema {
		if msg.schema, err = decodeSchemaTable(h); err != nil {
			return 0, m.corrupt("schema: %v", err)
		}
	}
	return bodyLen, nil
}

// readSum finds the checksum in the custom_metadata of message table t.
func (m *messageReader) readSum(msg *message, t fbTable) error {
	msg.sumAt = -1
	kvs, err := t.tables(4, 64)
	if err != nil {
		return m.corrupt("bad message metadata: %v", err)
	}
	for _, kv := range kvs {
		k, err := kv.str(0)
		if err != nil {
			return m.corrupt("bad message metadata key")
		}
		if k != MetaChecksum {
			continue
		}
		start, n, err := kv.strPos(1)
		if err != nil {
			return m.corrupt("bad message metadata value")
		}
		if msg.sumAt >= 0 {
			return m.corrupt("two %s entries in a message", MetaChecksum)
		}
		msg.sumAt = start
		if n != checksumDigits { // damaged: checkSum reports it
			msg.sumBad = true
			continue
		}
		var ok bool
		msg.sum, ok = parseChecksum(string(msg.meta[start : start+n]))
		msg.sumBad = !ok
	}
	return nil
}

// bodyLayout is the expected node and buffer count of a record batch of
// our schema, and of one dictionary batch (utf8 values).
const (
	recordNodes   = numCols
	recordBuffers = 2*(numCols-1) + 3
	dictNodes     = 1
	dictBuffers   = 3
)

func (m *messageReader) checkBody(msg *message) error {
	meta, body := msg.meta, msg.body
	t, _ := fbRoot(meta)
	htype := msg.htype
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
		msg.dictID, msg.delta = id, delta != 0
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
	if rows < 0 || (htype == headerRecBatch && rows > maxRowsPerBatch) {
		return m.corrupt("record batch of %d rows out of range (max %d)", rows, maxRowsPerBatch)
	}
	msg.rows = int(rows)
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
		msg.compressed = true
	}
	var total int64
	for i := 0; i < nb; i++ {
		off, _ := fbI64(meta, bstart+16*i)
		l, _ := fbI64(meta, bstart+16*i+8)
		if off < 0 || l < 0 || off > int64(len(body)) || l > int64(len(body))-off {
			return m.corrupt("buffer %d [%d,+%d) outside the %d-byte body", i, off, l, len(body))
		}
		msg.bufs = append(msg.bufs, ipcBuf{off, l})
		size := l
		if compressed && l > 0 {
			if l < 8 {
				return m.corrupt("compressed buffer %d shorter than its length prefix", i)
			}
			size = int64(binary.LittleEndian.Uint64(body[off:]))
			if size == -1 {
				size = l - 8 // stored uncompressed
			} else if max := maxBufferSize(htype, i, rows); size < 0 || size > max {
				return m.corrupt("buffer %d claims %d bytes uncompressed, at most %d fit %d rows", i, size, max, rows)
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

// maxBufferSize is the largest buffer i of a batch of rows rows can
// need (plus slack for writers that pad to 64 bytes): the reader refuses to
// decompress more, so a small hostile file cannot make it allocate much.
func maxBufferSize(htype byte, i int, rows int64) int64 {
	const slack = 64
	if i%2 == 0 && !(htype == headerRecBatch && i == 2*colValues+2) && !(htype == headerDictBatch && i == 2) {
		return (rows+7)/8 + slack // validity bitmap
	}
	if htype == headerDictBatch {
		if i == 1 {
			return 4*(rows+1) + slack
		}
		return maxDictBatchBytes
	}
	switch i / 2 {
	case colSeq, colParent, colRecvID:
		return 8*rows + slack
	case colStream, colSite, colPos, colRecvType:
		return 4*rows + slack
	case colKind:
		return rows + slack
	}
	if i == 2*colValues+1 {
		return 4*(rows+1) + slack
	}
	return maxBatchValueBytes
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

// Arrow Type union ids (format/Schema.fbs) that the format uses.
const (
	typeInt    = 2
	typeBinary = 4
	typeUtf8   = 5
)

// schemaDictIDs are the dictionary ids of the dictionary-encoded columns
// (Arrow numbers them in schema order).
var schemaDictIDs = map[int]int64{colKind: dictIDKind, colSite: dictIDSite, colPos: dictIDPos, colRecvType: dictIDRecvType}

// decodeSchemaTable decodes the schema's FlatBuffers, checking every offset
// and length first. The event log's schema is flat, so anything nested or
// oversized is rejected here; checkSchema then compares the columns with
// the format's.
func decodeSchemaTable(s fbTable) (*schemaInfo, error) {
	endianness, err := s.i16(0, 0)
	if err != nil {
		return nil, err
	}
	if endianness != 0 {
		return nil, errors.New("big-endian data: the format is little-endian")
	}
	fields, err := s.tables(1, numCols)
	if err != nil {
		return nil, fmt.Errorf("bad field list: %v", err)
	}
	if len(fields) != numCols {
		return nil, fmt.Errorf("%d columns, the format has %d", len(fields), numCols)
	}
	info := &schemaInfo{}
	if info.meta, err = keyValues(s, 2); err != nil {
		return nil, err
	}
	if _, _, err := s.structVector(3, 8); err != nil {
		return nil, err
	}
	for i, f := range fields {
		var sf schemaField
		if sf.name, err = f.str(0); err != nil {
			return nil, fmt.Errorf("column %d: bad name", i)
		}
		if _, err := f.u8(1, 0); err != nil {
			return nil, err
		}
		tt, err := f.u8(2, 0)
		if err != nil {
			return nil, err
		}
		typ, ok, err := f.table(3)
		if err != nil || !ok {
			return nil, fmt.Errorf("column %d: missing type", i)
		}
		sf.typ.id = tt
		switch tt {
		case typeInt:
			if sf.typ.bits, sf.typ.signed, err = intTable(typ); err != nil {
				return nil, err
			}
		case typeBinary, typeUtf8:
		default:
			return nil, fmt.Errorf("column %d: type %d is not in the format", i, tt)
		}
		wantID, isDict := schemaDictIDs[i]
		if d, ok, err := f.table(4); err != nil {
			return nil, err
		} else if ok != isDict {
			return nil, fmt.Errorf("column %d: dictionary encoding does not match the format", i)
		} else if ok {
			id, err := d.i64(0, 0)
			if err != nil {
				return nil, err
			}
			if id != wantID {
				return nil, fmt.Errorf("column %d: dictionary id %d, want %d", i, id, wantID)
			}
			sf.typ.dict = true
			// An absent index type means int32 (format/Schema.fbs).
			sf.typ.idxBits, sf.typ.idxSign = 32, true
			it, ok, err := d.table(1)
			if err != nil {
				return nil, err
			}
			if ok {
				if sf.typ.idxBits, sf.typ.idxSign, err = intTable(it); err != nil {
					return nil, err
				}
			}
			ordered, err := d.u8(2, 0)
			if err != nil {
				return nil, err
			}
			sf.typ.ordered = ordered != 0
			if kind, err := d.i16(3, 0); err != nil {
				return nil, err
			} else if kind != 0 {
				return nil, fmt.Errorf("column %d: dictionary kind %d (only DenseArray exists)", i, kind)
			}
		}
		if _, n, err := f.structVector(5, 4); err != nil || n != 0 {
			return nil, fmt.Errorf("column %d: nested columns are not in the format", i)
		}
		if _, err := keyValues(f, 6); err != nil {
			return nil, err
		}
		info.fields = append(info.fields, sf)
	}
	return info, nil
}

func intTable(t fbTable) (bits int32, signed bool, err error) {
	bits, err = t.i32(0, 0)
	if err != nil {
		return 0, false, err
	}
	if bits != 8 && bits != 16 && bits != 32 && bits != 64 {
		return 0, false, fmt.Errorf("integer width %d", bits)
	}
	s, err := t.u8(1, 0)
	return bits, s != 0, err
}

// keyValues decodes a vector of KeyValue tables (custom metadata).
func keyValues(t fbTable, slot int) ([][2]string, error) {
	kvs, err := t.tables(slot, 64)
	if err != nil {
		return nil, fmt.Errorf("bad metadata: %v", err)
	}
	out := make([][2]string, 0, len(kvs))
	for _, kv := range kvs {
		k, err := kv.str(0)
		if err != nil {
			return nil, fmt.Errorf("bad metadata key")
		}
		v, err := kv.str(1)
		if err != nil {
			return nil, fmt.Errorf("bad metadata value")
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}
