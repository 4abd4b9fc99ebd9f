package eventlog

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestFormatStatus: formatStatus (hand-written: fmt's first use costs a
// short process time) writes what the format's definition with fmt says,
// always statusWidth bytes, and parseStatus reads it back.
func TestFormatStatus(t *testing.T) {
	byFmt := func(s Status) string {
		state := "open"
		if s.Closed {
			state = "done"
		}
		var end int64
		if !s.EndTime.IsZero() {
			end = s.EndTime.UnixNano()
		}
		return fmt.Sprintf("state=%s events=%020d dropped=%020d blocked=%020d end_unix_ns=%020d",
			state, s.Events, s.Dropped, s.Blocked, end)
	}
	cases := []Status{
		{},
		{Closed: true, Events: math.MaxUint64, Dropped: 1, Blocked: 10, EndTime: time.Unix(0, math.MaxInt64)},
		{Events: 12345, EndTime: time.Unix(0, -5)},
		{EndTime: time.Unix(0, math.MinInt64+1)},
		{Closed: true, Events: 300, EndTime: time.Date(2026, 11, 23, 1, 2, 3, 4, time.UTC)},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1000; i++ {
		cases = append(cases, Status{Closed: i%2 == 0, Events: rng.Uint64() >> rng.IntN(64), Dropped: rng.Uint64() >> rng.IntN(64),
			Blocked: rng.Uint64() >> rng.IntN(64), EndTime: time.Unix(0, rng.Int64()>>rng.IntN(63))})
	}
	for _, s := range cases {
		got, want := formatStatus(s), byFmt(s)
		if got != want {
			t.Fatalf("formatStatus(%+v)\n = %q\nwant %q", s, got, want)
		}
		if len(got) != statusWidth {
			t.Fatalf("formatStatus(%+v) has %d bytes, statusWidth is %d", s, len(got), statusWidth)
		}
		if s.EndTime.UnixNano() <= 0 {
			continue // the writer's clock is after 1970
		}
		back, err := parseStatus(got)
		if err != nil {
			t.Fatal(err)
		}
		if back.Closed != s.Closed || back.Events != s.Events || back.Dropped != s.Dropped ||
			back.Blocked != s.Blocked || !back.EndTime.Equal(s.EndTime) {
			t.Fatalf("parseStatus(formatStatus(%+v)) = %+v", s, back)
		}
	}
}

// TestJSONStrings: the observed packages' metadata value is what
// encoding/json's Marshal writes for the same []string.
func TestJSONStrings(t *testing.T) {
	cases := [][]string{nil, {}, {""}, {"github.com/Masterminds/semver/v3", "example.com/shop/pricing"},
		{"a\"b\\c", "<tag>&amp;", "\b\f\n\r\t\x00\x01\x1f\x7f", "ünïcödé ✓ 𝄞", "\u2028\u2029", "bad \xff\xfe utf8 \xe2\x82", "\xed\xa0\x80"}}
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "/", ".", "\"", "\\", "<", ">", "&", "\x00", "\x1f", "\x7f", "\b", "é", "\u2028", "\u2029", "\xff", "\xe2\x82", "𝄞", " "}
	for i := 0; i < 2000; i++ {
		var ss []string
		for j := rng.IntN(4); j > 0; j-- {
			var b strings.Builder
			for k := rng.IntN(12); k > 0; k-- {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			ss = append(ss, b.String())
		}
		cases = append(cases, ss)
	}
	for _, ss := range cases {
		want, err := json.Marshal(ss)
		if err != nil {
			t.Fatal(err)
		}
		if ss == nil {
			want = []byte("[]") // the format writes an empty list, never null
		}
		if got := appendJSONStrings(nil, ss); string(got) != string(want) {
			t.Fatalf("appendJSONStrings(%q) = %s, json.Marshal: %s", ss, got, want)
		}
	}
}
