package frontend

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

func writeLog(t *testing.T, name string, sites ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	w, err := eventlog.Create(path, eventlog.Meta{}, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range sites {
		in := eventlog.Event{Stream: 1, Kind: eventlog.KindCallIn, Site: site}
		call := w.Append(&in)
		ret := eventlog.Event{Stream: 1, Kind: eventlog.KindReturnIn, Parent: call, Site: site}
		w.Append(&ret)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLogSitesRefusesHostileSites: a log is refused, naming it and the site,
// when one of its generic incall sites is no capture's; the sites of a good
// log are its own, whatever another log holds (BuildHarnessFor replays it).
func TestLogSitesRefusesHostileSites(t *testing.T) {
	good := writeLog(t, "good.arrow", "example.com/m/gen.Sum[int]", "example.com/m/gen.Plain", "callback example.com/m/gen.F[int].func1\n")
	hostile := "(*example.com/m/gen.Stack[int]).Push\nos.Exit(1)"
	bad := writeLog(t, "bad.arrow", "example.com/m/gen.Sum[int]", hostile)
	sites, err := LogSites(good)
	if err != nil || len(sites) != 3 {
		t.Errorf("good log: %q, %v", sites, err)
	}
	want := "log " + bad + ": site " + strconv.Quote(hostile) + `: not a Go identifier "Push\nos.Exit(1)"; the log may be corrupt or hostile; replay does not build code from it`
	if _, err := LogSites(bad); err == nil || err.Error() != want {
		t.Errorf("hostile log: %v\nwant %s", err, want)
	}
	if _, err := IncallSites([]string{good, bad}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("IncallSites: %v", err)
	}
}
