package eventlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	flatbuffers "github.com/google/flatbuffers/go"
)

// CompactOptions tune Compact. The zero value gives the defaults.
type CompactOptions struct {
	BatchEvents int // events per record batch (default 16384: smaller compresses worse, larger no better)
	ZstdLevel   int // 1-4 as in Options (default 4: compaction is offline)
	Compression Compression
}

// CompactResult says what Compact wrote.
type CompactResult struct {
	Events  uint64
	Torn    bool // the source's writer had not closed it (killed): its torn tail was dropped
	InBytes int64
	Bytes   int64
}

// Compact rewrites the log at src as one Arrow IPC file at dst: the same
// schema and metadata (status updated to what was read), every dictionary
// complete and written once before the first batch (the file format allows
// no replacement), bigger batches, a stronger zstd level and a checksum on
// every batch (a version 3 log becomes version 4). src may be a
// capture-time stream, torn or not, or a compacted file. dst is written
// next to itself and renamed into place, so a failed compaction leaves no
// partial file.
func Compact(dst, src string, opts CompactOptions) (res CompactResult, err error) {
	if opts.BatchEvents <= 0 {
		opts.BatchEvents = 16384
	}
	if opts.BatchEvents > maxRowsPerBatch {
		opts.BatchEvents = maxRowsPerBatch
	}
	if opts.ZstdLevel < 1 || opts.ZstdLevel > 4 {
		opts.ZstdLevel = 4
	}
	// Rewriting the log of a live writer in place would leave the writer
	// writing into the replaced file: what it writes afterwards would be
	// lost.
	if live, pid := Live(src); live {
		return res, liveError(src, pid, "compact it after the process ends")
	}
	// Pass 1: the complete dictionaries, in order of first use, and the count.
	dicts := [3]*dictColumn{newDictColumn(dictIDSite), newDictColumn(dictIDPos), newDictColumn(dictIDRecvType)}
	r, err := Open(src)
	if err != nil {
		return res, err
	}
	meta := r.Meta()
	// The encoder checksums every batch. Version 4 is version 3 with
	// checksums, so a version 3 log compacts to version 4; versions 1 and 2
	// keep theirs (the player reads their values differently) and gain the
	// checksums, which the reader verifies wherever they are.
	if meta.FormatVersion == firstChecksumFormat-1 {
		meta.FormatVersion = firstChecksumFormat
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.Close()
			return res, err
		}
		dicts[0].lookup(e.Site)
		dicts[1].lookup(e.Pos)
		dicts[2].lookup(e.RecvType)
		res.Events++
	}
	_, res.Torn = r.Torn()
	r.Close()
	if fi, err := os.Stat(src); err == nil {
		res.InBytes = fi.Size()
	}

	tmp := dst + ".compacting"
	os.Remove(tmp) // left by a compaction that was killed
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return res, fmt.Errorf("eventlog: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	enc, err := newIPCEncoder(opts.Compression, opts.ZstdLevel, false)
	if err != nil {
		return res, err
	}
	st := meta.Status
	st.Events = res.Events
	schema := schemaMessage(meta)
	// The status is part of the schema; rewrite it with the final numbers.
	if err := patchStatus(schema, st); err != nil {
		return res, err
	}
	cw := &compactWriter{f: f, enc: enc}
	cw.raw([]byte("ARROW1\x00\x00"))
	cw.raw(schema)
	kind := newDictColumn(dictIDKind)
	for k := Kind(0); k < numKinds; k++ {
		kind.lookup(k.String())
	}
	for _, d := range []*dictColumn{kind, dicts[0], dicts[1], dicts[2]} {
		enc.dictionaryBatch(d.id, d, 0, d.len(), false)
		cw.message(&cw.dictBlocks)
	}

	// Pass 2: the events, re-encoded against the complete dictionaries.
	if r, err = Open(src); err != nil {
		return res, err
	}
	defer r.Close()
	b := newBatch(opts.BatchEvents, 1<<20)
	var cols columns
	flush := func() error {
		if b.n == 0 {
			return nil
		}
		cols.load(b, &dicts)
		encodeRecordBatch(enc, &cols)
		cw.message(&cw.batchBlocks)
		b.reset()
		return cw.err
	}
	for n := uint64(0); n < res.Events; n++ {
		e, err := r.Next()
		if err != nil {
			return res, fmt.Errorf("eventlog: %s changed while compacting: %w", src, err)
		}
		if b.valsUsed+len(e.Values) > len(b.vals) && b.n > 0 {
			if err := flush(); err != nil {
				return res, err
			}
		}
		if len(e.Values) > len(b.vals) {
			b.vals = make([]byte, len(e.Values))
		}
		i, off := b.n, b.valsUsed
		b.n++
		b.valsUsed += len(e.Values)
		b.stage(i, off, e)
		if b.n == len(b.rows) {
			if err := flush(); err != nil {
				return res, err
			}
		}
	}
	if err := flush(); err != nil {
		return res, err
	}
	cw.raw(endOfStream)
	footer := buildFooter(schema[8:], cw.dictBlocks, cw.batchBlocks)
	cw.raw(footer)
	cw.raw(binary.LittleEndian.AppendUint32(nil, uint32(len(footer))))
	cw.raw([]byte(fileMagic))
	if cw.err != nil {
		return res, fmt.Errorf("eventlog: %w", cw.err)
	}
	if err := f.Sync(); err != nil {
		return res, fmt.Errorf("eventlog: %w", err)
	}
	if err := f.Close(); err != nil {
		return res, fmt.Errorf("eventlog: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return res, fmt.Errorf("eventlog: %w", err)
	}
	res.Bytes = cw.off
	return res, nil
}

func patchStatus(schema []byte, st Status) error {
	marker := []byte(statusPrefix + "open events=")
	at := -1
	for i := 0; i+len(marker) <= len(schema); i++ {
		if string(schema[i:i+len(marker)]) == string(marker) {
			if at >= 0 {
				return errors.New("eventlog: metadata contains the status marker twice")
			}
			at = i
		}
	}
	if at < 0 {
		return errors.New("eventlog: schema without status")
	}
	copy(schema[at:], formatStatus(st))
	return nil
}

// compactWriter appends to the file and records the blocks of the footer.
type compactWriter struct {
	f                       *os.File
	enc                     *ipcEncoder
	off                     int64
	err                     error
	dictBlocks, batchBlocks []fileBlock
}

type fileBlock struct {
	offset  int64
	metaLen int32 // continuation + length + padded FlatBuffers
	bodyLen int64
}

func (w *compactWriter) raw(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.f.Write(b)
	w.off += int64(n)
	w.err = err
}

// message writes the one message the encoder holds and records its block.
func (w *compactWriter) message(blocks *[]fileBlock) {
	m := w.enc.msg
	metaLen := int32(8 + binary.LittleEndian.Uint32(m[4:]))
	*blocks = append(*blocks, fileBlock{offset: w.off, metaLen: metaLen, bodyLen: int64(len(m)) - int64(metaLen)})
	w.raw(m)
	w.enc.msg = w.enc.msg[:0]
}

// buildFooter builds the Arrow file footer. Its schema is the schema
// message's own Schema table, embedded byte for byte: FlatBuffers offsets
// are relative, so the table stays valid inside the footer, and the footer
// cannot disagree with the stream's schema.
func buildFooter(schemaFB []byte, dicts, batches []fileBlock) []byte {
	root, _ := fbRoot(schemaFB)
	hdr, _, _ := root.table(2)
	fb := flatbuffers.NewBuilder(len(schemaFB) + 1024)
	blocks := func(bs []fileBlock) flatbuffers.UOffsetT {
		fb.StartVector(24, len(bs), 8)
		for i := len(bs) - 1; i >= 0; i-- {
			fb.Prep(8, 24)
			fb.PrependInt64(bs[i].bodyLen)
			fb.Pad(4)
			fb.PrependInt32(bs[i].metaLen)
			fb.PrependInt64(bs[i].offset)
		}
		return fb.EndVector(len(bs))
	}
	dv := blocks(dicts)
	bv := blocks(batches)
	fb.StartVector(1, len(schemaFB), 8)
	for i := len(schemaFB) - 1; i >= 0; i-- {
		fb.PlaceByte(schemaFB[i])
	}
	vec := fb.EndVector(len(schemaFB))
	// vec is the vector's length prefix; its bytes start 4 bytes later,
	// i.e. 4 closer to the end of the buffer that offsets count from.
	schemaTable := vec - 4 - flatbuffers.UOffsetT(hdr.pos)
	fb.StartObject(5)
	fb.PrependInt16Slot(0, metadataV5, 0)
	fb.PrependUOffsetTSlot(1, schemaTable, 0)
	fb.PrependUOffsetTSlot(2, dv, 0)
	fb.PrependUOffsetTSlot(3, bv, 0)
	fb.Finish(fb.EndObject())
	return fb.FinishedBytes()
}
