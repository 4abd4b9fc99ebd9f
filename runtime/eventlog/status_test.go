package eventlog

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
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
		ns := func(t time.Time) int64 {
			if t.IsZero() {
				return 0
			}
			return t.UnixNano()
		}
		return fmt.Sprintf("state=%s events=%020d dropped=%020d blocked=%020d end_unix_ns=%020d lost=%020d lost_since_ns=%020d pid=%020d lost_why=%-12s",
			state, s.Events, s.Dropped, s.Blocked, ns(s.EndTime), s.Lost, ns(s.LostSince), s.PID, s.LostWhy)
	}
	cases := []Status{
		{},
		{Closed: true, Events: math.MaxUint64, Dropped: 1, Blocked: 10, EndTime: time.Unix(0, math.MaxInt64)},
		{Events: 12345, EndTime: time.Unix(0, -5)},
		{EndTime: time.Unix(0, math.MinInt64+1)},
		{Closed: true, Events: 300, EndTime: time.Date(2026, 11, 23, 1, 2, 3, 4, time.UTC)},
		{Events: 7, Dropped: 9, Lost: 9, LostWhy: "ENOSPC", LostSince: time.Unix(0, 1795368867310231701), PID: 4194304, EndTime: time.Unix(0, 1795368868310231701)},
		{Closed: true, Lost: math.MaxUint64, LostWhy: "size_cap", PID: math.MaxUint64, EndTime: time.Unix(1, 0)},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1000; i++ {
		cases = append(cases, Status{Closed: i%2 == 0, Events: rng.Uint64() >> rng.IntN(64), Dropped: rng.Uint64() >> rng.IntN(64),
			Blocked: rng.Uint64() >> rng.IntN(64), EndTime: time.Unix(0, rng.Int64()>>rng.IntN(63)),
			Lost: rng.Uint64() >> rng.IntN(64), LostSince: time.Unix(0, rng.Int64()>>rng.IntN(63)), PID: rng.Uint64() >> rng.IntN(64),
			LostWhy: []string{"", "ENOSPC", "EIO", "size_cap", "EDQUOT"}[i%5]})
	}
	for _, s := range cases {
		got, want := formatStatus(s), byFmt(s)
		if got != want {
			t.Fatalf("formatStatus(%+v)\n = %q\nwant %q", s, got, want)
		}
		if len(got) != statusWidth {
			t.Fatalf("formatStatus(%+v) has %d bytes, statusWidth is %d", s, len(got), statusWidth)
		}
		if s.EndTime.UnixNano() <= 0 || !s.LostSince.IsZero() && s.LostSince.UnixNano() <= 0 {
			continue // the writer's clock is after 1970
		}
		back, err := parseStatus(got)
		if err != nil {
			t.Fatal(err)
		}
		if back.Closed != s.Closed || back.Events != s.Events || back.Dropped != s.Dropped ||
			back.Blocked != s.Blocked || !back.EndTime.Equal(s.EndTime) || back.Lost != s.Lost ||
			back.LostWhy != s.LostWhy || !back.LostSince.Equal(s.LostSince) || back.PID != s.PID {
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

// TestParseOldStatus: the status of a log written before the lost,
// lost_since_ns, pid and lost_why fields still parses, and a later
// writer's unknown fields are skipped.
func TestParseOldStatus(t *testing.T) {
	old := "state=done events=00000000000000001658 dropped=00000000000000000003 blocked=00000000000000000002 end_unix_ns=01795368867310231701"
	if len(old) != statusWidthV1 {
		t.Fatalf("the old status has %d bytes, statusWidthV1 is %d", len(old), statusWidthV1)
	}
	st, err := parseStatus(old)
	want := Status{Closed: true, Events: 1658, Dropped: 3, Blocked: 2, EndTime: time.Unix(0, 1795368867310231701).UTC()}
	if err != nil || !reflect.DeepEqual(st, want) {
		t.Errorf("parseStatus(old) = %+v, %v; want %+v", st, err, want)
	}
	st, err = parseStatus(old + " lost=00000000000000000001 future=abc lost_why=EIO")
	want.Lost, want.LostWhy = 1, "EIO"
	if err != nil || !reflect.DeepEqual(st, want) {
		t.Errorf("parseStatus with an unknown field = %+v, %v; want %+v", st, err, want)
	}
}
