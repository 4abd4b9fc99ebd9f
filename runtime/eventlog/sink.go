package eventlog

import (
	"bytes"
	"errors"
	"fmt"
	"syscall"
	"time"
	"unsafe"
)

// dictColumn is an append-only string dictionary shared by every batch of
// one column: the IPC stream carries each string once, in a delta
// dictionary batch before the first record batch that uses it.
type dictColumn struct {
	id      int64
	index   map[string]int32
	offsets []int32
	data    []byte
	written int // entries already in the file

	// A direct-mapped cache keyed by the string's address: sites and
	// positions are usually constants, so this skips most map lookups
	// (comparing equal strings at the same address is a pointer check).
	cache [256]struct {
		s  string
		i  int32
		ok bool
	}
}

func newDictColumn(id int64) *dictColumn {
	return &dictColumn{id: id, index: make(map[string]int32), offsets: []int32{0}}
}

func (d *dictColumn) len() int { return len(d.offsets) - 1 }

func (d *dictColumn) lookup(s string) int32 {
	h := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	slot := &d.cache[(h>>4^h>>12^uintptr(len(s)))&255]
	if slot.ok && slot.s == s {
		return slot.i
	}
	i, ok := d.index[s]
	if !ok {
		i = int32(d.len())
		d.data = append(d.data, s...)
		d.offsets = append(d.offsets, int32(len(d.data)))
		// Own a copy: the caller's string may live in memory it reuses.
		d.index[string(d.data[len(d.data)-len(s):])] = i
	}
	slot.s, slot.i, slot.ok = s, i, true
	return i
}

// columns are the Arrow columns of the schema for one record batch, the
// strings as dictionary indices: the encoder transposes each batch into one,
// the Reader decodes each record batch into one.
type columns struct {
	n      int
	seq    []uint64
	stream []uint32
	kind   []byte
	parent []uint64
	site   []int32
	pos    []int32
	recv   []int32 // recv_type
	recvID []uint64
	valOff []int32 // valOff[i+1] is the end of row i's Values
	vals   []byte
}

// load transposes the rows of b, encoding their strings with dicts (site,
// pos, recv_type).
func (c *columns) load(b *batch, dicts *[3]*dictColumn) {
	n := b.n
	c.n = n
	c.seq = grow(c.seq, n)
	c.stream = grow(c.stream, n)
	c.kind = grow(c.kind, n)
	c.parent = grow(c.parent, n)
	c.site = grow(c.site, n)
	c.pos = grow(c.pos, n)
	c.recv = grow(c.recv, n)
	c.recvID = grow(c.recvID, n)
	c.valOff = grow(c.valOff, n+1)
	c.valOff[0] = 0
	site, pos, recv := dicts[0], dicts[1], dicts[2]
	for i := range b.rows[:n] {
		r := &b.rows[i]
		c.seq[i] = r.seq
		c.stream[i] = r.stream
		k := r.kind
		if k >= numKinds {
			k = KindInvalid
		}
		c.kind[i] = byte(k)
		c.parent[i] = r.parent
		c.site[i] = site.lookup(r.site)
		c.pos[i] = pos.lookup(r.pos)
		c.recv[i] = recv.lookup(r.recvType)
		c.recvID[i] = r.recvID
		c.valOff[i+1] = r.valEnd
	}
	c.vals = b.vals[:b.valsUsed]
}

// rawSize is the size of the record batch's buffers uncompressed.
func (c *columns) rawSize() int {
	return c.n*(8+4+1+8+4+4+4+8+4) + 4 + len(c.vals)
}

// grow returns s with length n, reusing its array when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func int32Bytes(s []int32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 4*len(s))
}

func uint32Bytes(s []uint32) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 4*len(s))
}

func uint64Bytes(s []uint64) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 8*len(s))
}

// logFile is what the sink needs of its file (an *os.File); tests
// substitute one that fails or stalls.
type logFile interface {
	WriteAt(b []byte, off int64) (int, error)
	Truncate(size int64) error
	Sync() error
	Close() error
}

// sink is the background half of the writer: it encodes batches into IPC
// messages and appends them to the file, one write per batch. Only the
// encoder goroutine uses it (and Close, after that goroutine ended).
type sink struct {
	f         logFile
	path      string
	enc       *ipcEncoder
	statusOff int64
	// off is the end of what was written successfully. Every write goes
	// there (pwrite): a batch that failed half-written is overwritten by
	// the next one (and cut off by a truncate at once, so that a process
	// killed before that still leaves a readable log: a torn tail).
	off int64
	// maxBytes caps the file (Options.MaxBytes; 0: none); capped is set
	// once a batch did not fit: the end-of-stream marker is written then,
	// and no batch after it.
	maxBytes  int64
	capped    bool
	onSizeCap func() // Options.OnSizeCap, nil once called
	// Events lost to write errors and the cap (Status.Lost...); losing:
	// the latest write failed (a run of losses is reported once).
	lost      uint64
	lostWhy   string
	lostSince time.Time
	losing    bool
	lostRun   uint64 // events lost in the current run
	warn      func(string)
	pid       uint64
	kind      *dictColumn
	dicts     [3]*dictColumn // site, pos, recv_type
	events    uint64         // rows written
	cols      columns
	rawBytes  int // batch and dictionary bytes written, uncompressed size
	// compressSmall compresses a small log too (Options.AlwaysCompress).
	compressSmall bool
}

// smallLogBytes is the size up to which a log is written uncompressed: its
// batches (and dictionary deltas) are compressed only once the log's data
// would exceed it. Most test processes under capture test write logs
// smaller than this, and compressing one costs them the zstd encoder's
// creation, 0.4 ms CPU of a fresh process, for a few kilobytes saved
// (capture compact recompresses).
const smallLogBytes = 16 << 10

// Dictionary ids: Arrow numbers dictionary-encoded fields in schema order.
const (
	dictIDKind = iota
	dictIDSite
	dictIDPos
	dictIDRecvType
)

func newSink(f logFile, path string, meta Meta, opts Options) (*sink, error) {
	enc, err := newIPCEncoder(opts.Compression, opts.ZstdLevel, true)
	if err != nil {
		return nil, err
	}
	s := &sink{
		f:             f,
		path:          path,
		maxBytes:      opts.MaxBytes,
		onSizeCap:     opts.OnSizeCap,
		warn:          opts.Warn,
		enc:           enc,
		compressSmall: opts.AlwaysCompress,
		kind:          newDictColumn(dictIDKind),
		dicts:         [3]*dictColumn{newDictColumn(dictIDSite), newDictColumn(dictIDPos), newDictColumn(dictIDRecvType)},
	}
	head := schemaMessage(meta)
	marker := []byte(statusPrefix + "open events=")
	if bytes.Count(head, marker) != 1 {
		return nil, fmt.Errorf("eventlog: metadata values must not contain %q", marker)
	}
	s.statusOff = int64(bytes.Index(head, marker))
	// The kind dictionary is fixed (index = Kind); the others start empty
	// and grow by deltas. Every dictionary must precede the first batch.
	for k := Kind(0); k < numKinds; k++ {
		s.kind.lookup(k.String())
	}
	enc.msg = append(enc.msg, head...)
	// Uncompressed (a batch's compression is its own): they are a hundred
	// bytes, which zstd cannot shrink, and compressing them created the
	// zstd encoder (a quarter megabyte of tables, about 0.3 ms of a fresh
	// process's CPU) in every log, even in the many test processes that
	// record no event.
	enc.raw = true
	for _, d := range []*dictColumn{s.kind, s.dicts[0], s.dicts[1], s.dicts[2]} {
		enc.dictionaryBatch(d.id, d, 0, d.len(), false)
		d.written = d.len()
	}
	enc.raw = false
	// Schema and dictionaries go out now, so that a log killed before its
	// first flush still opens.
	if err := s.flushMessages(); err != nil {
		return nil, fmt.Errorf("eventlog: writing schema: %w", err)
	}
	return s, nil
}

// flushMessages writes the messages built so far at the end of the good
// data. After a failed write, what it wrote of them is cut off again.
func (s *sink) flushMessages() error {
	n, err := s.f.WriteAt(s.enc.msg, s.off)
	if err == nil && n != len(s.enc.msg) {
		err = errors.New("short write")
	}
	s.enc.msg = s.enc.msg[:0]
	if err != nil {
		_ = s.f.Truncate(s.off) // best effort: the next write overwrites it anyway
		return err
	}
	s.off += int64(n)
	return nil
}

// errSizeCap is the loss of a batch to the size cap (Options.MaxBytes).
var errSizeCap = errors.New("size cap reached")

// writeRecord writes b as a record batch, preceded by the dictionary
// deltas it needs and, with end, followed by the end-of-stream marker (one
// write); raw skips the compression of the record batch. If the write
// fails, the dictionary entries it would have written are written with the
// next batch that succeeds.
func (s *sink) writeRecord(b *batch, raw, end bool) error {
	if s.capped {
		return errSizeCap
	}
	var written [3]int
	for i, d := range s.dicts {
		written[i] = d.written
	}
	rawBytes := s.rawBytes
	s.appendRecord(b, raw)
	n := len(s.enc.msg)
	s.enc.msg = append(s.enc.msg, endOfStream...)
	var err error
	if s.maxBytes > 0 && s.off+int64(len(s.enc.msg)) > s.maxBytes {
		// The log ends here, readable as a closed one: the end-of-stream
		// marker (for which the cap keeps room) goes out now, and the
		// status goes on counting what follows.
		s.enc.msg = append(s.enc.msg[:0], endOfStream...)
		if s.flushMessages() == nil {
			s.capped = true
		}
		err = errSizeCap
	} else {
		if !end {
			s.enc.msg = s.enc.msg[:n]
		}
		// One write per batch, straight to the kernel: once it returns, a
		// SIGKILL cannot lose the batch.
		err = s.flushMessages()
	}
	if err != nil {
		for i, d := range s.dicts {
			d.written = written[i]
		}
		s.rawBytes = rawBytes
	}
	return err
}

// lose counts n events lost to err, reporting the start of a run of
// losses once.
func (s *sink) lose(n int, err error) {
	s.lost += uint64(n)
	s.lostRun += uint64(n)
	why := lossReason(err)
	if s.losing && why == s.lostWhy {
		return
	}
	s.losing = true
	s.lostWhy = why
	s.lostSince = time.Now()
	s.lostRun = uint64(n)
	if why == "size_cap" {
		s.warnf("%s reached its size cap of %d bytes: the log ends there, and later events are dropped and counted in its status (lost=, lost_why=size_cap)", s.path, s.maxBytes)
		if s.onSizeCap != nil {
			s.onSizeCap()
			s.onSizeCap = nil
		}
		return
	}
	s.warnf("writing %s: %v: events are dropped and counted in the log's status until a write succeeds again (it is retried at every batch)", s.path, err)
}

// wrote ends a run of losses: a batch was written again.
func (s *sink) wrote() {
	if !s.losing {
		return
	}
	s.losing = false
	s.warnf("writing %s again: %d events were lost since %s (%s); the log is incomplete", s.path, s.lostRun, s.lostSince.Format(time.RFC3339), s.lostWhy)
}

func (s *sink) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.warn != nil {
		s.warn(msg)
		return
	}
	fmt.Fprintln(stderr, "eventlog: "+msg)
}

// lossReason names err in the status: its errno, or "size_cap".
func lossReason(err error) string {
	if err == errSizeCap {
		return "size_cap"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if name := errnoName(errno); name != "" {
			return name
		}
	}
	return "error"
}

// appendRecord appends the messages of b (dictionary deltas, record batch)
// to those to write next.
func (s *sink) appendRecord(b *batch, raw bool) {
	s.cols.load(b, &s.dicts)
	size := s.cols.rawSize()
	for _, d := range s.dicts {
		size += 4*(d.len()-d.written+1) + int(d.offsets[d.len()]-d.offsets[d.written])
	}
	s.rawBytes += size
	small := s.rawBytes <= smallLogBytes && !s.compressSmall
	s.enc.raw = small
	for _, d := range s.dicts {
		if d.len() > d.written {
			s.enc.dictionaryBatch(d.id, d, d.written, d.len(), d.written > 0)
			d.written = d.len()
		}
	}
	s.enc.raw = raw || small
	encodeRecordBatch(s.enc, &s.cols)
	s.enc.raw = false
}

// encodeRecordBatch appends the record batch message of c.
func encodeRecordBatch(e *ipcEncoder, c *columns) {
	e.startMessage()
	n := c.n
	e.addBuffer(nil) // validity: no nulls
	e.addSeqBuffer(c.seq[:n])
	for _, c := range [...]struct {
		buf   []byte
		class bufClass
	}{
		{uint32Bytes(c.stream[:n]), bufFast},
		{c.kind[:n], bufStrong},
		{uint64Bytes(c.parent[:n]), bufStrong},
		{int32Bytes(c.site[:n]), bufStrong},
		{int32Bytes(c.pos[:n]), bufStrong},
		{int32Bytes(c.recv[:n]), bufStrong},
		// Mostly zero or a few receivers' IDs: Huffman coding halves it.
		{uint64Bytes(c.recvID[:n]), bufEntropy},
	} {
		e.addBuffer(nil) // validity: no nulls
		e.addBufferWith(c.buf, c.class)
	}
	e.addBuffer(nil)
	// The Values offsets: their high bytes change rarely and their low
	// bytes are scattered, so zstd finds few matches, but Huffman coding
	// shrinks the literals: on the shop's events, stored as they are, they
	// are a sixth of the log, and entropy-coded a quarter smaller.
	e.addBufferWith(int32Bytes(c.valOff[:n+1]), bufEntropy)
	e.addBufferWith(c.vals, bufFast)
	e.finish(headerRecBatch, e.recordBatch(int64(n), numCols))
}

// write writes batch b (raw: without compression) and then the status. If
// b cannot be written, its events are counted as lost (st, taken before,
// counts them as dropped) and the status says so.
func (s *sink) write(b *batch, st Status, raw bool) error {
	var err error
	if b.n > 0 {
		if err = s.writeRecord(b, raw, false); err != nil {
			s.lose(b.n, err)
			st.Dropped += uint64(b.n)
		} else {
			s.events += uint64(b.n)
			s.wrote()
		}
	}
	if serr := s.writeStatus(st); err == nil {
		err = serr
	}
	if b.sync && err == nil {
		err = s.f.Sync()
	}
	return err
}

// writeStatus overwrites the status in place (which needs no new space),
// with the sink's counts.
func (s *sink) writeStatus(st Status) error {
	st.Events = s.events
	st.Lost, st.LostWhy, st.LostSince = s.lost, s.lostWhy, s.lostSince
	st.PID = s.pid
	v := formatStatus(st)
	if len(v) != statusWidth {
		return fmt.Errorf("eventlog: status %q does not fit", v)
	}
	_, err := s.f.WriteAt([]byte(v), s.statusOff)
	return err
}

// finish writes the last batch b (nil or empty: none) and the
// end-of-stream marker with one write, then the final status, and closes
// the file. It fsyncs only with sync (Options.SyncOnFlush): like every
// flush, a closed log survives a process crash without it, and an fsync
// costs milliseconds, a large share of a short test process.
func (s *sink) finish(b *batch, st Status, sync bool) error {
	var err error
	ended := s.capped
	if b != nil && b.n > 0 {
		// The last batch and the end-of-stream marker in one write, unless
		// it is lost: then the marker alone.
		if err = s.writeRecord(b, false, true); err == nil {
			s.events += uint64(b.n)
			s.wrote()
			ended = true
		} else {
			s.lose(b.n, err)
			st.Dropped += uint64(b.n)
			ended = s.capped
		}
	}
	if !ended {
		s.enc.msg = append(s.enc.msg, endOfStream...)
		if ferr := s.flushMessages(); ferr != nil {
			// Without its end-of-stream marker, a log that says done would
			// read as cut after it was closed: it reads as torn instead,
			// and its status says what was lost and why.
			st.Closed = false
			if err == nil {
				err = ferr
			}
		}
	}
	if serr := s.writeStatus(st); err == nil {
		err = serr
	}
	if sync {
		if serr := s.f.Sync(); err == nil {
			err = serr
		}
	}
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.enc.err // the log is complete, but uncompressed
	}
	return err
}
