package transform_test

import (
	"strings"
	"testing"
)

// TestTurnSites: a worker's receive (in the body of a goroutine that
// observed code starts, from a channel the body did not make) records its
// turn; a goroutine's own channel and receives outside goroutine bodies
// stay native.
func TestTurnSites(t *testing.T) {
	src := `package p

func worker(jobs chan int, out chan int) {
	for j := range jobs {
		out <- j
	}
}

func Pool(xs []int) int {
	jobs := make(chan int)
	out := make(chan int)
	go worker(jobs, out)
	go func() {
		for {
			v, ok := <-jobs
			if !ok {
				return
			}
			own := make(chan int, 1)
			own <- v
			out <- <-own
		}
	}()
	go func() {
		for _, x := range xs {
			jobs <- x
		}
		close(jobs)
	}()
	sum := 0
	for range xs {
		sum += <-out
	}
	return sum
}
`
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	// Each channel helper starts with a comment naming its operation.
	turns := map[string]bool{}
	for _, block := range strings.Split(string(out.Gen), "\n// ") {
		head, _, _ := strings.Cut(block, "\n")
		if strings.Contains(head, "receives from") || strings.Contains(head, "ranges over") {
			what := head[strings.Index(head, " ")+1 : strings.Index(head, " (")]
			turns[what] = strings.Contains(block, ".Turn(&")
		}
	}
	want := map[string]bool{
		"ranges over jobs":   true,  // worker, a function that a go statement starts
		"receives from jobs": true,  // a go statement's function literal, jobs captured
		"receives from own":  false, // the goroutine's own channel
		"receives from out":  false, // the function that started the goroutines
	}
	for what, turn := range want {
		got, ok := turns[what]
		if !ok {
			t.Errorf("no helper %q in the generated file; helpers: %v", what, turns)
			continue
		}
		if got != turn {
			t.Errorf("%s: turn recorded = %v, want %v", what, got, turn)
		}
	}
}

// TestNativeReflectOpaqueResult: in a package whose reflection runs
// natively, an outcall returning a pointer to another package's struct
// with a reflect.Type in an unexported field (json.NewDecoder's
// *json.Decoder: errorContext.Struct) is not rejected: the package cannot
// reach that field (loadgen's products request, rejected from 73fd3cb).
func TestNativeReflectOpaqueResult(t *testing.T) {
	src := `package p

import (
	"encoding/json"
	"io"
	"reflect"
)

type Product struct{ SKU string }

func Kind() string { return reflect.TypeOf(Product{}).Kind().String() }

func Decode(r io.Reader) ([]Product, error) {
	var ps []Product
	err := json.NewDecoder(r).Decode(&ps)
	return ps, err
}
`
	if _, err := instrumentSource(t, "p/p.go", src); err != nil {
		t.Fatal(err)
	}
}
