package minimize

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	"github.com/rules-capture/rules_capture/runtime/value"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// ddmin over 200 items where the failure needs items 17 and 123: the
// result is exactly those two, in a number of tests far below 2^200.
func TestDDMin(t *testing.T) {
	items := make([]int, 200)
	for i := range items {
		items[i] = i
	}
	tests := 0
	got, err := ddmin(items, func(c []int) (Outcome, error) {
		tests++
		if slices.Contains(c, 17) && slices.Contains(c, 123) {
			return FailSame, nil
		}
		if len(c)%7 == 3 {
			return Unresolved, nil // unresolved candidates are neither
		}
		return Pass, nil
	}, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{17, 123}) {
		t.Fatalf("ddmin = %v, want [17 123]", got)
	}
	if tests > 200 {
		t.Errorf("ddmin ran %d tests for 2 of 200", tests)
	}
	t.Logf("%d tests", tests)
}

// A failure that needs nothing but the fixed units reduces to nothing; an
// error (the time limit) returns the smallest failing set so far.
func TestDDMinEdges(t *testing.T) {
	got, err := ddmin([]int{1, 2, 3}, func([]int) (Outcome, error) { return FailSame, nil }, func(int) {})
	if err != nil || len(got) != 0 {
		t.Fatalf("ddmin = %v, %v; want empty", got, err)
	}
	stop := errors.New("time")
	n := 0
	got, err = ddmin([]int{1, 2, 3, 4, 5, 6, 7, 8}, func(c []int) (Outcome, error) {
		if n++; n > 2 {
			return Unresolved, stop
		}
		if slices.Contains(c, 1) {
			return FailSame, nil
		}
		return Pass, nil
	}, func(int) {})
	if err != stop || !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("ddmin stopped = %v, %v; want [1 2], the time error", got, err)
	}
}

// synthetic writes a log of a service: package initialisation with an
// outcall, then on stream 1 incalls that share an object (a cart) and one
// on stream 2 that takes a lock and starts a goroutine, which uses the
// store (object 7) that Add later calls with a callback.
func synthetic(t *testing.T) string {
	t.Helper()
	lock := func(num, writes, reads uint64) []byte {
		b := value.AppendUint(nil, num)
		b = value.AppendUint(b, writes)
		b = value.AppendUint(b, reads)
		return value.AppendBool(b, true)
	}
	evs := []eventlog.Event{
		/* 1 */ {Stream: 0, Kind: eventlog.KindCallOut, Site: "os.Getenv", Pos: "cart/cart.go:9", Values: str("CART_REGION")},
		/* 2 */ {Stream: 0, Kind: eventlog.KindReturnOut, Parent: 1, Site: "os.Getenv", Values: str("eu")},
		/* 3 */ {Stream: 1, Kind: eventlog.KindCallIn, Site: "example.com/shop/cart.New", Pos: "cart/cart.go:20", Values: str("alice")},
		/* 4 */ {Stream: 1, Kind: eventlog.KindReturnIn, Parent: 3, Site: "example.com/shop/cart.New", RecvID: 0, Values: value.AppendUint(nil, 0)},
		/* 5 */ {Stream: 2, Kind: eventlog.KindCallIn, Site: "example.com/shop/cart.Flush", Pos: "cart/cart.go:40"},
		/* 6 */ {Stream: 2, Kind: eventlog.KindLockTurn, Parent: 5, Site: "mu.Lock", Pos: "cart/cart.go:41", Values: lock(1, 1, 0)},
		/* 7 */ {Stream: 2, Kind: eventlog.KindGo, Parent: 5, Site: "go flushOne", Pos: "cart/cart.go:42", Values: value.AppendUint(nil, 3)},
		/* 8 */ {Stream: 3, Kind: eventlog.KindCallOut, Parent: 0, Site: "(*database/sql.DB).Exec", Pos: "cart/cart.go:50", RecvType: "*database/sql.DB", RecvID: 7, Values: str("DELETE")},
		/* 9 */ {Stream: 3, Kind: eventlog.KindReturnOut, Parent: 8, Site: "(*database/sql.DB).Exec", Values: str("ok")},
		/* 10 */ {Stream: 2, Kind: eventlog.KindReturnIn, Parent: 5, Site: "example.com/shop/cart.Flush"},
		/* 11 */ {Stream: 1, Kind: eventlog.KindCallIn, Site: "(*example.com/shop/cart.Cart).Add", Pos: "cart/cart.go:30", RecvType: "*example.com/shop/cart.Cart", RecvID: 1, Values: str("apple")},
		/* 12 */ {Stream: 1, Kind: eventlog.KindLockTurn, Parent: 11, Site: "mu.Lock", Pos: "cart/cart.go:31", Values: lock(1, 2, 0)},
		/* 13 */ {Stream: 1, Kind: eventlog.KindCallOut, Parent: 11, Site: "(*example.com/shop/store.DB).Each", Pos: "cart/cart.go:33", RecvType: "*example.com/shop/store.DB", RecvID: 7},
		/* 14 */ {Stream: 1, Kind: eventlog.KindCallIn, Parent: 13, Site: "example.com/shop/cart.less", Pos: "cart/cart.go:34", Values: value.AppendInt(value.AppendInt(nil, 0), 1)},
		/* 15 */ {Stream: 1, Kind: eventlog.KindReturnIn, Parent: 14, Site: "example.com/shop/cart.less", Values: value.AppendBool(nil, true)},
		/* 16 */ {Stream: 1, Kind: eventlog.KindReturnOut, Parent: 13, Site: "(*example.com/shop/store.DB).Each"},
		/* 17 */ {Stream: 1, Kind: eventlog.KindReturnIn, Parent: 11, Site: "(*example.com/shop/cart.Cart).Add", Values: value.AppendInt(nil, 1)},
	}
	return writeSynthetic(t, "synthetic.arrow", "example.com/shop/cart", "00000000000000000000000000000001", evs)
}

// writeSynthetic writes evs as the log name of a run (runID) that observed
// the package observed, in a fresh folder, and returns its path.
func writeSynthetic(t *testing.T, name, observed, runID string, evs []eventlog.Event) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	meta := eventlog.Meta{ObservedPackages: []string{observed}, SourceHash: "0123456789abcdef",
		GoVersion: "go1.26", StartTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), RunID: runID}
	w, err := eventlog.Create(path, meta, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		w.Append(&evs[i])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// str encodes strings as values.
func str(s ...string) []byte {
	var b []byte
	for _, x := range s {
		b = value.AppendString(b, x)
	}
	return b
}

func TestUnits(t *testing.T) {
	l, err := Read(synthetic(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Units) != 3 {
		t.Fatalf("%d units, want 3 (New, Flush with its goroutine, Add with its callback): %+v", len(l.Units), l.Units)
	}
	want := []int{-1, -1, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2}
	if !slices.Equal(l.Unit, want) {
		t.Fatalf("units of the events = %v, want %v", l.Unit, want)
	}
	if u := l.Units[1]; u.Stream != 2 || u.First != 5 || u.Last != 10 || u.Events != 6 {
		t.Errorf("Flush's unit = %+v", u)
	}
}

// A candidate that drops Flush: renumbered densely, parents follow, the
// lock turn of Add becomes the lock's first write, and the written log
// reads back with the original metadata.
func TestCandidate(t *testing.T) {
	l, err := Read(synthetic(t))
	if err != nil {
		t.Fatal(err)
	}
	c := l.Candidate([]int{0, 2})
	if len(c.Events) != 11 {
		t.Fatalf("%d events, want 11", len(c.Events))
	}
	if !slices.Equal(c.Orig, []uint64{1, 2, 3, 4, 11, 12, 13, 14, 15, 16, 17}) {
		t.Fatalf("orig = %v", c.Orig)
	}
	for i, e := range c.Events {
		if e.Seq != uint64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		if e.Parent != 0 && c.Orig[e.Parent-1] != l.Events[l.index[c.Orig[i]]].Parent {
			t.Errorf("seq %d: parent %d is orig %d, want orig %d", e.Seq, e.Parent, c.Orig[e.Parent-1], l.Events[l.index[c.Orig[i]]].Parent)
		}
	}
	d := value.Decoder{Buf: c.Events[5].Values}
	if num, w, r, acq := d.Uint(), d.Uint(), d.Uint(), d.Bool(); num != 1 || w != 1 || r != 0 || !acq {
		t.Errorf("Add's lock turn = %d %d %d %v, want 1 1 0 true", num, w, r, acq)
	}
	path := filepath.Join(t.TempDir(), "c.arrow")
	if err := c.Write(path, l.Meta); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Events) != 11 || back.Meta.RunID != l.Meta.RunID || back.Meta.SourceHash != l.Meta.SourceHash || !back.Meta.Status.Closed {
		t.Fatalf("read back: %d events, meta %+v", len(back.Events), back.Meta)
	}
}

// Slicing from Add follows the store's ID to Flush's goroutine and leaves
// New, which shares no object with either.
func TestSlices(t *testing.T) {
	l, err := Read(synthetic(t))
	if err != nil {
		t.Fatal(err)
	}
	s := l.slices(17, []int{2})
	if s[0].name != "objects" || !slices.Equal(s[0].units, []int{1, 2}) {
		t.Errorf("objects slice = %v, want Flush (its goroutine uses the store Add uses) and Add", s[0].units)
	}
	if !slices.Equal(s[2].units, []int{0, 1, 2}) {
		t.Errorf("before slice = %v", s[2].units)
	}
}

func TestListingGolden(t *testing.T) {
	l, err := Read(synthetic(t))
	if err != nil {
		t.Fatal(err)
	}
	c := l.Candidate([]int{0, 1, 2})
	f := Failure{Reason: "different results", Kind: "RETURN_IN", Site: "(*example.com/shop/cart.Cart).Add", Actual: "RETURN_IN (*example.com/shop/cart.Cart).Add(2)"}
	var b bytesBuffer
	ListingHeader(&b, l, c, &Result{Keep: []int{0, 1, 2}, Failure: f, Replays: 9, Elapsed: 1500 * time.Millisecond, Slice: "objects", Sliced: 2}, "synthetic.arrow")
	Listing(&b, l, c, 17, f)
	golden(t, "listing.txt", b.Bytes())

	r := &Repro{Package: ReproPackage(f.Site, l.Meta.ObservedPackages), Observed: l.Meta.ObservedPackages, Check: "strict",
		Test: TestName(f.Site), Log: "testdata/repro/" + TestName(f.Site) + ".arrow",
		Summary: "The log holds 3 of the 3 incalls of synthetic.arrow (17 of 17 events); its replay fails: different results at RETURN_IN (*example.com/shop/cart.Cart).Add.",
		Listing: b.String()}
	if r.FileName() != "cart_repro_test.go" || r.Test != "TestReproAdd" {
		t.Errorf("file %s, test %s", r.FileName(), r.Test)
	}
	src, err := r.Source()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "cart_repro_test.go.golden", src)
}

type bytesBuffer = bytes.Buffer

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file (go test -run %s -update rewrites it):\n%s", name, t.Name(), got)
	}
}

// syntheticPanic writes a crash log: Open and Close of a job, then Use,
// whose outcall to the pool calls back into the package, where the
// callback panics; the panic leaves the pool and then Use.
func syntheticPanic(t *testing.T) string {
	t.Helper()
	nilDeref := append(value.AppendString(nil, "runtime error: invalid memory address or nil pointer dereference"), value.AppendString(nil, "queue/queue.go:48")...)
	evs := []eventlog.Event{
		/* 1 */ {Stream: 0, Kind: eventlog.KindCallIn, Site: "example.com/jobs/queue.Submit", Pos: "queue/queue.go:26", Values: value.AppendInt(str("night-x"), 3)},
		/* 2 */ {Stream: 0, Kind: eventlog.KindCallOut, Parent: 1, Site: "time.Now", Pos: "queue/queue.go:28"},
		/* 3 */ {Stream: 0, Kind: eventlog.KindReturnOut, Parent: 2, Site: "time.Now", Values: str("09:00")},
		/* 4 */ {Stream: 0, Kind: eventlog.KindReturnIn, Parent: 1, Site: "example.com/jobs/queue.Submit", Values: value.AppendBool(nil, false)},
		/* 5 */ {Stream: 0, Kind: eventlog.KindCallIn, Site: "example.com/jobs/queue.Submit", Pos: "queue/queue.go:26", Values: value.AppendInt(str("day-y"), 1)},
		/* 6 */ {Stream: 0, Kind: eventlog.KindCallOut, Parent: 5, Site: "time.Now", Pos: "queue/queue.go:28"},
		/* 7 */ {Stream: 0, Kind: eventlog.KindReturnOut, Parent: 6, Site: "time.Now", Values: str("09:01")},
		/* 8 */ {Stream: 0, Kind: eventlog.KindReturnIn, Parent: 5, Site: "example.com/jobs/queue.Submit", Values: value.AppendBool(nil, false)},
		/* 9 */ {Stream: 0, Kind: eventlog.KindCallIn, Site: "example.com/jobs/queue.Cancel", Pos: "queue/queue.go:33", Values: str("night-x")},
		/* 10 */ {Stream: 0, Kind: eventlog.KindReturnIn, Parent: 9, Site: "example.com/jobs/queue.Cancel", Values: value.AppendBool(nil, true)},
		/* 11 */ {Stream: 0, Kind: eventlog.KindCallIn, Site: "example.com/jobs/queue.Start", Pos: "queue/queue.go:43", Values: str("night-x")},
		/* 12 */ {Stream: 0, Kind: eventlog.KindCallOut, Parent: 11, Site: "example.com/jobs/pool.Do", Pos: "queue/queue.go:48", Values: value.AppendString(nil, "func")},
		/* 13 */ {Stream: 0, Kind: eventlog.KindCallIn, Parent: 12, Site: "callback example.com/jobs/queue.Start.func1", Pos: "queue/queue.go:48", RecvType: "func() int", RecvID: 4},
		/* 14 */ {Stream: 0, Kind: eventlog.KindPanicOut, Parent: 13, Site: "callback example.com/jobs/queue.Start.func1", Pos: "queue/queue.go:48", Values: nilDeref},
		/* 15 */ {Stream: 0, Kind: eventlog.KindPanicIn, Parent: 12, Site: "example.com/jobs/pool.Do", Pos: "queue/queue.go:48", Values: nilDeref},
		/* 16 */ {Stream: 0, Kind: eventlog.KindPanicOut, Parent: 11, Site: "example.com/jobs/queue.Start", Pos: "queue/queue.go:43", Values: nilDeref},
	}
	return writeSynthetic(t, "crash.arrow", "example.com/jobs/queue", "00000000000000000000000000000002", evs)
}

// The recorded panic is Start's, followed back through the pool to the
// callback that raised it; a candidate's replay that passes reproduces it,
// one that diverges inside Start shows it gone, one that diverges before
// tells nothing.
func TestRecordedPanic(t *testing.T) {
	l, err := Read(syntheticPanic(t))
	if err != nil {
		t.Fatal(err)
	}
	f, seq, ok := l.RecordedPanic()
	if !ok || seq != 14 || f.PanicCall != 11 || f.PanicEnd != 16 || !f.Panic || f.Kind != "PANIC_OUT" ||
		f.Site != "callback example.com/jobs/queue.Start.func1" || f.Pos != "queue/queue.go:48" ||
		f.Actual != `"runtime error: invalid memory address or nil pointer dereference"` {
		t.Fatalf("RecordedPanic = %+v, %d, %v", f, seq, ok)
	}
	c := l.Candidate([]int{0, 2, 3}) // without day-y's Submit
	if got := c.SeqOf(11); got != 7 || c.SeqOf(5) != 0 {
		t.Errorf("SeqOf(11) = %d, SeqOf(5) = %d; want 7, 0", got, c.SeqOf(5))
	}
	for _, tc := range []struct {
		rep  probectl.Report
		want Outcome
	}{
		{probectl.Report{Verdict: probectl.Pass}, FailSame},
		{probectl.Report{Verdict: "diverged", Divergence: &probectl.Divergence{Seq: 8, Reason: "the incall returned before the log's next event"}}, Pass},
		{probectl.Report{Verdict: "diverged", Divergence: &probectl.Divergence{Seq: 10, Reason: "the incall returned where the capture panicked"}}, Pass},
		{probectl.Report{Verdict: "diverged", Divergence: &probectl.Divergence{Seq: 6, Reason: "different results"}}, Unresolved},
		{probectl.Report{Verdict: "diverged", Divergence: &probectl.Divergence{Seq: 0, Reason: "the replayed program crashed"}}, Unresolved},
	} {
		r := &Replayer{}
		if got := r.classify(&tc.rep, l, c, f); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.rep.Divergence, got, tc.want)
		}
	}
}

func TestPanicReproGolden(t *testing.T) {
	l, err := Read(syntheticPanic(t))
	if err != nil {
		t.Fatal(err)
	}
	f, seq, _ := l.RecordedPanic()
	keep := []int{0, 2, 3}
	c := l.Candidate(keep)
	var b bytes.Buffer
	ListingHeader(&b, l, c, &Result{Keep: keep, Failure: f, Replays: 12, Elapsed: 800 * time.Millisecond, Slice: "all", Sliced: 4}, "crash.arrow")
	Listing(&b, l, c, seq, f)
	golden(t, "panic_listing.txt", b.Bytes())
	r := &Repro{Package: "example.com/jobs/queue", Observed: l.Meta.ObservedPackages, Check: "strict",
		Test: "TestReproStart", Log: "testdata/repro/TestReproStart.arrow",
		Summary: "The log holds 3 of the 4 incalls of crash.arrow (12 of 16 events); the failure: " + f.String() + ".",
		Listing: b.String(),
		Panic:   &PanicRepro{Value: f.Actual, Site: f.Site, Pos: f.Pos, From: c.SeqOf(f.PanicCall), To: c.SeqOf(f.PanicEnd)}}
	src, err := r.Source()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "queue_repro_test.go.golden", src)
}

// The explanation of both synthetic logs: goroutines, lock turns, an
// outside call that calls back, an outside variable; and a panic through
// a callback, with the note on the event where it was raised.
func TestExplainGolden(t *testing.T) {
	var b bytes.Buffer
	for _, path := range []string{synthetic(t), syntheticPanic(t)} {
		l, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		notes := map[uint64]string{}
		if f, seq, ok := l.RecordedPanic(); ok {
			notes[seq] = "the recorded panic: " + f.String()
		} else {
			notes[17] = "today's code diverges here: different results"
		}
		ExplainHeader(&b, l, l.Events, filepath.Base(path))
		Explain(&b, l.Events, notes)
	}
	golden(t, "explain.txt", b.Bytes())
}

// TestPackageName: the test file's package clause and name, and the
// explanation's package qualifiers, use the package's name; the last
// element of a major-version module's import path is its version, not its
// name, and a package clause "v3_test" next to package semver does not
// compile.
func TestPackageName(t *testing.T) {
	for path, want := range map[string]string{
		"example.com/shop/cart":                        "cart",
		"github.com/Masterminds/semver/v3":             "semver",
		"github.com/hashicorp/golang-lru/v2/simplelru": "simplelru",
		"github.com/sergi/go-diff/diffmatchpatch":      "diffmatchpatch",
		"github.com/mattn/go-runewidth":                "runewidth",
		"example.com/v1":                               "v1",
		"v3":                                           "v3",
		"gopkg.in/yaml.v3":                             "yaml",
	} {
		if got := PackageName(path); got != want {
			t.Errorf("PackageName(%q) = %q, want %q", path, got, want)
		}
	}
	r := &Repro{Package: "github.com/Masterminds/semver/v3"}
	if r.FileName() != "semver_repro_test.go" {
		t.Errorf("file name %s, want semver_repro_test.go", r.FileName())
	}
	r.Name = "semverx"
	if r.FileName() != "semverx_repro_test.go" {
		t.Errorf("with the listed name semverx: file name %s", r.FileName())
	}
	for site, want := range map[string]string{
		"github.com/Masterminds/semver/v3.NewVersion":          "semver.NewVersion",
		"(github.com/Masterminds/semver/v3.Constraints).Check": "(semver.Constraints).Check",
		"(*example.com/shop/cart.Cart).Add":                    "(*cart.Cart).Add",
		"github.com/tidwall/gjson.Get":                         "gjson.Get",
	} {
		if got := short(site); got != want {
			t.Errorf("short(%q) = %q, want %q", site, got, want)
		}
	}
}
