package probe

import (
	"reflect"
	"strings"
	"sync"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// A Generic is the incall site of an exported generic function or of an
// exported method of a generic type. Each instantiation is a Site of its
// own, named with its type arguments: Prefix + "[" + args + "]" + Suffix,
// e.g. "example.com/gen.Map[int,string]" or "(*example.com/gen.Stack[int]).Push".
//
// Replay's driver finds an instantiation's invoker by that name. Go creates
// an instantiation only where code names it, so an instantiation is
// registered (Incall) the first time Instance is called for it: by a call
// in the capture, and in a replay build by the harness, which calls the
// package's exported CaptureInstance_* hooks with the type arguments it
// finds in the logs (tool/internal/frontend).
type Generic struct {
	Prefix, Suffix string
	Pos            string

	mu    sync.Mutex
	insts sync.Map // instKey -> *Site
}

// instKey identifies an instantiation by its type arguments.
type instKey struct {
	args [4]reflect.Type
	more string // the names of any arguments past the fourth
}

// TypeArg is the reflect.Type of the type argument T (generated code does
// not import reflect).
func TypeArg[T any]() reflect.Type { return reflect.TypeFor[T]() }

// Instance returns the Site of g's instantiation with the type arguments
// targs, creating and registering it, with invoke as its replay invoker,
// on first use.
func Instance(g *Generic, invoke func(*Stream), targs ...reflect.Type) *Site {
	var k instKey
	for i, t := range targs {
		if i < len(k.args) {
			k.args[i] = t
		} else {
			k.more += value.TypeName(t) + ","
		}
	}
	if s, ok := g.insts.Load(k); ok {
		return s.(*Site)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if s, ok := g.insts.Load(k); ok {
		return s.(*Site)
	}
	names := make([]string, len(targs))
	for i, t := range targs {
		names[i] = value.TypeName(t)
	}
	s := &Site{Name: g.Prefix + "[" + strings.Join(names, ",") + "]" + g.Suffix, Pos: g.Pos, Invoke: invoke}
	Incall(s)
	g.insts.Store(k, s)
	return s
}

// Instance makes site, an instantiation of the generic site the incall was
// begun with (In), the site of the event being built.
func (s *Stream) Instance(site *Site) { s.site = site }
