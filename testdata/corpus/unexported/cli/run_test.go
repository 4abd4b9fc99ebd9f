package cli_test

import (
	"bytes"
	"testing"

	"example.com/unexported/cli"
)

func TestRun(t *testing.T) {
	var buf bytes.Buffer
	if code := cli.Run(&buf, []string{"a=2"}); code != 0 || buf.String() != "a 2\n" {
		t.Fatalf("Run = %d, %q", code, buf.String())
	}
}
