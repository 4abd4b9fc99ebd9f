package probe

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// Dump writes the ring out while capture goes on: the kept earlier
// segments linked, the current one closed as far as it was written (with
// every event so far, numbered as in the ring), a DUMP note with the
// reason; a second dump after more calls holds them too.
func TestDumpRing(t *testing.T) {
	stem, clock := withRotation(t, map[string]string{EnvRotate: "1m", EnvKeep: "2"})
	site := &Site{Name: "example.com/ckpt.Put", Pos: "ckpt/ckpt.go:2"}
	put := func(n int) {
		for i := range n {
			s := In(site)
			s.String(strings.Repeat("x", 20))
			f := s.Call()
			s.Int(int64(i))
			s.Return(f)
		}
	}
	for range 4 { // segments of 10 calls: each starts at the checkpoint after the first call past the limit
		put(10)
		*clock = clock.Add(2 * time.Minute)
	}
	put(10)
	paths, err := Dump("asked by the test")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 {
		t.Fatalf("dumped %v: want the 2 kept segments", paths)
	}
	dir := filepath.Dir(paths[0])
	if !strings.HasPrefix(filepath.Base(dir), filepath.Base(stem)+".dump-") {
		t.Errorf("dump folder %s: want %s.dump-<run>-<time>", dir, filepath.Base(stem))
	}
	note, err := os.ReadFile(filepath.Join(dir, "DUMP"))
	if err != nil || !strings.Contains(string(note), "reason: asked by the test\n") {
		t.Errorf("DUMP note: %v\n%s", err, note)
	}
	cur := rec.path
	if filepath.Base(paths[1]) != filepath.Base(cur) {
		t.Errorf("last dumped %s, want a copy of the current segment %s", paths[1], cur)
	}
	_ = rec.w.Flush()
	ring, _ := readLog(t, cur)
	dumped, meta := readLog(t, paths[1])
	if len(dumped) == 0 || len(dumped) != len(ring) || dumped[len(dumped)-1].Seq != ring[len(ring)-1].Seq ||
		dumped[len(dumped)-1].Kind != eventlog.KindReturnIn {
		t.Errorf("the dumped current segment has %d events, the ring's %d", len(dumped), len(ring))
	}
	if !meta.Status.Closed {
		t.Errorf("the dumped current segment is not a closed log: %+v", meta.Status)
	}
	if first, _ := readLog(t, paths[0]); len(first) < 2 || first[0].Kind != eventlog.KindCheckpoint {
		t.Errorf("the first dumped segment does not start at a checkpoint")
	}

	// The ring goes on; a later dump holds what came after.
	put(5)
	if _, err := os.Stat(cur); err != nil {
		t.Fatalf("the ring's current segment after the dump: %v", err)
	}
	before := flight.dumps
	paths2, err := Dump("again")
	if err != nil || flight.dumps != before+1 || filepath.Dir(paths2[0]) == dir {
		t.Fatalf("second dump: %v %v", paths2, err)
	}
	again, _ := readLog(t, paths2[len(paths2)-1])
	if last := again[len(again)-1]; last.Seq <= dumped[len(dumped)-1].Seq && filepath.Base(paths2[len(paths2)-1]) == filepath.Base(cur) {
		t.Errorf("the second dump ends at seq %d, no later than the first", last.Seq)
	}
}

// Without a ring there is nothing to dump.
func TestDumpNeedsRing(t *testing.T) {
	if rot.on {
		t.Skip("rotation is on")
	}
	if _, err := Dump("x"); err == nil {
		t.Errorf("Dump without a rotated log: no error")
	}
}

// CAPTURE_MODE=flight fills in the ring's defaults and refuses a ring of
// nothing.
func TestFlightEnv(t *testing.T) {
	defer func() { flight.on = false }()
	env := map[string]string{EnvMode: "flight"}
	get, err := flightEnv(func(k string) string { return env[k] })
	if err != nil || get(EnvRotate) != flightRotate || get(EnvKeep) != flightKeep || !flight.on {
		t.Fatalf("flight defaults: %q %q %v", get(EnvRotate), get(EnvKeep), err)
	}
	env[EnvRotate], env[EnvKeep] = "1MiB", "7"
	if get, _ = flightEnv(func(k string) string { return env[k] }); get(EnvRotate) != "1MiB" || get(EnvKeep) != "7" {
		t.Errorf("CAPTURE_ROTATE/CAPTURE_KEEP do not override the defaults")
	}
	env[EnvKeep] = "0"
	if _, err := flightEnv(func(k string) string { return env[k] }); err == nil {
		t.Errorf("flight with %s=0: no error", EnvKeep)
	}
	env[EnvMode] = "ring"
	if _, err := flightEnv(func(k string) string { return env[k] }); err == nil {
		t.Errorf("%s=ring: no error", EnvMode)
	}
}
