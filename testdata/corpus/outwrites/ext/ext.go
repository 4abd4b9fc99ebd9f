// Package ext is external code (not observed) that writes memory its
// callers own: the map it gets as its receiver or an argument, the pointee
// of its pointer receiver, a writer it is given.
package ext

import (
	"io"
	"strconv"
)

// Values maps a name to its values, as url.Values does.
type Values map[string][]string

// Add appends v to the values of name.
func (v Values) Add(name, s string) { v[name] = append(v[name], s) }

// Stamp adds itself to the values it is given the address of, as
// go-querystring's custom Encoders do.
type Stamp string

// EncodeValues adds s under key.
func (s Stamp) EncodeValues(key string, v *Values) { v.Add(key, string(s)) }

// Count adds n to m[k].
func Count(m map[string]int, k string, n int) { m[k] += n }

// Tally counts what it is written.
type Tally struct {
	Lines int
	Last  string
}

// Note records one line.
func (t *Tally) Note(s string) {
	t.Lines++
	t.Last = s
}

// Put writes "k=v;" to w.
func Put(w io.Writer, k string, v int) {
	io.WriteString(w, k+"="+strconv.Itoa(v)+";")
}

// Sink collects what is written to it.
type Sink struct{ Data []byte }

// Write appends p.
func (s *Sink) Write(p []byte) (int, error) {
	s.Data = append(s.Data, p...)
	return len(p), nil
}

// Request is a request whose URL its handlers may rewrite, as
// net/http.Request's is.
type Request struct {
	URL *URL
}

// URL is the location a request is for.
type URL struct{ Path string }

// Serve answers r by its path.
func Serve(r *Request) string { return "served " + r.URL.Path }
