// Package writercombo: middleware that asks the response writer what else
// it is, as chi's middleware does (NewWrapResponseWriter asserts
// http.Flusher, http.Hijacker, io.ReaderFrom and http.Pusher; its
// compressor asserts more). More than four interfaces are asserted, so not
// every combination of them gets a placeholder; net/http's writer (the
// unexported *http.response, which replay cannot rebuild) is three of them
// at once.
package writercombo

import (
	"io"
	"net/http"
	"strings"
)

// Kind names what w can do beyond http.ResponseWriter.
func Kind(w http.ResponseWriter) string {
	var k []string
	if _, ok := w.(http.Flusher); ok {
		k = append(k, "flush")
	}
	if _, ok := w.(http.Hijacker); ok {
		k = append(k, "hijack")
	}
	if _, ok := w.(io.ReaderFrom); ok {
		k = append(k, "readfrom")
	}
	if _, ok := w.(http.Pusher); ok {
		k = append(k, "push")
	}
	if _, ok := w.(io.Closer); ok {
		k = append(k, "close")
	}
	return strings.Join(k, ",")
}

// Tag returns a handler that tells the writer's kind in a header and
// serves next.
func Tag(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Kind", Kind(w))
		next.ServeHTTP(w, r)
	})
}
