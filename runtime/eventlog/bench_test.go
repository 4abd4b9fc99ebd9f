package eventlog

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/internal/cputime"
)

// BenchmarkWriterThroughput measures the background encoder+writer: the
// appends are cheap, so Close waiting for the encoder dominates. The
// sub-benchmarks: every batch compressed (zstd level 2 and 1), the default
// (uncompressed while the writer is behind, which it is here: one appender
// outpaces zstd), no compression.
func BenchmarkWriterThroughput(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"zstd=2", Options{ZstdLevel: 2, AlwaysCompress: true}},
		{"zstd=1", Options{ZstdLevel: 1, AlwaysCompress: true}},
		{"default", Options{}},
		{"none", Options{Compression: Uncompressed}},
	} {
		b.Run(c.name, func(b *testing.B) { benchmarkWriterThroughput(b, c.opts) })
	}
}

func benchmarkWriterThroughput(b *testing.B, opts Options) {
	path := filepath.Join(b.TempDir(), "log.arrows")
	mix := newRealisticMix(1)
	evs := make([]Event, 1<<16)
	for i := range evs {
		evs[i] = *mix.next()
	}
	w, err := Create(path, Meta{}, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		w.Append(&evs[i&(1<<16-1)])
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	// CPU time of the whole process (appender + encoder + writer) per event:
	// with -cpu 1 this is the one-core cost even when the machine is busy.
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/event")
	if st, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(st.Size())/float64(b.N), "bytes/event")
	}
}

// appendTwoInts is the recorder's hot path for a call with two int64
// arguments: encode them into a reused buffer and Append.
func appendTwoInts(w *Writer, e *Event, buf []byte, a, b int64) []byte {
	buf = binary.AppendVarint(buf[:0], a)
	buf = binary.AppendVarint(buf, b)
	e.Values = buf
	w.Append(e)
	return buf
}

func benchmarkAppend(b *testing.B, opts Options) {
	path := filepath.Join(b.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		e := Event{Kind: KindCallIn, Stream: 1, Site: "example.com/shop/pricing.Quote", Pos: "pricing/quote.go:42"}
		buf := make([]byte, 0, 32)
		i := int64(0)
		for pb.Next() {
			buf = appendTwoInts(w, &e, buf, i, i*3)
			i++
		}
	})
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAppend is the cost on the caller's goroutine, with the default
// (Block) policy: when callers outpace the background writer, Append waits,
// so this is also bounded by the writer's throughput.
func BenchmarkAppend(b *testing.B) { benchmarkAppend(b, Options{}) }

// BenchmarkAppendCaller is the cost on the caller's goroutine alone: the
// background writer is held back while the timer runs (it would otherwise
// share the CPUs with the callers and, when they outpace it, make them wait:
// that is BenchmarkAppend). Events are appended in rounds that fit in the
// writer's buffers; between rounds the timer stops while Flush drains them.
// Sub-benchmarks append from 1 and from 8 goroutines, and from one per P
// (goroutines=procs: run with -cpu 1,2,4,8,16 to see how the cost per event
// scales with the cores appending).
func BenchmarkAppendCaller(b *testing.B) {
	for _, goroutines := range []int{1, 8, 0} {
		name := fmt.Sprintf("goroutines=%d", goroutines)
		if goroutines == 0 {
			name, goroutines = "goroutines=procs", runtime.GOMAXPROCS(0)
		}
		b.Run(name, func(b *testing.B) {
			const buffers, batch = 32, 16384
			round := (buffers - 2) * batch
			path := filepath.Join(b.TempDir(), "log.arrows")
			w, err := Create(path, Meta{}, Options{Buffers: buffers, BatchEvents: batch, FlushInterval: time.Hour})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var cpu time.Duration // CPU time of the rounds: robust on a busy machine
			for done := 0; done < b.N; {
				n := min(round, b.N-done)
				w.encodeGate.Lock()
				cpu0 := cputime.Process()
				var wg sync.WaitGroup
				for g := 0; g < goroutines; g++ {
					per := n / goroutines
					if g == 0 {
						per += n % goroutines
					}
					wg.Add(1)
					go func() {
						defer wg.Done()
						e := Event{Kind: KindCallIn, Stream: uint32(g), Site: "example.com/shop/pricing.Quote", Pos: "pricing/quote.go:42"}
						buf := make([]byte, 0, 32)
						for i := 0; i < per; i++ {
							buf = appendTwoInts(w, &e, buf, int64(i), int64(i)*3)
						}
					}()
				}
				wg.Wait()
				cpu += cputime.Process() - cpu0
				done += n
				b.StopTimer()
				w.encodeGate.Unlock()
				if err := w.Flush(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.StopTimer()
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/event")
			if st := w.blocked.Load(); st != 0 {
				b.Fatalf("%d appends blocked: the rounds do not fit in the buffers", st)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkLogSize writes a realistic mix and reports the file size per
// event while capturing (bytes/event, at each zstd level, full batches) and
// after compaction (compacted-bytes/event). The time is the whole write
// path including generating the mix.
func BenchmarkLogSize(b *testing.B) {
	for level := 1; level <= 4; level++ {
		b.Run(fmt.Sprintf("zstd=%d", level), func(b *testing.B) {
			// AlwaysCompress: the appends outpace the encoder, which would
			// otherwise write batches uncompressed to catch up.
			benchmarkLogSize(b, Options{ZstdLevel: level, FlushInterval: time.Hour, AlwaysCompress: true})
		})
	}
}

func benchmarkLogSize(b *testing.B, opts Options) {
	path := filepath.Join(b.TempDir(), "log.arrows")
	w, err := Create(path, Meta{ObservedPackages: []string{"example.com/shop/pricing"}}, opts)
	if err != nil {
		b.Fatal(err)
	}
	mix := newRealisticMix(1)
	for i := 0; i < b.N; i++ {
		w.Append(mix.next())
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Size())/float64(b.N), "bytes/event")
	res, err := Compact(path+".compact", path, CompactOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(res.Bytes)/float64(b.N), "compacted-bytes/event")
}

// BenchmarkReader reads a log of the realistic mix; ns/op is per event.
// peak-heap-MB samples the live heap after every batch: it stays flat as
// the log grows (one batch and the dictionaries are in memory at a time).
func BenchmarkReader(b *testing.B) {
	for _, n := range []int{100_000, 2_000_000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "log.arrows")
			w, err := Create(path, Meta{}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			mix := newRealisticMix(2)
			for i := 0; i < n; i++ {
				w.Append(mix.next())
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			var ms runtime.MemStats
			var peak uint64
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cputime.Process()
			read := 0
			for read < b.N {
				r, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				for read < b.N {
					e, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					read++
					if r.row == r.rows && read%4 == 0 { // last event of a batch
						b.StopTimer()
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapAlloc)
						b.StartTimer()
					}
					_ = e
				}
				r.Close()
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/event")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// BenchmarkEncoder is the background half alone: dictionary encoding,
// compression and the write of full batches of the realistic mix, on the
// benchmark's goroutine (one core), at each compression setting. ns/op is
// per event.
func BenchmarkEncoder(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"zstd=2", Options{ZstdLevel: 2}},
		{"zstd=1", Options{ZstdLevel: 1}},
		{"none", Options{Compression: Uncompressed}},
	} {
		b.Run(c.name, func(b *testing.B) { benchmarkEncoder(b, c.opts) })
	}
}

func benchmarkEncoder(b *testing.B, opts Options) {
	f, err := os.Create(filepath.Join(b.TempDir(), "log.arrows"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	opts.fill()
	s, err := newSink(f, f.Name(), Meta{}, opts)
	if err != nil {
		b.Fatal(err)
	}
	const rows = 16384
	mix := newRealisticMix(3)
	batches := make([]*batch, 8)
	for i := range batches {
		bt := newBatch(rows, 1<<20)
		for j := 0; j < rows; j++ {
			e := mix.next()
			e.Seq = uint64(i*rows + j + 1)
			bt.n++
			off := bt.valsUsed
			bt.valsUsed += len(e.Values)
			bt.stage(j, off, e)
		}
		batches[i] = bt
	}
	b.ResetTimer()
	cpu := cputime.Process()
	for done, i := 0, 0; done < b.N; done, i = done+rows, i+1 {
		if err := s.write(batches[i%len(batches)], Status{}, false); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/event")
	st, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Size())/float64(s.events), "bytes/event")
}

// BenchmarkShortLog is the fixed cost of one short log, as a test process
// under `capture test` pays it: Create, 0, 100 or 300 events, Close (100
// sample events are a small log, written uncompressed; 300 are 17 KB of
// data, just over smallLogBytes). It used to be dominated by allocating
// every batch up front (megabytes) and an fsync at Close. cpu-ns/op
// includes the writer's goroutines.
func BenchmarkShortLog(b *testing.B) {
	for _, events := range []int{0, 100, 300} {
		b.Run(fmt.Sprintf("events=%d", events), func(b *testing.B) {
			dir := b.TempDir()
			b.ReportAllocs()
			cpu := cputime.Process()
			n := 0
			for i := 0; b.Loop(); i++ {
				n++
				w, err := Create(filepath.Join(dir, fmt.Sprintf("log%d.arrows", i)), Meta{}, Options{}) // a new file each time: Create never overwrites
				if err != nil {
					b.Fatal(err)
				}
				for j := 0; j < events; j++ {
					e := sampleEvent(j)
					w.Append(&e)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(n), "cpu-ns/op")
		})
	}
}

// shopEvents reads the events of testdata/shop_v11.arrow: a log of the
// example shop's capture build (`capture build`, format 11) under its load
// generator (`loadgen -n 400 -warmup 0 -seed 1`, 8 workers; `capture
// compact`ed): real sites, values and receivers, ~90 bytes of values per
// event (slices as views, object IDs, times with their monotonic reading),
// unlike the realistic mix's few scalars. (testdata/shop.arrow, a copy of
// examples/shop/testdata/capture/shop_seed1.arrow, holds value format 1:
// ~265 bytes of values per event, which overstates the writer's work.)
func shopEvents(tb testing.TB) []Event {
	r, err := Open(filepath.Join("testdata", "shop_v11.arrow"))
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	var evs []Event
	for {
		e, err := r.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			tb.Fatal(err)
		}
		c := *e
		c.Values = append([]byte(nil), e.Values...)
		evs = append(evs, c)
	}
}

// BenchmarkEncoderShop is the background writer's CPU per event for the
// shop's events, in batches of the sizes a running service produces: a busy
// service fills 16384-event batches, one at a few thousand requests per
// second gets a batch per FlushInterval (100 ms: ~1000-4000 events), a
// quiet one smaller batches. cpu-ns/event is the process's CPU time (the
// benchmark's goroutine does the writer's work: transposing, dictionary
// encoding, compressing, writing, the status update) per event.
func BenchmarkEncoderShop(b *testing.B) {
	evs := shopEvents(b)
	// Batches up to 4096 events: larger ones would repeat the 4672-event
	// log within a batch, which zstd compresses unrealistically well. The
	// shop's closed loop writes ~2000-4000 events per FlushInterval.
	for _, rows := range []int{256, 1024, 2048, 4096} {
		b.Run(fmt.Sprintf("batch=%d", rows), func(b *testing.B) {
			f, err := os.Create(filepath.Join(b.TempDir(), "log.arrows"))
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			opts := Options{}
			opts.fill()
			s, err := newSink(f, f.Name(), Meta{}, opts)
			if err != nil {
				b.Fatal(err)
			}
			batches := make([]*batch, 4)
			k := 0
			for i := range batches {
				bt := newBatch(rows, 16<<20)
				for j := 0; j < rows; j++ {
					e := evs[k%len(evs)]
					k++
					e.Seq = uint64(i*rows + j + 1)
					bt.n++
					off := bt.valsUsed
					bt.valsUsed += len(e.Values)
					bt.stage(j, off, &e)
				}
				batches[i] = bt
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cputime.Process()
			done := 0
			for i := 0; done < b.N; i++ {
				if err := s.write(batches[i%len(batches)], Status{}, false); err != nil {
					b.Fatal(err)
				}
				done += rows
			}
			b.StopTimer()
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(done), "cpu-ns/event")
			st, err := f.Stat()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(st.Size())/float64(s.events), "bytes/event")
		})
	}
}

// BenchmarkSeqColumn compares the two ways the writer can compress a
// batch's seq column (2048 dense rows): zstd's match search at the
// capture-time settings, and appendSeqFrame. ns/op is per row.
func BenchmarkSeqColumn(b *testing.B) {
	col := make([]uint64, 2048)
	for i := range col {
		col[i] = uint64(100000 + i)
	}
	enc, err := newIPCEncoder(Zstd, 1, true)
	if err != nil {
		b.Fatal(err)
	}
	enc.startMessage()
	var dst []byte
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"zstd", func() { dst = enc.zstd.EncodeAll(uint64Bytes(col), dst[:0]) }},
		{"seqframe", func() { dst = appendSeqFrame(dst[:0], col) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				c.f()
				n++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*len(col)), "ns/row")
			b.ReportMetric(float64(len(dst))/float64(len(col)), "bytes/row")
		})
	}
}
