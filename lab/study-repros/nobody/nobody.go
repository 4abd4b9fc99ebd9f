// Package nobody: observed code that reflects over values from outside
// and is handed an *http.Request, as chi's Mux.ServeHTTP is: the request is
// recorded deeply, and its Body is http.NoBody (httptest.NewRequest and
// http.NewRequest without a body), a value of net/http's unexported type
// noBody that replay cannot name, while net/http's own code tells it apart
// by identity (req.Body == http.NoBody).
package nobody

import (
	"io"
	"net/http"
	"reflect"
	"strconv"
)

// Describe says what kind of body r has, by reflection, and how long it
// is (io.Copy, an outcall, is given the body: net/http's noBody, as the
// request holds it).
func Describe(r *http.Request) string {
	if r.Body == nil {
		return "nil"
	}
	kind := reflect.TypeOf(r.Body).String()
	n, err := io.Copy(io.Discard, r.Body)
	if err != nil {
		return "error " + err.Error()
	}
	return kind + " " + strconv.FormatInt(n, 10)
}

// Fields lists what reflection sees of v (a request, a writer).
func Fields(v any) int {
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return -1
	}
	return rv.NumField()
}

// Sink reports whether w discards what it is given.
func Sink(w io.Writer) bool {
	return w == io.Discard
}
