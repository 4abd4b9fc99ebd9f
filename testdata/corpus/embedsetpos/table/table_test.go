package table_test

import (
	"testing"

	"example.com/embedsetpos/table"
	"example.com/embedsetpos/tree"
)

func TestNewHeader(t *testing.T) {
	row := &tree.Base{}
	row.SetPos(7)
	h := table.NewHeader(row)
	table.Shift(h, 2)
	if h.Pos() != 9 || h.Len() != 1 {
		t.Errorf("Pos, Len = %d, %d, want 9, 1", h.Pos(), h.Len())
	}
}

func TestCells(t *testing.T) {
	a, b := table.NewCell("a", 3), table.NewCell("b", 4)
	if w := table.Width(a, b); w != 7 {
		t.Errorf("Width = %d, want 7", w)
	}
}
