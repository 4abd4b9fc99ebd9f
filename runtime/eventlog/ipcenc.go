package eventlog

import (
	"encoding/binary"
	"fmt"

	flatbuffers "github.com/google/flatbuffers/go"
	"github.com/klauspost/compress/zstd"
)

// ipcEncoder writes Arrow IPC record-batch and dictionary-batch messages for
// the fixed event schema. Arrow's own writer creates a new zstd encoder for
// every message, which costs more than encoding a whole batch of events;
// this one reuses one encoder and one flatbuffers builder, and writes the
// message into a reused buffer. The schema message is schemaMessage's.
type ipcEncoder struct {
	fb *flatbuffers.Builder
	// zstdOpts configure zstd (nil: uncompressed), fastOpts fast (nil: none).
	zstdOpts, fastOpts []zstd.EOption
	// zstd and fast are created at the first compressed message: creating
	// one costs a fresh process 0.1 ms, and a small log compresses nothing
	// (smallLogBytes).
	zstd *zstd.Encoder
	// fast, while capturing, is the fastest level with entropy coding. At
	// levels 2-4 it compresses the columns where a stronger level gains
	// (almost) nothing but costs up to twice the CPU: seq, stream, recv_id,
	// the value offsets and the values themselves (measured with the
	// realistic mix of BenchmarkLogSize: +0.04 bytes/event for -45% zstd
	// time). At level 1 it compresses recv_id and the value offsets
	// (bufEntropy), once the log has compressed entropyAfter bytes. nil:
	// use zstd.
	fast *zstd.Encoder
	// level is the zstd level of zstd; in counts the bytes compressed.
	level int
	in    int
	err   error // creating the encoders failed: messages are written uncompressed
	// raw writes the next messages uncompressed even though zstd is
	// configured (the writer is behind; see Options.AlwaysCompress).
	raw bool
	// capturing selects the capture-time trade-offs (newIPCEncoder).
	capturing bool
	msg       []byte // the message being built
	body      []byte
	bufs      []ipcBuf
}

// bufClass says which encoder compresses a buffer (addBufferWith).
type bufClass uint8

const (
	bufStrong  bufClass = iota // zstd, the configured level
	bufFast                    // fast at levels 2-4, else zstd
	bufEntropy                 // fast at every level, else zstd
)

// entropyAfter is how many bytes a log compresses at level 1 before it
// creates the encoder that entropy-codes recv_id and the value offsets: a
// second encoder costs a fresh process about 0.1 ms and 300 KiB, more than
// it saves a short log (a test process's: BenchmarkShortLog), and a
// service's log gets past this in its first batches.
const entropyAfter = 256 << 10

type ipcBuf struct{ off, len int64 }

// Arrow IPC enum values (format/Message.fbs, Schema.fbs).
const (
	metadataV5      = 4
	compressionZstd = 1
)

// newIPCEncoder returns an encoder at the given zstd level. capturing
// selects the capture-time trade-offs: the columns listed at
// ipcEncoder.fast use the fastest level, and at the fastest level literals
// are not entropy-coded (Huffman coding is most of zstd's time on short
// batches: -28% CPU per event for the shop's events in batches of 1024,
// +6% bytes; BenchmarkEncoderShop), except in recv_id and the value
// offsets (bufEntropy): their literals are mostly the same few bytes
// (zero high bytes, a few receivers), which Huffman coding shrinks by a
// quarter to a half for a few ns per event, once the log is past
// entropyAfter.
//
// Every encoder uses zstd's lower-memory buffers: they start at 1 KiB and
// grow to what the batches need, instead of 300 KiB allocated (and, in a
// fresh process, faulted in) at the first batch: -0.3 ms CPU for a short
// log in a fresh process, no measurable change per event (BenchmarkEncoder,
// BenchmarkWriterThroughput). The encoder's tables are created at the
// first compressed buffer, not here.
func newIPCEncoder(c Compression, level int, capturing bool) (*ipcEncoder, error) {
	e := &ipcEncoder{fb: flatbuffers.NewBuilder(1024), capturing: capturing, level: level}
	if c == Zstd {
		if level < int(zstd.SpeedFastest) || level > int(zstd.SpeedBestCompression) {
			return nil, fmt.Errorf("eventlog: zstd level %d out of range [1,4]", level)
		}
		common := []zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1 << 20), zstd.WithZeroFrames(true),
			zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true)}
		e.zstdOpts = append(common[:len(common):len(common)], zstd.WithEncoderLevel(zstd.EncoderLevel(level)),
			zstd.WithNoEntropyCompression(capturing && level == int(zstd.SpeedFastest)))
		if capturing {
			e.fastOpts = append(common[:len(common):len(common)], zstd.WithEncoderLevel(zstd.SpeedFastest))
		}
	}
	return e, nil
}

func (e *ipcEncoder) compressing() bool { return e.zstdOpts != nil && !e.raw && e.err == nil }

// startMessage creates the zstd encoders if the message about to be built
// is the first compressed one. If zstd rejects its options (it cannot: the
// level was checked), the message and all others are written uncompressed
// and e.err says why (Writer.Close returns it).
func (e *ipcEncoder) startMessage() {
	if !e.compressing() || e.zstd != nil {
		return
	}
	var err error
	if e.zstd, err = zstd.NewWriter(nil, e.zstdOpts...); err == nil && e.fastOpts != nil && e.level > int(zstd.SpeedFastest) {
		e.fast, err = zstd.NewWriter(nil, e.fastOpts...)
	}
	if err != nil {
		e.zstd, e.fast = nil, nil
		e.err = fmt.Errorf("eventlog: zstd: %w", err)
	}
}

// addBuffer appends one column buffer to the body, compressed if enabled,
// padded to 8 bytes as the format requires.
func (e *ipcEncoder) addBuffer(b []byte) { e.addBufferWith(b, bufStrong) }

// addBufferWith is addBuffer with the encoder that class selects.
func (e *ipcEncoder) addBufferWith(b []byte, class bufClass) {
	off := int64(len(e.body))
	if len(b) == 0 {
		e.bufs = append(e.bufs, ipcBuf{off, 0})
		return
	}
	if e.compressing() {
		e.body = binary.LittleEndian.AppendUint64(e.body, uint64(len(b)))
		enc := e.zstd
		if class == bufEntropy && e.fast == nil && e.fastOpts != nil && e.in >= entropyAfter {
			var err error
			if e.fast, err = zstd.NewWriter(nil, e.fastOpts...); err != nil {
				e.fast, e.fastOpts = nil, nil // zstd alone, as before
			}
		}
		if e.fast != nil && (class == bufEntropy || class == bufFast && e.level > int(zstd.SpeedFastest)) {
			enc = e.fast
		}
		e.in += len(b)
		e.body = enc.EncodeAll(b, e.body)
	} else {
		e.body = append(e.body, b...)
	}
	e.endBuffer(off)
}

// endBuffer records the buffer the body holds from off on and pads the
// body to 8 bytes, as the format requires.
func (e *ipcEncoder) endBuffer(off int64) {
	e.bufs = append(e.bufs, ipcBuf{off, int64(len(e.body)) - off})
	for len(e.body)%8 != 0 {
		e.body = append(e.body, 0)
	}
}

// addSeqBuffer is addBuffer for the seq column. While capturing, its zstd
// frame is built by appendSeqFrame, without zstd's match search.
func (e *ipcEncoder) addSeqBuffer(col []uint64) {
	if !e.capturing || !e.compressing() || len(col) == 0 {
		e.addBufferWith(uint64Bytes(col), bufFast)
		return
	}
	off := int64(len(e.body))
	e.body = binary.LittleEndian.AppendUint64(e.body, uint64(8*len(col)))
	e.body = appendSeqFrame(e.body, col)
	e.endBuffer(off)
}

// recordBatch builds the RecordBatch table for the buffers added so far,
// with nodes field nodes of length rows and no nulls.
func (e *ipcEncoder) recordBatch(rows int64, nodes int) flatbuffers.UOffsetT {
	fb := e.fb
	var comp flatbuffers.UOffsetT
	if e.compressing() {
		fb.StartObject(2)
		fb.PrependByteSlot(0, compressionZstd, 0)
		fb.PrependByteSlot(1, 0, 0) // BUFFER: each buffer compressed on its own
		comp = fb.EndObject()
	}
	fb.StartVector(16, len(e.bufs), 8)
	for i := len(e.bufs) - 1; i >= 0; i-- {
		fb.Prep(8, 16)
		fb.PrependInt64(e.bufs[i].len)
		fb.PrependInt64(e.bufs[i].off)
	}
	bufVec := fb.EndVector(len(e.bufs))
	fb.StartVector(16, nodes, 8)
	for i := 0; i < nodes; i++ {
		fb.Prep(8, 16)
		fb.PrependInt64(0) // null_count
		fb.PrependInt64(rows)
	}
	nodeVec := fb.EndVector(nodes)
	fb.StartObject(5)
	fb.PrependInt64Slot(0, rows, 0)
	fb.PrependUOffsetTSlot(1, nodeVec, 0)
	fb.PrependUOffsetTSlot(2, bufVec, 0)
	if e.compressing() {
		fb.PrependUOffsetTSlot(3, comp, 0)
	}
	return fb.EndObject()
}

// finish wraps a header table into a Message and appends the framed message
// (continuation, length, padded metadata, body) to e.msg. The Message's
// custom_metadata holds the checksum of metadata and body (MetaChecksum).
func (e *ipcEncoder) finish(htype byte, header flatbuffers.UOffsetT) {
	fb := e.fb
	key := fb.CreateString(MetaChecksum)
	val := fb.CreateByteString(zeroDigits) // the digits are filled in below
	fb.StartObject(2)                      // KeyValue
	fb.PrependUOffsetTSlot(0, key, 0)
	fb.PrependUOffsetTSlot(1, val, 0)
	kv := fb.EndObject()
	fb.StartVector(4, 1, 4)
	fb.PrependUOffsetT(kv)
	kvs := fb.EndVector(1)
	fb.StartObject(5)
	fb.PrependInt16Slot(0, metadataV5, 0)
	fb.PrependByteSlot(1, htype, 0)
	fb.PrependUOffsetTSlot(2, header, 0)
	fb.PrependInt64Slot(3, int64(len(e.body)), 0)
	fb.PrependUOffsetTSlot(4, kvs, 0)
	fb.Finish(fb.EndObject())
	// An offset counts from the end of the builder's buffer; the string's
	// bytes follow its 4-byte length.
	at := len(fb.Bytes) - int(val) - int(fb.Head()) + 4
	start := len(e.msg) + 8
	e.msg = frameMessage(e.msg, fb.FinishedBytes())
	meta := e.msg[start:]
	putChecksum(meta[at:], messageChecksum(meta, at, e.body))
	e.msg = append(e.msg, e.body...)
	e.fb.Reset()
	e.body = e.body[:0]
	e.bufs = e.bufs[:0]
}

// dictionaryBatch appends a dictionary batch with entries [from, to) of d.
func (e *ipcEncoder) dictionaryBatch(id int64, d *dictColumn, from, to int, delta bool) {
	e.startMessage()
	base := d.offsets[from]
	offs := make([]int32, 0, to-from+1)
	for _, o := range d.offsets[from : to+1] {
		offs = append(offs, o-base)
	}
	e.addBuffer(nil)
	e.addBuffer(int32Bytes(offs))
	e.addBuffer(d.data[base:d.offsets[to]])
	rb := e.recordBatch(int64(to-from), 1)
	fb := e.fb
	fb.StartObject(3)
	fb.PrependInt64Slot(0, id, 0)
	fb.PrependUOffsetTSlot(1, rb, 0)
	fb.PrependBoolSlot(2, delta, false)
	e.finish(headerDictBatch, fb.EndObject())
}

// endOfStream is the IPC end-of-stream marker.
var endOfStream = []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}
