package transform_test

import (
	"strings"
	"testing"
)

// TestAddressReadsRecordedUnlessTurnedBack: an address observed code turns
// into an integer is recorded (probe.PointerOf, UnsafeAddrOf, AddressOf)
// where the integer stays data, and stays native wherever it may become a
// pointer again: in a conversion back, through a variable, a parameter of
// the package's own function, a function's result, another package's uintptr
// parameter (a system call's argument) or a reflect.SliceHeader's Data.
func TestAddressReadsRecordedUnlessTurnedBack(t *testing.T) {
	src := `package p

import (
	"os"
	"reflect"
	"unsafe"
)

var keys = map[uintptr]bool{}

func Data(v reflect.Value, p *int) string {
	keys[v.Pointer()] = true                              // recorded
	a := uintptr(unsafe.Pointer(p))                       // recorded
	keys[a+v.UnsafeAddr()] = true                         // recorded
	return ""
}

func Back(v reflect.Value, p *int) int {
	q := (*int)(unsafe.Pointer(uintptr(unsafe.Pointer(p)) + 0)) // native
	r := reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr()))   // native
	base := v.Pointer()                                            // native
	s := (*int)(unsafe.Pointer(base))
	_ = r
	return *q + *s
}

func at(a uintptr) *int { return (*int)(unsafe.Pointer(a)) }

func addr(p *int) uintptr { return uintptr(unsafe.Pointer(p)) } // native: its result becomes a pointer

func Through(p *int) int {
	return *at(uintptr(unsafe.Pointer(p))) + *at(addr(p)) // native, native
}

func Sys(p *int) {
	os.NewFile(uintptr(unsafe.Pointer(p)), "") // native: another package's uintptr parameter
}

func Header(b []byte) string {
	var s string
	h := (*reflect.StringHeader)(unsafe.Pointer(&s))
	h.Data = uintptr(unsafe.Pointer(&b[0])) // native
	h.Len = len(b)
	return s
}
`
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	gen := string(out.Gen)
	for _, want := range []string{"probe.PointerOf(", "probe.UnsafeAddrOf(", "probe.AddressOf("} {
		if !strings.Contains(gen, want) {
			t.Errorf("no %s in the generated file:\n%s", want, gen)
		}
	}
	if n := strings.Count(gen, "func _capture_addr_"); n != 3 {
		t.Errorf("%d address reads recorded, want 3 (those of Data):\n%s", n, gen)
	}
	code := string(out.Files[0])
	for _, line := range strings.Split(code, "\n") {
		if strings.Contains(line, "_capture_addr_") && !strings.Contains(line, "// recorded") {
			t.Errorf("recorded where the address may become a pointer again: %s", line)
		}
	}
}

// TestFmtPrintingAddressesIsAnOutcall: fmt over owned values runs natively
// unless it may print an address (a pointer to a non-composite, a pointer
// inside a value, a channel or function, anything under %p), which is then
// an outcall whose text replay answers from the log.
func TestFmtPrintingAddressesIsAnOutcall(t *testing.T) {
	src := `package p

import "fmt"

type node struct {
	Name string
	Next *node
}

func Texts(n int, x *int, nd *node, s []int) []string {
	return []string{
		fmt.Sprintf("%d", n),
		fmt.Sprintf("%v", s),
		fmt.Sprint(&struct{ A int }{n}),
		fmt.Sprintf("[%p]", s),
		fmt.Sprint(x),
		fmt.Sprintf("%v", nd),
	}
}
`
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	gen := string(out.Gen)
	for _, want := range []string{`Pos: "p/p.go:15"`, `Pos: "p/p.go:16"`, `Pos: "p/p.go:17"`} {
		if !strings.Contains(gen, want) {
			t.Errorf("no outcall site at %s:\n%s", want, gen)
		}
	}
	for _, native := range []string{`Pos: "p/p.go:12"`, `Pos: "p/p.go:13"`, `Pos: "p/p.go:14"`} {
		if strings.Contains(gen, native) {
			t.Errorf("an outcall site at %s, which prints no address:\n%s", native, gen)
		}
	}
}
