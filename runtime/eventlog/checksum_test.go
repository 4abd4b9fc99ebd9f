package eventlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/ipc"
)

// asKilled returns a copy of a closed log whose status says open, as the
// log of a writer killed after its last flush.
func asKilled(t testing.TB, b []byte) []byte {
	t.Helper()
	done := []byte(strings.Fields(formatStatus(Status{Closed: true}))[0])
	open := []byte(strings.Fields(formatStatus(Status{}))[0])
	if bytes.Count(b, done) != 1 || len(done) != len(open) {
		t.Fatalf("cannot find the status %q in the log", done)
	}
	return bytes.Replace(b, done, open, 1)
}

// ipcMessage is the place of one framed message in a log.
type ipcMessage struct {
	off, end int // from the continuation marker to the end of the body
	htype    byte
}

// messagesOf frames the messages of a valid log (stream or file) up to the
// end-of-stream marker, which it returns as a message of type 0.
func messagesOf(t testing.TB, b []byte) []ipcMessage {
	t.Helper()
	off := 0
	if bytes.HasPrefix(b, []byte(fileMagic)) {
		off = 8
	}
	var out []ipcMessage
	for off+8 <= len(b) {
		mlen := int(binary.LittleEndian.Uint32(b[off+4:]))
		if mlen == 0 {
			return append(out, ipcMessage{off, off + 8, 0})
		}
		meta := b[off+8 : off+8+mlen]
		root, err := fbRoot(meta)
		if err != nil {
			t.Fatal(err)
		}
		htype, _ := root.u8(1, 0)
		body, _ := root.i64(3, 0)
		end := off + 8 + mlen + int(body)
		out = append(out, ipcMessage{off, end, htype})
		off = end
	}
	return out
}

// eventsOf reads every event of b: their summaries, and the error that
// ended reading (nil at io.EOF).
func eventsOf(b []byte, name string) ([]string, error) {
	r, err := NewReader(bytes.NewReader(b), int64(len(b)), name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []string
	for {
		e, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, fmt.Sprintf("%d %d %s %d %s %s %s %d %x", e.Seq, e.Stream, e.Kind, e.Parent, e.Site, e.Pos, e.RecvType, e.RecvID, e.Values))
	}
}

// digestOf reads every event of b and returns a checksum of them all,
// their number, and the error that ended reading (nil at io.EOF).
func digestOf(b []byte) (uint32, int, error) {
	r, err := NewReader(bytes.NewReader(b), int64(len(b)), "log")
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	var sum uint32
	var buf []byte
	for n := 0; ; n++ {
		e, err := r.Next()
		if err == io.EOF {
			return sum, n, nil
		}
		if err != nil {
			return sum, n, err
		}
		buf = binary.LittleEndian.AppendUint64(buf[:0], e.Seq)
		buf = binary.LittleEndian.AppendUint32(buf, e.Stream)
		buf = binary.LittleEndian.AppendUint64(buf, e.Parent)
		buf = binary.LittleEndian.AppendUint64(buf, e.RecvID)
		buf = append(buf, byte(e.Kind))
		for _, s := range []string{e.Site, e.Pos, e.RecvType, string(e.Values)} {
			buf = binary.AppendUvarint(buf, uint64(len(s)))
			buf = append(buf, s...)
		}
		sum = crc32.Update(sum, castagnoli, buf)
	}
}

// TestTruncatedClosedLogs: a log whose writer closed it and that was cut
// afterwards, at any point after its schema, is an error that says so,
// never a shorter log that reads cleanly. (Every cut point; every seventh
// under the race detector.)
func TestTruncatedClosedLogs(t *testing.T) {
	logs := seedLogs(t)
	for _, name := range []string{"zstd", "uncompressed", "compacted"} {
		full := logs[name]
		msgs := messagesOf(t, full)
		schemaEnd := msgs[0].end
		step := 1
		if raceEnabled {
			step = 7
		}
		for cut := schemaEnd; cut < len(full); cut += step {
			_, err := eventsOf(full[:cut], "cut")
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s cut at %d of %d: err = %v, want a corrupt log", name, cut, len(full), err)
			}
			want := "of 10 events; it was cut after it was closed (copy it again)"
			if cut >= len(full)-len(endOfStream) {
				want = "log cut is truncated: its 10 events are there, but not the end-of-stream marker; it was cut after it was closed (copy it again)"
			}
			if name != "compacted" && (!errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), want)) {
				t.Fatalf("%s cut at %d: err = %v, want truncated", name, cut, err)
			}
		}
	}

	// A batch missing from the middle, the end intact.
	full := logs["uncompressed"]
	var cut []byte
	for _, m := range messagesOf(t, full) {
		if m.htype == headerRecBatch {
			cut = append(bytes.Clone(full[:m.off]), full[m.end:]...)
			break
		}
	}
	_, err := eventsOf(cut, "gap")
	if !errors.Is(err, ErrTruncated) || err.Error() != "log gap is truncated: 6 of 10 events; it was cut after it was closed (copy it again)" {
		t.Fatalf("a log without its first batch: err = %v", err)
	}

	// The shop's checked-in log (format 1, a capture-time stream), cut at
	// every tenth of its length and a byte short of it.
	shop, err := os.ReadFile("../../examples/shop/testdata/capture/shop_seed1.arrow")
	if err != nil {
		t.Skipf("checked-in log not here: %v", err)
	}
	for i := 1; i <= 10; i++ {
		n := len(shop) * i / 10
		if i == 10 {
			n--
		}
		_, err := eventsOf(shop[:n], "shop")
		if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "1,658 events") || !strings.Contains(err.Error(), "; it was cut after it was closed (copy it again)") {
			t.Fatalf("shop log cut at %d of %d bytes: err = %v", n, len(shop), err)
		}
		if i == 2 && err.Error() != "log shop is truncated: 12 of 1,658 events; it was cut after it was closed (copy it again)" {
			t.Errorf("err = %v", err)
		}
	}
}

// TestFlippedBytes flips every byte of the batches (headers, bodies,
// framing, end-of-stream) of a compacted log and of an uncompressed
// capture-time log, to its complement or in one bit: every flip is an
// error. A flip elsewhere (the schema, the footer; every third byte) is an
// error or leaves the events as they were: none changes them silently.
// Under the race detector, every seventh byte.
func TestFlippedBytes(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "log.arrows")
	const events = 60
	writeLog(t, src, events, Options{BatchEvents: 25, Compression: Uncompressed})
	compacted := filepath.Join(dir, "log.arrow")
	if _, err := Compact(compacted, src, CompactOptions{BatchEvents: 25}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{src, compacted} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, n, err := digestOf(b)
		if err != nil || n != events {
			t.Fatalf("%s: %d events, %v", path, n, err)
		}
		msgs := messagesOf(t, b)
		batchesFrom, batchesTo := msgs[0].end, msgs[len(msgs)-1].end
		var inBatches, elsewhere, caught int
		step := 1
		if raceEnabled {
			step = 7
		}
		for at := 0; at < len(b); at += step {
			inside := batchesFrom <= at && at < batchesTo
			if !inside && at%3 != 0 && step == 1 {
				continue
			}
			{
				mask := byte(0xff)
				if at%2 == 1 {
					mask = 1 << (at / 2 % 8)
				}
				orig := b[at]
				b[at] ^= mask
				got, _, err := digestOf(b)
				b[at] = orig
				if inside {
					inBatches++
					if err == nil {
						t.Fatalf("%s: flipping byte %d (^%#x) in the batches goes unnoticed", filepath.Base(path), at, mask)
					}
					if errors.Is(err, ErrChecksum) {
						caught++
					}
				} else {
					elsewhere++
					if err == nil && got != want {
						t.Fatalf("%s: flipping byte %d (^%#x) outside the batches changes the events silently", filepath.Base(path), at, mask)
					}
				}
				if err != nil && !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: flipping byte %d: error does not wrap ErrCorrupt: %v", filepath.Base(path), at, err)
				}
			}
		}
		t.Logf("%s: %d flips in the batches, all errors (%d checksum errors), %d elsewhere", filepath.Base(path), inBatches, caught, elsewhere)
	}
}

// TestChecksumError: the error names the log, the batch and its events.
func TestChecksumError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log.arrows")
	writeLog(t, path, 400, Options{BatchEvents: 100, Compression: Uncompressed, FlushInterval: time.Hour})
	b, _ := os.ReadFile(path)
	var batches []ipcMessage
	for _, m := range messagesOf(t, b) {
		if m.htype == headerRecBatch {
			batches = append(batches, m)
		}
	}
	if len(batches) != 4 {
		t.Fatalf("%d record batches, want 4", len(batches))
	}
	m := batches[2]
	b[m.end-20] ^= 0x40 // in the values
	_, err := eventsOf(b, "x.arrows")
	want := fmt.Sprintf("log x.arrows: batch 3 (events 201-300, offset %d) fails its checksum: the file is corrupt", m.off)
	if !errors.Is(err, ErrChecksum) || !errors.Is(err, ErrCorrupt) || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

// TestDictionaryChecksumError: a damaged dictionary batch is named with
// its column and the events it precedes.
func TestDictionaryChecksumError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	writeLog(t, path, 400, Options{BatchEvents: 100, Compression: Uncompressed, FlushInterval: time.Hour})
	b, _ := os.ReadFile(path)
	dicts := 0
	for _, m := range messagesOf(t, b) {
		// After the kind dictionary and three empty ones, the first
		// non-empty dictionary batch is the delta of sites before the
		// first record batch.
		if m.htype == headerDictBatch {
			dicts++
		}
		mlen := int(binary.LittleEndian.Uint32(b[m.off+4:]))
		if m.htype != headerDictBatch || dicts == 1 || m.end-(m.off+8+mlen) == 0 {
			continue
		}
		b[m.off+8+mlen] ^= 1
		_, err := eventsOf(b, "x")
		want := fmt.Sprintf("log x: dictionary batch of site before event 1 (offset %d) fails its checksum: the file is corrupt", m.off)
		if !errors.Is(err, ErrChecksum) || err.Error() != want {
			t.Fatalf("err = %v\nwant %s", err, want)
		}
		return
	}
	t.Fatal("no site dictionary")
}

// TestChecksumsOnEveryBatchOrNone: a batch whose checksum entry is lost
// (its key damaged) is an error, in a version 4 log and in an older log
// whose other batches have checksums (a compacted version 1 or 2 log).
func TestChecksumsOnEveryBatchOrNone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	writeLog(t, path, 300, Options{BatchEvents: 100, Compression: Uncompressed, FlushInterval: time.Hour})
	b, _ := os.ReadFile(path)
	var last ipcMessage
	for _, m := range messagesOf(t, b) {
		if m.htype == headerRecBatch {
			last = m
		}
	}
	key := bytes.Index(b[last.off:last.end], []byte(MetaChecksum))
	if key < 0 {
		t.Fatal("no checksum key in the last batch")
	}
	b[last.off+key+len(MetaChecksum)-1] = 'x' // rules_capture.crc32x
	_, err := eventsOf(b, "v4")
	if !errors.Is(err, ErrChecksum) || !strings.HasSuffix(err.Error(), "has no checksum (format version 4 requires one on every batch): the file is corrupt") {
		t.Fatalf("version 4: err = %v", err)
	}
	// The same log as version 2: the version's value is a FlatBuffers
	// string in the schema (FormatVersion's digits), rewritten as 2 ("02"
	// where it has two digits).
	schema := messagesOf(t, b)[0]
	v := fmt.Sprint(FormatVersion)
	n := 0
	for i := schema.off; i < schema.end-4-len(v); i++ {
		// A FlatBuffers string: its length, its bytes, NUL.
		if binary.LittleEndian.Uint32(b[i:]) == uint32(len(v)) && string(b[i+4:i+4+len(v)]) == v && b[i+4+len(v)] == 0 {
			copy(b[i+4:], fmt.Sprintf("%0*d", len(v), 2))
			n++
		}
	}
	if n != 1 {
		t.Fatalf("found the version string %d times", n)
	}
	resumMetadata(t, b)
	_, err = eventsOf(b, "v2")
	if !errors.Is(err, ErrChecksum) || !strings.HasSuffix(err.Error(), "has no checksum, unlike the batches before it: the file is corrupt") {
		t.Fatalf("version 2 with checksums: err = %v", err)
	}
}

// TestMetadataChecksum: a flipped byte in any metadata value but the
// status (the observed packages, the source hash, the format version...)
// or in the checksum's key is an error.
func TestMetadataChecksum(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	meta := writeLog(t, path, 10, Options{})
	b, _ := os.ReadFile(path)
	schemaEnd := messagesOf(t, b)[0].end
	for _, v := range []string{`["example.com/shop/pricing"]`, meta.SourceHash, meta.BuildLabel, MetaMetadataChecksum, MetaObservedPackages} {
		at := bytes.Index(b[:schemaEnd], []byte(v))
		if at < 0 {
			t.Fatalf("%q not in the schema", v)
		}
		for i := at; i < at+len(v); i++ {
			b[i] ^= 0x20
			_, err := eventsOf(b, "log")
			b[i] ^= 0x20
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("flipping byte %d of %q: err = %v", i-at, v, err)
			}
		}
	}
	// The status is outside the checksum, but its state is "open" or
	// "done": anything else is an error, not an open log.
	at := bytes.Index(b[:schemaEnd], []byte("state=done"))
	for i := at + len("state="); i < at+len("state=done"); i++ {
		b[i] ^= 1
		_, err := eventsOf(b, "log")
		b[i] ^= 1
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "malformed status field") {
			t.Fatalf("flipping byte %d of the state: err = %v", i-at, err)
		}
	}
	// The version rewritten as 2 ("02" where it has two digits) is version
	// 2's metadata, not this log's.
	v := fmt.Sprint(FormatVersion)
	at = bytes.Index(b[:schemaEnd], append(append([]byte{byte(len(v)), 0, 0, 0}, v...), 0))
	if at < 0 {
		t.Fatal("no version string")
	}
	copy(b[at+4:], fmt.Sprintf("%0*d", len(v), 2))
	if _, err := eventsOf(b, "log"); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "the schema's metadata (format version, observed packages, source hash, ...) fails its checksum") {
		t.Fatalf("version 2: err = %v", err)
	}
}

// resumMetadata rewrites the metadata checksum of log b after an edit.
func resumMetadata(t *testing.T, b []byte) {
	t.Helper()
	schema := messagesOf(t, b)[0]
	meta := b[schema.off+8 : schema.end]
	root, err := fbRoot(meta)
	if err != nil {
		t.Fatal(err)
	}
	h, _, _ := root.table(2)
	info, err := decodeSchemaTable(h)
	if err != nil {
		t.Fatal(err)
	}
	var keys, vals []string
	var old string
	for _, kv := range info.meta {
		if kv[0] == MetaMetadataChecksum {
			old = kv[1]
			continue
		}
		keys, vals = append(keys, kv[0]), append(vals, kv[1])
	}
	at := bytes.Index(meta, []byte(old))
	if old == "" || at < 0 || bytes.Count(meta, []byte(old)) != 1 {
		t.Fatal("cannot find the metadata checksum")
	}
	putChecksum(meta[at:], metadataChecksum(keys, vals))
}

// TestVersion3Logs: a version 3 log (before checksums; checked in) reads
// without them, and Compact rewrites it as version 4 with a checksum on
// every batch.
func TestVersion3Logs(t *testing.T) {
	const v3 = "testdata/v3.arrows"
	got, r := readAll(t, v3)
	m := r.Meta()
	r.Close()
	if m.FormatVersion != 3 || !m.Status.Closed || m.Status.Events != 1000 || len(got) != 1000 {
		t.Fatalf("version %d, status %+v, %d events", m.FormatVersion, m.Status, len(got))
	}
	for i, e := range got {
		want := sampleEvent(i)
		want.Seq = uint64(i + 1)
		if !reflect.DeepEqual(e, want) {
			t.Fatalf("event %d: %+v, want %+v", i, e, want)
		}
	}
	b, _ := os.ReadFile(v3)
	if sums := checksummedBatches(t, b); sums != 0 {
		t.Fatalf("the version 3 log has %d checksums", sums)
	}

	out := filepath.Join(t.TempDir(), "v4.arrow")
	if _, err := Compact(out, v3, CompactOptions{BatchEvents: 256}); err != nil {
		t.Fatal(err)
	}
	again, r := readAll(t, out)
	m4 := r.Meta()
	r.Close()
	if m4.FormatVersion != 4 || !reflect.DeepEqual(again, got) || m4.RunID != m.RunID {
		t.Fatalf("compacted: version %d, %d events, run %q", m4.FormatVersion, len(again), m4.RunID)
	}
	b, _ = os.ReadFile(out)
	if sums, batches := checksummedBatches(t, b), len(messagesOf(t, b))-2; sums != batches || sums != 4+4 {
		t.Fatalf("compacted log: %d of %d batches have a checksum", sums, batches)
	}
}

// checksummedBatches counts the batches of b with a checksum, as an
// independent reader would find it: the Message's custom_metadata entry,
// checked against CRC-32C of the metadata (digits as zeros) and the body.
func checksummedBatches(t *testing.T, b []byte) int {
	t.Helper()
	n := 0
	for _, m := range messagesOf(t, b) {
		if m.htype != headerDictBatch && m.htype != headerRecBatch {
			continue
		}
		mlen := int(binary.LittleEndian.Uint32(b[m.off+4:]))
		meta := bytes.Clone(b[m.off+8 : m.off+8+mlen])
		body := b[m.off+8+mlen : m.end]
		root, _ := fbRoot(meta)
		kvs, err := root.tables(4, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, kv := range kvs {
			if k, _ := kv.str(0); k != MetaChecksum {
				continue
			}
			start, l, _ := kv.strPos(1)
			val := string(meta[start : start+l])
			copy(meta[start:], "00000000")
			if want := fmt.Sprintf("%08x", crc32c(append(meta, body...))); val != want {
				t.Fatalf("batch at %d: checksum %q, want %q", m.off, val, want)
			}
			n++
		}
	}
	return n
}

// TestArrowLogOfVersion4WithoutChecksums: a version 4 log must have
// checksums; one written by a writer that does not know them is refused.
func TestArrowLogOfVersion4WithoutChecksums(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	events := []Event{sampleEvent(0), sampleEvent(1)}
	events[0].Seq, events[1].Seq = 1, 2
	writeWithArrow(t, path, events, Meta{FormatVersion: 4}, Status{Closed: true, Events: 2}, 10, false, ipc.WithZstd())
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Next()
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "has no checksum (format version 4 requires one on every batch)") {
		t.Fatalf("err = %v", err)
	}
}

func TestCommas(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 1658: "1,658", 196608: "196,608", 1234567: "1,234,567"} {
		if got := Commas(n); got != want {
			t.Errorf("Commas(%d) = %q, want %q", n, got, want)
		}
	}
}

func crc32c(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }
