package value

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestStripImplements: the TagImplements prefixes go, at any depth, and
// nothing else does.
func TestStripImplements(t *testing.T) {
	ref := AppendRef(nil, "*p.recorder", 7)
	e := &Encoder{}
	e.appendImplNames([]string{"io.ReaderFrom", "net/http.Flusher"})
	prefixed := append(append([]byte(nil), e.Buf...), ref...)
	record := func(field []byte) []byte {
		b := []byte{TagRecord}
		b = binary.AppendUvarint(b, 2)
		b = append(b, field...)
		return AppendInt(b, 3)
	}
	for _, c := range []struct {
		name     string
		in, want []byte
	}{
		{"top level", prefixed, ref},
		{"in a field", record(prefixed), record(ref)},
		{"two values", append(append([]byte(nil), prefixed...), prefixed...), append(append([]byte(nil), ref...), ref...)},
		{"none", record(ref), record(ref)},
	} {
		got, err := StripImplements(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("%s: StripImplements(% x) = % x, want % x", c.name, c.in, got, c.want)
		}
	}
	if _, err := StripImplements([]byte{TagImplements, 5}); err == nil {
		t.Error("a cut prefix: no error")
	}
}
