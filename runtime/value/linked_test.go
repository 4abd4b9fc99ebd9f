package value

import (
	"flag"
	"reflect"
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

	d = &Decoder{Buf: e.Buf, Resolver: newTable()}
	Decode[any](d)
	if d.Unbuilt != TypeName(reflect.TypeOf(f.Value)) {
		t.Errorf("without Linked: Unbuilt = %q, want the flag value's type", d.Unbuilt)
	}
}
