package eventlog

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// dictColumn is an append-only string dictionary shared by every batch of
// one column, so that the IPC stream carries it once plus deltas.
type dictColumn struct {
	index   map[string]int32
	offsets []int32
	data    []byte
	arr     arrow.Array // dictionary as of the last batch
	idx     []int32     // indices of the batch being encoded

	// A direct-mapped cache keyed by the string's address: sites and
	// positions are usually constants, so this skips most map lookups
	// (comparing equal strings at the same address is a pointer check).
	cache [256]struct {
		s  string
		i  int32
		ok bool
	}
}

func newDictColumn() *dictColumn {
	return &dictColumn{index: make(map[string]int32), offsets: []int32{0}}
}

func (d *dictColumn) lookup(s string) int32 {
	h := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	slot := &d.cache[(h>>4^h>>12^uintptr(len(s)))&255]
	if slot.ok && slot.s == s {
		return slot.i
	}
	i, ok := d.index[s]
	if !ok {
		i = int32(len(d.offsets) - 1)
		d.data = append(d.data, s...)
		d.offsets = append(d.offsets, int32(len(d.data)))
		// Own a copy: the caller's string may live in memory it reuses.
		d.index[string(d.data[len(d.data)-len(s):])] = i
	}
	slot.s, slot.i, slot.ok = s, i, true
	return i
}

// dictionary returns the dictionary array, rebuilt only when it grew: the
// IPC writer skips an identical array and writes a delta for a grown one.
func (d *dictColumn) dictionary() arrow.Array {
	n := len(d.offsets) - 1
	if d.arr != nil && d.arr.Len() == n {
		return d.arr
	}
	if d.arr != nil {
		d.arr.Release()
	}
	data := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(d.offsets[: n+1 : n+1])),
		memory.NewBufferBytes(d.data[:len(d.data):len(d.data)])}, nil, 0, 0)
	d.arr = array.MakeFromData(data)
	data.Release()
	return d.arr
}

func (d *dictColumn) encode(col []string, typ *arrow.DictionaryType) arrow.Array {
	d.idx = d.idx[:0]
	for _, s := range col {
		d.idx = append(d.idx, d.lookup(s))
	}
	indices := primitive(arrow.PrimitiveTypes.Int32, len(d.idx), arrow.Int32Traits.CastToBytes(d.idx))
	defer indices.Release()
	return array.NewDictionaryArray(typ, indices, d.dictionary())
}

func primitive(t arrow.DataType, n int, b []byte) arrow.Array {
	data := array.NewData(t, n, []*memory.Buffer{nil, memory.NewBufferBytes(b)}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// sink is the background half of the writer: it encodes batches into Arrow
// record batches and writes them as one IPC stream. Only the encoder
// goroutine uses it (and Close, after that goroutine ended).
type sink struct {
	f         *os.File
	bw        *bufio.Writer
	cw        *countingWriter
	ipcw      *ipc.Writer
	schema    *arrow.Schema
	statusOff int64
	syncEach  bool

	kindDict arrow.Array
	kindIdx  []byte
	site     *dictColumn
	pos      *dictColumn
	recvType *dictColumn

	events uint64 // rows written
}

func newSink(f *os.File, meta Meta, opts Options) (*sink, error) {
	s := &sink{
		f:        f,
		bw:       bufio.NewWriterSize(f, 1<<20),
		schema:   schemaFor(meta, Status{}),
		site:     newDictColumn(),
		pos:      newDictColumn(),
		recvType: newDictColumn(),
	}
	s.cw = &countingWriter{w: s.bw, buf: new(bytes.Buffer)}
	iopts := []ipc.Option{ipc.WithSchema(s.schema), ipc.WithDictionaryDeltas(true)}
	if opts.Compression == Zstd {
		iopts = append(iopts, ipc.WithZstd())
	}
	s.ipcw = ipc.NewWriter(s.cw, iopts...)
	kb := array.NewStringBuilder(memory.DefaultAllocator)
	for k := Kind(0); k < numKinds; k++ {
		kb.Append(k.String())
	}
	s.kindDict = kb.NewArray()
	kb.Release()

	// An empty first batch makes the writer emit the schema (and the kind
	// dictionary) now, so that a log killed before its first flush still
	// opens, and so that the status value's file offset is known.
	if err := s.writeRecord(newBatch(0)); err != nil {
		return nil, fmt.Errorf("eventlog: writing schema: %w", err)
	}
	head := s.cw.buf.Bytes()
	s.cw.buf = nil
	marker := []byte(MetaStatus)
	at := bytes.Index(head, []byte(statusPrefix+"open events="))
	if at < 0 || bytes.Count(head, []byte(statusPrefix+"open events=")) != 1 || !bytes.Contains(head, marker) {
		return nil, fmt.Errorf("eventlog: metadata values must not contain %q", statusPrefix+"open events=")
	}
	s.statusOff = int64(at)
	return s, nil
}

func (s *sink) writeRecord(b *batch) error {
	n := b.rows()
	for i, k := range b.kind {
		if k >= byte(numKinds) {
			b.kind[i] = byte(KindInvalid)
		}
	}
	kindIdx := primitive(arrow.PrimitiveTypes.Int8, n, b.kind)
	cols := []arrow.Array{
		primitive(arrow.PrimitiveTypes.Uint64, n, arrow.Uint64Traits.CastToBytes(b.seq)),
		primitive(arrow.PrimitiveTypes.Uint32, n, arrow.Uint32Traits.CastToBytes(b.stream)),
		array.NewDictionaryArray(kindDictType, kindIdx, s.kindDict),
		primitive(arrow.PrimitiveTypes.Uint64, n, arrow.Uint64Traits.CastToBytes(b.parent)),
		s.site.encode(b.site, stringDictTyp),
		s.pos.encode(b.pos, stringDictTyp),
		s.recvType.encode(b.recvType, stringDictTyp),
		primitive(arrow.PrimitiveTypes.Uint64, n, arrow.Uint64Traits.CastToBytes(b.recvID)),
	}
	kindIdx.Release()
	vd := array.NewData(arrow.BinaryTypes.Binary, n, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(b.valOff)),
		memory.NewBufferBytes(b.vals)}, nil, 0, 0)
	cols = append(cols, array.MakeFromData(vd))
	vd.Release()
	rec := array.NewRecord(s.schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	if err := s.ipcw.Write(rec); err != nil {
		return err
	}
	// Hand the bytes to the kernel now: after this a SIGKILL cannot lose them.
	return s.bw.Flush()
}

func (s *sink) write(b *batch, st Status) error {
	if b.rows() > 0 {
		if err := s.writeRecord(b); err != nil {
			return err
		}
		s.events += uint64(b.rows())
		st.Events = s.events
	}
	if err := s.writeStatus(st); err != nil {
		return err
	}
	if b.sync || s.syncEach {
		return s.f.Sync()
	}
	return nil
}

func (s *sink) writeStatus(st Status) error {
	v := formatStatus(st)
	if len(v) != statusWidth {
		return fmt.Errorf("eventlog: status %q does not fit", v)
	}
	_, err := s.f.WriteAt([]byte(v), s.statusOff)
	return err
}

func (s *sink) close(st Status) error {
	err := s.ipcw.Close() // end-of-stream marker
	if ferr := s.bw.Flush(); err == nil {
		err = ferr
	}
	st.Events = s.events
	if err == nil {
		err = s.writeStatus(st)
	}
	if serr := s.f.Sync(); err == nil {
		err = serr
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}
