// Command errs drives the store package.
package main

import (
	"errors"
	"fmt"
	"strings"

	"example.com/errs/store"
)

func main() {
	s := store.Open("db")
	for _, k := range []string{"a", "b", "zz", "bad", "a"} {
		v, err := s.Get(k)
		fmt.Println(k, v, err, errors.Is(err, store.ErrNotFound))
	}
	fmt.Println(s.Hits())
	n, err := store.Load("/nonexistent/file")
	fmt.Println(n, err, errors.Is(err, store.ErrNotFound))
	n, err = store.Load("go.mod")
	fmt.Println(n > 0, err)
	fmt.Println(store.Count(strings.NewReader("abcdefgh")))
}
