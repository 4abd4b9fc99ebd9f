package study

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// Overhead is the cost of capture on the module's tests: for every test
// that produced boundary events, the median wall time of its process (over
// Repeats runs, interleaved with the plain runs so drift hits both) with
// capture vs without.
type Overhead struct {
	Tests       int     `json:"tests"`        // tests measured (those with events)
	MedianRatio float64 `json:"median_ratio"` // median over tests of capture/plain
	WorstRatio  float64 `json:"worst_ratio"`
	WorstTest   string  `json:"worst_test"`
	PlainMS     float64 `json:"plain_ms"`   // sum over tests of the plain medians
	CaptureMS   float64 `json:"capture_ms"` // sum over tests of the capture medians

	// The whole test binary of each package in one process (fixed costs
	// such as opening the log paid once), medians over Repeats.
	SuiteRatio     float64        `json:"suite_ratio"`
	SuitePlainMS   float64        `json:"suite_plain_ms"`
	SuiteCaptureMS float64        `json:"suite_capture_ms"`
	PerTest        []TestOverhead `json:"per_test,omitempty"`

	// The same in CPU time (user + system of the test process), less
	// disturbed by other load on the machine than wall time.
	CPUMedianRatio float64 `json:"cpu_median_ratio"`
	CPUWorstRatio  float64 `json:"cpu_worst_ratio"`
	CPUSuiteRatio  float64 `json:"cpu_suite_ratio"`
}

// TestOverhead is one test's timing.
type TestOverhead struct {
	Test      string  `json:"test"`
	Events    int     `json:"events"`
	PlainMS   float64 `json:"plain_ms"`
	CaptureMS float64 `json:"capture_ms"`
	Ratio     float64 `json:"ratio"`
	PlainCPU  float64 `json:"plain_cpu_ms"`
	CaptCPU   float64 `json:"capture_cpu_ms"`
	CPURatio  float64 `json:"cpu_ratio"`
}

// overhead times each test that produced events with and without
// capture, using the instrumented test binaries `capture test
// -keep-binaries` left in setDir/capture-bin (the very binaries that wrote
// the logs).
func (m *moduleRun) overhead(setDir string, eventsOf map[string]int, testOf map[string]testRun) (*Overhead, error) {
	events := map[string]int{} // "pkg.Test" -> events
	for log, n := range eventsOf {
		if n > 0 {
			t := testOf[log]
			events[t.Package+"."+t.Test] = n
		}
	}
	binDir := filepath.Join(setDir, "capture-bin")
	ov := &Overhead{}
	var ratios, cpuRatios []float64
	var suitePlainCPU, suiteCaptCPU float64
	for _, tp := range m.testPkgs {
		var measured []*testCase
		for _, t := range tp.tests {
			if events[tp.pkg.ImportPath+"."+t.name] > 0 && t.plainPassed {
				measured = append(measured, t)
			}
		}
		if len(measured) == 0 {
			continue
		}
		lp := tp.pkg
		bin := filepath.Join(binDir, binName(lp.ImportPath))
		if _, err := os.Stat(bin); err != nil {
			return ov, fmt.Errorf("%s: capture test kept no test binary: %v", lp.ImportPath, err)
		}
		logPath := filepath.Join(setDir, "overhead.arrow")
		var plain, capt, plainCPU, captCPU []float64
		for i := 0; i < m.r.cfg.Repeats; i++ {
			// Failing tests (if any) fail in both; only the time matters.
			d, _ := m.r.timeTest(tp.plain, lp.Dir, "", nil)
			plain, plainCPU = append(plain, ms(d.wall)), append(plainCPU, ms(d.cpu))
			_ = os.Remove(logPath)
			d, _ = m.r.timeTest(bin, lp.Dir, "", append([]string{probectl.EnvLog + "=" + logPath}, m.r.capEnv()...))
			capt, captCPU = append(capt, ms(d.wall)), append(captCPU, ms(d.cpu))
		}
		ov.SuitePlainMS += median(plain)
		ov.SuiteCaptureMS += median(capt)
		suitePlainCPU += median(plainCPU)
		suiteCaptCPU += median(captCPU)
		for _, t := range measured {
			var plain, capt, plainCPU, captCPU []float64
			for i := 0; i < m.r.cfg.Repeats; i++ {
				d, err := m.r.timeTest(tp.plain, lp.Dir, t.name, nil)
				if err != nil {
					return ov, fmt.Errorf("%s.%s without capture: %v", lp.ImportPath, t.name, err)
				}
				plain, plainCPU = append(plain, ms(d.wall)), append(plainCPU, ms(d.cpu))
				_ = os.Remove(logPath)
				d, err = m.r.timeTest(bin, lp.Dir, t.name, append([]string{probectl.EnvLog + "=" + logPath}, m.r.capEnv()...))
				if err != nil {
					return ov, fmt.Errorf("%s.%s under capture: %v", lp.ImportPath, t.name, err)
				}
				capt, captCPU = append(capt, ms(d.wall)), append(captCPU, ms(d.cpu))
			}
			_ = os.Remove(logPath)
			name := lp.ImportPath + "." + t.name
			to := TestOverhead{Test: name, Events: events[name], PlainMS: median(plain), CaptureMS: median(capt), PlainCPU: median(plainCPU), CaptCPU: median(captCPU)}
			to.Ratio = to.CaptureMS / to.PlainMS
			if to.PlainCPU > 0 {
				to.CPURatio = to.CaptCPU / to.PlainCPU
			}
			ov.PerTest = append(ov.PerTest, to)
			ov.PlainMS += to.PlainMS
			ov.CaptureMS += to.CaptureMS
			ratios = append(ratios, to.Ratio)
			cpuRatios = append(cpuRatios, to.CPURatio)
			if to.Ratio > ov.WorstRatio {
				ov.WorstRatio, ov.WorstTest = to.Ratio, name
			}
			ov.CPUWorstRatio = max(ov.CPUWorstRatio, to.CPURatio)
		}
	}
	ov.CPUMedianRatio = median(cpuRatios)
	if suitePlainCPU > 0 {
		ov.CPUSuiteRatio = suiteCaptCPU / suitePlainCPU
	}
	ov.Tests = len(ov.PerTest)
	ov.MedianRatio = median(ratios)
	if ov.SuitePlainMS > 0 {
		ov.SuiteRatio = ov.SuiteCaptureMS / ov.SuitePlainMS
	}
	sort.Slice(ov.PerTest, func(i, j int) bool { return ov.PerTest[i].Ratio > ov.PerTest[j].Ratio })
	return ov, nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
