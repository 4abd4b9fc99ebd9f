package loadgen

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// userHZ is the unit of the CPU times in /proc/PID/stat: USER_HZ, which
// Linux fixes at 100 for user space on every architecture it supports.
const userHZ = 100

// processCPU returns the user plus system CPU time a process has used so
// far, from /proc/PID/stat (Linux). A server's CPU time per request does not
// depend on how it shares the machine with the load generator and other
// processes, which its throughput does.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("loadgen: CPU time of process %d: %w", pid, err)
	}
	return parseStatCPU(b)
}

// parseStatCPU reads utime and stime, fields 14 and 15 of a
// /proc/PID/stat line. The second field is the command name in parentheses,
// which may itself hold spaces and parentheses: the fields after it are
// counted from the last ')'.
func parseStatCPU(stat []byte) (time.Duration, error) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, fmt.Errorf("loadgen: not a /proc/PID/stat line: %.40q", stat)
	}
	// After ")": field 3 (state) is the first; utime is field 14.
	fields := bytes.Fields(stat[end+1:])
	if len(fields) < 13 {
		return 0, fmt.Errorf("loadgen: /proc/PID/stat line has %d fields after the command, want at least 13", len(fields))
	}
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(string(f), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("loadgen: /proc/PID/stat CPU time %q: %w", f, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}
