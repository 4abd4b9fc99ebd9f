package probe

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// Environment variables read by a capture build (probectl, where tools
// find them without linking this runtime).
const (
	EnvCapture     = probectl.EnvCapture
	EnvDir         = probectl.EnvDir
	EnvLog         = probectl.EnvLog
	EnvLabel       = probectl.EnvLabel
	EnvPolicy      = probectl.EnvPolicy
	EnvMaxBytes    = probectl.EnvMaxBytes
	EnvCompression = probectl.EnvCompression

	// envLogOwner is set by a capture process that writes the log
	// CAPTURE_LOG names: "<pid> <path>". A process it starts inherits both
	// (a test running its own binary again as a child, as examples/shop's
	// tests do); without it the child created the parent's log again and
	// wrote into it while the parent went on writing
	// (TestChildProcessLeavesTheParentsLogAlone).
	envLogOwner = "CAPTURE_LOG_OWNER"
)

// buildMode is set by the replay harness's linker flags
// (-X github.com/rules-capture/rules_capture/runtime/probe.buildMode=replay).
var buildMode = "capture"

// recorder writes the events of a capture through the event log.
type recorder struct {
	mu     sync.Mutex // guards w's lifetime (close)
	w      *eventlog.Writer
	closed atomic.Bool
	path   string
	warned bool // about a second log in this process, once
}

var rec recorder

// sink receives events instead of a log file (tests of this package).
var sink func(e *eventlog.Event) uint64

func (r *recorder) append(e *eventlog.Event) uint64 {
	if sink != nil {
		return sink(e)
	}
	if r.closed.Load() {
		return 0
	}
	if smpIdle.Load() {
		return sampleHold(e) // between sampled windows (sample.go)
	}
	seq := r.w.Append(e)
	if rot.on && e.Kind == eventlog.KindCheckpoint {
		noteCheckpointAppended(e)
	}
	return seq
}

func init() {
	if buildMode == "replay" {
		startReplay()
		return
	}
	if os.Getenv(EnvCapture) == "off" {
		return
	}
	// Capture starts by itself only in binaries the front end (or Bazel)
	// stamped with their observed set; other binaries that link the runtime
	// (the capture tool, the runtime's own tests) stay quiet, whatever the
	// environment says. They can call Capture.
	if observedList == "" {
		return
	}
	startCapture()
}

func startCapture() {
	path := os.Getenv(EnvLog)
	if path != "" {
		owner := os.Getenv(envLogOwner)
		if pid, ok := logOfAnotherProcess(owner, path, os.Getpid()); ok {
			warnf("capture disabled in this process: %s=%s is the log of process %s, which started this one (give the child process a %s of its own to capture it)", EnvLog, path, pid, EnvLog)
			return
		}
	}
	if err := configureSampling(os.Getenv); err != nil { // sample.go: windows as segments
		warnf("capture disabled: %v", err)
		return
	}
	getenv, err := flightEnv(os.Getenv) // flight.go: the ring's defaults
	if err != nil {
		warnf("capture disabled: %v", err)
		return
	}
	if err := configureRotation(getenv); err != nil {
		warnf("capture disabled: %v", err)
		return
	}
	w, path, err := openLog(getenv)
	if err != nil {
		// One line, and the program goes on uncaptured: capture must
		// never stop the service it observes.
		warnf("capture disabled: %v", err)
		return
	}
	if os.Getenv(EnvLog) != "" {
		os.Setenv(envLogOwner, strconv.Itoa(os.Getpid())+" "+path)
	}
	rec.w = w
	rec.path = path
	// Package initialisation runs on this goroutine: stream 0.
	bindInit()
	enabled.Store(true)
	handleSignals()
	startFlight()
}

// openLog creates the log that the environment (getenv) asks for.
func openLog(getenv func(string) string) (*eventlog.Writer, string, error) {
	opts, err := logOptions(getenv)
	if err != nil {
		return nil, "", err
	}
	path := getenv(EnvLog)
	if path == "" {
		if path, err = defaultLogPath(getenv(EnvDir)); err != nil {
			return nil, "", err
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, "", fmt.Errorf("cannot create the directory of %s=%s: %v", EnvLog, path, err)
	}
	if rot.on {
		path = firstSegment(path, opts)
	}
	meta := eventlog.Meta{
		BuildLabel: getenv(EnvLabel),
		StartTime:  time.Now().UTC(),
		GoVersion:  runtime.Version(),
	}
	meta.ObservedPackages = splitList(observedList)
	meta.SourceHash = sourceHash
	if rot.on {
		meta.Rotation = rotationMeta(1)
	}
	w, err := eventlog.Create(path, meta, opts)
	if err != nil {
		return nil, "", err
	}
	return w, path, nil
}

// logOptions are the log writer's options for the environment's
// EnvCompression, EnvPolicy and EnvMaxBytes.
func logOptions(getenv func(string) string) (eventlog.Options, error) {
	opts := eventlog.Options{
		Warn:      func(msg string) { warnf("%s", msg) },
		OnSizeCap: stopAtCap,
	}
	switch c := getenv(EnvCompression); c {
	case "", "zstd":
		opts.Compression = eventlog.Zstd
	case "none":
		opts.Compression = eventlog.Uncompressed
	default:
		return opts, fmt.Errorf("%s=%q: want zstd (the default) or none", EnvCompression, c)
	}
	switch p := getenv(EnvPolicy); p {
	case "", "drop":
		opts.Policy = eventlog.Drop
	case "block":
		opts.Policy = eventlog.Block
	default:
		return opts, fmt.Errorf("%s=%q: want drop (the default) or block", EnvPolicy, p)
	}
	if v := getenv(EnvMaxBytes); v != "" {
		n, err := probectl.ParseBytes(v)
		if err != nil {
			return opts, fmt.Errorf("%s=%q: %v", EnvMaxBytes, v, err)
		}
		opts.MaxBytes = n
	}
	return opts, nil
}

// ParseBytes parses a size as EnvMaxBytes takes it ("64MiB", "1GB",
// "500000"): for tools that set it, such as capture test.
func ParseBytes(v string) (int64, error) { return probectl.ParseBytes(v) }

// droppedEventsError is why the log at path, whose status st counts
// dropped events, is not replayed: the events missing from its middle
// would make replay diverge where nothing diverged, or pass without the
// calls they recorded.
func droppedEventsError(path string, st eventlog.Status) error {
	why := fmt.Sprintf("the capture's writer fell behind and %s=drop (the default) dropped them, or values were too large; capture again with %s=block", EnvPolicy, EnvPolicy)
	if st.Lost > 0 {
		how := "make room on its disk and capture again"
		if st.LostWhy == "size_cap" {
			how = "capture again with a larger " + EnvMaxBytes
		}
		why = fmt.Sprintf("%d of them could not be written (%s, from %s): %s", st.Lost, st.LostWhy, st.LostSince.Format(time.RFC3339), how)
	}
	return fmt.Errorf("%s is incomplete: %d events were dropped while capturing, and replay needs every event: %s", path, st.Dropped, why)
}

// logOfAnotherProcess reports whether owner (the value of envLogOwner)
// says that another process than pid writes the log at path, and which.
func logOfAnotherProcess(owner, path string, pid int) (string, bool) {
	p, ownerPath, ok := strings.Cut(owner, " ")
	if !ok || ownerPath != path || p == strconv.Itoa(pid) {
		return "", false
	}
	return p, true
}

// observedList and sourceHash are set by the front end's linker flags:
// comma-separated import paths of the observed set and a hash of their
// sources, written into the log's metadata.
var (
	observedList string
	sourceHash   string
)

func splitList(list string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(list); i++ {
		if i == len(list) || list[i] == ',' {
			if i > start {
				out = append(out, list[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// defaultLogPath is a new log's path in dir (EnvDir; default
// ./capture-logs), which it creates, readable by its owner alone, if
// needed. There is no fallback to a shared directory such as /tmp: the log
// holds the program's data, and another user could have planted the
// directory.
func defaultLogPath(dir string) (string, error) {
	what := EnvDir + "=" + dir
	if dir == "" {
		dir, what = "capture-logs", "./capture-logs"
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("cannot create the log directory %s: %v (set %s to a writable directory)", what, err, EnvDir)
	}
	prog := filepath.Base(os.Args[0])
	return filepath.Join(dir, prog+"-"+time.Now().UTC().Format("20060102T150405.000000000")+"-"+strconv.Itoa(os.Getpid())+".arrow"), nil
}

// flush makes everything recorded so far durable (before a panic may end
// the process).
// With the drop policy (a service's default) it waits for a stalled disk
// at most flushWait: the panic may be recovered (net/http recovers a
// handler's), and the service must go on (TestFlushWithinStalledDisk, TestCloseBoundedOnStalledDisk).
func flush() {
	if rec.w != nil && !rec.closed.Load() {
		if rec.w.Policy() == eventlog.Drop {
			_ = rec.w.FlushWithin(flushWait)
		} else {
			_ = rec.w.Flush()
		}
	}
}

// flushWait and closeWait bound how long a flush on a panic and the close
// at exit wait for the log's disk under the drop policy. A healthy disk
// takes milliseconds; past the bound the events are written if the disk
// answers before the process ends, and a log whose close did not finish
// reads as the log of a killed process (replayable up to its last batch).
var (
	flushWait = 2 * time.Second
	closeWait = 5 * time.Second
	// closeWriter closes the log's writer (a test stalls it).
	closeWriter = (*eventlog.Writer).Close
)

// closeLog closes the log: before os.Exit or log.Fatal from observed code,
// on SIGINT/SIGTERM, and from Close. Later events are dropped.
func closeLog() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.w == nil || rec.closed.Swap(true) {
		return
	}
	if rot.on {
		defer waitRotated(closeWait)
	}
	if smp.closedW {
		return // the last sampled window's file, closed when the window ended
	}
	if rec.w.Policy() != eventlog.Drop {
		if err := rec.w.Close(); err != nil {
			warnf("closing the log %s: %v", rec.path, err)
		}
		return
	}
	done := make(chan error, 1)
	go func(close func(*eventlog.Writer) error, w *eventlog.Writer) { done <- close(w) }(closeWriter, rec.w)
	t := time.NewTimer(closeWait)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			warnf("closing the log %s: %v", rec.path, err)
		}
	case <-t.C:
		warnf("closing the log %s: its disk did not answer within %v; going on without waiting (if the process ends first, the log reads as the log of a killed process, replayable up to its last written batch)", rec.path, closeWait)
	}
}

// Close ends capture and closes the log. The front end injects a deferred
// call into main and into test binaries; programs may call it too.
func Close() {
	if replaying {
		return
	}
	enabled.Store(false)
	closeLog()
	unbindInit()
}

// Exit closes the log and exits: the front end rewrites os.Exit in main
// packages to it.
func Exit(code int) {
	Close()
	os.Exit(code)
}

// LogPath returns the path of the log being written ("" if none).
func LogPath() string { return rec.path }

// handleSignals closes the log on SIGINT and SIGTERM (in flight mode, and
// on SIGQUIT, after dumping the ring: flight.go), then sends the signal
// again with the recorder's handler gone, so that it does what it would
// have done without capture: the default action (the process ends), or the
// program's own signal.Notify channels receive it (docs/capture-command.md,
// "Flight recorder", says what such a program sees).
func handleSignals() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, append([]os.Signal{syscall.SIGINT, syscall.SIGTERM}, flightSignals()...)...)
	go func() {
		sig := <-ch
		flightSignal(sig) // flight.go: the ring is dumped before the process may end
		closeLog()
		// Let the signal do what it would have done without us.
		signal.Stop(ch)
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			_ = p.Signal(sig)
		}
	}()
}

// Capture starts capturing into the log at path, if this process is not
// capturing already (programs and benchmarks that choose the log
// themselves; a capture build normally starts from the environment).
func Capture(path string) error {
	_, err := CaptureWith(path, eventlog.Options{})
	return err
}

// CaptureWith is Capture with the event log's options (batch size, flush
// interval, policy...); it returns the log's writer, for Flush. Close still
// ends the capture and closes the writer.
func CaptureWith(path string, opts eventlog.Options) (*eventlog.Writer, error) {
	if replaying {
		return nil, fmt.Errorf("capture: this is a replay harness")
	}
	if rec.w != nil && !rec.closed.Load() {
		return nil, fmt.Errorf("capture: already writing %s", rec.path)
	}
	if opts.MaxBytes > 0 && opts.OnSizeCap == nil {
		opts.OnSizeCap = stopAtCap
	}
	meta := eventlog.Meta{ObservedPackages: splitList(observedList), SourceHash: sourceHash,
		StartTime: time.Now().UTC(), GoVersion: runtime.Version()}
	if rot.on {
		meta.Rotation = rotationMeta(1)
	}
	w, err := eventlog.Create(path, meta, opts)
	if err != nil {
		return nil, err
	}
	rec.mu.Lock()
	if rec.w != nil && !rec.warned {
		// Object IDs and first sights are per process: objects the earlier
		// log described appear in this one as bare references
		// (TestSecondLogInProcessWarns).
		rec.warned = true
		warnf("capture: %s is the second log of this process (after %s); objects the first log described appear in it without their contents, so it will not replay on its own: write one log per process", path, rec.path)
	}
	rec.w, rec.path = w, path
	rec.closed.Store(false)
	rec.mu.Unlock()
	bindInit()
	enabled.Store(true)
	return w, nil
}

// SetCapture switches capture on or off at run time. While off, every
// probe costs one predictable branch and nothing is recorded. Switch only
// between calls of the observed set: calls in flight record half.
func SetCapture(on bool) {
	if replaying || capStopped.Load() || (sink == nil && (rec.w == nil || rec.closed.Load())) {
		return
	}
	enabled.Store(on)
}

// CaptureTo starts capturing into f instead of a log file: f receives each
// event synchronously, on the goroutine that crossed the boundary, and
// returns its sequence number (tests, benchmarks of the probes alone,
// custom transports). The event and its Values are valid only during the
// call, and f must not modify them except for Seq (the stream reuses the
// event: its site strings stay from one event to the next).
//
// CaptureTo(nil) stops it (capture to the log, if one is open, resumes).
func CaptureTo(f func(e *eventlog.Event) uint64) {
	if f == nil {
		sink = nil
		enabled.Store(rec.w != nil && !rec.closed.Load())
		if !enabled.Load() {
			unbindInit()
		}
		return
	}
	sink = f
	bindInit()
	enabled.Store(true)
}

// stopAtCap is called by the writer (Options.OnSizeCap) when the log
// reached its size cap (CAPTURE_MAX_BYTES): the log ends there, nothing
// appended after it reaches the file, and replay refuses the log. Going on
// recording would cost the program the probes' whole price for nothing (a
// test making a few hundred million events under capture runs for minutes
// past its cap), so capture switches off: from here on every probe costs
// what it costs with capture off. Calls in flight are recorded in half,
// which is harmless in a log that replay refuses anyway; capture only
// records, never orders (lock and channel turns are waited for in replay
// alone), so the program runs as it would have. Events appended before
// the switch took effect are counted as lost in the log's status; later
// ones are not made at all. Rotated and sampled logs cap each segment and
// go on in the next one: they are left alone. TestStopsRecordingAtSizeCap
// pins it.
func stopAtCap() {
	if rot.on || smpOn || replaying {
		return
	}
	capStopped.Store(true)
	enabled.Store(false)
	warnf("capture: the log reached its size cap: capture is off for the rest of the run")
}

// capStopped: the log reached its size cap and capture is off for good
// (SetCapture cannot switch it on again).
var capStopped atomic.Bool
