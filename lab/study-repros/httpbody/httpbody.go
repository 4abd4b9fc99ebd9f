// Package httpbody: observed code reads an HTTP response body, an
// io.ReadCloser whose dynamic type is unexported in net/http
// (examples/shop/loadgen's fetchSKUs: resp.Body is *http.cancelTimerBody
// when the client has a timeout).
package httpbody

import (
	"io"
	"net/http"
)

// Fetch returns the body of GET url.
func Fetch(c *http.Client, url string) (string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
