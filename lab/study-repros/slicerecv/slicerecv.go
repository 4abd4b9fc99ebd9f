// Package slicerecv: observed code calls a method of an external slice type
// that writes the slice in place (goldmark's renderer:
// r.config.NodeRenderers.Sort() on a util.PrioritizedSlice, then registers
// the renderers in that order). The call is an outcall answered from the
// log in replay, where the sort did not happen, so the code went on with
// the unsorted slice: "the code made a different boundary call than the
// log holds". The receiver is now an out-parameter, as a slice argument
// is: recorded after the call and written back in replay.
package slicerecv

import "example.com/repros/slicerecv/prio"

// Ranked returns the names by priority, highest first.
func Ranked(names []string, priorities []int) []string {
	s := make(prio.Slice, len(names))
	for i, n := range names {
		s[i] = prio.Value{Name: n, Priority: priorities[i]}
	}
	s.Sort()
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = v.Name
	}
	return out
}
