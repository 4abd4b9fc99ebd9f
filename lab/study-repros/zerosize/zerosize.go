// Package zerosize reproduces a fault the study found (go-cmp
// cmp/internal/function.NameOf): outcalls return pointers to a zero-size
// type (*runtime.Func); replay's stand-ins for them shared one address, so
// two different functions got the same object and a later call's receiver
// had the wrong ID ("different arguments").
package zerosize

import "runtime"

// Names returns the names of the functions at the program counters.
func Names(pcs ...uintptr) []string {
	var out []string
	for _, pc := range pcs {
		out = append(out, runtime.FuncForPC(pc).Name())
	}
	return out
}
