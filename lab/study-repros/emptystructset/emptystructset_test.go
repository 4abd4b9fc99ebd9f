package emptystructset_test

import (
	"testing"

	"example.com/repros/emptystructset"
)

func TestDumpOfASet(t *testing.T) {
	n := &emptystructset.Const{Value: map[int]struct{}{1: {}, 2: {}, 3: {}}}
	if got, want := emptystructset.Dump(n), "Const{Value: map[1:{} 2:{} 3:{}];}"; got != want {
		t.Fatalf("Dump = %q, want %q", got, want)
	}
}
