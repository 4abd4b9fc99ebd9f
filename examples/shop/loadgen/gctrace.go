package loadgen

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// gcTrace follows a server's standard error, written with
// GODEBUG=gctrace=1, and sums what the lines of the collections that ended
// since the last read say about their CPU time. The runtime prints a
// collection's line when the collection ends, so a round is charged with the
// collections that ended during it.
type gcTrace struct {
	path string
	off  int64  // bytes of the file consumed so far
	rest []byte // an incomplete last line, kept for the next read
}

// gcUsage is what the trace lines of some collections add up to.
type gcUsage struct {
	CPU    time.Duration // see parseGCTraceLine
	Cycles int
	// Unreadable counts lines that begin like a collection's line but do not
	// parse (another write into the middle of one, a runtime of a different
	// format): their collections are missing from CPU and Cycles.
	Unreadable int
}

func (u *gcUsage) add(v gcUsage) {
	u.CPU += v.CPU
	u.Cycles += v.Cycles
	u.Unreadable += v.Unreadable
}

// read returns the usage of the collections whose lines were completed since
// the previous read.
func (t *gcTrace) read() (gcUsage, error) {
	f, err := os.Open(t.path)
	if err != nil {
		return gcUsage{}, fmt.Errorf("loadgen: GC trace: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.NewSectionReader(f, t.off, 1<<62))
	if err != nil {
		return gcUsage{}, fmt.Errorf("loadgen: GC trace %s: %w", t.path, err)
	}
	t.off += int64(len(b))
	buf := append(t.rest, b...)
	end := bytes.LastIndexByte(buf, '\n') + 1
	t.rest = append([]byte(nil), buf[end:]...)
	return parseGCTrace(buf[:end]), nil
}

// parseGCTrace sums the collections' lines in text; other lines (the
// program's own output) are ignored.
func parseGCTrace(text []byte) gcUsage {
	var u gcUsage
	for line := range bytes.Lines(text) {
		if !isGCTraceLine(line) {
			continue
		}
		cpu, err := parseGCTraceLine(line)
		if err != nil {
			u.Unreadable++
			continue
		}
		u.CPU += cpu
		u.Cycles++
	}
	return u
}

// isGCTraceLine reports whether line begins like gctrace's "gc N @".
func isGCTraceLine(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("gc "))
	if !ok {
		return false
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	return digits > 0 && bytes.HasPrefix(rest[digits:], []byte(" @"))
}

// parseGCTraceLine reads the CPU time of one collection from its
// GODEBUG=gctrace=1 line,
//
//	gc 7 @0.512s 2%: 0.021+1.2+0.030 ms clock, 0.042+0.40/0.95/0.20+0.060 ms cpu, 4->4->1 MB, ...
//
// The clock triple is the wall time of the stop-the-world sweep termination,
// the concurrent mark and the stop-the-world mark termination; the cpu
// quintuple is the two stop-the-world phases again, multiplied by the number
// of Ps, and in between the mark work done by assists, by the background
// workers and by the idle workers. The result is the three mark terms plus
// the two stop-the-world phases at their wall time: while the world is
// stopped the other threads sleep, so the phases' "cpu" figures count
// capacity the process did not spend, which /proc/PID/stat would not show.
// Sweeping is not in the line (allocations and the background sweeper do
// it), so it stays in the program's own CPU.
func parseGCTraceLine(line []byte) (time.Duration, error) {
	_, afterColon, ok := bytes.Cut(line, []byte(": "))
	if !ok {
		return 0, fmt.Errorf("no ': ' in %q", line)
	}
	clockText, afterClock, ok := bytes.Cut(afterColon, []byte(" ms clock, "))
	if !ok {
		return 0, fmt.Errorf("no ' ms clock, ' in %q", line)
	}
	cpuText, _, ok := bytes.Cut(afterClock, []byte(" ms cpu"))
	if !ok {
		return 0, fmt.Errorf("no ' ms cpu' in %q", line)
	}
	clock, err := splitMillis(clockText, "+", "+")
	if err != nil {
		return 0, err
	}
	cpu, err := splitMillis(cpuText, "+", "/", "/", "+")
	if err != nil {
		return 0, err
	}
	ms := clock[0] + cpu[1] + cpu[2] + cpu[3] + clock[2]
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// splitMillis parses len(seps)+1 non-negative numbers of milliseconds
// separated by seps in order.
func splitMillis(s []byte, seps ...string) ([]float64, error) {
	var out []float64
	rest := s
	for i := 0; i <= len(seps); i++ {
		field := rest
		if i < len(seps) {
			var ok bool
			if field, rest, ok = bytes.Cut(rest, []byte(seps[i])); !ok {
				return nil, fmt.Errorf("GC trace times %q: want %d fields separated by %q", s, len(seps)+1, seps)
			}
		}
		v, err := strconv.ParseFloat(string(field), 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("GC trace milliseconds %q: not a non-negative number", field)
		}
		out = append(out, v)
	}
	return out, nil
}
