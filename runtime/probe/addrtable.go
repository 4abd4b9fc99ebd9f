package probe

// addrTable is the object table's map from address to entry: open
// addressing with linear probing, the entries inline. In a server the
// table is cold at every request (the request's new context is its one
// first sight); a Go map's lookup then misses on the map header, its
// directory, the table and the group's control word before the slot, this
// one on the slot alone (measured with lab/demo/shop_profile.sh, which
// charges the shop's CPU per request to its owners). Guarded by the owner's
// lock.
type addrTable struct {
	slots []addrSlot // len is a power of two, or 0
	n     int        // slots in use
}

type addrSlot struct {
	addr uintptr // 0: empty (no object is at address 0)
	e    objEntry
}

func (t *addrTable) home(a uintptr) uintptr {
	return (uintptr(uint64(a)*0x9E3779B97F4A7C15) >> 20) & uintptr(len(t.slots)-1)
}

// find returns the entry at address a, or nil. The pointer is valid until
// the next put or del.
func (t *addrTable) find(a uintptr) *objEntry {
	if len(t.slots) == 0 {
		return nil
	}
	mask := uintptr(len(t.slots) - 1)
	for i := t.home(a); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.addr == a {
			return &s.e
		}
		if s.addr == 0 {
			return nil
		}
	}
}

// put sets the entry at address a (a != 0).
func (t *addrTable) put(a uintptr, e objEntry) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.grow()
	}
	mask := uintptr(len(t.slots) - 1)
	for i := t.home(a); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.addr == a {
			s.e = e
			return
		}
		if s.addr == 0 {
			s.addr, s.e = a, e
			t.n++
			return
		}
	}
}

func (t *addrTable) grow() {
	old := t.slots
	size := 2 * len(old)
	if size == 0 {
		size = 64
	}
	t.slots, t.n = make([]addrSlot, size), 0
	for i := range old {
		if old[i].addr != 0 {
			t.put(old[i].addr, old[i].e)
		}
	}
}

// del removes the entry at address a (backward-shift deletion: no
// tombstones, so that probe sequences stay as short as the load).
func (t *addrTable) del(a uintptr) {
	if len(t.slots) == 0 {
		return
	}
	mask := uintptr(len(t.slots) - 1)
	i := t.home(a)
	for ; t.slots[i].addr != a; i = (i + 1) & mask {
		if t.slots[i].addr == 0 {
			return
		}
	}
	// Move later entries of the probe run into the hole when their home
	// does not lie cyclically in (hole, j].
	for j := (i + 1) & mask; t.slots[j].addr != 0; j = (j + 1) & mask {
		h := t.home(t.slots[j].addr)
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = addrSlot{}
	t.n--
}

func (t *addrTable) len() int { return t.n }
