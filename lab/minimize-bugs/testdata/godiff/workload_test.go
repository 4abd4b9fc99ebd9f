package diffmatchpatch_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// TestSettingsHistory is the workload of a settings-history viewer: it
// shows each of 200 changes to a service's settings as a line diff, the
// recipe the package documents (DiffLinesToRunes, DiffMainRunes,
// DiffCharsToLines), and counts the lines added and removed. Most values
// are one line; change 150 edits the one multi-line value, a crontab,
// keeping most of its lines. go-diff v1.2.0 numbered the lines of the two
// texts apart, so that a line both texts hold got two numbers and the
// line diff found no line in common; v1.3.1 fixed it.
func TestSettingsHistory(t *testing.T) {
	dmp := diffmatchpatch.New()
	keys := []string{"port", "host", "log.level", "db.pool", "cache.ttl", "feature.search", "timeout", "region"}
	values := map[string]string{
		"port": "8080", "host": "api.example.com", "log.level": "info", "db.pool": "16",
		"cache.ttl": "30s", "feature.search": "off", "timeout": "5s", "region": "eu-west-1",
		"crontab": "0 * * * * rotate-logs\n*/5 * * * * health-check\n30 2 * * * backup --full\n0 4 * * 0 vacuum-db\n",
	}
	added, removed := 0, 0
	for i := 0; i < 200; i++ {
		key := keys[(i*3)%len(keys)]
		old := values[key]
		value := fmt.Sprintf("%s-%d", strings.SplitN(old, "-", 2)[0], i)
		if i == 150 {
			key, old = "crontab", values["crontab"]
			value = strings.Replace(old, "30 2 * * * backup --full", "30 3 * * * backup --full --verify", 1)
		}
		values[key] = value
		a, b, lines := dmp.DiffLinesToRunes(old, value)
		diffs := dmp.DiffMainRunes(a, b, false)
		diffs = dmp.DiffCharsToLines(diffs, lines)
		for _, d := range diffs {
			switch d.Type {
			case diffmatchpatch.DiffInsert:
				added += strings.Count(d.Text, "\n") + 1
			case diffmatchpatch.DiffDelete:
				removed += strings.Count(d.Text, "\n") + 1
			}
		}
		if i == 150 {
			t.Logf("crontab: %s", dmp.DiffPrettyText(diffs))
		}
	}
	t.Logf("%d lines added, %d removed", added, removed)
}
