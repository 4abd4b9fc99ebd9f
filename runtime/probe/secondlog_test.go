package probe

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A second log in one process names objects the first described without
// their contents, so it does not replay on its own: starting it must say
// so, once.
func TestSecondLogInProcessWarns(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.arrow"), filepath.Join(dir, "second.arrow")
	if err := Capture(first); err != nil {
		t.Fatal(err)
	}
	Close()

	saved := rec.warned
	rec.warned = false
	defer func() { rec.warned = saved }()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	err = Capture(second)
	Close()
	if err == nil {
		err = Capture(filepath.Join(dir, "third.arrow")) // warned already: silent
		Close()
	}
	os.Stderr = stderr
	w.Close()
	out, _ := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(out), "second log of this process"); got != 1 {
		t.Fatalf("stderr has %d warnings about a second log, want 1:\n%s", got, out)
	}
	if !strings.Contains(string(out), second) || !strings.Contains(string(out), first) || !strings.Contains(string(out), "write one log per process") {
		t.Errorf("the warning names neither both logs nor the fix:\n%s", out)
	}
}
