package transform

import (
	"fmt"
	"go/types"
	"strings"
)

// stateVarsCall is the statement of the generated _capture_end_init that
// registers every package-level variable of the package, exported or not,
// by address: a checkpoint (runtime/probe checkpoint.go) writes them and
// replay of a segment restores them. Taking the address needs no type name,
// so variables of types the generated file cannot name are registered too.
func (t *transformer) stateVarsCall() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\t%s.StateVars(%q", t.probe, t.p.Types.Path())
	scope := t.p.Types.Scope()
	for _, n := range scope.Names() {
		if _, ok := scope.Lookup(n).(*types.Var); !ok || n == "_" {
			continue
		}
		fmt.Fprintf(&b, ",\n\t\t%s.StateVar(%q, &%s)", t.probe, t.p.Types.Path()+"."+n, n)
	}
	b.WriteString(")\n")
	return b.String()
}
