// Package fill is observed: it hands memory it owns to external code that
// writes it during the call, then reads that memory natively. Replay answers
// the calls from the log, so it writes what the capture's calls wrote.
package fill

import (
	"io"
	"sort"
	"strings"

	"example.com/outwrites/ext"
)

// Query lists fields as name=value pairs through an ext.Values the package
// makes and fills in an unexported recursive function (a map receiver), or
// has an encoder fill through the address of that function's parameter.
func Query(fields map[string]any) string {
	values := make(ext.Values)
	addAll(values, "", fields)
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	var parts []string
	for _, name := range names {
		parts = append(parts, name+"="+strings.Join(values[name], ","))
	}
	return strings.Join(parts, "&")
}

// encoder is a value that adds itself to a query.
type encoder interface {
	EncodeValues(key string, v *ext.Values)
}

func addAll(values ext.Values, scope string, fields map[string]any) {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := k
		if scope != "" {
			name = scope + "." + k
		}
		switch v := fields[k].(type) {
		case map[string]any:
			addAll(values, name, v)
		case encoder:
			// The address of the parameter, whose map is the caller's.
			v.EncodeValues(name, &values)
		case string:
			values.Add(name, v)
		}
	}
}

// Words counts the words of s through ext.Count (a map argument) and
// returns the most frequent.
func Words(s string) (string, int) {
	counts := map[string]int{}
	for _, w := range strings.Fields(s) {
		ext.Count(counts, w, 1)
	}
	best, n := "", 0
	for w, c := range counts {
		if c > n || (c == n && w < best) {
			best, n = w, c
		}
	}
	return best, n
}

// Lines notes each line in a local ext.Tally (a pointer receiver, its
// address taken implicitly) and reads its fields.
func Lines(s string) (int, string) {
	var t ext.Tally
	for _, l := range strings.Split(s, "\n") {
		t.Note(l)
	}
	return t.Lines, t.Last
}

// Pairs writes the pairs into its own ext.Sink, through ext.Put's io.Writer
// parameter and through an unexported function's io.Writer.
func Pairs(keys []string, vals []int) string {
	var sink ext.Sink
	for i, k := range keys {
		ext.Put(&sink, k, vals[i])
	}
	end(&sink)
	return string(sink.Data)
}

func end(w io.Writer) {
	w.Write([]byte("end"))
}

// Rewrite serves r at path p: it writes the path through r.URL, a pointer
// it reads natively from the request it was given (httprouter's ServeFiles
// handler, `req.URL.Path = ps.ByName("filepath")`). In replay r is a
// placeholder whose URL is nil.
func Rewrite(r *ext.Request, p string) string {
	r.URL.Path = "/files/" + p
	return ext.Serve(r)
}
