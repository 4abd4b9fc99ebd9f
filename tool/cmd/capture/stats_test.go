package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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
