package eventlog

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

func TestCompact(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "log.arrows")
	writeLog(t, src, 5000, Options{BatchEvents: 300})
	dst := filepath.Join(dir, "log.arrow")
	res, err := Compact(dst, src, CompactOptions{BatchEvents: 2048})
	if err != nil {
		t.Fatal(err)
	}
	if res.Events != 5000 || res.Torn || res.Bytes <= 0 {
		t.Fatalf("result %+v", res)
	}
	want, r1 := readAll(t, src)
	r1.Close()
	got, r2 := readAll(t, dst)
	defer r2.Close()
	if !reflect.DeepEqual(got, want) {
		t.Fatal("compacted events differ from the source")
	}
	if m1, m2 := r1.Meta(), r2.Meta(); m2.RunID != m1.RunID || !reflect.DeepEqual(m2.ObservedPackages, m1.ObservedPackages) || !m2.Status.Closed || m2.Status.Events != 5000 {
		t.Fatalf("meta %+v, source %+v", m2, m1)
	}
	if _, torn := r2.Torn(); torn {
		t.Error("compacted log reported torn")
	}
	// A compacted log compacts again to the same events.
	again := filepath.Join(dir, "again.arrow")
	if _, err := Compact(again, dst, CompactOptions{}); err != nil {
		t.Fatal(err)
	}
	got2, r3 := readAll(t, again)
	r3.Close()
	if !reflect.DeepEqual(got2, want) {
		t.Fatal("re-compacted events differ")
	}

	// Arrow's own file reader (footer, blocks, dictionaries) agrees.
	f, err := os.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fr, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	if fr.NumRecords() != 3 {
		t.Errorf("footer lists %d batches, want 3", fr.NumRecords())
	}
	rows := 0
	for i := 0; i < fr.NumRecords(); i++ {
		rec, err := fr.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		sites := rec.Column(colSite).(*array.Dictionary)
		dict := sites.Dictionary().(*array.String)
		for j := 0; j < int(rec.NumRows()); j++ {
			if s := dict.Value(sites.GetValueIndex(j)); s != want[rows+j].Site {
				t.Fatalf("row %d: arrow reads site %q, want %q", rows+j, s, want[rows+j].Site)
			}
		}
		rows += int(rec.NumRows())
	}
	if rows != 5000 {
		t.Errorf("arrow read %d rows", rows)
	}
	if v, _ := fr.Schema().Metadata().GetValue(MetaRunID); v != r1.Meta().RunID {
		t.Errorf("footer schema run id %q", v)
	}
}

func TestCompactTornLog(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "log.arrows")
	writeLog(t, src, 1000, Options{BatchEvents: 100, FlushInterval: time.Hour}) // exact batches of 100
	b, _ := os.ReadFile(src)
	// Killed inside the last batch: status open (a closed log cut short
	// is an error), the file cut there.
	b = asKilled(t, b)
	os.WriteFile(src, b[:len(b)-50], 0o644)
	dst := filepath.Join(dir, "log.arrow")
	res, err := Compact(dst, src, CompactOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Torn || res.Events != 900 {
		t.Fatalf("result %+v, want 900 events from a torn log", res)
	}
	got, r := readAll(t, dst)
	defer r.Close()
	if len(got) != 900 || got[899].Seq != 900 {
		t.Fatalf("read %d events", len(got))
	}
}
