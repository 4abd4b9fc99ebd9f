package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// writeEventLog writes a small log: a CALL_IN of shop.Quote on stream 1
// with two int arguments, a time.Now outcall and its return, then the
// return of the incall; repeated n times. If torn, the writer is not
// closed (as if killed after its last flush).
func writeEventLog(t *testing.T, n int, torn bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.arrows")
	w, err := eventlog.Create(path, eventlog.Meta{ObservedPackages: []string{"example.com/shop"}, BuildLabel: "//shop:app_capture"}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	args := func(a, b int64) []byte {
		var enc value.Encoder
		value.Encode(&enc, a)
		value.Encode(&enc, b)
		return enc.Buf
	}
	for i := 0; i < n; i++ {
		in := eventlog.Event{Stream: 1, Kind: eventlog.KindCallIn, Site: "example.com/shop.Quote", Pos: "shop/quote.go:10", Values: args(int64(i), 7)}
		call := w.Append(&in)
		out := eventlog.Event{Stream: 1, Kind: eventlog.KindCallOut, Parent: call, Site: "time.Now", Pos: "shop/quote.go:12"}
		oc := w.Append(&out)
		ret := eventlog.Event{Stream: 1, Kind: eventlog.KindReturnOut, Parent: oc, Site: "time.Now", Pos: "shop/quote.go:12", Values: args(1, 2)}
		w.Append(&ret)
		rin := eventlog.Event{Stream: 1, Kind: eventlog.KindReturnIn, Parent: call, Site: "example.com/shop.Quote", Pos: "shop/quote.go:10", RecvType: "*example.com/shop.Cart", RecvID: 3, Values: args(42, 0)}
		w.Append(&rin)
	}
	if torn {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		// A copy: what a writer killed now leaves (its lock goes with its
		// process; this one's is held until Close).
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		killed := filepath.Join(t.TempDir(), "run.arrows")
		if err := os.WriteFile(killed, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return killed
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCmd(t *testing.T, run func([]string, *bytes.Buffer, *bytes.Buffer) int, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func inspectCmd(args []string, o, e *bytes.Buffer) int { return runInspect(args, o, e) }

func TestInspectFilters(t *testing.T) {
	log := writeEventLog(t, 5, false)
	out, errs, code := runCmd(t, inspectCmd, "-kind", "call_in", "-seq", "5:12", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	// CALL_INs are seq 1, 5, 9, 13, 17: in 5..12 that is 5 and 9.
	if len(lines) != 2 || !strings.Contains(lines[0], "       5 s1   CALL_IN    example.com/shop.Quote (shop/quote.go:10): 1, 7") ||
		!strings.Contains(lines[1], "       9 s1") {
		t.Fatalf("output:\n%s", out)
	}
	if !strings.Contains(out, "# observed example.com/shop") || !strings.Contains(out, "closed") {
		t.Errorf("header missing:\n%s", out)
	}

	out, _, _ = runCmd(t, inspectCmd, "-site", "time.", "-stream", "1", "-limit", "3", log)
	if n := strings.Count(out, "time.Now"); n != 3 {
		t.Errorf("-site time. -limit 3 printed %d events:\n%s", n, out)
	}
	out, _, _ = runCmd(t, inspectCmd, "-stream", "2", log)
	if strings.Contains(out, "example.com/shop.Quote (") {
		t.Errorf("-stream 2 printed events of stream 1:\n%s", out)
	}
}

func TestInspectJSON(t *testing.T) {
	log := writeEventLog(t, 2, false)
	out, errs, code := runCmd(t, inspectCmd, "-json", "-kind", "RETURN_IN", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var evs []inspectEvent
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e inspectEvent
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		evs = append(evs, e)
	}
	if len(evs) != 2 || evs[0].Seq != 4 || evs[0].Kind != "RETURN_IN" || evs[0].Parent != 1 ||
		evs[0].RecvType != "*example.com/shop.Cart" || evs[0].RecvID != 3 || evs[0].Values != "42, 0" || evs[0].ValuesHex == "" {
		t.Fatalf("events %+v", evs)
	}
}

func TestInspectTornLogAndErrors(t *testing.T) {
	log := writeEventLog(t, 3, true)
	out, errs, code := runCmd(t, inspectCmd, log)
	if code != 0 || !strings.Contains(out, "without an end marker") || strings.Count(out, "CALL_IN") != 3 {
		t.Fatalf("exit %d, stderr %s, output:\n%s", code, errs, out)
	}
	if _, errs, code := runCmd(t, inspectCmd, "-kind", "CALL", log); code != 2 || !strings.Contains(errs, "not a kind") {
		t.Errorf("bad -kind: exit %d, %s", code, errs)
	}
	if _, errs, code := runCmd(t, inspectCmd, "-seq", "x:", log); code != 2 || !strings.Contains(errs, "FROM:TO") {
		t.Errorf("bad -seq: exit %d, %s", code, errs)
	}
	junk := filepath.Join(t.TempDir(), "junk.arrow")
	os.WriteFile(junk, []byte("not a log"), 0o644)
	if _, errs, code := runCmd(t, inspectCmd, junk); code != 1 || !strings.Contains(errs, "corrupt event log") {
		t.Errorf("junk file: exit %d, %s", code, errs)
	}
}
