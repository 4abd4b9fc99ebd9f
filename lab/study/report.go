package study

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// Write stores the report as study.json and study.md in dir.
func (rep *Report) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "study.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "study.md"))
	if err != nil {
		return err
	}
	rep.Markdown(f)
	return f.Close()
}

// Markdown writes the report's tables.
func (rep *Report) Markdown(w io.Writer) {
	t := rep.Totals
	fmt.Fprintf(w, "# Conformance study\n\n")
	commit := ""
	if rep.Commit != "" {
		commit = ", rules_capture " + rep.Commit
	}
	fmt.Fprintf(w, "Started %s, %.0f s, %s%s, %s; seed %d, %d timing repeats, %d mutants per package.\n\n", rep.Started, rep.Seconds, rep.GoVersion, commit, rep.Host, rep.Seed, rep.Repeats, rep.Mutants)
	fmt.Fprintf(w, "**Totals:** %d observed sets (%d rejected up front, %d tool errors), %d capture-replay round trips (logs): %d passed, %d diverged, %d replay errors, %d capped (not replayed); %d tests failed only under capture; %d tests ran past their limit (%s; no round trip); %d events, %s of replayed logs",
		t.Sets, t.Rejected, t.ToolErrors, t.Logs, t.Passed, t.Diverged, t.Errors, t.Capped, t.CaptureFailed, t.TimedOut, rep.limitLabel(), t.Events, bytesString(t.LogBytes))
	if t.Events > 0 {
		fmt.Fprintf(w, " (%.1f bytes/event)", float64(t.LogBytes)/float64(t.Events))
	}
	fmt.Fprintf(w, ".")
	if t.Capped > 0 {
		fmt.Fprintf(w, " Capped logs reached the cap on one log (%s) and lack the events after it, so they are not replayed (listed below by observed set).", capLabel(rep.MaxLogBytes))
	}
	if t.TestsRejected > 0 {
		fmt.Fprintf(w, " Tests rejected up front (not run under capture, each with its reason below): %d.", t.TestsRejected)
	}
	if t.Mutants > 0 {
		fmt.Fprintf(w, " Mutants: %d, detected by replay %d (%s), by the module's tests %d (%s).", t.Mutants, t.ByReplay, pct(t.ByReplay, t.Mutants), t.ByTests, pct(t.ByTests, t.Mutants))
	}
	fmt.Fprintf(w, "\n\n")
	for _, s := range rep.Subjects {
		s.markdown(w, rep.MaxLogBytes)
	}
}

// limitLabel says what limit each test had under capture.
func (rep *Report) limitLabel() string {
	if rep.TestLimit == 0 {
		return "no limit"
	}
	return fmt.Sprintf("limit per test: the larger of %s and %g × its time without capture", time.Duration(rep.TestLimit*float64(time.Second)), rep.TestLimitFactor)
}

func (s *SubjectResult) markdown(w io.Writer, maxLog string) {
	sub := s.Subject
	fmt.Fprintf(w, "## %s (%s%s, tests of %s)\n\n", sub.Name, sub.Module, at(sub.Version), strings.Join(sub.Patterns, " "))
	if s.Error != "" {
		fmt.Fprintf(w, "Not studied: %s\n\n", codeBlock(s.Error))
		return
	}
	fmt.Fprintf(w, "%d test packages, %d tests", s.TestPackages, s.Tests)
	if len(s.PlainFailing) > 0 {
		fmt.Fprintf(w, " (%d fail without capture too: %s)", len(s.PlainFailing), strings.Join(s.PlainFailing, ", "))
	}
	fmt.Fprintf(w, "; %.0f s.\n\n", s.Seconds)
	fmt.Fprintln(w, "| observed | tests | logs | events | passed | diverged | errors | capped | timed out | bytes/event | replay events/s | overhead median (per test, wall / CPU) | worst (per test, wall / CPU) | whole suite (wall / CPU) | mutants: replay / tests / both / neither |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, set := range s.Sets {
		obs := strings.Join(trimModule(set.Observed, sub.Module), ", ")
		switch {
		case len(set.Rejected) > 0:
			fmt.Fprintf(w, "| %s | rejected by the transform: %s |||||||||||||||\n", obs, cell(set.Rejected[0]))
			continue
		case set.Error != "" && set.Logs == 0:
			fmt.Fprintf(w, "| %s | **tool error**: %s |||||||||||||||\n", obs, cell(errorSummary(set.Error)))
			continue
		}
		ovMed, ovWorst, suite := "-", "-", "-"
		if o := set.Overhead; o != nil && o.Tests > 0 {
			ovMed = fmt.Sprintf("%+.0f%% / %+.0f%%", 100*(o.MedianRatio-1), 100*(o.CPUMedianRatio-1))
			ovWorst = fmt.Sprintf("%+.0f%% / %+.0f%%", 100*(o.WorstRatio-1), 100*(o.CPUWorstRatio-1))
			suite = fmt.Sprintf("%+.0f%% / %+.0f%%", 100*(o.SuiteRatio-1), 100*(o.CPUSuiteRatio-1))
		}
		mut := "-"
		if m := set.Mutation; m != nil && m.Kept > 0 {
			mut = fmt.Sprintf("%d/%d · %d/%d · %d · %d", m.ByReplay, m.Kept, m.ByTests, m.Kept, m.Both, m.Neither)
		}
		failed := ""
		if len(set.CaptureFailed) > 0 {
			failed = fmt.Sprintf(" (%d failed under capture)", len(set.CaptureFailed))
		}
		if len(set.TestsRejected) > 0 {
			failed += fmt.Sprintf(" (%d more rejected up front)", len(set.TestsRejected))
		}
		fmt.Fprintf(w, "| %s | %d%s | %d | %d | %d | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |\n", obs, set.Tests, failed, set.Logs, set.Events, set.Passed,
			bold(set.Diverged), bold(set.Errors), len(set.Capped), len(set.TimedOut), num(set.BytesPerEvent, "%.1f"), num(set.ReplayEventsPS, "%.0f"), ovMed, ovWorst, suite, mut)
	}
	fmt.Fprintln(w)
	s.rejectedTests(w)
	s.cappedTable(w, capLabel(maxLog))
	s.timedOutTable(w)
	s.failureTable(w)
}

// capLabel names the cap on each log for the report: "capped at 256 MiB".
func capLabel(limit string) string {
	switch limit {
	case "":
		return "the cap"
	case "0":
		return "no cap"
	}
	if n, err := probectl.ParseBytes(limit); err == nil {
		return bytesString(n)
	}
	return limit
}

// cappedTable lists the logs that reached the size cap: their own outcome,
// not replayed (replay refuses a log that lacks events).
func (s *SubjectResult) cappedTable(w io.Writer, limit string) {
	var rows []string
	for _, set := range s.Sets {
		if len(set.Capped) == 0 {
			continue
		}
		obs := strings.Join(trimModule(set.Observed, s.Subject.Module), ",")
		var tests []string
		for _, t := range set.Capped {
			t = strings.TrimPrefix(strings.TrimPrefix(t, s.Subject.Module+"/"), s.Subject.Module+".")
			tests = append(tests, t)
		}
		rows = append(rows, fmt.Sprintf("| %s | %d | %s | %s |", cell(obs), len(set.Capped), bytesString(set.CappedBytes), cell(strings.Join(tests, ", "))))
	}
	rowsTable(w, fmt.Sprintf("Logs capped at %s (not replayed):", limit),
		"| observed | logs | bytes | tests |\n|---|---:|---:|---|", rows)
}

// rowsTable writes a titled Markdown table of rows, or nothing without rows.
func rowsTable(w io.Writer, title, header string, rows []string) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "%s\n\n%s\n", title, header)
	for _, r := range rows {
		fmt.Fprintln(w, r)
	}
	fmt.Fprintln(w)
}

// timedOutTable lists the tests that ran past their limit under capture.
func (s *SubjectResult) timedOutTable(w io.Writer) {
	var rows []string
	for _, set := range s.Sets {
		if len(set.TimedOut) == 0 {
			continue
		}
		obs := strings.Join(trimModule(set.Observed, s.Subject.Module), ",")
		var tests []string
		for _, t := range set.TimedOut {
			name := strings.TrimPrefix(strings.TrimPrefix(t.Test, s.Subject.Module+"/"), s.Subject.Module+".")
			tests = append(tests, fmt.Sprintf("%s (%s)", name, time.Duration(t.Limit*float64(time.Second))))
		}
		rows = append(rows, fmt.Sprintf("| %s | %d | %s |", cell(obs), len(set.TimedOut), cell(strings.Join(tests, ", "))))
	}
	rowsTable(w, "Tests that ran past their limit under capture (killed, no round trip):",
		"| observed | tests | tests (limit) |\n|---|---:|---|", rows)
}

// rejectedTests lists the tests capture test rejected up front, by reason.
func (s *SubjectResult) rejectedTests(w io.Writer) {
	type row struct{ sets, tests []string }
	groups := map[string]*row{}
	var reasons []string
	for _, set := range s.Sets {
		obs := strings.Join(trimModule(set.Observed, s.Subject.Module), ",")
		for _, r := range set.TestsRejected {
			test, why, _ := strings.Cut(r, ": ")
			g := groups[why]
			if g == nil {
				g = &row{}
				groups[why] = g
				reasons = append(reasons, why)
			}
			if !containsString(g.sets, obs) {
				g.sets = append(g.sets, obs)
			}
			if t := strings.TrimPrefix(test, s.Subject.Module+"."); !containsString(g.tests, t) {
				g.tests = append(g.tests, t)
			}
		}
	}
	if len(reasons) == 0 {
		return
	}
	fmt.Fprintln(w, "Tests rejected up front (not run under capture):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| reason | tests | observed sets |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, why := range reasons {
		g := groups[why]
		fmt.Fprintf(w, "| %s | %s | %s |\n", cell(why), strings.Join(g.tests, ", "), strings.Join(g.sets, "; "))
	}
	fmt.Fprintln(w)
}

// failureTable lists every failed round trip, grouped by reason.
func (s *SubjectResult) failureTable(w io.Writer) {
	type row struct{ sets, logs []string }
	groups := map[string]*row{}
	for _, set := range s.Sets {
		obs := strings.Join(trimModule(set.Observed, s.Subject.Module), ",")
		add := func(reason, log string) {
			g := groups[reason]
			if g == nil {
				g = &row{}
				groups[reason] = g
			}
			if !containsString(g.sets, obs) {
				g.sets = append(g.sets, obs)
			}
			g.logs = append(g.logs, log)
		}
		for _, f := range set.Failures {
			add(failureReason(f), strings.TrimPrefix(f.Log, s.Subject.Module+"."))
		}
		for _, t := range set.CaptureFailed {
			add("test failed under capture (passes without)", strings.TrimPrefix(t, s.Subject.Module+"."))
		}
		if set.Error != "" {
			for _, e := range strings.Split(set.Error, "\n\n") {
				add("tool error: "+errorSummary(e), "(set)")
			}
		}
	}
	if len(groups) == 0 {
		return
	}
	fmt.Fprintln(w, "Failed round trips by reason:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| reason | logs | observed sets | examples |")
	fmt.Fprintln(w, "|---|---:|---|---|")
	reasons := make([]string, 0, len(groups))
	for r := range groups {
		reasons = append(reasons, r)
	}
	sort.Slice(reasons, func(i, j int) bool {
		if a, b := len(groups[reasons[i]].logs), len(groups[reasons[j]].logs); a != b {
			return a > b
		}
		return reasons[i] < reasons[j]
	})
	for _, r := range reasons {
		g := groups[r]
		ex := g.logs
		if len(ex) > 3 {
			ex = ex[:3]
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", cell(r), len(g.logs), cell(strings.Join(g.sets, "; ")), cell(strings.Join(ex, ", ")))
	}
	fmt.Fprintln(w)
}

// failureReason is a divergence's reason with the log-specific parts
// (sequence numbers, values) left out, so that equal causes group.
func failureReason(f replayOutcome) string {
	if f.Divergence != nil {
		r := f.Divergence.Reason
		if i := strings.Index(r, ": "); i > 0 && strings.HasPrefix(r, "outcall from") {
			r = r[:i]
		}
		kind, _, _ := strings.Cut(f.Divergence.Expected, " ")
		if pos := f.Divergence.Pos; pos != "" {
			return fmt.Sprintf("%s (expected %s; at %s)", r, kind, pos)
		}
		return fmt.Sprintf("%s (expected %s)", r, kind)
	}
	return f.Verdict + ": " + firstLine(f.Error)
}

func trimModule(paths []string, mod string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		switch {
		case p == mod:
			out[i] = "(root)"
		case strings.HasPrefix(p, mod+"/"):
			out[i] = strings.TrimPrefix(p, mod+"/")
		default:
			out[i] = p
		}
	}
	return out
}

func bold(n int) string {
	if n == 0 {
		return "0"
	}
	return fmt.Sprintf("**%d**", n)
}

func num(v float64, f string) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf(f, v)
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

func codeBlock(s string) string { return "\n\n```\n" + s + "\n```" }

func bytesString(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// errorSummary is the telling line of a tool error: the first compiler or
// go command message (file:line: ...), with temporary directories cut
// off, after the error's own first line.
func errorSummary(msg string) string {
	first := firstLine(msg)
	for _, l := range strings.Split(msg, "\n")[1:] {
		l = strings.TrimSpace(l)
		if strings.Contains(l, ".go:") {
			if i := strings.LastIndex(l[:strings.Index(l, ".go:")], "/"); i >= 0 && strings.HasPrefix(l, "/") {
				l = l[i+1:]
			}
			return strings.TrimSuffix(first, ":") + ": " + l
		}
	}
	return first
}
