package funcptr

import (
	"testing"

	"example.com/repros/funcptr/order"
)

func TestMerge(t *testing.T) {
	up, down := New(order.Asc), New(order.Desc)
	up.Add(2)
	down.Add(1)
	if got := up.Merge(down); got != nil {
		t.Errorf("merge of differently ordered sets: %v", got)
	}
	other := New(order.Asc)
	other.Add(1)
	if got := up.Merge(other); len(got) != 2 || got[0] != 1 {
		t.Errorf("merge: %v", got)
	}
}
