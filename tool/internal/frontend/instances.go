package frontend

import (
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/tool/internal/harnessgen"
	"github.com/rules-capture/rules_capture/tool/internal/load"
	"github.com/rules-capture/rules_capture/tool/transform"
)

// addHarness adds to the overlay the sources of the replay harness in dir
// (import path harness): its main package, which links the observed
// packages and the player, and the file that instantiates the generic
// incalls of sites (LogSites; logOf names a log that calls each, for
// messages). Go only contains an instantiation where code names it, and the
// callers that named it in the capture are not part of the harness. The
// file names only types of the packages the build already contains
// (s.Listed, type-checked from their export data), so no log adds a package
// to the build. It returns the instantiations it skipped, "site: why".
func (s *Session) addHarness(dir, harness string, sites []string, logOf map[string]string, linkedTests map[string]bool) (skipped []string, err error) {
	build := transform.TypesBuild(load.Importer(token.NewFileSet(), s.Listed, &load.ListedPackage{}))
	files, err := harnessgen.Generate(harnessgen.Harness{Package: "main", ImportPath: harness, Observed: s.Observed}, sites, build)
	if err != nil {
		return nil, err
	}
	for _, sk := range files.Skipped {
		log := ""
		for site, l := range logOf {
			if strings.HasPrefix(sk, site+": ") {
				log = "log " + l + ": "
			}
		}
		fmt.Fprintf(os.Stderr, "capture replay: %scannot instantiate %s; the logs that call it are not replayed\n", log, sk)
	}
	if err := s.AddFile(filepath.Join(dir, "main.go"), files.Main); err != nil {
		return nil, err
	}
	if err := s.AddFile(filepath.Join(dir, "instances.go"), files.Instances); err != nil {
		return nil, err
	}
	var observed []*load.ListedPackage
	for _, o := range s.testLinked(s.extraTests) {
		if lp := s.Listed[o]; lp != nil {
			observed = append(observed, lp)
		}
	}
	declared, err := harnessgen.Declared("main", declaredWhere(observed, linkedTests))
	if err != nil {
		return nil, err
	}
	return files.Skipped, s.AddFile(filepath.Join(dir, "declared.go"), declared)
}

// IncallSites returns the sites of the incalls (CALL_IN events) of logs,
// sorted: the input of harnessgen.Generate. A log with a site that
// no capture writes (transform.CheckIncallSite) is an error naming the log
// and the site.
func IncallSites(logs []string) ([]string, error) {
	seen := map[string]bool{}
	for _, l := range logs {
		sites, err := LogSites(l)
		if err != nil {
			return nil, err
		}
		for _, s := range sites {
			seen[s] = true
		}
	}
	sites := make([]string, 0, len(seen))
	for site := range seen {
		sites = append(sites, site)
	}
	sort.Strings(sites)
	return sites, nil
}

// LogSites returns the distinct sites of the incalls of a log, or an error
// naming the log: it cannot be read, or one of its generic sites is outside
// the grammar of site names (a *transform.SiteError: the log is corrupt or
// hostile, and replay builds nothing from it).
func LogSites(path string) ([]string, error) {
	return logSites(path, "", nil)
}

// logSites is LogSites, and adds to names the types of module modPath that
// the log's values, receiver types and sites name (moduleNames).
func logSites(path, modPath string, names map[string]map[string]bool) ([]string, error) {
	r, err := eventlog.Open(path)
	if err != nil {
		return nil, fmt.Errorf("log %s: %w", path, err)
	}
	defer r.Close()
	seen := map[string]bool{}
	var sites []string
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			// The replay itself reports a damaged log; what was readable
			// still names its instantiations.
			break
		}
		if names != nil {
			moduleNames(string(e.Values), modPath, names)
			moduleNames(e.RecvType, modPath, names)
			moduleNames(e.Site, modPath, names)
		}
		if e.Kind != eventlog.KindCallIn || seen[e.Site] {
			continue
		}
		if err := transform.CheckIncallSite(e.Site); err != nil {
			return nil, fmt.Errorf("log %s: %w", path, err)
		}
		site := strings.Clone(e.Site) // the reader reuses its buffers
		seen[site] = true
		sites = append(sites, site)
	}
	return sites, nil
}
