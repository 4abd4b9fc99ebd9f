package probectl

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Verdicts of a Report.
const (
	Pass     = "pass"     // the replayed code did what the log holds
	Diverged = "diverged" // it did something else: Divergence says what, first
	Error    = "error"    // the log could not be replayed (Notes say why)
)

// Report is the outcome of replaying one log, written as JSON.
type Report struct {
	Log        string      `json:"log"`
	Check      string      `json:"check"`
	Verdict    string      `json:"verdict"` // "pass" or "diverged" or "error"
	Events     int         `json:"events"`  // events in the log
	Replayed   int         `json:"replayed"`
	Divergence *Divergence `json:"divergence,omitempty"`
	Notes      []string    `json:"notes,omitempty"`
	// Ended says where replay stopped in a log that its writer never
	// closed (killed, crashed, or still writing): the events past its end
	// were not judged. Empty for a closed log. It is among Notes too.
	Ended string `json:"ended,omitempty"`
}

// Divergence is the first out-of-sync event.
type Divergence struct {
	Seq       uint64 `json:"seq"`    // of the expected event (0: past the end of the log)
	Stream    uint32 `json:"stream"` // logical goroutine
	Reason    string `json:"reason"`
	Expected  string `json:"expected"`            // the event the log holds
	Actual    string `json:"actual"`              // what the code did
	Pos       string `json:"pos"`                 // original file:line where the code did it
	Candidate string `json:"candidate,omitempty"` // closest event of the log for what the code did
}

func (d *Divergence) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "divergence at seq %d (stream %d): %s\n", d.Seq, d.Stream, d.Reason)
	if d.Pos != "" {
		fmt.Fprintf(&b, "  at:        %s\n", d.Pos)
	}
	fmt.Fprintf(&b, "  expected:  %s\n", d.Expected)
	fmt.Fprintf(&b, "  actual:    %s\n", d.Actual)
	if d.Candidate != "" {
		fmt.Fprintf(&b, "  candidate: %s\n", d.Candidate)
	}
	return b.String()
}

// ReadReport reads the JSON report at path.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("report %s: %w", path, err)
	}
	return &r, nil
}

// CrashReport is the report of a replay process that ended without writing
// one: a panic that no code recovered (on a goroutine external code
// started, which neither replay nor the generated code wraps) or a fatal
// error of the Go runtime killed it. Such a crash is the replayed code
// behaving differently from the capture, whose process did not die there
// (a panic the capture recorded is matched and reported by the replay
// itself), so it is a divergence; without this, the parent would see a
// replay with no verdict at all (TestCrashReport). ok is false when the
// output holds no panic or fatal error, which is a fault of the harness,
// not a verdict. Run writes it where the child's report would have been.
func CrashReport(log, check string, runErr error, output []byte) (r *Report, ok bool) {
	lines := strings.Split(string(output), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, false
	}
	// The panic value and the crashing goroutine's innermost frames.
	end := min(start+12, len(lines))
	crash := strings.TrimSpace(strings.Join(lines[start:end], "\n"))
	pos := ""
	for _, l := range lines[start:end] {
		// Frames are "\tfile.go:12 +0x1d": the first is where it happened.
		if t := strings.TrimSpace(l); strings.HasPrefix(l, "\t") && strings.Contains(t, ".go:") {
			pos, _, _ = strings.Cut(t, " +0x")
			break
		}
	}
	return &Report{
		Log:     log,
		Check:   check,
		Verdict: Diverged,
		Divergence: &Divergence{
			Reason:   fmt.Sprintf("the replayed program crashed (%v) before the replay could report: a panic that no code recovered (typically on a goroutine external code started) or a fatal error of the Go runtime", runErr),
			Expected: "the log's events",
			Actual:   crash,
			Pos:      pos,
		},
		Notes: []string{"report written by the replay's parent process: the replay process died without one"},
	}, true
}
