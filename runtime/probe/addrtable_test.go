package probe

import (
	"math/rand"
	"testing"
)

// TestAddrTable: random puts, overwrites and deletions agree with a Go map
// at every step, through growth and through deletions in probe runs that
// wrap around the end of the slots (backward shift); addresses are
// clustered, as objects in a span are, so that runs form.
func TestAddrTable(t *testing.T) {
	for _, n := range []int{45, 3000} { // 45: 64 slots, most runs long, some wrapping
		testAddrTable(t, n)
	}
}

func testAddrTable(t *testing.T, n int) {
	r := rand.New(rand.NewSource(1))
	var tab addrTable
	want := map[uintptr]uint64{}
	pool := make([]uintptr, n) // random addresses: runs of several slots form (consecutive ones spread evenly)
	for i := range pool {
		pool[i] = uintptr(0xc000000000 + 8*r.Intn(1<<30))
	}
	addr := func() uintptr { return pool[r.Intn(n)] }
	for step := 0; step < 200000; step++ {
		a := addr()
		switch op := r.Intn(10); {
		case op < 5:
			tab.put(a, objEntry{id: uint64(step)})
			want[a] = uint64(step)
		case op < 9:
			tab.del(a)
			delete(want, a)
		default:
			a = addr()
		}
		e := tab.find(a)
		if id, ok := want[a]; ok != (e != nil) || ok && e.id != id {
			t.Fatalf("step %d: find(%#x) = %v, want %d (present %v)", step, a, e, id, ok)
		}
		if tab.len() != len(want) {
			t.Fatalf("step %d: len %d, want %d", step, tab.len(), len(want))
		}
		if step%10000 == 0 {
			for a, id := range want {
				if e := tab.find(a); e == nil || e.id != id {
					t.Fatalf("step %d: entry %#x lost", step, a)
				}
			}
		}
	}
	if len(tab.slots) > 4*n {
		t.Errorf("%d slots for at most %d entries", len(tab.slots), n)
	}
}

// TestAddrTableWrap: deleting the first of entries whose probe run wraps
// from the last slot to the first moves the others back, so that they are
// still found.
func TestAddrTableWrap(t *testing.T) {
	var tab addrTable
	tab.grow()
	last := uintptr(len(tab.slots) - 1)
	var run []uintptr
	for a := uintptr(0xc000000000); len(run) < 3; a += 8 {
		if tab.home(a) == last {
			run = append(run, a)
		}
	}
	for i, a := range run {
		tab.put(a, objEntry{id: uint64(i)})
	}
	if tab.slots[0].addr != run[1] {
		t.Fatal("the run does not wrap")
	}
	tab.del(run[0])
	for i, a := range run[1:] {
		if e := tab.find(a); e == nil || e.id != uint64(i+1) {
			t.Errorf("entry %d of the wrapped run lost after deleting the first", i+1)
		}
	}
}
