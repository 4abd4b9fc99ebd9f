package eventlog

// LastSeq returns the sequence number of the last event appended (0 if
// none): the capture runtime notes where package initialisation ended, which
// a checkpoint records so that a segment keeps those events.
func (w *Writer) LastSeq() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastSeqLocked()
}
