package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func statsCmd(args []string, o, e *bytes.Buffer) int { return runStats(args, o, e) }

func TestStats(t *testing.T) {
	log := writeEventLog(t, 25, false)
	out, errs, code := runCmd(t, statsCmd, log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"events      100 (seq 1..100), 1 streams",
		"CALL_IN     25", "RETURN_OUT  25",
		"      50  example.com/shop.Quote", "      50  time.Now",
		"state       complete; drops 0",
		"bytes/event",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}

	out, _, code = runCmd(t, statsCmd, "-json", "-top", "1", log)
	var st logStats
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if st.Events != 100 || st.Kinds["CALL_OUT"] != 25 || len(st.Sites) != 1 || st.Sites[0].Count != 50 || !st.Closed || st.Span == "" || st.BytesPerEvent <= 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestStatsTornLog(t *testing.T) {
	log := writeEventLog(t, 2, true)
	out, _, code := runCmd(t, statsCmd, log)
	if code != 0 || !strings.Contains(out, "writer killed or still writing") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// A log that hit its size cap says so: how many events were lost, why and
// since when, besides the drop count.
func TestStatsLostEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "capped.arrow")
	w, err := eventlog.Create(path, eventlog.Meta{ObservedPackages: []string{"example.com/shop"}},
		eventlog.Options{MaxBytes: 4096, BatchEvents: 16, Warn: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		e := eventlog.Event{Stream: 1, Kind: eventlog.KindCallIn, Site: "example.com/shop.Quote", Values: bytes.Repeat([]byte{byte(i)}, 32)}
		w.Append(&e)
	}
	w.Close()
	out, _, code := runCmd(t, statsCmd, path)
	if code != 0 || !regexp.MustCompile(`INCOMPLETE: \d+ events dropped, \d+ of them lost \(size_cap\) since 20`).MatchString(out) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, _ = runCmd(t, statsCmd, "-json", path)
	var st logStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Lost == 0 || st.Lost > st.Dropped || st.LostWhy != "size_cap" || st.LostSince.IsZero() {
		t.Fatalf("stats %+v", st)
	}
}

// TestStatsColumns: -columns says where the file's bytes go, and the
// parts add up to the file.
func TestStatsColumns(t *testing.T) {
	log := writeEventLog(t, 25, false)
	out, errs, code := runCmd(t, statsCmd, "-columns", log)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"stored      bytes/event by part", "    values offsets ", "    record batch headers "} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	out, _, code = runCmd(t, statsCmd, "-json", "-columns", log)
	var st logStats
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	var sum int64
	for _, p := range st.Stored {
		if p.Bytes < 0 {
			t.Errorf("part %s: %d bytes", p.Part, p.Bytes)
		}
		sum += p.Bytes
	}
	if len(st.Stored) != 13 || sum != st.Bytes || st.Stored[9].Part != "values" || st.Stored[9].Bytes == 0 {
		t.Fatalf("stored %+v (sum %d), file %d bytes", st.Stored, sum, st.Bytes)
	}
}
