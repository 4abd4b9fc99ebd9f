package ext_test

import (
	"testing"

	"example.com/outcallpush/ext"
	"example.com/outcallpush/parse"
)

func TestStrike(t *testing.T) {
	if got := parse.Run(ext.Strike{}, "~~a", "~b", "~~~"); got != "0:2;3:1;5:3;" {
		t.Fatalf("Run = %q", got)
	}
}
