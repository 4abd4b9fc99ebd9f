package zonetag_test

import (
	"maps"
	"testing"
	"time"

	"example.com/repros/zonetag"
	"example.com/repros/zonetag/zones"
)

func TestTag(t *testing.T) {
	m := map[string]any{
		"a": time.Date(1979, 5, 27, 7, 32, 0, 0, zones.LocalDatetime),
		"b": time.Date(1979, 5, 27, 0, 0, 0, 0, zones.LocalDate),
		"c": time.Date(1979, 5, 27, 7, 32, 0, 0, time.UTC),
		"d": time.Date(2024, 2, 29, 15, 15, 15, 0, zones.LocalDatetime),
		"e": time.Date(2000, 2, 29, 0, 0, 0, 0, zones.LocalDate),
		"f": "not a time",
	}
	want := map[string]string{
		"a": "datetime-local 1979-05-27T07:32:00",
		"b": "date-local 1979-05-27",
		"c": "datetime 1979-05-27T07:32:00Z",
		"d": "datetime-local 2024-02-29T15:15:15",
		"e": "date-local 2000-02-29",
	}
	for range 5 {
		if got := zonetag.Tag(m); !maps.Equal(got, want) {
			t.Fatalf("Tag = %v, want %v", got, want)
		}
	}
}
