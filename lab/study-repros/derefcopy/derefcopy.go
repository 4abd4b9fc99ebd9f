// Package derefcopy reproduces a fault the study found (gorilla/mux's
// Router.ServeHTTP redirects with `url := *req.URL; url.Path = p;
// p = url.String()`). The read of the external field req.URL under a
// dereference was not a READ_OUT: in replay, where req is a placeholder
// whose fields are zero, `*req.URL` dereferenced nil: "the code panicked
// where the capture did not".
package derefcopy

import "net/http"

// Redirect returns the request's URL with its path replaced by p.
func Redirect(req *http.Request, p string) string {
	url := *req.URL
	url.Path = p
	return url.String()
}
