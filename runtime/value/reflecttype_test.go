package value

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

type reflectTypeT struct{ N int }

// A reflect.Type crosses as the identity of the type it describes and
// decodes to the very same type, directly and inside a struct, for named,
// composite and func types.
func TestReflectTypeRoundTrip(t *testing.T) {
	RegisterType(reflect.TypeFor[reflectTypeT]())
	type holder struct {
		Type reflect.Type
		Kind reflect.Kind
		Any  any
	}
	for _, rt := range []reflect.Type{
		reflect.TypeFor[int](),
		reflect.TypeFor[reflectTypeT](),
		reflect.TypeFor[*reflectTypeT](),
		reflect.TypeFor[[]map[string]*reflectTypeT](),
		reflect.TypeFor[[3]reflectTypeT](),
		reflect.TypeFor[error](),
		reflect.TypeFor[any](),
		reflect.TypeFor[struct{}](),
		reflect.TypeFor[time.Duration](),
		reflect.TypeFor[func(int, ...string) (reflectTypeT, error)](),
		reflect.TypeFor[func(func(reflectTypeT) bool)](),
		reflect.TypeFor[map[string]func() []int](),
		reflect.TypeFor[<-chan reflectTypeT](),
		reflect.TypeFor[chan (<-chan int)](),
		reflect.TypeFor[io.Reader](), // linked: the test binary uses io
	} {
		RegisterType(reflect.TypeFor[time.Duration]())
		var e Encoder
		in := holder{Type: rt, Kind: rt.Kind(), Any: rt}
		Encode(&e, in)
		if !strings.Contains(render1(e.Buf), "reflect.Type(") {
			t.Errorf("%v: rendered %s, want a reflect.Type", rt, render1(e.Buf))
		}
		d := Decoder{Buf: e.Buf}
		out := Decode[holder](&d)
		if d.Err != nil {
			t.Errorf("%v: decode: %v (%s)", rt, d.Err, render1(e.Buf))
			continue
		}
		if out.Type != rt || out.Any != any(rt) || out.Kind != rt.Kind() {
			t.Errorf("%v: decoded %v, %v", rt, out.Type, out.Any)
		}
		var again Encoder
		Encode(&again, out)
		if string(again.Buf) != string(e.Buf) {
			t.Errorf("%v: re-encoded differently: %s vs %s", rt, render1(again.Buf), render1(e.Buf))
		}
	}
}

// A type replay cannot make (a type of a package the build does not
// contain, a struct literal made of one) ends decoding with
// ErrUnbuiltReflectType, which replay treats as a known limit.
func TestReflectTypeUnbuilt(t *testing.T) {
	elsewhere := appendName([]byte{TagReflectType}, "example.com/nowhere.T")
	literal := appendName([]byte{TagReflectType}, "struct { A example.com/nowhere.T }")
	for _, buf := range [][]byte{literal, elsewhere} {
		d := Decoder{Buf: buf}
		Decode[reflect.Type](&d)
		if !errors.Is(d.Err, ErrUnbuiltReflectType) {
			t.Errorf("%s: err %v, want ErrUnbuiltReflectType", render1(buf), d.Err)
		}
	}
}

// Map keys of type reflect.Type encode by name: the same bytes whatever
// the order the map yields them in.
func TestReflectTypeMapKeys(t *testing.T) {
	m := map[reflect.Type]int{reflect.TypeFor[int](): 1, reflect.TypeFor[string](): 2, reflect.TypeFor[[]byte](): 3}
	var a, b Encoder
	Encode(&a, m)
	Encode(&b, m)
	if string(a.Buf) != string(b.Buf) {
		t.Fatalf("unstable: %s vs %s", render1(a.Buf), render1(b.Buf))
	}
	d := Decoder{Buf: a.Buf}
	out := Decode[map[reflect.Type]int](&d)
	if d.Err != nil || !reflect.DeepEqual(out, m) {
		t.Fatalf("decoded %v, %v", out, d.Err)
	}
}

func render1(b []byte) string {
	s, err := Render(b)
	if err != nil {
		return s + " (" + err.Error() + ")"
	}
	return s
}
