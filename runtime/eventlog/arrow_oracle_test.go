package eventlog

// Arrow Go is the oracle of the file format: this package writes and reads
// Arrow IPC without linking Arrow (a capture binary links it, and Arrow's
// package initialisation alone cost a short capture process milliseconds),
// so these tests check, with Arrow's own Go implementation, that what we
// write is what Arrow writes and reads, and that we read what Arrow writes.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// arrowFields is the format's schema (docs/log-format.md) in Arrow Go's
// types, written out independently of schemaFields.
func arrowFields() []arrow.Field {
	str8 := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	str32 := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	return []arrow.Field{
		{Name: "seq", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "stream", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "kind", Type: str8},
		{Name: "parent", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "site", Type: str32},
		{Name: "pos", Type: str32},
		{Name: "recv_type", Type: str32},
		{Name: "recv_id", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "values", Type: arrow.BinaryTypes.Binary},
	}
}

func arrowSchema(m Meta, st Status) *arrow.Schema {
	keys, vals := metadataFor(m, st)
	md := arrow.NewMetadata(keys, vals)
	return arrow.NewSchema(arrowFields(), &md)
}

// arrowSchemaMessage is the schema message as Arrow's stream writer frames
// it (a stream with no batches, minus its end-of-stream marker).
func arrowSchemaMessage(t *testing.T, m Meta) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(arrowSchema(m, Status{})))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if !bytes.HasSuffix(b, endOfStream) {
		t.Fatalf("Arrow's schema message does not end in the end-of-stream marker")
	}
	return b[:len(b)-len(endOfStream)]
}

func TestSchemaMessageIsArrows(t *testing.T) {
	start := time.Date(2026, 11, 23, 1, 2, 3, 456789, time.UTC)
	for _, m := range []Meta{
		{FormatVersion: FormatVersion},
		{FormatVersion: FormatVersion, ObservedPackages: []string{}, StartTime: start},
		{FormatVersion: FormatVersion, ObservedPackages: []string{"example.com/shop/pricing", "example.com/shop/tax"},
			SourceHash: "sha256:0123456789abcdef", GoVersion: "go1.26.0", BuildLabel: "//examples/shop:shop_capture",
			StartTime: start, RunID: "8e2bd34e8e9f4b7ba2b3e21cc6b8a5f1"},
		{FormatVersion: 1, ObservedPackages: []string{"ünïcödé/päth"}, BuildLabel: strings.Repeat("x", 1000), RunID: "r"},
		{FormatVersion: FormatVersion, SourceHash: "odd length 1", GoVersion: "odd length 12", BuildLabel: "a", RunID: "abc"},
	} {
		got := schemaMessage(m)
		want := arrowSchemaMessage(t, m)
		if !bytes.Equal(got, want) {
			t.Errorf("schema message for %+v differs from Arrow's:\n got %x\nwant %x", m, got, want)
		}
	}
}

func TestColumnTypesNamedAsArrow(t *testing.T) {
	for i, f := range arrowFields() {
		if got := schemaFields[i]; got.name != f.Name || got.typ.String() != f.Type.String() {
			t.Errorf("column %d: %s %s, Arrow's %s %s", i, got.name, got.typ, f.Name, f.Type)
		}
	}
}

// arrowEvents decodes a record batch with Arrow into events.
func arrowEvents(t *testing.T, rec arrow.Record) []Event {
	t.Helper()
	dictStr := func(col int, i int) string {
		d := rec.Column(col).(*array.Dictionary)
		return d.Dictionary().(*array.String).Value(d.GetValueIndex(i))
	}
	var out []Event
	for i := 0; i < int(rec.NumRows()); i++ {
		k, ok := ParseKind(dictStr(colKind, i))
		if !ok {
			t.Fatalf("row %d: Arrow reads kind %q", i, dictStr(colKind, i))
		}
		out = append(out, Event{
			Seq:      rec.Column(colSeq).(*array.Uint64).Value(i),
			Stream:   rec.Column(colStream).(*array.Uint32).Value(i),
			Kind:     k,
			Parent:   rec.Column(colParent).(*array.Uint64).Value(i),
			Site:     dictStr(colSite, i),
			Pos:      dictStr(colPos, i),
			RecvType: dictStr(colRecvType, i),
			RecvID:   rec.Column(colRecvID).(*array.Uint64).Value(i),
			Values:   bytes.Clone(rec.Column(colValues).(*array.Binary).Value(i)),
		})
		if len(out[len(out)-1].Values) == 0 {
			out[len(out)-1].Values = nil // as readAll
		}
	}
	return out
}

// readWithArrow reads every event of a log (stream or file format) with
// Arrow's readers, and its schema.
func readWithArrow(t *testing.T, path string) ([]Event, *arrow.Schema) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var head [6]byte
	f.ReadAt(head[:], 0)
	var events []Event
	if string(head[:]) == fileMagic {
		fr, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
		if err != nil {
			t.Fatal(err)
		}
		defer fr.Close()
		for i := 0; i < fr.NumRecords(); i++ {
			rec, err := fr.Record(i)
			if err != nil {
				t.Fatal(err)
			}
			events = append(events, arrowEvents(t, rec)...)
		}
		return events, fr.Schema()
	}
	ir, err := ipc.NewReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		t.Fatal(err)
	}
	defer ir.Release()
	for ir.Next() {
		events = append(events, arrowEvents(t, ir.Record())...)
	}
	if err := ir.Err(); err != nil {
		t.Fatal(err)
	}
	return events, ir.Schema()
}

// checkArrowAgrees reads the log at path with Arrow and with Reader and
// compares every event and the metadata; it returns the events.
func checkArrowAgrees(t *testing.T, path string) []Event {
	t.Helper()
	got, schema := readWithArrow(t, path)
	want, r := readAll(t, path)
	defer r.Close()
	if len(got) != len(want) {
		t.Fatalf("%s: Arrow reads %d events, Reader %d", path, len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: event %d: Arrow reads\n%+v\nReader reads\n%+v", path, i, got[i], want[i])
		}
	}
	m := r.Meta()
	if !arrow.TypeEqual(arrow.StructOf(schema.Fields()...), arrow.StructOf(arrowFields()...)) {
		t.Errorf("%s: Arrow reads the schema %v", path, schema)
	}
	md := schema.Metadata()
	keys, vals := metadataFor(m, m.Status)
	for i, k := range keys {
		v, ok := md.GetValue(k)
		if k == MetaObservedPackages && m.ObservedPackages == nil {
			continue // older writers wrote null
		}
		if k == MetaMetadataChecksum && !ok && m.FormatVersion < firstChecksumFormat {
			continue // older writers wrote none
		}
		if k == MetaStatus && ok {
			// Older writers wrote fewer fields: the same status, parsed.
			if st, err := parseStatus(v); err != nil || !reflect.DeepEqual(st, m.Status) {
				t.Errorf("%s: metadata %s: Arrow reads %q (%+v, %v), Reader %+v", path, k, v, st, err, m.Status)
			}
			continue
		}
		if !ok || v != vals[i] {
			t.Errorf("%s: metadata %s: Arrow reads %q, Reader %q", path, k, v, vals[i])
		}
	}
	return want
}

// TestArrowReadsOurLogs: Arrow's stream and file readers read the logs the
// Writer and Compact write (every column, delta dictionaries, compressed,
// uncompressed and mixed batches, the metadata and the final status).
func TestArrowReadsOurLogs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		n    int
		opts Options
	}{
		{"empty", 0, Options{}},
		{"zstd", 5000, Options{BatchEvents: 300}},
		{"zstd level 3", 2000, Options{BatchEvents: 700, ZstdLevel: 3}},
		{"uncompressed", 3000, Options{BatchEvents: 100, Compression: Uncompressed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".arrows")
			writeLog(t, path, tc.n, tc.opts)
			got := checkArrowAgrees(t, path)
			if len(got) != tc.n {
				t.Fatalf("read %d events, wrote %d", len(got), tc.n)
			}
			for i, e := range got {
				want := sampleEvent(i)
				want.Seq = uint64(i + 1)
				if !reflect.DeepEqual(e, want) {
					t.Fatalf("event %d: got %+v, want %+v", i, e, want)
				}
			}
			compacted := filepath.Join(dir, tc.name+".arrow")
			if _, err := Compact(compacted, path, CompactOptions{BatchEvents: 1000}); err != nil {
				t.Fatal(err)
			}
			if c := checkArrowAgrees(t, compacted); !reflect.DeepEqual(c, got) {
				t.Fatal("compacted log holds different events")
			}
		})
	}
	t.Run("mixed compression", func(t *testing.T) {
		path := filepath.Join(dir, "mixed.arrows")
		w, err := Create(path, Meta{BuildLabel: "mixed"}, Options{BatchEvents: 100, Buffers: 4, FlushInterval: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		w.encodeGate.Lock() // three full batches: the first two are written raw
		for i := 0; i < 300; i++ {
			e := sampleEvent(i)
			w.Append(&e)
		}
		w.encodeGate.Unlock()
		w.Flush()
		for i := 300; i < 350; i++ {
			e := sampleEvent(i)
			w.Append(&e)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		comp := recordBatchCompression(t, path)
		if !slicesHave(comp, true) || !slicesHave(comp, false) {
			t.Fatalf("batches compressed %v: want both kinds", comp)
		}
		if got := checkArrowAgrees(t, path); len(got) != 350 {
			t.Fatalf("read %d events", len(got))
		}
	})
	t.Run("killed", func(t *testing.T) {
		// A log whose writer never closed it: no end-of-stream marker,
		// status "open". Arrow's stream reader stops at the end of the file.
		path := filepath.Join(dir, "open.arrows")
		w, err := Create(path, Meta{}, Options{BatchEvents: 64})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200; i++ {
			e := sampleEvent(i)
			w.Append(&e)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		snapshot := filepath.Join(dir, "snapshot.arrows")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(snapshot, b, 0o644)
		w.Close()
		if got := checkArrowAgrees(t, snapshot); len(got) != 200 {
			t.Fatalf("read %d events", len(got))
		}
	})
}

func slicesHave(s []bool, v bool) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// writeWithArrow writes events as a log with Arrow Go's own writers: the
// stream format in batches of batchRows (dictionary deltas or
// replacements, as Arrow chooses), or the file format.
func writeWithArrow(t *testing.T, path string, events []Event, meta Meta, st Status, batchRows int, file bool, opts ...ipc.Option) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schema := arrowSchema(meta, st)
	opts = append(opts, ipc.WithSchema(schema), ipc.WithAllocator(memory.DefaultAllocator))
	var w interface {
		Write(arrow.Record) error
		Close() error
	}
	if file {
		if w, err = ipc.NewFileWriter(f, opts...); err != nil {
			t.Fatal(err)
		}
	} else {
		w = ipc.NewWriter(f, opts...)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	flush := func() {
		rec := b.NewRecord()
		defer rec.Release()
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range events {
		b.Field(colSeq).(*array.Uint64Builder).Append(e.Seq)
		b.Field(colStream).(*array.Uint32Builder).Append(e.Stream)
		must(t, b.Field(colKind).(*array.BinaryDictionaryBuilder).AppendString(e.Kind.String()))
		b.Field(colParent).(*array.Uint64Builder).Append(e.Parent)
		must(t, b.Field(colSite).(*array.BinaryDictionaryBuilder).AppendString(e.Site))
		must(t, b.Field(colPos).(*array.BinaryDictionaryBuilder).AppendString(e.Pos))
		must(t, b.Field(colRecvType).(*array.BinaryDictionaryBuilder).AppendString(e.RecvType))
		b.Field(colRecvID).(*array.Uint64Builder).Append(e.RecvID)
		b.Field(colValues).(*array.BinaryBuilder).Append(e.Values)
		if (i+1)%batchRows == 0 || i == len(events)-1 {
			flush()
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadsArrowsLogs: Reader reads logs that Arrow Go's writers wrote: the
// stream format with zstd, LZ4-free uncompressed, dictionary deltas and
// replacements, and the file format, with Arrow's own choices of kind
// dictionary order, padding and compression.
func TestReadsArrowsLogs(t *testing.T) {
	dir := t.TempDir()
	var events []Event
	for i := 0; i < 3000; i++ {
		e := sampleEvent(i)
		e.Seq = uint64(i + 1)
		if i >= 1500 {
			// New strings late in the log: dictionaries grow after the
			// first batches.
			e.Site = fmt.Sprintf("example.com/late.F%d", i%17)
		}
		events = append(events, e)
	}
	// Arrow's writers put no checksums in the messages: these are logs of
	// version 3, as another implementation writes them.
	meta := Meta{FormatVersion: firstChecksumFormat - 1, ObservedPackages: []string{"example.com/shop/pricing"}, SourceHash: "sha256:abc",
		GoVersion: "go1.26", BuildLabel: "//arrow:writer", StartTime: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC), RunID: "arrow"}
	st := Status{Closed: true, Events: uint64(len(events)), Blocked: 3, EndTime: time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC)}
	for _, tc := range []struct {
		name string
		file bool
		opts []ipc.Option
	}{
		{"stream zstd deltas", false, []ipc.Option{ipc.WithZstd(), ipc.WithDictionaryDeltas(true)}},
		{"stream zstd replacements", false, []ipc.Option{ipc.WithZstd()}},
		{"stream uncompressed", false, nil},
		{"stream zstd min savings", false, []ipc.Option{ipc.WithZstd(), ipc.WithMinSpaceSavings(0.5), ipc.WithDictionaryDeltas(true)}},
		{"file zstd", true, []ipc.Option{ipc.WithZstd()}},
		{"file uncompressed", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			rows := 256
			if tc.file {
				rows = len(events) // one batch: the file format allows no dictionary replacement
			}
			writeWithArrow(t, path, events, meta, st, rows, tc.file, tc.opts...)
			got, r := readAll(t, path)
			defer r.Close()
			if !reflect.DeepEqual(got, events) {
				t.Fatalf("Reader reads %d events, different from the %d Arrow wrote", len(got), len(events))
			}
			m := r.Meta()
			want := meta
			want.Status = st
			want.Status.EndTime = st.EndTime
			if !reflect.DeepEqual(m, want) {
				t.Errorf("meta\n got %+v\nwant %+v", m, want)
			}
			if _, torn := r.Torn(); torn {
				t.Error("a closed log read as torn")
			}
		})
	}
}

// TestCheckedInLogs: the logs checked into the repository (written by
// earlier versions, some of format version 1) read the same with Arrow and
// with Reader.
func TestCheckedInLogs(t *testing.T) {
	var paths []string
	for _, pat := range []string{"testdata/*.arrow", "../../examples/shop/testdata/capture/*.arrow", "../../rules/tests/*/testdata/*.arrow",
		"../../rules/tests/*/*/testdata/capture/*.arrow"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) < 5 {
		t.Skipf("found %d checked-in logs (the repository's tree is not here: the test reads files outside its package)", len(paths))
	}
	versions := map[int]int{}
	for _, p := range paths {
		events := checkArrowAgrees(t, p)
		r, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		versions[r.Meta().FormatVersion]++
		r.Close()
		if len(events) == 0 {
			t.Errorf("%s: no events", p)
		}
	}
	t.Logf("%d logs, by format version: %v", len(paths), versions)
}

// TestSchemaChecks: schemas that Arrow writes but that are not this
// format's are refused with an error that names the difference.
func TestSchemaChecks(t *testing.T) {
	meta := Meta{FormatVersion: FormatVersion}
	base := arrowSchema(meta, Status{})
	with := func(col int, f arrow.Field) *arrow.Schema {
		fields := arrowFields()
		fields[col] = f
		md := base.Metadata()
		return arrow.NewSchema(fields, &md)
	}
	withMeta := func(key, val string) *arrow.Schema {
		md := base.Metadata()
		keys, vals := append([]string(nil), md.Keys()...), append([]string(nil), md.Values()...)
		for i, k := range keys {
			if k == key {
				if val == "" {
					keys, vals = append(keys[:i], keys[i+1:]...), append(vals[:i], vals[i+1:]...)
				} else {
					vals[i] = val
				}
				break
			}
		}
		m := arrow.NewMetadata(keys, vals)
		return arrow.NewSchema(arrowFields(), &m)
	}
	str32 := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	for _, tc := range []struct {
		name   string
		schema *arrow.Schema
		want   string
	}{
		{"signed seq", with(colSeq, arrow.Field{Name: "seq", Type: arrow.PrimitiveTypes.Int64}), "schema column 0 is seq int64, want seq uint64"},
		{"renamed", with(colParent, arrow.Field{Name: "parent_seq", Type: arrow.PrimitiveTypes.Uint64}), "schema column 3 is parent_seq uint64, want parent uint64"},
		{"ordered dictionary", with(colSite, arrow.Field{Name: "site", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String, Ordered: true}}),
			"schema column 4 is site dictionary<values=utf8, indices=int32, ordered=true>, want site dictionary<values=utf8, indices=int32, ordered=false>"},
		{"uint16 indices", with(colPos, arrow.Field{Name: "pos", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint16, ValueType: arrow.BinaryTypes.String}}),
			"schema column 5 is pos dictionary<values=utf8, indices=uint16, ordered=false>, want pos dictionary<values=utf8, indices=int32, ordered=false>"},
		{"binary values as utf8", with(colValues, arrow.Field{Name: "values", Type: arrow.BinaryTypes.String}), "schema column 8 is values utf8, want values binary"},
		{"not dictionary-encoded", with(colRecvType, arrow.Field{Name: "recv_type", Type: arrow.BinaryTypes.String}), "column 6: dictionary encoding does not match the format"},
		{"dictionary where none", with(colStream, arrow.Field{Name: "stream", Type: str32}), "column 1: dictionary encoding does not match the format"},
		{"float", with(colSeq, arrow.Field{Name: "seq", Type: arrow.PrimitiveTypes.Float64}), "column 0: type 3 is not in the format"},
		{"nested", with(colValues, arrow.Field{Name: "values", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint8)}), "column 8: type 12 is not in the format"},
		{"extra column", arrow.NewSchema(append(arrowFields(), arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Uint64}), nil), "bad field list: 10 entries, at most 9"},
		{"no version", withMeta(MetaFormatVersion, ""), `schema metadata has no "rules_capture.format_version" key`},
		{"newer version", withMeta(MetaFormatVersion, "99"), fmt.Sprintf("log format version 99 is newer than this reader (version %d): upgrade rules_capture to read it", FormatVersion)},
		{"bad status", withMeta(MetaStatus, "state=done events=x"), `bad rules_capture.status: malformed status field "events=x"`},
		{"bad packages", withMeta(MetaObservedPackages, "[1"), "bad rules_capture.observed_packages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := ipc.NewWriter(&buf, ipc.WithSchema(tc.schema))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			_, err := NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "log")
			if err == nil || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrCorrupt with %q", err, tc.want)
			}
		})
	}
}
