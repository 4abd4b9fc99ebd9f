// Package csvbuffer: observed code formats records into its own
// bytes.Buffer through a csv.Writer (pflag's stringToStringValue.String):
// `w := csv.NewWriter(&buf)`, `w.Write(records)`, `w.Flush()`, then
// `buf.String()`. The writer's calls were outcalls answered from the log, so
// in replay nothing was written into the buffer (pflag's GetStringToString).
package csvbuffer

import (
	"bytes"
	"encoding/csv"
	"sort"
	"strings"
)

// Format formats m as "[k1=v1,k2=v2]" in key order, CSV-quoted.
func Format(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	records := make([]string, 0, len(keys))
	for _, k := range keys {
		records = append(records, k+"="+m[k])
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(records); err != nil {
		panic(err)
	}
	w.Flush()
	return "[" + strings.TrimSpace(buf.String()) + "]"
}
