package probe

import "reflect"

// FuncPointer is v.Pointer() for the observed code's calls of
// reflect.Value's Pointer (the transform rewrites them). For a function
// value that is a pointer to its code: observed code compares function
// values from outside by it (gods' treeset compares its trees'
// comparators). The capture numbers such a value by that code pointer, so
// two values of one ID have one code and two IDs two codes. Replay's
// stand-ins for them are reflect.MakeFunc closures, which all share one
// code pointer; for one of those this returns the address of its closure
// instead, one per recorded ID, so that the comparison answers as in the
// capture. Everything else is v.Pointer(), as without capture.
func FuncPointer(v reflect.Value) uintptr {
	if v.Kind() == reflect.Func && !v.IsNil() && replaying {
		if p := play; p != nil {
			c := closurePointer(v)
			p.objMu.Lock()
			standIn := p.funcStandIns[c]
			if !standIn {
				// A real function that the log names by the ID of a
				// stand-in (funcids.go): one code in the capture, so
				// the stand-in's pointer.
				if o, ok := p.ids[p.key(v)]; ok {
					if b, ok := p.byID[o.id]; ok && b.Kind() == reflect.Func && !b.IsNil() {
						if bc := closurePointer(b); p.funcStandIns[bc] {
							c, standIn = bc, true
						}
					}
				}
			}
			p.objMu.Unlock()
			if standIn {
				return uintptr(c)
			}
		}
	}
	return v.Pointer()
}
