package probe

import "sync"

// PoolGet answers observed code's Get of a sync.Pool it holds (generated
// code, for p.Get(); tool/transform/lockturns.go): a new value from p.New,
// never one that a Put left. Which value a Get returns depends on the
// scheduler and the garbage collector (a Put on one P is not seen by a Get
// on another; a collection empties the pool), so the capture and the
// replay would see a reused object in one and a new one in the other, and
// its ID and contents would differ at the next event that names it (chi's
// Mux.ServeHTTP hands the routing context it got from its pool to
// context.WithValue). The pool's contract allows this: Get may ignore the
// pool and treat it as empty. The values a Put leaves stay in the pool
// until a collection drops them. Without capture or replay, Get is p.Get.
func PoolGet(_ *Site, p *sync.Pool) any {
	if !enabled.Load() {
		return p.Get()
	}
	if p.New == nil {
		return nil
	}
	return p.New()
}
