package probe

import (
	"fmt"
	"strings"
)

// CrashReport is the report of a replay process that ended without writing
// one: a panic that no code recovered (on a goroutine external code
// started, which neither replay nor the generated code wraps) or a fatal
// error of the Go runtime killed it. Such a crash is the replayed code
// behaving differently from the capture, whose process did not die there
// (a panic the capture recorded is matched and reported by the replay
// itself), so it is a divergence; without this, the parent would see a
// replay with no verdict at all (TestCrashReport). ok is false when the
// output holds no panic or fatal error, which is a fault of the harness,
// not a verdict. The parents of replay processes (capture replay, the
// Bazel harness) write it where the child's report would have been.
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
		Verdict: "diverged",
		Divergence: &Divergence{
			Reason:   fmt.Sprintf("the replayed program crashed (%v) before the replay could report: a panic that no code recovered (typically on a goroutine external code started) or a fatal error of the Go runtime", runErr),
			Expected: "the log's events",
			Actual:   crash,
			Pos:      pos,
		},
		Notes: []string{"report written by the replay's parent process: the replay process died without one"},
	}, true
}
