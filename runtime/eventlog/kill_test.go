package eventlog

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const killChildEnv = "EVENTLOG_KILL_CHILD"

// TestKillChildWriter is the child of TestSIGKILL: it writes events from 4
// goroutines until it is killed, and prints "flushed N" each time Flush has
// returned with events up to seq N durable.
func TestKillChildWriter(t *testing.T) {
	path := os.Getenv(killChildEnv)
	if path == "" {
		t.Skip("child process of TestSIGKILL")
	}
	w, err := Create(path, Meta{BuildLabel: "kill-test"}, Options{FlushInterval: 5 * time.Millisecond, BatchEvents: 4096})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	for g := 0; g < 4; g++ {
		go func() {
			var buf [20]byte
			for i := uint64(0); ; i++ {
				n := binary.PutUvarint(buf[:], uint64(g))
				n += binary.PutUvarint(buf[n:], i)
				e := Event{Stream: uint32(g), Kind: KindCallOut, Site: sites[i%uint64(len(sites))], Pos: positions[i%uint64(len(positions))], Values: buf[:n]}
				w.Append(&e)
				if i%32 == 31 {
					time.Sleep(50 * time.Microsecond) // a busy program, not a saturated one
				}
			}
		}()
	}
	for {
		time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond)
		w.mu.Lock()
		target := w.lastSeqLocked()
		w.mu.Unlock()
		fmt.Printf("appended %d\n", target)
		if err := w.Flush(); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Printf("flushed %d\n", target)
	}
}

// TestSIGKILL kills a writing child process at random moments and reads
// what it left: every file must read without error, every event up to the
// last completed Flush must be there, in Seq order and intact.
func TestSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	runs := 25
	if s := os.Getenv("EVENTLOG_KILL_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	dir := t.TempDir()
	var maxLost uint64
	partial := 0 // runs killed in the middle of writing a batch
	for run := 0; run < runs; run++ {
		path := filepath.Join(dir, fmt.Sprintf("killed-%d.arrows", run))
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillChildWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), killChildEnv+"="+path)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1<<16)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Wait for the first flush, then kill at a random moment.
		first := <-lines
		if !strings.HasPrefix(first, "appended ") {
			t.Fatalf("child: %s", first)
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		var flushed, appended uint64
		for _, l := range append([]string{first}, drain(lines)...) {
			verb, num, _ := strings.Cut(l, " ")
			n, err := strconv.ParseUint(num, 10, 64)
			if err != nil {
				t.Fatalf("child: %s", l)
			}
			switch verb {
			case "flushed":
				flushed = max(flushed, n)
			case "appended":
				appended = max(appended, n)
			}
		}
		n, tail, err := checkKilledLog(path)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if n < flushed {
			t.Fatalf("run %d: read %d events, but Flush had returned for %d", run, n, flushed)
		}
		if tail.Bytes > 0 {
			partial++
		}
		// Events known appended before the kill but not in the file: the
		// unflushed tail (bounded by the flush interval).
		lost := uint64(0)
		if appended > n {
			lost = appended - n
		}
		maxLost = max(maxLost, lost)
		st, _ := os.Stat(path)
		t.Logf("run %d: %d events read (last completed Flush %d, last appended report %d, missing %d), %d bytes, torn tail %+v", run, n, flushed, appended, lost, st.Size(), tail)
	}
	t.Logf("%d runs: every file readable, every flushed event present; %d ended inside a partly written batch; at most %d reported-appended events missing", runs, partial, maxLost)
}
func drain(c chan string) []string {
	var out []string
	for l := range c {
		out = append(out, l)
	}
	return out
}

// checkKilledLog reads a log left by a killed child and checks it.
func checkKilledLog(path string) (uint64, TornTail, error) {
	r, err := Open(path)
	if err != nil {
		return 0, TornTail{}, err
	}
	defer r.Close()
	next := make(map[uint64]uint64) // per goroutine: next counter
	var n uint64
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, TornTail{}, err
		}
		n++
		if e.Seq != n {
			return n, TornTail{}, fmt.Errorf("event %d has seq %d", n, e.Seq)
		}
		g, k := binary.Uvarint(e.Values)
		i, _ := binary.Uvarint(e.Values[k:])
		if i != next[g] || e.Site != sites[i%uint64(len(sites))] || e.Stream != uint32(g) {
			return n, TornTail{}, fmt.Errorf("seq %d: goroutine %d counter %d (want %d), site %q", e.Seq, g, i, next[g], e.Site)
		}
		next[g]++
	}
	tt, torn := r.Torn()
	if !torn {
		return n, tt, fmt.Errorf("a killed log must report a torn end")
	}
	return n, tt, nil
}
