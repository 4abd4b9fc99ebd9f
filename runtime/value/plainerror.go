package value

import "reflect"

// PlainError reports whether err is encoded as its dynamic type's name
// and its message (TagError): not nil, not a registered sentinel, not of a
// type replay rebuilds by value (TagTypedError). Replay stands in for such
// an error with a value of its own (errorStandIn) that has no
// state the observed code can write, so nothing about it after a call is
// worth comparing (probe.Written).
func PlainError(err error) bool {
	if err == nil {
		return false
	}
	if _, ok := err.(errorStandInType); ok {
		return true
	}
	pl := planFor(reflect.TypeOf(err))
	if pl.sentinelType() {
		if _, ok := sentinelName(err); ok {
			return false
		}
	}
	return !pl.typedError()
}
