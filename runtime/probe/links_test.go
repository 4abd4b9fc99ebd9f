package probe

import (
	"debug/elf"
	"debug/gosym"
	"os"
	"strings"
	"testing"
)

// notLinked are module paths whose packages a capture or replay binary must
// not link: every such binary links this package, and Arrow's Go packages
// (with goccy/go-json, klauspost/cpuid and others they import) cost a short
// test process about 3 ms of package initialisation, before the first event
// (GODEBUG=inittrace=1 of a captured test binary shows it). runtime/eventlog
// writes and reads the Arrow IPC format without them; its tests use Arrow
// Go as the oracle.
var notLinked = []string{
	"github.com/apache/arrow/",
	"github.com/goccy/go-json",
	"github.com/klauspost/cpuid",
	"github.com/pierrec/lz4",
	"github.com/zeebo/xxh3",
}

// TestDoesNotLinkArrow reads the function table of this test binary, which
// links this package and its dependencies (and the test's, which add
// nothing of the above), and fails if any function comes from those
// modules. It needs no go command: the table (.gopclntab) is in every Go
// ELF binary, stripped or not.
func TestDoesNotLinkArrow(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("no executable path: %v", err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skipf("not an ELF binary (%v): the check reads ELF sections", err)
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		t.Fatalf("%s has no .gopclntab or .text section", exe)
	}
	data, err := pcln.Data()
	if err != nil {
		t.Fatal(err)
	}
	table, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		t.Fatal(err)
	}
	if len(table.Funcs) < 1000 {
		t.Fatalf("read only %d functions from %s", len(table.Funcs), exe)
	}
	found := map[string]string{}
	sawSelf := false
	for _, fn := range table.Funcs {
		if strings.HasPrefix(fn.Name, "github.com/rules-capture/rules_capture/runtime/eventlog.") {
			sawSelf = true
		}
		for _, m := range notLinked {
			if strings.HasPrefix(fn.Name, m) && found[m] == "" {
				found[m] = fn.Name
			}
		}
	}
	if !sawSelf {
		t.Fatal("the function table does not list runtime/eventlog's functions: the check reads it wrong")
	}
	for m, fn := range found {
		t.Errorf("a binary that links runtime/probe links %s (e.g. %s)", m, fn)
	}
}
