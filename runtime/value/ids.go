package value

// ObjectIDs calls f with the object ID of every reference and object in
// the encoded values b, in the order they appear (replay's numbering of new
// objects takes each event's first appearances from the log).
func ObjectIDs(b []byte, f func(id uint64)) error {
	d := &Decoder{Buf: b, seenID: f}
	for d.Off < len(b) && d.Err == nil {
		d.Skip()
	}
	return d.Err
}
