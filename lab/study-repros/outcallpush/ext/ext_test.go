package ext_test

import (
	"testing"

	"example.com/repros/outcallpush"
	"example.com/repros/outcallpush/ext"
)

func TestStrike(t *testing.T) {
	if got := outcallpush.Run(ext.Strike{}, "~~a", "~b", "~~~"); got != "0:2;3:1;5:3;" {
		t.Fatalf("Run = %q", got)
	}
}
