// Command handlers serves the api package on a local test server and calls
// it.
package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"example.com/handlers/api"
)

func main() {
	srv := httptest.NewServer(api.Routes(&api.Server{}))
	defer srv.Close()
	for _, q := range []string{"?name=ann", "", "?name=bob"} {
		resp, err := http.Get(srv.URL + "/hello" + q)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, string(b))
	}
}
