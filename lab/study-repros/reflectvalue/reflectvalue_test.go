package reflectvalue

import (
	"reflect"
	"strconv"
	"testing"
)

func TestHookExec(t *testing.T) {
	atoi := func(from, to reflect.Value) (any, error) {
		if to.Kind() != reflect.Int {
			return from.Interface(), nil
		}
		return strconv.Atoi(from.String())
	}
	var port int
	p := &port
	out, err := HookExec(atoi, reflect.ValueOf("8080"), reflect.ValueOf(&p))
	if err != nil || out != any(8080) || port != 8080 {
		t.Fatalf("HookExec = %v, %v; port %d", out, err, port)
	}
	var name string
	if _, err := HookExec(atoi, reflect.ValueOf("api"), reflect.ValueOf(&name).Elem()); err != nil || name != "api" {
		t.Fatalf("name %q, %v", name, err)
	}
	if _, err := HookExec(atoi, reflect.ValueOf("x"), reflect.ValueOf(&port)); err == nil {
		t.Fatal("no error for x")
	}
}
