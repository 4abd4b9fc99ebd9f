package value

import (
	"encoding/binary"
	"io"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

type ablateOpts struct {
	intern, dropIDs, dropViews, dropTimes, dropStrings, dropTags, compactTimes bool
}

type ablateWriter struct {
	o     ablateOpts
	names map[string]int
	cat   map[string]int
}

func (w *ablateWriter) name(out []byte, d *Decoder) []byte {
	s := d.name()
	w.cat["type names"] += len(s) + 1
	if w.o.intern {
		if i, ok := w.names[s]; ok {
			return binary.AppendUvarint(out, uint64(i+1)<<1|1)
		}
		w.names[s] = len(w.names)
	}
	return appendName(out, s)
}

func (w *ablateWriter) one(out []byte, d *Decoder) []byte {
	start := d.Off
	tag := d.byte()
	if d.Err != nil {
		return out
	}
	w.cat["tags"]++
	if !w.o.dropTags {
		out = append(out, tag)
	}
	copied := func() []byte { return append(out, d.Buf[start+1:d.Off]...) }
	switch tag {
	case TagNil, TagFalse, TagTrue, TagTruncated:
		return out
	case TagInt:
		d.varint()
		w.cat["int"] += d.Off - start - 1
		return copied()
	case TagUint:
		d.uvarint()
		w.cat["int"] += d.Off - start - 1
		return copied()
	case TagFloat:
		d.raw(8)
		return copied()
	case TagComplex:
		d.raw(16)
		return copied()
	case TagString, TagBytes:
		d.name()
		w.cat["string"] += d.Off - start - 1
		if w.o.dropStrings {
			return out
		}
		return copied()
	case TagSentinel, TagReflectType:
		d.name()
		w.cat["sentinel"] += d.Off - start - 1
		return copied()
	case TagRedacted:
		d.raw(RedactHashLen)
		return copied()
	case TagRef, TagObject:
		out = w.name(out, d)
		s := d.Off
		d.uvarint()
		w.cat["objid"] += d.Off - s
		if !w.o.dropIDs {
			out = append(out, d.Buf[s:d.Off]...)
		}
		if tag == TagObject {
			return w.one(out, d)
		}
		return out
	case TagOpaque:
		out = w.name(out, d)
		d.name()
		return out
	case TagTime:
		s := d.Off
		d.varint()
		d.uvarint()
		d.name()
		d.varint()
		if d.byte() == 1 {
			d.uvarint()
			d.varint()
		}
		w.cat["time"] += d.Off - s
		if w.o.dropTimes {
			return out
		}
		if w.o.compactTimes {
			d2 := &Decoder{Buf: d.Buf, Off: s}
			d2.varint()  // seconds
			d2.uvarint() // nanoseconds
			zs := d2.Off
			d2.name()
			d2.varint()
			ze := d2.Off
			if d2.byte() == 1 {
				ws := d2.Off
				d2.uvarint()
				d2.varint()
				out[len(out)-1] = numTags // a tag of its own
				out = append(out, d.Buf[zs:ze]...)
				return append(out, d.Buf[ws:d2.Off]...)
			}
		}
		return copied()
	case TagImplements:
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			out = w.name(out, d)
		}
		return w.one(out, d)
	case TagTypedError, TagIface:
		out = w.name(out, d)
		return w.one(out, d)
	case TagList, TagRecord, TagStruct:
		if tag == TagStruct {
			out = w.name(out, d)
		}
		s := d.Off
		n := d.count()
		w.cat["count"] += d.Off - s
		out = append(out, d.Buf[s:d.Off]...)
		for i := 0; i < n && d.Err == nil; i++ {
			out = w.one(out, d)
		}
		return out
	case TagMap:
		s := d.Off
		n := d.count()
		out = append(out, d.Buf[s:d.Off]...)
		for i := 0; i < 2*n && d.Err == nil; i++ {
			out = w.one(out, d)
		}
		return out
	case TagExported:
		n := d.count()
		out = binary.AppendUvarint(out, uint64(n))
		for i := 0; i < n && d.Err == nil; i++ {
			s := d.Off
			d.name()
			w.cat["fieldname"] += d.Off - s
			out = append(out, d.Buf[s:d.Off]...)
			out = w.one(out, d)
		}
		return out
	case TagError:
		out = w.name(out, d)
		s := d.Off
		d.name()
		w.cat["errmsg"] += d.Off - s
		out = append(out, d.Buf[s:d.Off]...)
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			d.name()
		}
		n := d.count()
		for i := 0; i < n && d.Err == nil; i++ {
			out = w.one(out, d)
		}
		return out
	case TagView:
		s := d.Off
		d.uvarint()
		d.uvarint()
		w.cat["view"] += d.Off - s + 1
		if !w.o.dropViews {
			out = append(out, d.Buf[s:d.Off]...)
		}
		return w.one(out, d)
	case TagAt:
		d.uvarint()
		d.uvarint()
		d.uvarint()
		return w.one(copied(), d)
	case TagReflectValue:
		f := d.byte()
		out = append(out, f)
		if f&1 != 0 {
			out = w.name(out, d)
			return w.one(out, d)
		}
		return out
	}
	d.fail("tag %d", tag)
	return out
}

func ablateCompress(vals [][]byte, batch int, enc *zstd.Encoder) int {
	total := 0
	var buf, dst []byte
	for i := 0; i < len(vals); i += batch {
		buf = buf[:0]
		for _, v := range vals[i:min(i+batch, len(vals))] {
			buf = append(buf, v...)
		}
		dst = enc.EncodeAll(buf, dst[:0])
		total += len(dst) + 8
	}
	return total
}

// TestLogSizeAblation measures what each part of a log's values costs once
// compressed, by rewriting the values without it (or, for type names,
// with each name written once per log and then referred to by number, and
// for times with a monotonic reading, without the seconds and nanoseconds
// that Go's wall and ext fields repeat) and compressing them again as the
// capture (zstd level 1, no entropy coding of the literals, batches of
// 256-4096 events) and capture compact (level 4, batches of 16384) do.
// It decides whether a value-format change is worth making: lab/log-size.md
// has the example shop's numbers.
//
//	CAPTURE_ABLATE_LOG=shop.arrow go test -run TestLogSizeAblation -v ./runtime/value
func TestLogSizeAblation(t *testing.T) {
	path := os.Getenv("CAPTURE_ABLATE_LOG")
	if path == "" {
		t.Skip()
	}
	var raw [][]byte
	r, err := eventlog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, append([]byte(nil), e.Values...))
	}
	r.Close()
	common := []zstd.EOption{zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1 << 20), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false)}
	capEnc, _ := zstd.NewWriter(nil, append(common, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithNoEntropyCompression(true))...)
	capEntEnc, _ := zstd.NewWriter(nil, append(common, zstd.WithEncoderLevel(zstd.SpeedFastest))...)
	l2, _ := zstd.NewWriter(nil, append(common, zstd.WithEncoderLevel(zstd.SpeedDefault))...)
	cmpEnc, _ := zstd.NewWriter(nil, append(common, zstd.WithEncoderLevel(zstd.SpeedBestCompression))...)
	n := float64(len(raw))
	for _, c := range []struct {
		name string
		o    ablateOpts
	}{
		{"as is", ablateOpts{}},
		{"interned type names", ablateOpts{intern: true}},
		{"no object IDs", ablateOpts{dropIDs: true}},
		{"no views", ablateOpts{dropViews: true}},
		{"no times", ablateOpts{dropTimes: true}},
		{"no strings", ablateOpts{dropStrings: true}},
		{"no tags", ablateOpts{dropTags: true}},
		{"compact times", ablateOpts{compactTimes: true}},
		{"compact times+interned", ablateOpts{compactTimes: true, intern: true}},
	} {
		w := &ablateWriter{o: c.o, names: map[string]int{}, cat: map[string]int{}}
		var vals [][]byte
		rawN := 0
		for _, v := range raw {
			d := &Decoder{Buf: v}
			var out []byte
			for d.Off < len(v) && d.Err == nil {
				out = w.one(out, d)
			}
			if d.Err != nil {
				t.Fatal(d.Err)
			}
			vals = append(vals, out)
			rawN += len(out)
		}
		t.Logf("%-24s raw %6.1f  cap(l1,noent) b256 %5.2f b1024 %5.2f b2300 %5.2f b4096 %5.2f | l1+ent b2300 %5.2f | l2 b2300 %5.2f | compact(l4,16384) %5.2f bytes/event", c.name, float64(rawN)/n,
			float64(ablateCompress(vals, 256, capEnc))/n, float64(ablateCompress(vals, 1024, capEnc))/n, float64(ablateCompress(vals, 2300, capEnc))/n, float64(ablateCompress(vals, 4096, capEnc))/n,
			float64(ablateCompress(vals, 2300, capEntEnc))/n, float64(ablateCompress(vals, 2300, l2))/n, float64(ablateCompress(vals, 16384, cmpEnc))/n)
		if c.name == "as is" {
			for _, k := range slices.Sorted(maps.Keys(w.cat)) {
				t.Logf("    %-10s %6.1f bytes/event uncompressed", k, float64(w.cat[k])/n)
			}
		}
	}
}
