package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The user pages (README.md, docs/ and docs/design/) say what is true now.
// How a number or a fix came about belongs in git history and in lab/, so
// these pages must not cite study fault numbers, work sessions, a design
// document that is not in the repository, or carry dated run journals.
var forbidden = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\bF[0-9]{1,3}\b`), "a study fault ID (say what the fault is)"},
	{regexp.MustCompile(`(?i)\bsessions? [0-9]`), "a work session (say what is true now)"},
	{regexp.MustCompile(`DESIGN §`), "a design document that is not in this repository"},
	{regexp.MustCompile(`(?m)^#+ .*\b20[0-9]{2}-[0-9]{2}-[0-9]{2}\b`), "a dated run heading (a run journal belongs in lab/)"},
}

// userPages lists the pages a user reads: README.md, docs/*.md and
// docs/design/*.md, relative to the repository root.
func userPages(t *testing.T, root string) []string {
	t.Helper()
	pages := []string{"README.md"}
	for _, pattern := range []string{"docs/*.md", "docs/design/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				t.Fatal(err)
			}
			pages = append(pages, filepath.ToSlash(rel))
		}
	}
	if len(pages) < 10 {
		t.Fatalf("found only %d pages under %s: is the repository root right?", len(pages), root)
	}
	return pages
}

// repoRoot is the repository root seen from this package's directory, where
// go test runs it. The check reads files anywhere in the tree (link targets),
// so it runs under go test only (tools/test.sh runs go test ./...).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skipf("not in a source tree (%v): the page check runs under go test", err)
	}
	return root
}

func TestUserPagesCarryNoRunHistory(t *testing.T) {
	root := repoRoot(t)
	for _, page := range userPages(t, root) {
		b, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, f := range forbidden {
			for _, loc := range f.re.FindAllStringIndex(text, -1) {
				line := 1 + strings.Count(text[:loc[0]], "\n")
				t.Errorf("%s:%d: %q is %s", page, line, text[loc[0]:loc[1]], f.what)
			}
		}
	}
}

var (
	// [text](target) and ![alt](target); the target ends at the first
	// space or closing parenthesis (a title after a space is ignored).
	linkRe  = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)[^)]*\)`)
	fenceRe = regexp.MustCompile("^\\s*(```|~~~)")
	// Code spans are not links: `f[T, U](x)` is Go.
	codeRe = regexp.MustCompile("`[^`]*`")
)

// linkedPages are the pages whose relative links are checked: the user
// pages, and the pages outside docs/ that point into them.
func linkedPages(t *testing.T, root string) []string {
	return append(userPages(t, root),
		"lab/README.md",
		"examples/shop/README.md",
		"lab/study-repros/README.md",
	)
}

func TestRelativeLinksResolve(t *testing.T) {
	root := repoRoot(t)
	checked := 0
	for _, page := range linkedPages(t, root) {
		b, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for i, line := range strings.Split(string(b), "\n") {
			if fenceRe.MatchString(line) {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			for _, m := range linkRe.FindAllStringSubmatch(codeRe.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				p := filepath.Join(root, filepath.Dir(page), filepath.FromSlash(target))
				if rel, err := filepath.Rel(root, p); err != nil || strings.HasPrefix(rel, "..") {
					t.Errorf("%s:%d: link %q leaves the repository", page, i+1, m[1])
					continue
				}
				checked++
				if _, err := os.Stat(p); err != nil {
					t.Errorf("%s:%d: link %q: no such file", page, i+1, m[1])
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: the link pattern or the page list is wrong")
	}
}

// repoPathRe matches a repository path to a documentation or lab file
// written out in prose or code spans ("docs/log-format.md",
// `lab/scripts/meas.go`), which the link check above does not see.
var repoPathRe = regexp.MustCompile(`\b(?:docs|lab)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.(?:md|go|py|json)\b`)

func TestNamedRepositoryFilesExist(t *testing.T) {
	root := repoRoot(t)
	for _, page := range linkedPages(t, root) {
		b, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, loc := range repoPathRe.FindAllStringIndex(text, -1) {
			if loc[0] > 0 && (text[loc[0]-1] == '/' || text[loc[0]-1] == '.') {
				continue // part of a relative link or a longer path
			}
			name := text[loc[0]:loc[1]]
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
				line := 1 + strings.Count(text[:loc[0]], "\n")
				t.Errorf("%s:%d: names %s, which does not exist", page, line, name)
			}
		}
	}
}
