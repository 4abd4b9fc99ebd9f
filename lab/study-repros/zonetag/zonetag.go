// Package zonetag: observed code ranges over a map of values from outside
// and tags each time.Time by comparing its *time.Location with zones that
// another package defines (toml's internal/tag.Add). Each
// Location() is an outcall whose argument is the time, so the order of the
// outcalls is the map's iteration order.
package zonetag

import (
	"time"

	"example.com/repros/zonetag/zones"
)

// Tag names the kind of every time in m.
func Tag(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		t, ok := v.(time.Time)
		if !ok {
			continue
		}
		switch t.Location() {
		case zones.LocalDatetime:
			out[k] = "datetime-local " + t.Format("2006-01-02T15:04:05")
		case zones.LocalDate:
			out[k] = "date-local " + t.Format("2006-01-02")
		default:
			out[k] = "datetime " + t.Format(time.RFC3339)
		}
	}
	return out
}
