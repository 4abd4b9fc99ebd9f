package probe

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
)

// TestCutClosedLogIsNotReplayed: the checked-in shop log, closed by its
// writer, cut at every tenth of its length (and a byte short of it) does
// not load for replay: a replay of the events that remain could pass
// although the program was never checked against the rest.
func TestCutClosedLogIsNotReplayed(t *testing.T) {
	b, err := os.ReadFile("../../examples/shop/testdata/capture/shop_seed1.arrow")
	if err != nil {
		t.Skipf("checked-in log not here: %v", err)
	}
	dir := t.TempDir()
	for i := 1; i <= 10; i++ {
		n := len(b) * i / 10
		if i == 10 {
			n--
		}
		path := filepath.Join(dir, "cut.arrow")
		if err := os.WriteFile(path, b[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := loadLog(path)
		if !errors.Is(err, eventlog.ErrTruncated) || !strings.Contains(err.Error(), "it was cut after it was closed (copy it again)") {
			t.Fatalf("cut at %d of %d bytes: err = %v", n, len(b), err)
		}
	}
}

// TestCheckedInLogsLoad: the logs checked into the repository (formats 1
// and 2, without checksums) still load for replay, whole.
func TestCheckedInLogsLoad(t *testing.T) {
	var paths []string
	for _, pat := range []string{"../eventlog/testdata/*.arrow*", "../../examples/shop/testdata/capture/*.arrow", "../../rules/tests/*/testdata/*.arrow",
		"../../rules/tests/*/*/testdata/capture/*.arrow"} {
		m, _ := filepath.Glob(pat)
		paths = append(paths, m...)
	}
	if len(paths) == 0 {
		t.Skip("no checked-in logs here")
	}
	for _, path := range paths {
		p, err := loadLog(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		r, err := eventlog.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		// Replay plays every event but the CHECKPOINT and NO_CHECKPOINT
		// ones (a segment's restore reads its checkpoint apart), which the
		// rotated segments of the shop hold; the status counts them all.
		var read, played uint64
		for {
			e, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			read++
			if e.Kind != eventlog.KindCheckpoint && e.Kind != eventlog.KindNoCheckpoint {
				played++
			}
		}
		if n := r.Meta().Status.Events; read != n || uint64(p.total) != played {
			t.Errorf("%s: %d events loaded of the %d it holds besides checkpoints; %d read, its status says %d", path, p.total, played, read, n)
		}
		r.Close()
	}
}
