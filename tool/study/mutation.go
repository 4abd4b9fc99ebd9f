package study

import (
	"hash/fnv"
	"os"
	"path/filepath"

	"github.com/rules-capture/rules_capture/tool/mutate"
)

// Mutation is the mutation check of one observed package: generated
// mutants of its non-test files, each judged by replaying the logs
// captured from the unchanged code and by the module's own tests.
type Mutation struct {
	Candidates int             `json:"candidates"` // mutants the generator found in the package
	Logs       int             `json:"logs"`       // logs replayed per mutant: those that pass on the unchanged code
	Stillborn  int             `json:"stillborn"`  // picked but did not compile (skipped)
	Kept       int             `json:"kept"`
	ByReplay   int             `json:"by_replay"` // a replay diverged (or could not replay)
	ByTests    int             `json:"by_tests"`  // go test failed
	Both       int             `json:"both"`
	Neither    int             `json:"neither"`
	Mutants    []MutantOutcome `json:"mutants"`
}

// MutantOutcome is one mutant's verdicts.
type MutantOutcome struct {
	mutate.Mutant
	ByReplay   bool   `json:"by_replay"`
	ByTests    bool   `json:"by_tests"`
	Diverged   int    `json:"logs_diverged"`
	ReplayNote string `json:"replay_note,omitempty"` // first divergence or replay error
	Error      string `json:"error,omitempty"`
}

func (m *moduleRun) mutation(pkg string, setDir string, logs []string) *Mutation {
	res := &Mutation{Logs: len(logs)}
	if res.Logs == 0 {
		return res
	}
	var lp *listedPackage
	for i := range m.pkgs {
		if m.pkgs[i].ImportPath == pkg {
			lp = &m.pkgs[i]
		}
	}
	if lp == nil {
		return res
	}
	var cands []mutate.Mutant
	srcs := map[string][]byte{}
	for _, name := range lp.GoFiles {
		path := filepath.Join(lp.Dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		srcs[path] = src
		c, err := mutate.Candidates(path, src)
		if err != nil {
			continue
		}
		cands = append(cands, c...)
	}
	res.Candidates = len(cands)
	h := fnv.New64a()
	h.Write([]byte(pkg))
	picked := mutate.Pick(cands, 5*m.r.cfg.Mutants, m.r.cfg.Seed^int64(h.Sum64()))
	for _, mu := range picked {
		if res.Kept == m.r.cfg.Mutants {
			break
		}
		o, compiled := m.judge(mu, srcs[mu.File], lp.ImportPath, setDir, logs)
		if !compiled {
			res.Stillborn++
			continue
		}
		res.Kept++
		if o.ByReplay {
			res.ByReplay++
		}
		if o.ByTests {
			res.ByTests++
		}
		switch {
		case o.ByReplay && o.ByTests:
			res.Both++
		case !o.ByReplay && !o.ByTests:
			res.Neither++
		}
		m.r.logf("%s:   mutant %s: replay %v, tests %v%s", m.sub.Name, mu, o.ByReplay, o.ByTests, noteOf(o))
		res.Mutants = append(res.Mutants, o)
	}
	return res
}

func noteOf(o MutantOutcome) string {
	if o.ReplayNote == "" {
		return ""
	}
	return " (" + firstLine(o.ReplayNote) + ")"
}

// judge applies one mutant, and if it compiles runs the module's tests and
// replays the set's logs against it; the original file is always restored.
func (m *moduleRun) judge(mu mutate.Mutant, orig []byte, pkg string, setDir string, logs []string) (MutantOutcome, bool) {
	o := MutantOutcome{Mutant: mu}
	mutated, err := mu.Apply(orig)
	if err != nil {
		o.Error = err.Error()
		return o, false
	}
	if err := os.WriteFile(mu.File, mutated, 0o644); err != nil {
		o.Error = err.Error()
		return o, false
	}
	defer os.WriteFile(mu.File, orig, 0o644)
	// Mutants change no declaration, so if the package compiles its
	// tests do too.
	if _, err := m.r.command(m.dir, nil, "go", "build", pkg).output(); err != nil {
		return o, false
	}
	_, _, code, err := m.r.command(m.dir, nil, "go", append([]string{"test", "-count=1", "-timeout=5m"}, m.sub.Patterns...)...).combined()
	o.ByTests = err != nil || code != 0
	outcomes, err := m.replay(pkg, logs, filepath.Join(setDir, "mutant-reports"), "")
	if err != nil {
		// The mutant's harness did not build or the replay tool failed:
		// the mutant is noticed, but say how.
		o.ByReplay = true
		o.ReplayNote = "replay failed: " + errorSummary(err.Error())
	}
	for _, out := range outcomes {
		if out.Verdict != "pass" {
			o.ByReplay = true
			o.Diverged++
			if o.ReplayNote == "" {
				if out.Divergence != nil {
					o.ReplayNote = out.Divergence.Reason + " at " + out.Divergence.Pos
				} else {
					o.ReplayNote = out.Verdict + ": " + out.Error
				}
			}
		}
	}
	return o, true
}
