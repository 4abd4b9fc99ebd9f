// Package words declares types named as predeclared ones: its own string,
// bool and error, and an int that is an int32. Its code can no longer
// name the predeclared types, but it still gets values of them from other
// packages (strconv's results), which the generated code must name.
package words

import (
	"bytes"
	"strconv"
)

type (
	string []byte
	bool   uint8
	int    = int32
)

const (
	true  bool = 1
	false bool = 0
)

// error is the package's own failure.
type error struct {
	Text string
	At   int
}

// Word is a word and how often it was seen.
type Word struct {
	Text  string
	Count int
	Known bool
}

// Parse reads "text=count".
func Parse(line string) (Word, *error) {
	i := bytes.IndexByte(line, '=')
	if i < 0 {
		return Word{}, &error{Text: string("no ="), At: -1}
	}
	n, err := strconv.ParseInt(bytes.NewBuffer(line[i+1:]).String(), 10, 32)
	if err != nil {
		return Word{}, &error{Text: string(err.Error()), At: int(i + 1)}
	}
	return Word{Text: line[:i], Count: int(n), Known: true}, nil
}

// Format writes w back as "text=count".
func Format(w Word) string {
	return append(append(append(string{}, w.Text...), '='), strconv.FormatInt(int64(w.Count), 10)...)
}

// Known reports whether w was parsed.
func Known(w Word) bool { return w.Known }
