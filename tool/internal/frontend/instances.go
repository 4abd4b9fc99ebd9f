package frontend

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/tool/transform"
)

// addInstances adds to the harness in dir (import path harness) the file
// that instantiates the generic incalls the logs call; Go only contains an
// instantiation where code names it, and the callers that named it in the
// capture are not part of the harness.
func (s *Session) addInstances(dir, harness string, logs []string) error {
	sites, err := IncallSites(logs)
	if err != nil {
		return err
	}
	src, skipped := transform.HarnessInstances(harness, s.Observed, sites)
	for _, sk := range skipped {
		fmt.Fprintf(os.Stderr, "capture replay: cannot instantiate %s; replaying its calls will diverge\n", sk)
	}
	if src == nil {
		return nil
	}
	return s.AddFile(filepath.Join(dir, "instances.go"), src)
}

// IncallSites returns the sites of the incalls (CALL_IN events) of logs,
// sorted: the input of transform.HarnessInstances.
func IncallSites(logs []string) ([]string, error) {
	seen := map[string]bool{}
	for _, l := range logs {
		if err := logSites(l, seen); err != nil {
			return nil, err
		}
	}
	sites := make([]string, 0, len(seen))
	for site := range seen {
		sites = append(sites, site)
	}
	sort.Strings(sites)
	return sites, nil
}

// logSites adds the sites of the incalls of a log to sites.
func logSites(path string, sites map[string]bool) error {
	r, err := eventlog.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		e, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// The replay itself reports a damaged log; what was readable
			// still names its instantiations.
			return nil
		}
		if e.Kind == eventlog.KindCallIn && !sites[e.Site] {
			sites[strings.Clone(e.Site)] = true // the reader reuses its buffers
		}
	}
}
