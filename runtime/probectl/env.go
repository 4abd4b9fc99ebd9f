// Package probectl is what a parent process needs to run programs built
// with the probe runtime (runtime/probe) without linking that runtime: the
// environment a capture or replay process reads, the replay check levels,
// the report a replay process writes, and Run, which replays one log in a
// child process of a replay harness and judges the outcome. The capture
// tool, the study and the Bazel replay test all run replay children through
// Run; runtime/probe declares its own names as aliases of these.
package probectl

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Environment variables read by a capture build (docs/boundary-model.md).
const (
	EnvCapture = "CAPTURE"     // "off" switches capture off at run time
	EnvDir     = "CAPTURE_DIR" // directory for logs (default: ./capture-logs; capture is off if it cannot be made)
	EnvLog     = "CAPTURE_LOG" // exact log path, which must not exist (used by `capture test`, one log per test)
	EnvLabel   = "CAPTURE_BUILD_LABEL"
	// EnvPolicy says what an event costs the program when the log's
	// writer falls behind (a slow or stalled disk): "drop" (the default)
	// drops it and counts it, so a caller never waits for the disk, and
	// the log is then incomplete (replay refuses it); "block" makes the
	// caller wait, so that the log holds every event (capture test, and
	// tests that capture to replay).
	EnvPolicy = "CAPTURE_POLICY"
	// EnvMaxBytes caps the size of the log: "64MiB", "1GB", "500000"...
	// Past it, the events already appended are dropped, counted in the
	// log's status (lost=, lost_why=size_cap), the log ends cleanly, and
	// capture is off for the rest of the run.
	EnvMaxBytes = "CAPTURE_MAX_BYTES"
	// EnvCompression selects the capture-time compression of the log:
	// "zstd" (the default) or "none". "none" spends no CPU on compression
	// while the program runs, for a log 6-7 times larger (the example
	// shop); `capture compact` compresses it afterwards.
	EnvCompression = "CAPTURE_COMPRESSION"
)

// Environment of a replay harness child (set by Run; the rest of the
// environment is empty: replay is hermetic).
const (
	EnvReplayLog    = "CAPTURE_REPLAY_LOG"
	EnvReplayCheck  = "CAPTURE_REPLAY_CHECK"  // strict (default), returns, crash
	EnvReplayReport = "CAPTURE_REPLAY_REPORT" // JSON report path
	// EnvReplayTrace names a file that receives, one line per event, the
	// events in the order the player released them ("seq stream kind
	// site"): two replays of one log are compared by it.
	EnvReplayTrace = "CAPTURE_REPLAY_TRACE"
	// EnvReplayStall is how long (a Go duration, default 10s) replay may
	// release no event before it reports a deadlock instead of hanging.
	EnvReplayStall = "CAPTURE_REPLAY_STALL"
)

// DefaultStall is how long replay may make no progress before it reports
// the goroutine that never reached its next event (EnvReplayStall).
const DefaultStall = 10 * time.Second

// Check levels (docs/divergence.md, "What is compared"). go_replay_test's
// check attribute takes the same names (CHECK_LEVELS in
// rules/private/replay.bzl; TestCheckLevelsMatchStarlark).
const (
	CheckStrict  = "strict"  // every outgoing event must match
	CheckReturns = "returns" // incall results and panics must match; outcalls must be answerable
	CheckCrash   = "crash"   // only new or changed panics fail
)

// CheckLevels are the check levels, strictest first.
var CheckLevels = []string{CheckStrict, CheckReturns, CheckCrash}

// ValidCheck reports whether level is a check level.
func ValidCheck(level string) bool {
	switch level {
	case CheckStrict, CheckReturns, CheckCrash:
		return true
	}
	return false
}

// ParseBytes parses a size as EnvMaxBytes takes it: a whole number of
// bytes with an optional unit, decimal (kB, MB, GB, TB) or binary (KiB,
// MiB, GiB, TiB; K, M, G, T alone are binary too).
func ParseBytes(v string) (int64, error) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("want a size such as 64MiB, 1GB or 500000")
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want a size such as 64MiB, 1GB or 500000")
	}
	var mult int64
	switch strings.TrimSpace(v[i:]) {
	case "", "B", "b":
		mult = 1
	case "k", "kB", "KB":
		mult = 1000
	case "MB":
		mult = 1000 * 1000
	case "GB":
		mult = 1000 * 1000 * 1000
	case "TB":
		mult = 1000 * 1000 * 1000 * 1000
	case "K", "KiB":
		mult = 1 << 10
	case "M", "MiB":
		mult = 1 << 20
	case "G", "GiB":
		mult = 1 << 30
	case "T", "TiB":
		mult = 1 << 40
	default:
		return 0, fmt.Errorf("unknown unit %q (want B, kB, MB, GB, TB, KiB, MiB, GiB or TiB)", v[i:])
	}
	if n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("want a size between 1 byte and 4 EiB")
	}
	return n * mult, nil
}

// Rotation of a capture build's log into segments (docs/capture-command.md,
// "Long-running services").
const (
	// EnvRotate rotates the log: "64MiB" (size), "1h" (time) or both,
	// comma-separated ("64MiB,1h"). At the first quiescent point past
	// either limit the recorder takes a checkpoint, closes the file (a
	// complete log) and starts the next segment with that checkpoint, so
	// that every segment replays alone. It turns checkpoints on.
	EnvRotate = "CAPTURE_ROTATE"
	// EnvKeep keeps only the newest N segments of a rotated log on disk
	// (the oldest are deleted as new ones start); unset or 0: all.
	EnvKeep = "CAPTURE_KEEP"
	// EnvMode "flight" makes the rotated log a flight recorder: a disk ring
	// of the last few segments (rotation with a small default size and
	// keep), written out as a dump folder on a panic leaving the observed
	// set, on SIGUSR1, SIGINT, SIGTERM and SIGQUIT and on probe.Dump.
	// Unset: an ordinary log.
	EnvMode = "CAPTURE_MODE"
	// EnvSample records a fraction of the run: at quiescent points the
	// recorder draws, with this probability (0.05), whether to record a
	// window of EnvSampleWindow quiescent points, which starts at a
	// checkpoint and is a segment of its own; between windows the probes
	// record nothing.
	EnvSample = "CAPTURE_SAMPLE"
	// EnvSampleWindow is a sampled window's length in quiescent points
	// (default 1000).
	EnvSampleWindow = "CAPTURE_SAMPLE_WINDOW"
	// EnvSampleSeed seeds the draws (a whole number); unset, they are
	// random.
	EnvSampleSeed = "CAPTURE_SAMPLE_SEED"
)

// FieldEnv are the variables that make a capture build's log a rotated,
// sampled or flight-recorder log. Tools that choose each log themselves (capture
// test's per-test logs) clear them, since a ring or segments in place of
// the one log they read back would be lost to them.
var FieldEnv = []string{EnvRotate, EnvKeep, EnvMode, EnvSample, EnvSampleWindow, EnvSampleSeed}

// ParseRotate parses EnvRotate: a size as ParseBytes takes it and/or a Go
// duration ("90s", "10m", "1h"), comma-separated. Sizes take B, kB, MB, GB,
// TB, KiB, MiB, GiB, TiB, K, M, G, T; durations take ns, us, ms, s, m, h
// (so "10m" is ten minutes and "10M" ten mebibytes).
func ParseRotate(v string) (size int64, every time.Duration, err error) {
	parts := strings.Split(v, ",")
	if len(parts) > 2 {
		return 0, 0, fmt.Errorf("want a size, a duration or both, such as 64MiB, 1h or 64MiB,1h")
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if d, derr := time.ParseDuration(p); derr == nil {
			if d <= 0 || every != 0 {
				return 0, 0, fmt.Errorf("want one positive duration, such as 1h")
			}
			every = d
			continue
		}
		n, berr := ParseBytes(p)
		if berr != nil {
			return 0, 0, fmt.Errorf("%q is neither a duration (1h, 10m) nor a size: %v", p, berr)
		}
		if size != 0 {
			return 0, 0, fmt.Errorf("want one size, such as 64MiB")
		}
		size = n
	}
	return size, every, nil
}
