package whiteboxvar

import (
	"bytes"
	"testing"
)

// TestReport captures the package's error output in a buffer.
func TestReport(t *testing.T) {
	old := errorWriter
	defer func() { errorWriter = old }()
	var buf bytes.Buffer
	errorWriter = &buf
	if n := Report("disk full"); n != buf.Len() || buf.String() != "error: disk full\n" {
		t.Fatalf("Report = %d, wrote %q", n, buf.String())
	}
}
