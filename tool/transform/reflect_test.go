package transform_test

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
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

// TestReflectOutcallResults: an outcall returning a reflect.Type (expr's
// checker calling conf.New, whose Config holds them) or a reflect.Value
// (expr's builtin calling deref.Value) is an outcall like any other, its
// result recorded by the type's identity or by what the value refers to;
// one returning a *reflect.MapIter stays rejected, and the message names
// the callee's package as the way out when observing it too keeps the call
// inside the set, not for an interface method, whose dynamic type may be
// anywhere.
func TestReflectOutcallResults(t *testing.T) {
	fset := token.NewFileSet()
	refl, err := importer.ForCompiler(fset, "source", nil).Import("reflect")
	if err != nil {
		t.Fatal(err)
	}
	conf := types.NewPackage("example.com/conf", "conf")
	for name, typ := range map[string]string{"Env": "Type", "Val": "Value", "Iter": "MapIter"} {
		rt := refl.Scope().Lookup(typ).Type()
		if typ == "MapIter" {
			rt = types.NewPointer(rt)
		}
		res := types.NewTuple(types.NewVar(0, conf, "", rt))
		conf.Scope().Insert(types.NewFunc(0, conf, name, types.NewSignatureType(nil, nil, nil, nil, res, false)))
	}
	conf.SetImports([]*types.Package{refl})
	conf.MarkComplete()
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "reflect" {
			return refl, nil
		}
		return conf, nil
	})
	for _, c := range []struct {
		name, src, fix string
		rejected       bool
	}{
		{"type function", "package p\n\nimport \"example.com/conf\"\n\nfunc Kind() string { return conf.Env().Kind().String() }\n", "", false},
		{"type interface method", "package p\n\nimport \"reflect\"\n\ntype Typer interface{ T() reflect.Type }\n\nfunc Name(x Typer) string { return x.T().Name() }\n", "", false},
		{"value function", "package p\n\nimport \"example.com/conf\"\n\nfunc Kind() string { return conf.Val().Kind().String() }\n", "", false},
		{"value interface method", "package p\n\nimport \"reflect\"\n\ntype Valuer interface{ V() reflect.Value }\n\nfunc Name(x Valuer) string { return x.V().String() }\n", "", false},
		{"map iterator function", "package p\n\nimport \"example.com/conf\"\n\nfunc Next() bool { return conf.Iter().Next() }\n", "observe example.com/conf together with this package", true},
		{"map iterator interface method", "package p\n\nimport \"reflect\"\n\ntype Iterer interface{ It() *reflect.MapIter }\n\nfunc Next(x Iterer) bool { return x.It().Next() }\n", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := parser.ParseFile(fset, "p/p.go", c.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
			pkg, err := (&types.Config{Importer: imp}).Check("example.com/p", fset, []*ast.File{f}, info)
			if err != nil {
				t.Fatal(err)
			}
			_, err = transform.Instrument(&transform.Package{Fset: fset, Files: []*ast.File{f}, Sources: [][]byte{[]byte(c.src)}, Types: pkg, Info: info}, transform.Options{})
			if !c.rejected {
				if err != nil {
					t.Fatalf("want the outcall accepted, got %v", err)
				}
				return
			}
			errs, ok := err.(transform.Errors)
			if !ok || len(errs) != 1 || !strings.Contains(errs[0].Construct, "an outcall returning a *reflect.MapIter") {
				t.Fatalf("want the *reflect.MapIter outcall rejected, got %v", err)
			}
			if fix := errs[0].Fix; c.fix != "" && !strings.Contains(fix, c.fix) || c.fix == "" && strings.Contains(fix, "together with") {
				t.Errorf("fix %q, want it to say %q", fix, c.fix)
			}
			if !strings.Contains(errs[0].Fix, "leave this package out of the observed set") {
				t.Errorf("fix %q lacks the last way out", errs[0].Fix)
			}
		})
	}
}

// TestReflectMapIterIsNative: *reflect.MapIter (rv.MapRange()) is native as
// reflect.Value is; its Value and Key, which return reflect.Values, were
// outcalls rejected for their results (go-toml's marshaler: "an outcall
// returning a reflect.Value ((*reflect.MapIter).Value)").
func TestReflectMapIterIsNative(t *testing.T) {
	src := "package p\n\nimport \"reflect\"\n\nfunc Keys(v any) []string {\n\tvar out []string\n\tit := reflect.ValueOf(v).MapRange()\n\tfor it.Next() {\n\t\t_ = it.Value()\n\t\tout = append(out, it.Key().String())\n\t}\n\treturn out\n}\n"
	out, err := instrumentSource(t, "p/keys.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out.Gen, []byte("(*reflect.MapIter).")) || bytes.Contains(out.Files[0], []byte("_capture_out")) {
		t.Errorf("MapIter's methods were instrumented:\n%s\n%s", out.Files[0], out.Gen)
	}
}

// TestReflectTypeInExportedSignature: a reflect.Type in an exported
// signature crosses as the identity of the type it describes (a
// registry's Register(t reflect.Type)), so it is instrumented like any
// other parameter or result.
func TestReflectTypeInExportedSignature(t *testing.T) {
	src := "package p\n\nimport \"reflect\"\n\ntype Entry struct{ T reflect.Type }\n\nfunc Register(t reflect.Type) Entry { return Entry{T: t} }\n"
	out, err := instrumentSource(t, "p/p.go", src)
	if err != nil {
		t.Fatalf("reflect.Type in an exported signature: %v", err)
	}
	if !strings.Contains(string(out.Files[0]), "_capture_Register") {
		t.Fatalf("Register not instrumented:\n%s", out.Files[0])
	}
}

// TestReflectValueBehindPointer: a reflect.Value that a recorded value
// carries crosses as what it refers to wherever it crosses: by value (a
// struct result, a field read) and behind a pointer to another package's
// struct (expr's checker calling conf.New, whose *Config holds ConstFns
// map[string]reflect.Value).
func TestReflectValueBehindPointer(t *testing.T) {
	fset := token.NewFileSet()
	refl, err := importer.ForCompiler(fset, "source", nil).Import("reflect")
	if err != nil {
		t.Fatal(err)
	}
	conf := types.NewPackage("example.com/conf", "conf")
	fns := types.NewMap(types.Typ[types.String], refl.Scope().Lookup("Value").Type())
	cfgName := types.NewTypeName(0, conf, "Config", nil)
	cfg := types.NewNamed(cfgName, types.NewStruct([]*types.Var{types.NewField(0, conf, "Fns", fns, false)}, nil), nil)
	conf.Scope().Insert(cfgName)
	res := func(typ types.Type) *types.Signature {
		return types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(0, conf, "", typ)), false)
	}
	conf.Scope().Insert(types.NewFunc(0, conf, "New", res(types.NewPointer(cfg))))
	conf.Scope().Insert(types.NewFunc(0, conf, "Copy", res(cfg)))
	conf.SetImports([]*types.Package{refl})
	conf.MarkComplete()
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "reflect" {
			return refl, nil
		}
		return conf, nil
	})
	for _, c := range []struct{ name, body, want string }{
		{"pointer", "c := conf.New()\n\treturn c != nil", ""},
		{"field read", "return len(conf.New().Fns) > 0", ""},
		{"by value", "return len(conf.Copy().Fns) > 0", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "package p\n\nimport \"example.com/conf\"\n\nfunc F() bool {\n\t" + c.body + "\n}\n"
			f, err := parser.ParseFile(fset, "p/p.go", src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
			pkg, err := (&types.Config{Importer: imp}).Check("example.com/p", fset, []*ast.File{f}, info)
			if err != nil {
				t.Fatal(err)
			}
			_, err = transform.Instrument(&transform.Package{Fset: fset, Files: []*ast.File{f}, Sources: [][]byte{[]byte(src)}, Types: pkg, Info: info}, transform.Options{})
			if c.want == "" {
				if err != nil {
					t.Fatalf("want it accepted, got %v", err)
				}
				return
			}
			errs, ok := err.(transform.Errors)
			if !ok || len(errs) != 1 || !strings.Contains(errs[0].Construct, c.want) {
				t.Fatalf("want %q, got %v", c.want, err)
			}
		})
	}
}

// TestReflectMapRangeInKeyOrder: `it := v.MapRange()` whose iterator is
// used only through its methods and SetIterKey/SetIterValue becomes probe's
// stand-in, which iterates in key order (go-toml's encoder calls
// MarshalText per key in MapRange's order); an iterator that goes anywhere
// else stays reflect's.
func TestReflectMapRangeInKeyOrder(t *testing.T) {
	src := `package p

import "reflect"

func Keys(v reflect.Value) []string {
	var out []string
	k := reflect.New(v.Type().Key()).Elem()
	it := v.MapRange()
	for it.Next() {
		k.SetIterKey(it)
		out = append(out, k.String(), it.Value().String())
	}
	for it2 := v.MapRange(); it2.Next(); {
		out = append(out, it2.Key().String())
	}
	kept := v.MapRange()
	use(kept)
	return out
}

func use(it *reflect.MapIter) {}
`
	out, err := instrumentSource(t, "p/keys.go", src)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Files[0])
	for _, want := range []string{"it := _capture_maprange(v)", "_capture_setiterkey(k, it)", "it2 := _capture_maprange(v)", "kept := v.MapRange()"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if !bytes.Contains(out.Gen, []byte("func _capture_maprange(v reflect.Value) *probe.ReflectMapIter")) {
		t.Errorf("no _capture_maprange in\n%s", out.Gen)
	}
}

// TestReflectMadeSliceIsOwned: reflect.MakeSlice, reflect.Append and
// reflect.AppendSlice mark the backing array they return as the observed
// code's own (go-toml's decoder hands its elements' addresses to a test
// type's UnmarshalText).
func TestReflectMadeSliceIsOwned(t *testing.T) {
	src := `package p

import "reflect"

func Make(t reflect.Type, v reflect.Value) reflect.Value {
	s := reflect.MakeSlice(t, 0, 4)
	s = reflect.Append(s, v)
	return reflect.AppendSlice(s, s)
}
`
	out, err := instrumentSource(t, "p/make.go", src)
	if err != nil {
		t.Fatal(err)
	}
	got := string(out.Files[0])
	for _, want := range []string{"_capture_own_made(reflect.MakeSlice(t, 0, 4))", "_capture_own_made(reflect.Append(s, v))", "_capture_own_made(reflect.AppendSlice(s, s))"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
