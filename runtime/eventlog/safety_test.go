package eventlog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestCreateNeverOpensAnExistingFile: a file, a symbolic link to a file and
// a dangling symbolic link at the path are all refused, and none of them
// (nor what a link names) is touched. A new log is mode 0600.
func TestCreateNeverOpensAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	const content = "someone else's data"
	existing := filepath.Join(dir, "existing.arrows")
	if err := os.WriteFile(existing, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.arrows")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.arrows")
	if err := os.Symlink(filepath.Join(dir, "planted"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{existing, link, dangling} {
		w, err := Create(path, Meta{}, Options{})
		if err == nil {
			w.Close()
			t.Fatalf("Create(%s) succeeded", filepath.Base(path))
		}
		if !strings.Contains(err.Error(), "already exists") || !strings.Contains(err.Error(), "never overwritten") {
			t.Errorf("Create(%s): %v; want an error saying that it exists and is never overwritten", filepath.Base(path), err)
		}
	}
	for _, p := range []string{existing, target} {
		if b, err := os.ReadFile(p); err != nil || string(b) != content {
			t.Errorf("%s: %q, %v; want it untouched", filepath.Base(p), b, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "planted")); !os.IsNotExist(err) {
		t.Errorf("the dangling link's target was created (%v)", err)
	}

	path := filepath.Join(dir, "new.arrows")
	w, err := Create(path, Meta{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(&Event{Kind: KindCallIn, Site: "s"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("a new log has mode %v, want 0600", perm)
	}
}

// TestSecondWriterRefused: while a writer has a log, a second Create of the
// same path fails and says that a live process (this one) writes it; the
// first writer's log is whole.
func TestSecondWriterRefused(t *testing.T) {
	if !lockingWorks(t) {
		t.Skip("no flock on this platform")
	}
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{FlushInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "s"})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if live, pid := Live(path); !live || pid != uint64(os.Getpid()) {
		t.Errorf("Live = %v, pid %d; want true, %d", live, pid, os.Getpid())
	}
	w2, err := Create(path, Meta{}, Options{})
	if err == nil {
		w2.Close()
		t.Fatal("a second writer was allowed")
	}
	want := fmt.Sprintf("is being written by a live process (pid %d)", os.Getpid())
	if !errors.Is(err, ErrLive) || !strings.Contains(err.Error(), want) {
		t.Errorf("second Create: %v; want ErrLive, %q", err, want)
	}
	for i := 0; i < 100; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "s"})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if live, _ := Live(path); live {
		t.Error("Live after Close")
	}
	if n, st := readLog(t, path); n != 200 || !st.Complete() {
		t.Errorf("read %d events, status %+v; want 200, complete", n, st)
	}
}

// TestCompactRefusesLiveLog: compacting a log in place while its writer
// runs would leave the writer writing into the replaced file, its later
// events lost: Compact refuses, and the log goes on whole.
func TestCompactRefusesLiveLog(t *testing.T) {
	if !lockingWorks(t) {
		t.Skip("no flock on this platform")
	}
	path := filepath.Join(t.TempDir(), "log.arrows")
	w, err := Create(path, Meta{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "s"})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	_, err = Compact(path, path, CompactOptions{})
	want := fmt.Sprintf("%s is being written by a live process (pid %d); compact it after the process ends", path, os.Getpid())
	if !errors.Is(err, ErrLive) || !strings.Contains(err.Error(), want) {
		t.Fatalf("Compact of a live log: %v; want %q", err, want)
	}
	for i := 0; i < 50; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "s"})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if n, st := readLog(t, path); n != 100 || !st.Complete() {
		t.Errorf("read %d events, status %+v; want 100, complete", n, st)
	}
	if _, err := Compact(path, path, CompactOptions{}); err != nil {
		t.Errorf("Compact after Close: %v", err)
	}
	if n, _ := readLog(t, path); n != 100 {
		t.Errorf("compacted: %d events, want 100", n)
	}
}

// lockingWorks reports whether flock works on the test's temp directory.
func lockingWorks(t *testing.T) bool {
	path := filepath.Join(t.TempDir(), "probe")
	f, err := createFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return locked(path)
}

// readLog reads the log at path, failing the test on corruption, and
// returns the number of events and the status.
func readLog(t *testing.T, path string) (int, Status) {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d events: %v", n, err)
		}
		n++
	}
	return n, r.Meta().Status
}

// fullDisk is a log file on a disk with room up to limit bytes (no limit
// when 0): a write past it writes what fits and fails with ENOSPC, as
// write(2) does (a short write, then ENOSPC). Overwriting in place (the
// status) needs no room.
type fullDisk struct {
	logFile
	limit  atomic.Int64
	writes atomic.Int64 // failed writes
	mu     sync.Mutex
	size   int64
}

func (d *fullDisk) WriteAt(b []byte, off int64) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	end := off + int64(len(b))
	if lim := d.limit.Load(); lim > 0 && end > max(lim, d.size) {
		room := max(max(lim, d.size)-off, 0)
		n, _ := d.logFile.WriteAt(b[:room], off)
		d.size = max(d.size, off+int64(n))
		d.writes.Add(1)
		return n, &os.PathError{Op: "write", Path: "log", Err: syscall.ENOSPC}
	}
	n, err := d.logFile.WriteAt(b, off)
	d.size = max(d.size, off+int64(n))
	return n, err
}

func (d *fullDisk) Truncate(size int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.size = size
	return d.logFile.Truncate(size)
}

// TestDiskFullCountedAndResumed: while the disk is full, batches are lost
// (their partial writes cut off), counted in the status with the reason
// and the time it began, reported once; once there is room again the
// writer goes on, and the log reads without error.
func TestDiskFullCountedAndResumed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	var disk *fullDisk
	var warnings []string
	var warnMu sync.Mutex
	opts := Options{BatchEvents: 64, wrapFile: func(f logFile) logFile {
		disk = &fullDisk{logFile: f}
		return disk
	}, Warn: func(msg string) {
		warnMu.Lock()
		warnings = append(warnings, msg)
		warnMu.Unlock()
	}}
	w, err := Create(path, Meta{}, opts)
	if err != nil {
		t.Fatal(err)
	}
	appendN := func(n int, site string) {
		for i := 0; i < n; i++ {
			w.Append(&Event{Kind: KindCallIn, Site: site, Values: []byte(fmt.Sprintf("value %d of %s", i, site))})
		}
	}
	appendN(500, "before")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	st0, _ := os.Stat(path)
	disk.limit.Store(st0.Size() + 300) // room for a part of one batch
	before := time.Now()
	appendN(1000, "while-full")
	err = w.Flush()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Flush on a full disk: %v, want ENOSPC", err)
	}
	// The status on disk says so while the writer is still running.
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Meta().Status
	r.Close()
	if st.Lost != 1000 || st.Dropped != 1000 || st.LostWhy != "ENOSPC" || st.LostSince.Before(before.Add(-time.Second)) || st.Closed {
		t.Errorf("status while the disk is full: %+v; want lost=1000 dropped=1000 ENOSPC since the fill", st)
	}
	if n, _ := readLog(t, path); n != 500 {
		t.Errorf("read %d events while the disk is full, want 500", n)
	}
	if disk.writes.Load() < 10 {
		t.Errorf("%d writes were tried on the full disk; want every batch tried", disk.writes.Load())
	}
	disk.limit.Store(0)
	appendN(700, "after")
	if err := w.Flush(); err != nil {
		t.Fatalf("Flush once there is room: %v", err)
	}
	err = w.Close()
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "1000 events lost") {
		t.Errorf("Close: %v; want an error counting 1000 lost events, ENOSPC", err)
	}
	// The strings first used by lost batches reach the file with the next
	// batch written: every event reads back with its own.
	r, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1200; i++ {
		e, err := r.Next()
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		site, k := "before", i
		if i >= 500 {
			site, k = "after", i-500
		}
		if want := fmt.Sprintf("value %d of %s", k, site); e.Site != site || string(e.Values) != want {
			t.Fatalf("event %d: site %q, values %q; want %q, %q", i, e.Site, e.Values, site, want)
		}
	}
	r.Close()
	n, st := readLog(t, path)
	if n != 1200 || st.Events != 1200 || st.Lost != 1000 || st.Dropped != 1000 || !st.Closed || st.Complete() || st.PID != uint64(os.Getpid()) {
		t.Errorf("read %d events, status %+v; want 1200 read and written, 1000 lost, closed, pid %d", n, st, os.Getpid())
	}
	warnMu.Lock()
	defer warnMu.Unlock()
	if len(warnings) != 2 || !strings.Contains(warnings[0], "no space left on device") || !strings.Contains(warnings[1], "1000 events were lost") {
		t.Errorf("warnings: %q; want one when the losses began (no space left on device), one when they ended (1000 lost)", warnings)
	}
}

// TestDiskFullTmpfs: the same on a real full file system (a small tmpfs;
// needs root, skipped without it).
func TestDiskFullTmpfs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	filler := filepath.Join(dir, "filler")
	path := filepath.Join(dir, "log.arrows")
	var warnings atomic.Int32
	w, err := Create(path, Meta{}, Options{BatchEvents: 256, Compression: Uncompressed, Warn: func(string) { warnings.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	// Fill the disk but for a few pages.
	fill := make([]byte, 200<<10)
	if err := os.WriteFile(filler, fill, 0o600); err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatal(err)
	}
	val := make([]byte, 100)
	appended := 0
	for i := 0; i < 2000; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "tmpfs", Values: val})
		appended++
	}
	if err := w.Flush(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Flush on a full tmpfs: %v, want ENOSPC", err)
	}
	os.Remove(filler)
	for i := 0; i < 200; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "tmpfs", Values: val})
		appended++
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("Flush once there is room: %v", err)
	}
	w.Close()
	n, st := readLog(t, path)
	t.Logf("tmpfs: %d appended, %d read, status %+v", appended, n, st)
	if st.LostWhy != "ENOSPC" || st.Lost == 0 || uint64(n) != st.Events || st.Events+st.Lost != uint64(appended) || warnings.Load() != 2 {
		t.Errorf("read %d, status %+v, %d warnings; want ENOSPC losses, the rest read, 2 warnings", n, st, warnings.Load())
	}
}

// TestSizeCap: past Options.MaxBytes the log ends cleanly (end-of-stream
// marker, not torn), under the cap, and what follows is counted as lost
// with the reason.
func TestSizeCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	const limit = 64 << 10
	var warnings []string
	w, err := Create(path, Meta{}, Options{BatchEvents: 128, MaxBytes: limit, Compression: Uncompressed,
		Warn: func(msg string) { warnings = append(warnings, msg) }})
	if err != nil {
		t.Fatal(err)
	}
	const total = 5000
	for i := 0; i < total; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "s", Values: []byte(fmt.Sprintf("%040d", i))})
	}
	if err := w.Flush(); err == nil || !strings.Contains(err.Error(), "size cap") {
		t.Errorf("Flush past the cap: %v, want a size cap error", err)
	}
	// The capped log, while the writer lives, is already a whole stream.
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := r.Next(); err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
	}
	if _, torn := r.Torn(); torn {
		t.Error("the capped log of a live writer is torn; want its end-of-stream marker written")
	}
	r.Close()
	err = w.Close()
	if err == nil || !strings.Contains(err.Error(), "size cap") {
		t.Errorf("Close: %v, want a size cap error", err)
	}
	fi, _ := os.Stat(path)
	n, st := readLog(t, path)
	t.Logf("cap %d: %d bytes, %d events, status %+v", limit, fi.Size(), n, st)
	if fi.Size() > limit || fi.Size() < limit/2 {
		t.Errorf("log of %d bytes, cap %d", fi.Size(), limit)
	}
	if n == 0 || uint64(n) != st.Events || st.Lost != total-uint64(n) || st.Dropped != st.Lost || st.LostWhy != "size_cap" || !st.Closed {
		t.Errorf("read %d, status %+v; want the rest lost to size_cap", n, st)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "size cap") {
		t.Errorf("warnings %q: want one about the size cap", warnings)
	}
}

// stallingDisk makes the first write after stall is set take d.
type stallingDisk struct {
	logFile
	stall atomic.Bool
	d     time.Duration
}

func (s *stallingDisk) WriteAt(b []byte, off int64) (int, error) {
	if s.stall.CompareAndSwap(true, false) {
		time.Sleep(s.d)
	}
	return s.logFile.WriteAt(b, off)
}

// TestStalledWriterLatency: 8 goroutines make a paced "request" each
// millisecond (10 Appends) while the writer's disk stalls for 1 s. The
// latency of a request is counted from when it was due (so requests held
// up behind a blocked one count too, as a service's callers would see it).
// With Drop, the p99 stays that of an unstalled writer; with Block it is
// most of the stall.
func TestStalledWriterLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 4 s")
	}
	run := func(policy Backpressure, stall bool) (p50, p99 time.Duration, st Status) {
		path := filepath.Join(t.TempDir(), "log.arrows")
		var disk *stallingDisk
		w, err := Create(path, Meta{}, Options{Policy: policy, BatchEvents: 256, FlushInterval: 5 * time.Millisecond,
			wrapFile: func(f logFile) logFile { disk = &stallingDisk{logFile: f, d: time.Second}; return disk },
			Warn:     func(string) {}})
		if err != nil {
			t.Fatal(err)
		}
		dur := 300 * time.Millisecond
		if stall {
			dur = 1300 * time.Millisecond
			time.AfterFunc(100*time.Millisecond, func() { disk.stall.Store(true) })
		}
		const goroutines, perRequest = 8, 10
		const interval = time.Millisecond
		var mu sync.Mutex
		var lat []time.Duration
		start := time.Now()
		var wg sync.WaitGroup
		for g := 0; g < goroutines; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []time.Duration
				e := Event{Kind: KindCallIn, Stream: uint32(g), Site: "example.com/shop.Quote", Pos: "quote.go:1"}
				val := []byte("0123456789abcdef")
				for i := 0; ; i++ {
					due := start.Add(time.Duration(i) * interval)
					if due.Sub(start) > dur {
						break
					}
					if d := time.Until(due); d > 0 {
						time.Sleep(d)
					}
					for j := 0; j < perRequest; j++ {
						e.Values = val
						w.Append(&e)
					}
					mine = append(mine, time.Since(due))
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			}()
		}
		wg.Wait()
		w.Close()
		_, st = readLog(t, path)
		slices.Sort(lat)
		return lat[len(lat)/2], lat[len(lat)*99/100], st
	}
	type result struct {
		p50, p99 time.Duration
		st       Status
	}
	measure := func(name string, policy Backpressure, stall bool) result {
		p50, p99, st := run(policy, stall)
		t.Logf("%-12s request latency p50 %v p99 %v; events %d, dropped %d, blocked %d", name, p50, p99, st.Events, st.Dropped, st.Blocked)
		return result{p50, p99, st}
	}
	measure("drop", Drop, false)
	measure("block", Block, false)
	blockStall := measure("block+stall", Block, true)
	if blockStall.p99 < 500*time.Millisecond || blockStall.st.Dropped != 0 {
		t.Errorf("with Block, p99 %v and %d dropped; want callers held up by the stall and nothing dropped", blockStall.p99, blockStall.st.Dropped)
	}
	// A busy machine (other tests, the race detector) delays requests
	// too, stall or not: a bound far below the stall, and another try.
	for try := 1; ; try++ {
		dropStall := measure("drop+stall", Drop, true)
		if dropStall.st.Dropped == 0 {
			t.Fatalf("drop+stall dropped nothing: the stall did not fill the buffers")
		}
		if dropStall.p99 < 200*time.Millisecond {
			break
		}
		if try == 3 {
			t.Errorf("with Drop, a 1 s stall of the writer gives requests a p99 of %v; want it bounded (under 200 ms)", dropStall.p99)
			break
		}
	}
}

// TestDiskFullAtClose: when not even the end-of-stream marker fits, the
// log says open (it reads as torn, up to its last batch) rather than done
// (which would read as cut after it was closed), and counts the loss.
func TestDiskFullAtClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	var disk *fullDisk
	w, err := Create(path, Meta{}, Options{Warn: func(string) {}, wrapFile: func(f logFile) logFile {
		disk = &fullDisk{logFile: f}
		return disk
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "s"})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	disk.limit.Store(fi.Size()) // full
	for i := 0; i < 50; i++ {
		w.Append(&Event{Kind: KindCallIn, Site: "s"})
	}
	if err := w.Close(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Close on a full disk: %v, want ENOSPC", err)
	}
	n, st := readLog(t, path)
	if n != 100 || st.Closed || st.Lost != 50 || st.Dropped != 50 || st.LostWhy != "ENOSPC" {
		t.Errorf("read %d events, status %+v; want 100, open, 50 lost to ENOSPC", n, st)
	}
}

// TestFlushWithinStalledDisk: with the Drop policy, a flush while the disk
// stalls (a panic leaving observed code flushes) returns after its bound,
// and other goroutines' Appends go on meanwhile instead of waiting behind
// the flush for a free batch; once the disk answers, a flush completes.
func TestFlushWithinStalledDisk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.arrows")
	var disk *stallingDisk
	w, err := Create(path, Meta{}, Options{Policy: Drop, BatchEvents: 16, Buffers: 2, FlushInterval: time.Hour,
		wrapFile: func(f logFile) logFile { disk = &stallingDisk{logFile: f, d: 1500 * time.Millisecond}; return disk },
		Warn:     func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	disk.stall.Store(true)
	// Fill every batch: the first goes to the stalled disk, the second
	// waits behind it, later events are dropped.
	for i := 0; i < 100; i++ {
		w.Append(&Event{Stream: 1, Kind: KindCallIn, Site: "s"})
	}
	start := time.Now()
	appended := make(chan time.Duration, 1)
	go func() {
		time.Sleep(50 * time.Millisecond)
		t0 := time.Now()
		for i := 0; i < 100; i++ {
			w.Append(&Event{Stream: 2, Kind: KindCallIn, Site: "s"})
		}
		appended <- time.Since(t0)
	}()
	if err := w.FlushWithin(300 * time.Millisecond); !errors.Is(err, ErrFlushTimeout) {
		t.Errorf("FlushWithin during a 1.5 s stall: %v, want ErrFlushTimeout", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("FlushWithin(300ms) took %v", took)
	}
	if a := <-appended; a > 500*time.Millisecond {
		t.Errorf("100 Appends during the flush took %v: they waited for the stalled disk", a)
	}
	if err := w.FlushWithin(10 * time.Second); err != nil {
		t.Errorf("FlushWithin after the stall: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the flush after the stall ended %v after the first", took)
	}
}
