package value

// ObjectIDs calls f with the object ID of every reference and object in
// the encoded values b, in the order they appear (replay's numbering of new
// objects takes each event's first appearances from the log).
func ObjectIDs(b []byte, f func(id uint64)) error {
	return ObjectRefs(b, func(id uint64, _ string) { f(id) })
}

// ObjectRefs calls f with the object ID and the recorded type name of every
// reference and object in the encoded values b, in the order they appear
// (an empty name inside an interface value is the interface value's dynamic
// type name). Replay learns from it which objects the log names by more
// than one type at one address.
func ObjectRefs(b []byte, f func(id uint64, name string)) error {
	d := &Decoder{Buf: b, seenRef: f}
	for d.Off < len(b) && d.Err == nil {
		d.Skip()
	}
	return d.Err
}
