package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/probectl"
)

// WideCorpus is the study's broad corpus: popular pure-Go modules with
// real test suites that nobody here wrote (parsers, encoders, routers,
// caches, text, math, CLI helpers), each pinned to a version the Go module
// proxy serves, plus the default corpus's modules. How well the tool does
// on it tells how well it generalizes; `capture study -corpus wide`
// studies it, in chunks (-chunk) into a results directory (-results), and
// `capture study -table DIR` makes the one table of it.
func WideCorpus() []Subject {
	mods := []struct{ name, module, version string }{
		{"go-cmp", "github.com/google/go-cmp", "v0.7.0"},
		{"semver", "github.com/Masterminds/semver/v3", "v3.4.0"},
		{"toml", "github.com/BurntSushi/toml", "v1.6.0"},
		{"pflag", "github.com/spf13/pflag", "v1.0.10"},
		{"uuid", "github.com/google/uuid", "v1.6.0"},
		{"gjson", "github.com/tidwall/gjson", "v1.20.2"},
		{"sjson", "github.com/tidwall/sjson", "v1.2.9"},
		{"chi", "github.com/go-chi/chi/v5", "v5.5.0"},
		{"httprouter", "github.com/julienschmidt/httprouter", "v1.3.0"},
		{"mux", "github.com/gorilla/mux", "v1.8.1"},
		{"go-cache", "github.com/patrickmn/go-cache", "v2.1.0+incompatible"},
		{"go-humanize", "github.com/dustin/go-humanize", "v1.1.0"},
		{"decimal", "github.com/shopspring/decimal", "v1.6.0"},
		{"xxhash", "github.com/cespare/xxhash/v2", "v2.3.0"},
		{"errors", "github.com/pkg/errors", "v0.9.1"},
		{"shlex", "github.com/google/shlex", "v0.0.0-20191202100458-e7afc7fbc510"},
		{"go-runewidth", "github.com/mattn/go-runewidth", "v0.0.31"},
		{"uniseg", "github.com/rivo/uniseg", "v0.4.7"},
		{"glob", "github.com/gobwas/glob", "v1.1.0"},
		{"cast", "github.com/spf13/cast", "v1.10.0"},
		{"levenshtein", "github.com/agnivade/levenshtein", "v1.2.2"},
		{"go-toml", "github.com/pelletier/go-toml/v2", "v2.4.3"},
		{"go-version", "github.com/hashicorp/go-version", "v1.9.0"},
		{"go-diff", "github.com/sergi/go-diff", "v1.4.0"},
		{"go-difflib", "github.com/pmezard/go-difflib", "v1.0.0"},
		{"go-spew", "github.com/davecgh/go-spew", "v1.1.1"},
		{"bitset", "github.com/bits-and-blooms/bitset", "v1.29.0"},
		{"stats", "github.com/montanaflynn/stats", "v0.14.0"},
		{"yaml.v3", "gopkg.in/yaml.v3", "v3.0.1"},
		{"btree", "github.com/google/btree", "v1.1.3"},
		{"gods", "github.com/emirpasic/gods", "v1.18.1"},
		{"tidwall-btree", "github.com/tidwall/btree", "v1.8.2"},
		{"fastjson", "github.com/valyala/fastjson", "v1.6.10"},
		{"ulid", "github.com/oklog/ulid/v2", "v2.1.2"},
		{"xid", "github.com/rs/xid", "v1.6.0"},
		{"strcase", "github.com/iancoleman/strcase", "v0.3.0"},
		{"goldmark", "github.com/yuin/goldmark", "v1.8.7"},
		{"expr", "github.com/expr-lang/expr", "v1.17.8"},
		{"golang-lru", "github.com/hashicorp/golang-lru/v2", "v2.0.7"},
		{"pretty", "github.com/tidwall/pretty", "v1.3.0"},
		{"doublestar", "github.com/bmatcuk/doublestar/v4", "v4.10.4"},
		{"ksuid", "github.com/segmentio/ksuid", "v1.0.4"},
		{"fuzzy", "github.com/sahilm/fuzzy", "v0.1.3"},
		{"go-querystring", "github.com/google/go-querystring", "v1.2.0"},
		{"xstrings", "github.com/huandu/xstrings", "v1.6.3"},
		{"govalidator", "github.com/asaskevich/govalidator", "v0.0.0-20230301143203-a9d515a09cc2"},
		{"mapstructure", "github.com/mitchellh/mapstructure", "v1.5.0"},
	}
	out := make([]Subject, len(mods))
	for i, m := range mods {
		out[i] = Subject{Name: m.name, Module: m.module, Version: m.version, Patterns: []string{"./..."}}
	}
	return out
}

// ParseChunk parses "K/N" (1 <= K <= N).
func ParseChunk(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("chunk %q: want K/N with 1 <= K <= N, e.g. 2/8", s)
	}
	return k, n, nil
}

// Chunk returns the k-th (1-based) of n chunks of subjects: contiguous,
// of sizes that differ by at most one, together every subject once.
func Chunk(subjects []Subject, k, n int) []Subject {
	lo, hi := (k-1)*len(subjects)/n, k*len(subjects)/n
	return subjects[lo:hi]
}

// resultFile is where RunEach keeps the study of one subject.
func resultFile(dir string, sub Subject) string {
	return filepath.Join(dir, sub.Name, "study.json")
}

// ReadReport reads a study.json.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &rep, nil
}

// RunEach studies each subject on its own, into dir/<name>/study.json and
// study.md, so that a corpus can be studied in chunks and over several
// sessions: a subject whose finished study dir holds already is skipped
// unless force is set, and one whose study a run left unfinished is
// continued with the observed sets it has no result for, provided this
// run has the same flags and the same capture (commit) as the one that
// left it; otherwise RunEach refuses (force studies it afresh). Each
// observed set's scratch directory is removed once its result is
// recorded, and each subject's when its study ends (a module's copies,
// logs and binaries can take gigabytes). It returns the subjects it
// studied.
func RunEach(cfg Config, subjects []Subject, dir string, force bool) ([]string, error) {
	var done []string
	for _, sub := range subjects {
		c := cfg
		c.Out = filepath.Join(dir, sub.Name)
		c.dropSetScratch = true
		var prev *Report
		if !force {
			old, err := ReadReport(resultFile(dir, sub))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return done, fmt.Errorf("%s: %v (-force studies it afresh)", sub.Name, err)
			}
			if old != nil && sameSubject(old, sub) {
				if old.Finished {
					if cfg.Log != nil {
						fmt.Fprintf(cfg.Log, "study: %s: studied already (%s; -force studies it again)\n", sub.Name, resultFile(dir, sub))
					}
					continue
				}
				if err := resumable(old, c.defaults().header(time.Now())); err != nil {
					return done, fmt.Errorf("%s: %s holds an unfinished study that this run cannot continue: %v; rerun with the same flags and the same capture to continue it, or -force to study it afresh", sub.Name, resultFile(dir, sub), err)
				}
				prev = old
			}
		}
		if _, err := run(c, []Subject{sub}, prev); err != nil {
			return done, err
		}
		if err := os.RemoveAll(filepath.Join(cfg.Work, sub.Name)); err != nil {
			return done, err
		}
		done = append(done, sub.Name)
	}
	return done, nil
}

// sameSubject reports whether rep is a study of sub alone (the same
// module at the same version).
func sameSubject(rep *Report, sub Subject) bool {
	return len(rep.Subjects) == 1 && rep.Subjects[0].Subject.Module == sub.Module && rep.Subjects[0].Subject.Version == sub.Version
}

// resumable says why a run whose report starts as now cannot continue
// the unfinished study prev, or nil if it can: the same capture (a
// commit that names the code: not empty, not "+modified") and the same
// flags, or the sets already studied would not be comparable with the
// rest.
func resumable(prev, now *Report) error {
	switch {
	case prev.Commit == "" || now.Commit == "":
		return fmt.Errorf("a capture built without its commit (outside a git checkout or with -buildvcs=false) cannot tell whether it is the same")
	case strings.HasSuffix(prev.Commit, "+modified") || strings.HasSuffix(now.Commit, "+modified"):
		return fmt.Errorf("a capture built from a tree with uncommitted changes (%s, now %s) cannot tell whether it is the same; build it from a clean checkout", prev.Commit, now.Commit)
	case prev.Commit != now.Commit:
		return fmt.Errorf("it was studied with the capture of commit %s, this is %s", prev.Commit, now.Commit)
	case prev.GoVersion != now.GoVersion:
		return fmt.Errorf("it was studied with %s, this is %s", prev.GoVersion, now.GoVersion)
	case prev.Selection == nil:
		return fmt.Errorf("it records no -sets, -max-packages, -packages, -only-sets or -timeout")
	}
	var diff []string
	flag := func(name string, was, is any) {
		if !reflect.DeepEqual(was, is) {
			diff = append(diff, fmt.Sprintf("-%s %v, now %v", name, was, is))
		}
	}
	p, n := prev.Selection, now.Selection
	flag("seed", prev.Seed, now.Seed)
	flag("repeats", prev.Repeats, now.Repeats)
	flag("mutants", prev.Mutants, now.Mutants)
	flag("sets", p.RandomSets, n.RandomSets)
	flag("max-packages", p.MaxPackages, n.MaxPackages)
	flag("packages", listFlag(p.Packages), listFlag(n.Packages))
	flag("only-sets", listFlag(p.OnlySets), listFlag(n.OnlySets))
	flag("timeout", time.Duration(p.Timeout*float64(time.Second)), time.Duration(n.Timeout*float64(time.Second)))
	flag("test-limit", time.Duration(prev.TestLimit*float64(time.Second)), time.Duration(now.TestLimit*float64(time.Second)))
	flag("test-limit-factor", prev.TestLimitFactor, now.TestLimitFactor)
	flag("max-log-bytes (or $"+probectl.EnvMaxBytes+")", prev.MaxLogBytes, now.MaxLogBytes)
	if len(diff) > 0 {
		return fmt.Errorf("it was studied with other flags (%s)", strings.Join(diff, "; "))
	}
	return nil
}

// listFlag is a list flag's value as it is written: comma-separated, or
// "none".
func listFlag[T any](v []T) string {
	if len(v) == 0 {
		return "none"
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}
