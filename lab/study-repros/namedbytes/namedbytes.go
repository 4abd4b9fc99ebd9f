// Package namedbytes reproduces a fault the study found (go-cmp
// cmp/internal/diff.EditScript): a slice of a named byte type crosses the
// boundary; replay decoded it with reflect.Copy from []byte and panicked
// ("reflect.Copy: namedbytes.Op != uint8").
package namedbytes

// Op is one edit.
type Op uint8

// Script is a list of edits.
type Script []Op

// Build returns n edits.
func Build(n int) Script {
	s := make(Script, n)
	for i := range s {
		s[i] = Op(i % 3)
	}
	return s
}

// Len counts the edits other than 0.
func (s Script) Len() int {
	n := 0
	for _, op := range s {
		if op != 0 {
			n++
		}
	}
	return n
}
