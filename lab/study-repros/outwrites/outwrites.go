// Package outwrites: external code writes, during an outcall, memory the
// observed code owns and reads natively afterwards. In replay the outcall is
// answered from the log and the external code does not run, so the memory
// kept its old contents:
//
//   - go-querystring's Values: `values := make(url.Values)`, filled by
//     `values.Add(name, v)` in an unexported recursive function, then
//     encoded (a map receiver);
//   - ksuid's CompressedSet.String: a local bytes.Buffer filled through an
//     unexported method's `b *bytes.Buffer` parameter (`b.WriteString`);
//   - a local bytes.Buffer filled through an io.Writer: a method call on an
//     unexported function's `w io.Writer` parameter (go-spew's fdump), and
//     `io.WriteString(&buf, s)`;
//   - a local struct of an external type that its own pointer method fills
//     (`u.UnmarshalBinary(b)`), then read field by field.
//
// And the other way round, observed code writing external memory through a
// pointer it read natively from a placeholder's field: httprouter's
// `req.URL.Path = p` on an incall's *http.Request, whose URL is nil in
// replay, panicked there.
package outwrites

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
)

// Query encodes fields as a query string, nested maps as name[key].
func Query(fields map[string]any) string {
	values := make(url.Values)
	addAll(values, "", fields)
	return values.Encode()
}

func addAll(values url.Values, scope string, fields map[string]any) {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := k
		if scope != "" {
			name = scope + "[" + k + "]"
		}
		if sub, ok := fields[k].(map[string]any); ok {
			addAll(values, name, sub)
			continue
		}
		values.Add(name, fmt.Sprint(fields[k]))
	}
}

// List formats ids as ["a", "b"].
type List []string

func (l List) String() string {
	b := bytes.Buffer{}
	b.WriteByte('[')
	l.writeTo(&b)
	b.WriteByte(']')
	return b.String()
}

func (l List) writeTo(b *bytes.Buffer) {
	for i, s := range l {
		if i != 0 {
			b.WriteString(", ")
		}
		b.WriteString(fmt.Sprintf("%q", s))
	}
}

// Table formats rows as "k: v" lines into its own buffer, through an
// io.Writer (spew's fdump(w io.Writer) called with a local buffer) and
// io.WriteString.
func Table(keys []string, vals []int) string {
	var buf bytes.Buffer
	for i, k := range keys {
		row(&buf, k, vals[i])
	}
	io.WriteString(&buf, "end\n")
	return buf.String()
}

func row(w io.Writer, k string, v int) {
	w.Write([]byte(k + ": " + strconv.Itoa(v) + "\n"))
}

// Host returns the host of the URL encoded in b.
func Host(b []byte) (string, error) {
	var u url.URL
	if err := u.UnmarshalBinary(b); err != nil {
		return "", err
	}
	return u.Host, nil
}

// Rewrite points req at path p and returns its URL.
func Rewrite(req *http.Request, p string) string {
	req.URL.Path = p
	return req.URL.String()
}
