package clockfield

import (
	"testing"
	"time"
)

func TestStampWithFixedClock(t *testing.T) {
	s := New()
	s.clock = func() time.Time { return time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC) }
	if got := s.Stamp(); got != 9 {
		t.Fatalf("Stamp() = %d", got)
	}
}
