package probe

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// The flight recorder (CAPTURE_MODE=flight; docs/capture-command.md).
//
// A service that should be captured all the time but whose logs nobody
// reads until something goes wrong needs the last few minutes, not the
// whole week. Flight mode is rotation with a small segment and a small
// CAPTURE_KEEP: a ring of segments on disk, each starting at a checkpoint.
// On a trigger (a panic leaving the observed set, SIGUSR1, SIGINT,
// SIGTERM, SIGQUIT, Dump) the ring is written out as a dump folder: the
// current segment copied up to that point into a closed log of its own,
// the earlier kept segments hard-linked beside it, and a DUMP note with
// the reason. The ring itself
// goes on untouched, so later triggers dump again. Every dumped segment
// replays alone, and the last one ends where the trigger happened: after a
// panic, with the PANIC_OUT that replay reproduces.

// EnvMode is the environment variable that turns the flight recorder on.
const EnvMode = probectl.EnvMode

// The ring's defaults, where CAPTURE_ROTATE and CAPTURE_KEEP are unset: a
// segment every 4 MiB or 30 s, and the newest 4 kept, so a dump holds
// between the last 30 s and the last 2 minutes of a busy service (at most
// about 16 MiB), and a quiet one's dump still reaches back a minute and
// more.
const (
	flightRotate = "4MiB,30s"
	flightKeep   = "4"
)

var flight struct {
	on bool

	mu        sync.Mutex // one dump at a time
	lastPanic int        // segment of the last panic dump (one per segment, so a recovering server cannot fill the disk)
	dumps     int
}

// flightEnv reads EnvMode at capture start and returns the environment
// rotation is configured from: with the flight recorder on, the ring's
// defaults fill in an unset CAPTURE_ROTATE and CAPTURE_KEEP.
func flightEnv(getenv func(string) string) (func(string) string, error) {
	switch m := getenv(EnvMode); m {
	case "":
		return getenv, nil
	case "flight":
	default:
		return nil, fmt.Errorf("%s=%q: the only mode is flight (or unset)", EnvMode, m)
	}
	if k := getenv(EnvKeep); k == "0" {
		return nil, fmt.Errorf("%s=flight with %s=0: a flight recorder keeps a ring of segments; set %s to the number of segments to keep", EnvMode, EnvKeep, EnvKeep)
	}
	flight.on = true
	return func(k string) string {
		v := getenv(k)
		if v == "" {
			switch k {
			case EnvRotate:
				return flightRotate
			case EnvKeep:
				return flightKeep
			}
		}
		return v
	}, nil
}

// startFlight starts the SIGUSR1 handler of the flight recorder.
func startFlight() {
	if !flight.on {
		return
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGUSR1)
	go func() {
		for range ch {
			if _, err := Dump("SIGUSR1"); err != nil {
				warnf("capture: flight recorder dump on SIGUSR1: %v", err)
			}
		}
	}()
}

// flightSignals are the signals the flight recorder catches besides SIGINT
// and SIGTERM, which every capture build catches to close its log: SIGQUIT,
// whose default action ends the process with every goroutine's stack (a
// hung service's usual diagnosis), which the ring's last minutes complete.
// Not SIGHUP: services commonly reload on it and go on, and a dump per
// reload would be noise the recorder cannot tell from a hang-up.
func flightSignals() []os.Signal {
	if !flight.on {
		return nil
	}
	return []os.Signal{syscall.SIGQUIT}
}

// flightSignal dumps the ring on sig, a signal that may end the process
// (SIGINT, SIGTERM, SIGQUIT), before handleSignals lets it go on.
func flightSignal(sig os.Signal) {
	if !flight.on || rec.closed.Load() {
		return
	}
	name := sig.String()
	switch sig {
	case syscall.SIGINT:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	case syscall.SIGQUIT:
		name = "SIGQUIT"
	}
	if _, err := Dump(name); err != nil {
		warnf("capture: flight recorder dump on %s: %v", name, err)
	}
}

// flightPanic is called when a panic has left observed code's outermost
// frame on a stream (its PANIC_OUT appended and flushed). It may end the
// process: the dump is written before the panic goes on.
func flightPanic(r any) {
	if !flight.on || rec.closed.Load() {
		return
	}
	ckpt.mu.Lock()
	n := rot.n
	ckpt.mu.Unlock()
	flight.mu.Lock()
	again := flight.lastPanic == n
	flight.lastPanic = n
	flight.mu.Unlock()
	if again {
		return
	}
	if _, err := Dump(fmt.Sprintf("panic: %v", r)); err != nil {
		warnf("capture: flight recorder dump on a panic: %v", err)
	}
}

// Dump writes the flight recorder's ring (or a rotated log's kept
// segments) out as a dump folder beside the log, named with the run and
// the time: the current segment as far as it has been written, closed as
// a log of its own, and the earlier kept segments hard-linked (copied
// where links are not possible), with a DUMP file holding reason. It
// returns the dumped segments' paths, oldest first. Capture goes on.
func Dump(reason string) (paths []string, err error) {
	if replaying {
		return nil, errors.New("replaying: nothing is recorded")
	}
	flight.mu.Lock()
	defer flight.mu.Unlock()
	// No segment starts or ends meanwhile: rotation runs with ckpt.mu.
	ckpt.mu.Lock()
	defer ckpt.mu.Unlock()
	rec.mu.Lock()
	w, cur, closed := rec.w, rec.path, rec.closed.Load()
	rec.mu.Unlock()
	if w == nil || closed {
		return nil, errors.New("no log is being written")
	}
	if smpOn {
		return nil, fmt.Errorf("the log is sampled (%s): its windows are on disk, each closed when it ends", EnvSample)
	}
	if !rot.on {
		return nil, fmt.Errorf("the log is not a ring of segments: set %s=flight (or %s)", EnvMode, EnvRotate)
	}
	if w.Policy() == eventlog.Drop {
		err = w.FlushWithin(flushWait)
	} else {
		err = w.Flush()
	}
	if err != nil {
		return nil, fmt.Errorf("flushing %s: %v", cur, err)
	}
	waitRotated(closeWait) // earlier segments are complete before they are linked
	now := rotNow().UTC()

	r, err := eventlog.Open(cur)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	meta := r.Meta()
	run := meta.RunID
	if len(run) > 12 {
		run = run[:12]
	}
	base := fmt.Sprintf("%s.dump-%s-%s", rot.stem, run, now.Format("20060102T150405.000Z"))
	dir := base
	for i := 2; ; i++ { // two dumps within a millisecond
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			break
		}
		if !os.IsExist(err) || i > 100 {
			return nil, err
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}

	rot.filesMu.Lock()
	earlier := append([]string(nil), rot.files...)
	rot.filesMu.Unlock()
	if len(earlier) > 0 && earlier[len(earlier)-1] == cur {
		earlier = earlier[:len(earlier)-1]
	}
	for _, src := range earlier {
		dst := filepath.Join(dir, filepath.Base(src))
		if err := linkOrCopy(src, dst); err != nil {
			if os.IsNotExist(err) {
				continue // deleted for CAPTURE_KEEP meanwhile
			}
			return paths, err
		}
		paths = append(paths, dst)
	}

	dst := filepath.Join(dir, filepath.Base(cur))
	events, gaps, err := copyLog(r, cur, dst)
	if err != nil {
		return paths, err
	}
	paths = append(paths, dst)

	var note strings.Builder
	fmt.Fprintf(&note, "reason: %s\ntime: %s\npid: %d\nrun: %s\nlog: %s\n", strings.ReplaceAll(reason, "\n", " "), now.Format(time.RFC3339Nano), os.Getpid(), meta.RunID, cur)
	fmt.Fprintf(&note, "current segment: %d events copied", events)
	if gaps > 0 {
		fmt.Fprintf(&note, " (%d events the writer dropped are missing: it may not replay past them)", gaps)
	}
	note.WriteString("\nsegments:\n")
	for _, p := range paths {
		fmt.Fprintf(&note, "  %s\n", filepath.Base(p))
	}
	if err := os.WriteFile(filepath.Join(dir, "DUMP"), []byte(note.String()), 0o600); err != nil {
		return paths, err
	}
	flight.dumps++
	warnf("capture: flight recorder dump (%s): %d segments in %s", reason, len(paths), dir)
	return paths, nil
}

// copyLog writes the events of r (a log still being written, read as far
// as it was flushed) into a new closed log at path, with r's metadata. It
// returns how many events it copied and how many the sequence numbers say
// are missing.
func copyLog(r *eventlog.Reader, src, path string) (n int, gaps uint64, err error) {
	meta := r.Meta()
	meta.Status = eventlog.Status{}
	w, err := eventlog.Create(path, meta, eventlog.Options{Policy: eventlog.Block, Compression: rot.opts.Compression})
	if err != nil {
		return 0, 0, err
	}
	var last uint64
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.Close()
			return n, gaps, fmt.Errorf("reading back %s: %v", src, err)
		}
		if e.Seq > last+1 {
			gaps += e.Seq - last - 1
		}
		last = e.Seq
		c := e.Clone() // Append keeps the strings, which the reader reuses
		w.Append(&c)
		n++
	}
	return n, gaps, w.Close()
}

// linkOrCopy hard-links src to dst, or copies it where the file system
// cannot link.
func linkOrCopy(src, dst string) error {
	if err := os.Link(src, dst); err == nil {
		return nil
	} else if os.IsNotExist(err) {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
