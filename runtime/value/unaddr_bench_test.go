package value

import "testing"

// BenchmarkEncodeUnaddressable: values the encoder gets without an address
// (reflect.Value of an interface's dynamic value or of a map's entry):
// scalars in a []any, and a map of string keys to ints and of ints to
// strings.
func BenchmarkEncodeUnaddressable(b *testing.B) {
	scalars := []any{1, -2, "three", 4.5, true, uint8(6), int64(-7), "eight"}
	byName := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8}
	byNum := map[int]string{1: "a", 2: "b", 3: "c", 4: "d", 5: "e", 6: "f", 7: "g", 8: "h"}
	b.Run("iface-scalars", func(b *testing.B) {
		reportCPU(b)
		e := &Encoder{}
		for b.Loop() {
			e.Buf = e.Buf[:0]
			Encode(e, scalars)
		}
	})
	b.Run("map-string-int", func(b *testing.B) {
		reportCPU(b)
		e := &Encoder{}
		for b.Loop() {
			e.Buf = e.Buf[:0]
			Encode(e, byName)
		}
	})
	b.Run("map-int-string", func(b *testing.B) {
		reportCPU(b)
		e := &Encoder{}
		for b.Loop() {
			e.Buf = e.Buf[:0]
			Encode(e, byNum)
		}
	})
}
