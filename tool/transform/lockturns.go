package transform

import (
	"fmt"
	"go/ast"
	"go/types"
)

// Lock turn sites (runtime/probe/lockturn.go; TestLockTurnSites). Observed
// code's acquisitions of a sync.Mutex or sync.RWMutex it holds directly (a
// field, a package variable, a local its goroutines share, or one reached
// through an embedded field) are numbered per lock, so that replay gives
// each acquisition to the goroutine that won it in the capture:
//
//	c.mu.Lock()         ->   _capture_lock(&_capture_site_4, &c.mu)
//	ok := rw.TryRLock() ->   ok := _capture_try_rlock(&_capture_site_5, &rw)
//
// The helpers (generated once per package) call the probe's function of
// the same name. Unlock and RUnlock stay as they are: the next
// acquisition's turn orders them. An acquisition through a *sync.Mutex
// (a parameter) goes through the outcall helper, which asks at run time
// whether the lock crossed the boundary (gen.go) and takes the turn
// through the same helper when it did not.

// lockHelpers: the acquisitions that get a turn, by method, with the
// generated helper's name, the probe function it calls and the lock's type.
var lockHelpers = map[string]struct{ helper, probeFunc, typ string }{
	"(*sync.Mutex).Lock":       {"_capture_lock", "Lock", "Mutex"},
	"(*sync.Mutex).TryLock":    {"_capture_try_lock", "TryLock", "Mutex"},
	"(*sync.RWMutex).Lock":     {"_capture_rw_lock", "RWLock", "RWMutex"},
	"(*sync.RWMutex).TryLock":  {"_capture_rw_try_lock", "RWTryLock", "RWMutex"},
	"(*sync.RWMutex).RLock":    {"_capture_rlock", "RLock", "RWMutex"},
	"(*sync.RWMutex).TryRLock": {"_capture_try_rlock", "TryRLock", "RWMutex"},
	// Not a lock, and no turn: a pool's Get returns a new value in capture
	// and replay alike (probe.PoolGet), where it would return whichever
	// value a Put left, or none, as the scheduler and the collector decide.
	"(*sync.Pool).Get": {"_capture_pool_get", "PoolGet", "Pool"},
}

// lockHelper returns the name of the generated helper that acquires a lock
// with method fn at its turn ("" if fn is no acquisition), generating it
// the first time.
func (t *transformer) lockHelper(fn *types.Func) string {
	h, ok := lockHelpers[fn.FullName()]
	if !ok {
		return ""
	}
	if t.lockGen == nil {
		t.lockGen = map[string]bool{}
	}
	if !t.lockGen[h.helper] {
		t.lockGen[h.helper] = true
		sync := t.alias("sync", "sync")
		res, ret := "", ""
		if rs := fn.Type().(*types.Signature).Results(); rs.Len() == 1 {
			res, ret = " "+types.TypeString(rs.At(0).Type(), nil), "return " // bool, or a pool's any
		}
		what := "acquires mu at its turn (a lock turn site)"
		if h.typ == "Pool" {
			what = "gets a new value from the pool mu"
		}
		fmt.Fprintf(&t.gen, "// %s %s.\nfunc %s(site *%s.Site, mu *%s.%s)%s {\n\t%s%s.%s(site, mu)\n}\n\n",
			h.helper, what, h.helper, t.probe, sync, h.typ, res, ret, t.probe, h.probeFunc)
	}
	return h.helper
}

// lockTurn rewrites the acquisition call of a lock held directly or
// through embedded fields: x.Lock() -> _capture_lock(&site, &x), and
// reports whether it did. A call on a *sync.Mutex itself is left to the
// outcall helper (gen.go).
func (t *transformer) lockTurn(call *ast.CallExpr, c callee) bool {
	if _, ok := lockHelpers[c.fn.FullName()]; !ok {
		return false
	}
	xt := t.p.Info.TypeOf(c.recvX)
	path := c.sel.Index()
	if _, isPtr := xt.Underlying().(*types.Pointer); isPtr && len(path) == 1 {
		return false
	}
	// The embedded fields the method is promoted through, and whether the
	// last one is a pointer already.
	fieldPath := ""
	typ := xt
	lockVar := t.lockVar(c.recvX)
	for _, idx := range path[:len(path)-1] {
		u := typ
		if p, ok := u.Underlying().(*types.Pointer); ok {
			u = p.Elem()
		}
		st, ok := u.Underlying().(*types.Struct)
		if !ok {
			return false
		}
		fieldPath += "." + st.Field(idx).Name()
		typ = st.Field(idx).Type()
		lockVar = st.Field(idx)
	}
	if lockVar != nil && lockVar.Pkg() != nil && !t.observed[lockVar.Pkg().Path()] {
		// A lock of external code (a field of an external struct, another
		// package's variable): external code takes it too, unrecorded, so
		// a turn would order only some of its acquisitions. Native.
		return false
	}
	addr := "&"
	if _, isPtr := typ.Underlying().(*types.Pointer); isPtr {
		addr = ""
	}
	h := t.lockHelper(c.fn)
	site := t.siteVar(types.ExprString(call.Fun), t.sitePos(call.Lparen), false)
	span := int(call.End() - call.Pos())
	t.add(c.recvX.Pos(), c.recvX.Pos(), h+"(&"+site+", "+addr, span)
	t.add(c.recvX.End(), call.End(), fieldPath+")", span)
	return true
}

// lockVar returns the variable or field that x, a lock expression, names
// (nil if it is no name: an index expression, a call).
func (t *transformer) lockVar(x ast.Expr) *types.Var {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		v, _ := t.p.Info.Uses[x].(*types.Var)
		return v
	case *ast.SelectorExpr:
		if sel, ok := t.p.Info.Selections[x]; ok {
			if sel.Kind() == types.FieldVal {
				v, _ := sel.Obj().(*types.Var)
				return v
			}
			return nil
		}
		v, _ := t.p.Info.Uses[x.Sel].(*types.Var) // pkg.Var
		return v
	}
	return nil
}
