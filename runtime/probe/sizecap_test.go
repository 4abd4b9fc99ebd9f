package probe

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// TestStopsRecordingAtSizeCap: once the log reaches CAPTURE_MAX_BYTES,
// capture switches off (the probes return nil, as with capture off), stays
// off (SetCapture cannot switch it on again), and the log holds what fit,
// closed, with the events appended before the switch counted as lost to
// the size cap: far fewer than the run would have made.
func TestStopsRecordingAtSizeCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "capped.arrow")
	opts, err := logOptions(envOf(EnvMaxBytes, "64KiB", EnvPolicy, "block"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := CaptureWith(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { capStopped.Store(false) })
	site := &Site{Name: "example.com/calc.Add", Pos: "calc/add.go:3"}
	const calls = 1_000_000
	made, off := 0, -1
	for i := range calls {
		s := In(site)
		if s == nil {
			if off < 0 {
				off = i
			}
			continue
		}
		if off >= 0 {
			t.Fatalf("call %d recorded after capture went off at call %d", i, off)
		}
		s.Int(int64(i % 7))
		s.String("an argument of some length, to fill the log")
		f := s.Call()
		s.Int(int64(i%7) + 1)
		s.Return(f)
		made += 2
		if i%100 == 99 {
			w.Flush() // the writer meets the cap at a batch: let it see one
		}
	}
	SetCapture(true)
	if s := In(site); s != nil {
		t.Fatal("SetCapture(true) switched capture on again after the size cap")
	}
	Close()
	if off < 0 {
		t.Fatalf("capture stayed on through %d calls with a 64 KiB cap", calls)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := eventlog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Meta().Status
	r.Close()
	if fi.Size() > 64<<10 || !st.Closed || st.LostWhy != "size_cap" || st.Lost == 0 || st.Events+st.Lost != uint64(made) {
		t.Errorf("%d bytes, status %+v, %d events made; want at most 64 KiB, closed, the events made past the cap lost to size_cap", fi.Size(), st, made)
	}
	if made >= calls {
		t.Errorf("%d events made of %d calls: capture did not stop early", made, calls)
	}
	t.Logf("capture went off at call %d of %d; %d events written, %d lost", off, calls, st.Events, st.Lost)
}
