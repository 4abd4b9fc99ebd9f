package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/lab/study"
)

func TestStudyFlagsRefuseBadCorpusAndChunk(t *testing.T) {
	for _, args := range [][]string{
		{"-corpus", "narrow"},
		{"-corpus", "wide", "-chunk", "3/2", "-results", t.TempDir()},
		{"-results", t.TempDir(), "-o", t.TempDir()},
	} {
		if code := runStudy(args); code != 2 {
			t.Errorf("capture study %s: exit %d, want 2 (usage)", strings.Join(args, " "), code)
		}
	}
}

// TestStudyTablePrintsTheWideCorpusTable: -table studies nothing and
// prints the table of the results in DIR, naming the wide corpus's
// modules not yet studied.
func TestStudyTablePrintsTheWideCorpusTable(t *testing.T) {
	dir := t.TempDir()
	sub := study.WideCorpus()[0]
	res := &study.SubjectResult{Subject: sub, Sets: []*study.SetResult{{Observed: []string{sub.Module}, Kind: "package", Logs: 5, Passed: 5}}}
	res.Totals = study.Totals{Sets: 1, Logs: 5, Passed: 5}
	if err := (&study.Report{Finished: true, Subjects: []*study.SubjectResult{res}}).Write(filepath.Join(dir, sub.Name)); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	code := runStudy([]string{"-corpus", "wide", "-table", dir})
	os.Stdout = stdout
	w.Close()
	var b strings.Builder
	buf := make([]byte, 1<<16)
	for {
		n, err := r.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	out := b.String()
	second := study.WideCorpus()[1]
	for _, want := range []string{"| " + sub.Module + " | " + sub.Version + " |  | 1 | 0 | 0 | 5 | 5 | 0 | 0 |", "Not yet studied (or unfinished): " + second.Module + "@" + second.Version} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
