package value

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
)

// quietBody stands for net/http's noBody: an unexported zero-size type of
// which a package keeps one exported value (http.NoBody).
type quietBody struct{}

func (quietBody) Read([]byte) (int, error) { return 0, io.EOF }
func (quietBody) Close() error             { return nil }

// level: an unexported type with contents, of which one value is a
// registered variable; other values of it are no sentinel.
type level struct{ n int }

// loud holds an interface: comparing two of them can panic.
type loud struct{ v any }

type bodyHolder struct {
	Body io.ReadCloser
	Out  io.Writer
	Any  any
}

// TestSentinelValuesKeepIdentity: values of exported variables whose
// types replay cannot name (http.NoBody, io.Discard) are recorded by the
// variable's name and come back as the variable's value, with its
// identity; values of the type that are not the variable's are recorded
// as before.
func TestSentinelValuesKeepIdentity(t *testing.T) {
	RegisterSentinelValue("example.com/h.NoBody", quietBody{})
	RegisterSentinelValue("io.Discard", io.Discard)
	RegisterSentinelValue("example.com/h.Low", level{1})
	in := bodyHolder{Body: quietBody{}, Out: io.Discard, Any: level{1}}
	e := &Encoder{Objects: newTable()}
	Encode(e, in)
	if n := bytes.Count(e.Buf, []byte{TagSentinel}); n != 3 {
		t.Errorf("%d sentinels in % x, want 3", n, e.Buf)
	}
	s, err := Render(e.Buf)
	if err != nil || s != "{example.com/h.NoBody, io.Discard, example.com/h.Low}" {
		t.Errorf("Render = %q, %v", s, err)
	}
	got := roundTrip(t, in)
	if got.Body != io.ReadCloser(quietBody{}) || got.Out != io.Discard || got.Any != any(level{1}) {
		t.Errorf("round trip = %#v", got)
	}
	// A pointer to an unexported type (http.ServerContextKey, a context
	// value's key) keeps its identity: the variable's own pointer.
	key := &level{9}
	RegisterSentinelValue("example.com/h.ServerKey", key)
	if got := roundTrip(t, bodyHolder{Any: key}); got.Any != any(key) {
		t.Errorf("pointer sentinel came back as %#v", got.Any)
	}
	e = &Encoder{Objects: newTable()}
	Encode(e, bodyHolder{Any: &level{9}})
	if bytes.IndexByte(e.Buf, TagSentinel) >= 0 {
		t.Errorf("another *level recorded as a sentinel: % x", e.Buf)
	}
	// Another value of the type is no sentinel: its fields, by type name.
	e = &Encoder{Objects: newTable()}
	Encode(e, bodyHolder{Any: level{2}})
	if bytes.IndexByte(e.Buf, TagSentinel) >= 0 {
		t.Errorf("level{2} recorded as a sentinel: % x", e.Buf)
	}
}

// TestSentinelValuesNotRegistered: pointers, errors, values of exported
// or registered types and values whose comparison can panic keep their
// encoding; a name this build does not register is an error, not a
// stand-in.
func TestSentinelValuesNotRegistered(t *testing.T) {
	RegisterType(reflect.TypeFor[point]())
	for name, v := range map[string]any{
		"p.Ptr": &point{3, 4, ""}, "p.NilPtr": (*level)(nil), "p.Err": io.ErrClosedPipe, "p.Exported": strings.NewReader(""),
		"p.Registered": point{1, 2, ""}, "p.Loud": loud{[]int{1}}, "p.Nil": nil,
	} {
		RegisterSentinelValue(name, v)
		if _, ok := valueSentinelByName(name); ok {
			t.Errorf("%s (%T) registered", name, v)
		}
	}
	b := append([]byte{TagSentinel}, appendName(nil, "example.com/h.Unknown")...)
	d := &Decoder{Buf: b, Resolver: newTable()}
	Decode[io.Writer](d)
	if d.Err == nil || !strings.Contains(d.Err.Error(), "example.com/h.Unknown") {
		t.Errorf("decoding an unregistered variable: %v", d.Err)
	}
}

type listenerHolder struct {
	L    io.Reader
	Name string
}

// TestReflectedUnknownWithoutStandIn: decoding a reflected argument
// (NilUnbuilt), a value of a type this build neither registers nor links, for
// whose interface no stand-in can be made, leaves the slot nil, names the
// type in Unbuilt and reads on, so that replay ends with the type named
// instead of a decoding error (a divergence); outside reflected arguments
// (a checkpoint's restore, Linked alone) it stays the decoding's error.
func TestReflectedUnknownWithoutStandIn(t *testing.T) {
	b := []byte{TagRecord, 2, TagIface}
	b = appendName(b, "*example.com/nowhere.onceCloseListener")
	b = append(b, TagRef)
	b = appendName(b, "")
	b = append(b, 7, TagString)
	b = appendName(b, "srv")
	for _, linked := range []bool{true, false} {
		d := &Decoder{Buf: b, Resolver: newTable(), Linked: true, NilUnbuilt: linked}
		got := Decode[listenerHolder](d)
		if !linked {
			if d.Err == nil {
				t.Errorf("without NilUnbuilt: no error (%+v)", got)
			}
			continue
		}
		if d.Err != nil || d.Off != len(b) || got.L != nil || got.Name != "srv" || d.Unbuilt != "*example.com/nowhere.onceCloseListener" {
			t.Errorf("linked: %+v, err %v, off %d of %d, unbuilt %q", got, d.Err, d.Off, len(b), d.Unbuilt)
		}
	}
}
