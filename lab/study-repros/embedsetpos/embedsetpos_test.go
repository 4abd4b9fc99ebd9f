package embedsetpos_test

import (
	"testing"

	"example.com/repros/embedsetpos"
	"example.com/repros/embedsetpos/tree"
)

func TestNewHeader(t *testing.T) {
	row := &tree.Base{}
	row.SetPos(7)
	h := embedsetpos.NewHeader(row)
	embedsetpos.Shift(h, 2)
	if h.Pos() != 9 || h.Len() != 1 {
		t.Errorf("Pos, Len = %d, %d, want 9, 1", h.Pos(), h.Len())
	}
}
