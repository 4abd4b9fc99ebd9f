package eventlog

import (
	"path/filepath"
	"testing"
)

// BenchmarkWriterThroughput measures the background encoder+writer: the
// appends are cheap, so Close waiting for the encoder dominates.
func BenchmarkWriterThroughput(b *testing.B) {
	path := filepath.Join(b.TempDir(), "log.arrows")
	evs := make([]Event, 1024)
	for i := range evs {
		evs[i] = sampleEvent(i)
	}
	w, err := Create(path, Meta{}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Append(&evs[i&1023])
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
