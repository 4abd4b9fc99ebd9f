// Package seg has types without exported fields whose values external code
// copies whole into memory of its own: goldmark's text.Segments inside an
// ast node (b.lines = *v), go-toml's DecodeError as a range variable.
package seg

// Segments is a list of lines, held by value in its users' structs.
type Segments struct {
	values []int
}

// NewSegments returns the segments vs.
func NewSegments(vs ...int) Segments { return Segments{values: vs} }

// Len returns the number of segments.
func (s *Segments) Len() int { return len(s.values) }

// Sum adds the segments up.
func Sum(s *Segments) int {
	t := 0
	for _, v := range s.values {
		t += v
	}
	return t
}

// Err is an error with a key, copied around by value.
type Err struct {
	key  string
	line int
}

// NewErr returns an error at key and line.
func NewErr(key string, line int) Err { return Err{key: key, line: line} }

// Key returns the error's key.
func (e *Err) Key() string { return e.key }

// Line returns the error's line.
func (e *Err) Line() int { return e.line }
