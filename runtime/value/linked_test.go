package value

import (
	"bytes"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestLinkedTypeOfAnotherPackagesUnexportedType: a *flag.Flag's Value is a
// *flag.stringValue, which no generated code can name (pflag reflects over
// it); LinkedType finds it in the binary's type table.
func TestLinkedTypeOfAnotherPackagesUnexportedType(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.String("name", "x", "")
	want := reflect.TypeOf(fs.Lookup("name").Value)
	name := TypeName(want)
	if _, ok := LookupType(name); ok {
		t.Fatalf("LookupType(%q) found it: the test needs an unregistered type", name)
	}
	if got, ok := LinkedType(name); !ok || got != want {
		t.Fatalf("LinkedType(%q) = %v, %v; want %v", name, got, ok, want)
	}
	if got, ok := LinkedType("[]" + name); !ok || got != reflect.SliceOf(want) {
		t.Errorf("LinkedType([]%s) = %v, %v", name, got, ok)
	}
	for _, n := range []string{"flag.noSuchType", "example.com/nowhere.T", "flag.stringValue[int]", "*flag.", ""} {
		if got, ok := LinkedType(n); ok {
			t.Errorf("LinkedType(%q) = %v, want none", n, got)
		}
	}
}

// TestDecodeLinkedRebuildsTheDynamicType: a reflected value (Deep,
// Refresh) holding a *flag.Flag whose Value is a *flag.stringValue decodes,
// with Linked, as that type with its contents; without, as a stand-in
// (Unbuilt names the type).
func TestDecodeLinkedRebuildsTheDynamicType(t *testing.T) {
	RegisterType(reflect.TypeFor[*flag.Flag]())
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.String("name", "x", "")
	fs.Set("name", "api")
	f := fs.Lookup("name")
	e := &Encoder{Objects: newTable(), Deep: true, Refresh: true}
	Encode[any](e, f)

	d := &Decoder{Buf: e.Buf, Resolver: newTable(), Linked: true}
	got, _ := Decode[any](d).(*flag.Flag)
	if d.Err != nil || d.Unbuilt != "" || got == nil {
		t.Fatalf("Decode = %v, err %v, unbuilt %q", got, d.Err, d.Unbuilt)
	}
	if reflect.TypeOf(got.Value) != reflect.TypeOf(f.Value) || got.Value.String() != "api" || got.DefValue != "x" {
		t.Fatalf("Value = %T %q, DefValue %q; want %T %q", got.Value, got.Value.String(), got.DefValue, f.Value, "api")
	}

	d = &Decoder{Buf: e.Buf, Resolver: standInTable{newTable()}}
	got, _ = Decode[any](d).(*flag.Flag)
	if d.Unbuilt != TypeName(reflect.TypeOf(f.Value)) {
		t.Errorf("without Linked: Unbuilt = %q, want the flag value's type", d.Unbuilt)
	}
	if got == nil || reflect.TypeOf(got.Value) != reflect.TypeFor[*stubFlagValue]() {
		t.Errorf("without Linked: Value = %T, want the stand-in", got)
	}
}

// standInTable makes a stand-in of flag.Value for a reference of a type
// the build does not know.
type standInTable struct{ *table }

type stubFlagValue struct{ _ byte }

func (*stubFlagValue) String() string   { return "" }
func (*stubFlagValue) Set(string) error { return nil }

func (s standInTable) Ref(id uint64, name string, typ reflect.Type) (reflect.Value, error) {
	if typ == reflect.TypeFor[flag.Value]() {
		v := reflect.ValueOf(&stubFlagValue{})
		s.objs[id] = v
		return v, nil
	}
	return s.table.Ref(id, name, typ)
}

// TestDecodeLinkedWhereNoStandIn: a struct recorded deeply (an
// *http.Request written by an outcall) holds an io.ReadCloser whose dynamic
// type is io.NopCloser's unexported io.nopCloserWriterTo, of which no
// stand-in exists (the resolver makes none). Decoding without Linked
// rebuilds it as that type, linked in the binary, with its contents, and
// the value after it decodes too; without the type in the binary decoding
// fails naming it.
func TestDecodeLinkedWhereNoStandIn(t *testing.T) {
	type request struct {
		Method string
		Body   io.ReadCloser
		N      int
	}
	in := request{Method: "GET", Body: io.NopCloser(strings.NewReader("body")), N: 3}
	if _, ok := LookupType(TypeName(reflect.TypeOf(in.Body))); ok {
		t.Fatal("the test needs an unregistered dynamic type")
	}
	e := &Encoder{Objects: newTable(), Deep: true}
	Encode(e, in)
	Encode(e, "after")

	d := &Decoder{Buf: e.Buf, Resolver: newTable()}
	got := Decode[request](d)
	after := Decode[string](d)
	if d.Err != nil || d.Unbuilt != "" || got.Body == nil || after != "after" {
		t.Fatalf("Decode = %+v, %q, err %v, unbuilt %q", got, after, d.Err, d.Unbuilt)
	}
	if reflect.TypeOf(got.Body) != reflect.TypeOf(in.Body) || got.Method != "GET" || got.N != 3 {
		t.Fatalf("Decode = %+v (Body %T); want %+v", got, got.Body, in)
	}
	if b, err := io.ReadAll(got.Body); err != nil || string(b) != "body" {
		t.Fatalf("Body reads %q, %v; want the recorded contents", b, err)
	}

	// A name the binary does not link: the stand-in's error, as before.
	buf := bytes.Replace(e.Buf, []byte("io.nopCloserWriterTo"), []byte("io.nopCloserWriterXX"), 1)
	d = &Decoder{Buf: buf, Resolver: newTable()}
	Decode[request](d)
	if d.Err == nil || !strings.Contains(d.Err.Error(), "io.nopCloserWriterXX") {
		t.Fatalf("unlinked type: err %v, want one naming it", d.Err)
	}
}
