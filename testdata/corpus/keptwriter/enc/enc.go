// Package enc hands a buffer it owns to an external object that keeps it
// and fills it in a later call, as toml's Marshal does: it gives
// `new(bytes.Buffer)` to its exported NewEncoder, whose bufio.NewWriter(w)
// keeps the buffer and writes into it only when its own buffer is full or
// at Flush; or `json.NewEncoder(&buf)`, which keeps it and writes into it
// at each Encode.
package enc

import (
	"bufio"
	"bytes"
	"io"
	"strings"
)

// Encoder writes lines to a buffered writer.
type Encoder struct {
	w *bufio.Writer
}

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: bufio.NewWriterSize(w, 16)}
}

// Encode writes each of lines on a line of its own, then flushes.
func (e *Encoder) Encode(lines ...string) error {
	for _, l := range lines {
		if _, err := e.w.WriteString(l); err != nil {
			return err
		}
		if err := e.w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return e.w.Flush()
}

// Marshal returns what an encoder writes for lines.
func Marshal(lines ...string) []byte {
	buf := new(bytes.Buffer)
	if err := NewEncoder(buf).Encode(lines...); err != nil {
		return nil
	}
	return buf.Bytes()
}

// Upper returns what an encoder writes for lines, in upper case: the
// buffer is read after each line, while the encoder still holds it.
func Upper(lines ...string) string {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	n := 0
	for _, l := range lines {
		if err := e.Encode(l); err != nil {
			return ""
		}
		n += buf.Len()
	}
	return strings.ToUpper(buf.String()) + strings.Repeat("!", n%5)
}
