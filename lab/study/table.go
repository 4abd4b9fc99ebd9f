package study

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Table writes the one table of a corpus studied with RunEach into dir:
// a row per module (module, version, the rules_capture commit it was
// studied at, observed sets, rejected, tool
// errors, round trips, passed, false divergences, replay errors, timeouts,
// capped logs, mutants caught by replay and by the module's tests), the
// totals, the most common causes of failures and rejections over all
// modules, and the modules of want that dir holds no finished study of.
func Table(w io.Writer, dir string, want []Subject) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "study.json"))
	if err != nil {
		return err
	}
	type row struct {
		res      *SubjectResult
		finished bool
		commit   string
	}
	byModule := map[string]row{}
	for _, p := range paths {
		rep, err := ReadReport(p)
		if err != nil {
			return err
		}
		for _, s := range rep.Subjects {
			byModule[s.Subject.Module] = row{s, rep.Finished, rep.Commit}
		}
	}
	var order []string
	for _, s := range want {
		if _, ok := byModule[s.Module]; ok {
			order = append(order, s.Module)
		}
	}
	var extra []string
	for m := range byModule {
		if !containsString(order, m) {
			extra = append(extra, m)
		}
	}
	sort.Strings(extra)
	order = append(order, extra...)

	var tot Totals
	var mut mutantTally
	studied, partial, failed := 0, 0, 0
	causes := map[string]*cause{}
	fmt.Fprintln(w, "| module | version | commit | observed sets | rejected | tool errors | round trips | passed | false divergences | replay errors | timed out | capped | mutants | caught by replay | caught by tests |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, m := range order {
		r := byModule[m]
		s := r.res
		name := s.Subject.Module
		if !r.finished {
			name += " (unfinished)"
			partial++
		}
		if s.Error != "" {
			failed++
			fmt.Fprintf(w, "| %s | %s | %s | not studied: %s ||||||||||||\n", name, s.Subject.Version, r.commit, cell(errorSummary(s.Error)))
			countCause(causes, "module not studied: "+errorSummary(s.Error), s.Subject.Name)
			continue
		}
		studied++
		t := s.Totals
		tot.merge(t)
		for _, set := range s.Sets {
			mut.add(set)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %d | %s | %d | %d | %s | %s | %d | %d | %d | %d | %d |\n", name, s.Subject.Version, r.commit, t.Sets, t.Rejected, bold(t.ToolErrors),
			t.Passed+t.Diverged+t.Errors, t.Passed, bold(t.Diverged), bold(t.Errors), t.TimedOut, t.Capped, t.Mutants, t.ByReplay, t.ByTests)
		s.causes(causes)
	}
	fmt.Fprintf(w, "| **all %d** | | | %d | %d | %s | %d | %d | %s | %s | %d | %d | %d | %d | %d |\n", studied, tot.Sets, tot.Rejected, bold(tot.ToolErrors),
		tot.Passed+tot.Diverged+tot.Errors, tot.Passed, bold(tot.Diverged), bold(tot.Errors), tot.TimedOut, tot.Capped, tot.Mutants, tot.ByReplay, tot.ByTests)
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%d modules studied", studied)
	if failed > 0 {
		fmt.Fprintf(w, ", %d could not be studied", failed)
	}
	if partial > 0 {
		fmt.Fprintf(w, "; %d unfinished (their study was interrupted: the sets so far)", partial)
	}
	fmt.Fprintf(w, ". Round trips are the replayed logs (capped and timed-out tests are not replayed); every divergence is on unchanged code, so false. Observed sets accepted: %s.\n", pct(tot.Sets-tot.Rejected, tot.Sets))
	if mut.kept > 0 {
		fmt.Fprintf(w, "\nMutants, each judged both ways (by replaying the set's logs that passed on the unchanged code, and by the module's tests that passed without capture): %d; caught by replay %d (%s), by the tests %d (%s); by both %d, by replay only %d, by the tests only %d, by neither %d.",
			mut.kept, mut.byReplay, pct(mut.byReplay, mut.kept), mut.byTests, pct(mut.byTests, mut.kept), mut.both, mut.byReplay-mut.both, mut.byTests-mut.both, mut.neither)
		fmt.Fprintf(w, " Where both apply, the tests counting only through a test whose log is among those replayed (a test whose round trip diverged, failed, was capped, timed out or was rejected has no log to replay the mutant from): caught by replay %d, by the tests %d.\n", mut.byReplay, mut.byTestsReplayed)
	}
	var missing []string
	for _, s := range want {
		if r, ok := byModule[s.Module]; !ok || !r.finished {
			missing = append(missing, s.Module+"@"+s.Version)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "\nNot yet studied (or unfinished): %s.\n", strings.Join(missing, ", "))
	}
	writeCauses(w, causes)
	return nil
}

// mutantTally sums the mutation checks of a table's sets. A mutant is
// only kept where the set has logs that replay and the package compiles
// with it, and every kept mutant is judged by replay and by the tests
// alike, so the two counts compare like with like; the overlap says
// whether either catches what the other misses.
//
// The tests judge a mutant with every test that passes without capture,
// replay only with the logs that passed on the unchanged code, so
// byTestsReplayed also counts the mutants the tests catch through a test
// that has such a log (or through a whole package's failure): the two
// judges on the same tests.
type mutantTally struct {
	kept, byReplay, byTests, both, neither, byTestsReplayed int
}

func (t *mutantTally) add(set *SetResult) {
	m := set.Mutation
	if m == nil {
		return
	}
	t.kept += m.Kept
	t.byReplay += m.ByReplay
	t.byTests += m.ByTests
	t.both += m.Both
	t.neither += m.Neither
	noLog := map[string]bool{}
	for _, f := range set.Failures {
		noLog[f.Log] = true
	}
	for _, c := range set.Capped {
		noLog[c] = true
	}
	for _, o := range set.TimedOut {
		noLog[o.Test] = true
	}
	for _, r := range set.TestsRejected {
		test, _, _ := strings.Cut(r, ": ")
		noLog[test] = true
	}
	for _, mu := range m.Mutants {
		for _, ft := range mu.FailedTests {
			if strings.HasSuffix(ft, " (package)") || !noLog[ft] {
				t.byTestsReplayed++
				break
			}
		}
	}
}

// cause is one cause of failed round trips, rejections or tool errors,
// over the modules of a table.
type cause struct {
	text    string
	count   int
	modules []string
}

func countCause(causes map[string]*cause, text, module string) {
	text = anyPosition.ReplaceAllString(text, "…")
	c := causes[text]
	if c == nil {
		c = &cause{text: text}
		causes[text] = c
	}
	c.count++
	if !containsString(c.modules, module) {
		c.modules = append(c.modules, module)
	}
}

// position is a file:line:col prefix, which varies between occurrences of
// one cause.
var position = regexp.MustCompile(`^\S+\.go:\d+(:\d+)?: `)

// anyPosition is a file:line[:col] anywhere in a message: where the
// cause showed, which the count of one cause over modules leaves out.
var anyPosition = regexp.MustCompile(`[^\s(]+\.go:\d+(:\d+)?`)

// causes counts the subject's failed round trips (by reason), rejected
// sets (by the construct, without its position), tool errors, tests
// failed only under capture and timed-out tests.
func (s *SubjectResult) causes(causes map[string]*cause) {
	name := s.Subject.Name
	for _, set := range s.Sets {
		for _, f := range set.Failures {
			countCause(causes, unrebuiltKind(failureReason(f)), name)
		}
		if len(set.Rejected) > 0 {
			countCause(causes, "rejected: "+position.ReplaceAllString(set.Rejected[0], ""), name)
		}
		if set.Error != "" {
			for _, e := range strings.Split(set.Error, "\n\n") {
				countCause(causes, "tool error: "+errorSummary(e), name)
			}
		}
		for range set.CaptureFailed {
			countCause(causes, "test failed under capture (passes without)", name)
		}
		for range set.TimedOut {
			countCause(causes, "test ran past its limit under capture", name)
		}
	}
}

// unrebuilt is replay's refusal of a log holding a reflected value whose
// type it cannot make: the type's name, why (in parentheses) and where
// the value was recorded.
var unrebuilt = regexp.MustCompile(`^error: reflected value of type .+? cannot be rebuilt in replay \((.*)\), an argument of `)

// rebuiltKinds are the reasons replay names for a type it cannot make.
var rebuiltKinds = []string{
	"a type literal without a name",
	"declared in an external test package",
	"declared inside a function",
	"declared in a _test.go file",
	"declared in a package the replay build does not contain",
}

// unrebuiltKind turns the refusal of a reflected value's type into one
// cause per reason (the first the message names), without the type and
// the call, which differ from log to log: one module's tests often pass
// dozens of function-local types, each a cause of its own otherwise.
// Other reasons are returned as they are.
func unrebuiltKind(reason string) string {
	m := unrebuilt.FindStringSubmatch(reason)
	if m == nil {
		return reason
	}
	first, at := "", len(m[1])
	for _, k := range rebuiltKinds {
		if i := strings.Index(m[1], k); i >= 0 && i < at {
			first, at = k, i
		}
	}
	if first == "" {
		return reason
	}
	return "error: reflected value of a type replay cannot rebuild: " + first + " (docs/design/reflection.md)"
}

// writeCauses lists the most common causes, most frequent first.
func writeCauses(w io.Writer, causes map[string]*cause) {
	if len(causes) == 0 {
		return
	}
	list := make([]*cause, 0, len(causes))
	for _, c := range causes {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].count != list[j].count {
			return list[i].count > list[j].count
		}
		return list[i].text < list[j].text
	})
	const most = 25
	fmt.Fprintln(w, "\nMost common causes (failed round trips by reason, rejected sets by construct, tool errors, tests failed or past their limit under capture):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| count | cause | modules |")
	fmt.Fprintln(w, "|---:|---|---|")
	for i, c := range list {
		if i == most {
			fmt.Fprintf(w, "\n%d less common causes are in each module's study.md.\n", len(list)-most)
			break
		}
		fmt.Fprintf(w, "| %d | %s | %s |\n", c.count, cell(c.text), strings.Join(c.modules, ", "))
	}
}
