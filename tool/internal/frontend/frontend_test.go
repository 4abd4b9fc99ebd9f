package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHarnessParent(t *testing.T) {
	for _, c := range []struct {
		observed []string
		want     string
		fails    bool
	}{
		{[]string{"m/a", "m/b"}, ".", false},
		{[]string{"m/deep/internal/x"}, "deep", false},
		{[]string{"m/deep/internal/x", "m/a"}, "deep", false},
		{[]string{"m/internal/x", "m/deep/internal/y"}, "deep", false},
		{[]string{"m/a/internal/x", "m/b/internal/y"}, "", true},
	} {
		got, err := harnessParent("m", c.observed)
		if (err != nil) != c.fails || got != c.want {
			t.Errorf("%v: got %q, %v; want %q (fails %v)", c.observed, got, err, c.want, c.fails)
		}
	}
}

// TestKeepLanguage: the temporary module file raises an older go line to
// rules_capture's, keeps the toolchain line, and adds the GODEBUG default
// of the module's own go line unless the module sets one; GoFlags pins the
// module's language version.
func TestKeepLanguage(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+Module+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mod, want, lang string
	}{
		{"module m\n\ngo 1.18\n\ntoolchain go1.20.1\n", "module m\n\ngo 1.26\n\ntoolchain go1.20.1\n\n// capture: the GODEBUG defaults of the module's own go line\ngodebug default=go1.18\n", "1.18"},
		{"module m\n\ngo 1.21.3 // pinned\n\ngodebug default=go1.20\n", "module m\n\ngo 1.26 // pinned\n\ngodebug default=go1.20\n", "1.21"},
		{"module m\n\ngo 1.20\n\ngodebug (\n\tdefault=go1.19\n\tpanicnil=1\n)\n", "module m\n\ngo 1.26\n\ngodebug (\n\tdefault=go1.19\n\tpanicnil=1\n)\n", "1.20"},
		{"module m\n", "module m\n\ngo 1.26\n\n// capture: the GODEBUG defaults of the module's own go line\ngodebug default=go1.16\n", "1.16"},
		{"module m\n\ngo 1.26.1\n", "module m\n\ngo 1.26.1\n", ""},
		{"module m\n\ngo 1.27\n", "module m\n\ngo 1.27\n", ""},
	} {
		s := &Session{Root: root}
		got, err := s.keepLanguage("go.mod", []byte(c.mod))
		if err != nil {
			t.Fatalf("%q: %v", c.mod, err)
		}
		if got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.mod, got, c.want)
		}
		flag := ""
		for _, f := range s.GoFlags() {
			if strings.HasPrefix(f, "-gcflags=") {
				flag = f
			}
		}
		switch want := "-gcflags=m/...=-lang=go" + c.lang; {
		case c.lang == "" && flag != "":
			t.Errorf("%q: GoFlags has %s; want none", c.mod, flag)
		case c.lang != "" && flag != want:
			t.Errorf("%q: GoFlags has %q; want %s", c.mod, flag, want)
		}
	}
}

// TestRefuseUninstantiable: every log that calls an instantiation the
// harness skipped is refused, naming the instantiation and why; a log
// already refused keeps its first reason, and the others stay.
func TestRefuseUninstantiable(t *testing.T) {
	local := "example.com/m/assert.Equal[*example.com/m_test.Config·b5f5182638df0b25]"
	ok := "example.com/m/assert.Equal[string]"
	callers := map[string][]string{
		local: {"/l/a.arrow", "/l/b.arrow", "/l/bad.arrow"},
		ok:    {"/l/a.arrow", "/l/c.arrow"},
	}
	first := os.ErrInvalid
	bad := map[string]error{"/l/bad.arrow": first}
	refuseUninstantiable(bad, callers, []string{local + ": type argument example.com/m_test.Config·b5f5182638df0b25 is a type declared inside a function"})
	for _, l := range []string{"/l/a.arrow", "/l/b.arrow"} {
		if err := bad[l]; err == nil || !strings.HasPrefix(err.Error(), l+": calls "+local+", a generic instantiation the replay harness cannot make (type argument") || !strings.Contains(err.Error(), "declared inside a function") || !strings.Contains(err.Error(), "docs/limitations.md") {
			t.Errorf("%s: %v", l, err)
		}
	}
	if bad["/l/bad.arrow"] != first {
		t.Errorf("the earlier reason was replaced: %v", bad["/l/bad.arrow"])
	}
	if bad["/l/c.arrow"] != nil {
		t.Errorf("a log calling only instantiable sites is refused: %v", bad["/l/c.arrow"])
	}
}
