package transform_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// TestReflectOverOutsideValuesIsNative: a package that reflects over values
// from outside (an `any` parameter) runs its reflection natively, also
// Interface(), and records the parameter deeply at the CALL_IN and again
// after the call (docs/design/reflection.md).
func TestReflectOverOutsideValuesIsNative(t *testing.T) {
	src := "package p\n\nimport \"reflect\"\n\nfunc Decode(data string, v any) error {\n\trv := reflect.ValueOf(v)\n\tif m, ok := rv.Interface().(interface{ UnmarshalText([]byte) error }); ok {\n\t\treturn m.UnmarshalText([]byte(data))\n\t}\n\trv.Elem().Field(0).SetString(data)\n\treturn nil\n}\n"
	out, err := instrumentSource(t, "p/decode.go", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, site := range []string{`"reflect.ValueOf"`, `"(reflect.Value).Interface"`, `"(reflect.Value).SetString"`, `"(reflect.Value).Elem"`} {
		if bytes.Contains(out.Gen, []byte(site)) {
			t.Errorf("outcall site %s: reflection should be native\n%s", site, out.Gen)
		}
	}
	// The method reached through Interface() and an assertion is an
	// interface call: an outcall when the dynamic type is external.
	if !bytes.Contains(out.Gen, []byte(`UnmarshalText"`)) {
		t.Errorf("no outcall site for UnmarshalText:\n%s", out.Gen)
	}
	gen := string(out.Gen)
	if i := strings.Index(gen, "func _capture_in_"); i >= 0 {
		gen = gen[i:] // the incall's recording path
	}
	enc := strings.Index(gen, "probe.EncodeReflected(s, p1)")
	call := strings.Index(gen, "f := s.Call()")
	res := strings.Index(gen, "s.Error(r0)")
	written := strings.Index(gen, "probe.Written(s, p1)")
	ret := strings.Index(gen, "s.Return(f)")
	if enc < 0 || !(enc < call && call < res && res < written && written < ret) {
		t.Errorf("want EncodeReflected before the call and Written after the results:\n%s", gen)
	}
	if strings.Contains(gen, "probe.EncodeReflected(s, p0)") {
		t.Errorf("the string parameter is recorded deeply:\n%s", gen)
	}
}

// TestReflectWithoutWritesRecordsOnce: an encoder that never writes
// through reflection records its parameter at the CALL_IN only.
func TestReflectWithoutWritesRecordsOnce(t *testing.T) {
	src := "package p\n\nimport \"reflect\"\n\nfunc Kind(v any) string { return reflect.ValueOf(v).Kind().String() }\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Gen, []byte("probe.EncodeReflected(s, p0)")) || bytes.Contains(out.Gen, []byte("probe.Written(")) {
		t.Errorf("want EncodeReflected and no Written:\n%s", out.Gen)
	}
}

// TestReflectOverOwnValuesOnlyRecordsAsBefore: a package that reflects
// only over its own values records its parameters as any other package.
func TestReflectOverOwnValuesOnlyRecordsAsBefore(t *testing.T) {
	src := "package p\n\nimport \"reflect\"\n\ntype C struct{ N int }\n\nfunc Keep(v any) any { return v }\n\nfunc N() int { return reflect.ValueOf(C{1}).Field(0).Interface().(int) }\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Gen, []byte("EncodeReflected")) || bytes.Contains(out.Gen, []byte("Written")) {
		t.Errorf("deep recording in a package that reflects only over its own values:\n%s", out.Gen)
	}
}

// TestReflectRegistersImportedTypes: a package that reflects over values
// from outside registers the exported types of the packages it imports, so
// that replay rebuilds values of them by name.
func TestReflectRegistersImportedTypes(t *testing.T) {
	src := "package p\n\nimport (\n\t\"reflect\"\n\t\"strings\"\n)\n\nfunc Kind(v any) string { return strings.ToLower(reflect.TypeOf(v).Kind().String()) }\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, reg := range []string{"probe.Type[strings.Builder]()", "probe.Type[strings.Reader]()", "probe.Type[reflect.Kind]()"} {
		if !bytes.Contains(out.Gen, []byte(reg)) {
			t.Errorf("no %s in\n%s", reg, out.Gen)
		}
	}
	if bytes.Contains(out.Gen, []byte("probe.Type[reflect.Type]()")) {
		t.Errorf("an interface type registered:\n%s", out.Gen)
	}
}

// TestReflectRejects: what reflection would do natively without a record
// over a value from outside is rejected there, with the construct, the
// first reflection over an outside value and the way out.
func TestReflectRejects(t *testing.T) {
	cases := []struct {
		name, src, want string
		line            int
	}{
		{"Call over a value from outside",
			"package p\n\nimport \"reflect\"\n\nfunc Run(v any) {\n\trv := reflect.ValueOf(v)\n\trv.MethodByName(\"Run\").Call(nil)\n}\n",
			"reflect.Value.Call in a package that reflects over values from outside the observed set (reflect.ValueOf of an interface value (any) at p/p.go:6): it calls the function or method it holds natively", 7},
		{"Recv over a value of another package's type",
			"package p\n\nimport (\n\t\"reflect\"\n\t\"strings\"\n)\n\nfunc First(r *strings.Reader, c chan int) any {\n\t_ = reflect.ValueOf(r).Elem().Field(0).Interface()\n\tv, _ := reflect.ValueOf(c).Recv()\n\treturn v\n}\n",
			"reflect.Value.Recv in a package that reflects over values from outside the observed set (reflect.ValueOf of a value of type *strings.Reader at p/p.go:9)", 10},
		{"Select",
			"package p\n\nimport \"reflect\"\n\nfunc Wait(v any) {\n\t_ = reflect.TypeOf(v)\n\treflect.Select(nil)\n}\n",
			"reflect.Select in a package that reflects over values from outside the observed set", 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := instrumentSource(t, "p/p.go", c.src)
			errs, ok := err.(transform.Errors)
			if !ok || len(errs) == 0 {
				t.Fatalf("want transform.Errors, got %v", err)
			}
			e := errs[0]
			if !strings.Contains(e.Construct, c.want) || e.Pos.Line != c.line || !strings.Contains(e.Fix, "leave this package out of the observed set") {
				t.Errorf("got %q at %v (fix %q), want %q at line %d", e.Construct, e.Pos, e.Fix, c.want, c.line)
			}
		})
	}
	// Over the package's own values the same methods stay native.
	own := "package p\n\nimport \"reflect\"\n\ntype T struct{}\n\nfunc (T) M() {}\n\nfunc Run() { reflect.ValueOf(T{}).MethodByName(\"M\").Call(nil) }\n"
	if _, err := instrumentSource(t, "p/p.go", own); err != nil {
		t.Errorf("Call over an own value: %v", err)
	}
}
