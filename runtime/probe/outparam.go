package probe

import (
	"reflect"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Out-parameters through pointers: an outcall's argument that is the address
// of memory the observed code owns (`json.Unmarshal(b, &cfg)`,
// `rows.Scan(&name, &age)`, chosen by the transform) has its pointee
// recorded with the results, and replay writes it back before the observed
// code continues.

// Pointee appends the value p points to, after the outcall (capture). p is
// the argument as the callee got it: a pointer, or an interface holding one;
// anything else (a nil pointer, a value in an `any`) appends nil.
func Pointee(s *Stream, p any) {
	rv := reflect.ValueOf(p)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		s.enc.Buf = append(s.enc.Buf, value.TagNil)
		return
	}
	s.enc.Objects = objectTable()
	s.enc.Deep = true
	s.enc.EncodeValue(rv.Elem())
	s.enc.Deep = false
}

// SetPointee writes the recorded pointee back through p (replay). For an
// argument that is not a non-nil pointer the recorded value is skipped, as
// Pointee recorded nil for it.
func SetPointee(s *Stream, p any) {
	rv := reflect.ValueOf(p)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		s.dec.Skip()
		return
	}
	s.dec.Resolver = resolver()
	if m := rv.Elem(); m.Kind() == reflect.Map && !m.IsNil() {
		// The map the code holds, filled in place: the callee wrote its
		// entries (`v.Set(k, s)` on a *url.Values), and the caller's
		// other references to the map (the url.Values a function passed
		// its parameter's address from) see them, as in the capture.
		d := reflect.New(m.Type()).Elem()
		s.dec.DecodeValue(d)
		if s.dec.Err == nil {
			m.Clear()
			for it := d.MapRange(); it.Next(); {
				m.SetMapIndex(it.Key(), it.Value())
			}
		}
		return
	}
	s.dec.DecodeValue(rv.Elem())
}
