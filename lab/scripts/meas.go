//go:build ignore

// meas runs several commands alternately, N rounds, each in its own
// process, and prints per command the median (and min-max) of its CPU time
// (user+system, from wait4) and wall time: the per-process overhead
// measurement of lab/evaluation.md, "Capture overhead: where it goes".
//
//	go run lab/scripts/meas.go -n 151 -dir DIR 'NAME=ENV=V,ENV2=V2:/path/bin arg...' ...
//
// "{i}" in an environment value is replaced by the round number.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

type spec struct {
	name      string
	env       []string
	argv      []string
	cpu, wall []float64
}

func main() {
	n := flag.Int("n", 21, "rounds")
	dir := flag.String("dir", ".", "working directory")
	flag.Parse()
	var specs []*spec
	for _, a := range flag.Args() {
		name, rest, _ := strings.Cut(a, "=")
		envs, cmd, _ := strings.Cut(rest, ":")
		s := &spec{name: name, argv: strings.Fields(cmd)}
		if envs != "" {
			s.env = strings.Split(envs, ",")
		}
		specs = append(specs, s)
	}
	for i := 0; i < *n; i++ {
		for _, s := range specs {
			c := exec.Command(s.argv[0], s.argv[1:]...)
			c.Dir = *dir
			c.Env = append(os.Environ(), s.env...)
			for j, e := range c.Env {
				c.Env[j] = strings.ReplaceAll(e, "{i}", fmt.Sprint(i))
			}
			t0 := time.Now()
			out, err := c.CombinedOutput()
			w := time.Since(t0)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n%s", s.name, err, out)
				os.Exit(1)
			}
			ru := c.ProcessState.SysUsage().(*syscall.Rusage)
			cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			s.cpu = append(s.cpu, float64(cpu)/1e6)
			s.wall = append(s.wall, float64(w)/1e6)
		}
	}
	for _, s := range specs {
		fmt.Printf("%-14s cpu ms median %6.2f [%6.2f-%6.2f]  wall ms median %6.2f [%6.2f-%6.2f]  n=%d\n", s.name,
			med(s.cpu), minv(s.cpu), maxv(s.cpu), med(s.wall), minv(s.wall), maxv(s.wall), len(s.cpu))
	}
}

func med(x []float64) float64 {
	y := append([]float64(nil), x...)
	sort.Float64s(y)
	return y[len(y)/2]
}
func minv(x []float64) float64 { y := append([]float64(nil), x...); sort.Float64s(y); return y[0] }
func maxv(x []float64) float64 {
	y := append([]float64(nil), x...)
	sort.Float64s(y)
	return y[len(y)-1]
}
