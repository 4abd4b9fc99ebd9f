package value

import "reflect"

// A Realizer makes the real object of an ID that replay first bound to a
// placeholder. An object from outside first crosses as an interface value
// whose dynamic type replay does not rebuild there (an outcall's result: a
// context.WithValue's *context.valueCtx becomes a generated placeholder of
// context.Context), and later crosses with its contents as that very type
// in a value that replay rebuilds as itself (an incall argument that the
// observed code reflects over: chi's *http.Request holding the context;
// LinkedType). The placeholder's state never mattered (every use of it is
// an outcall), so the contents go into a new object of the named type,
// which the ID stands for from then on; the placeholder keeps its ID, so
// observed code that still holds it encodes it as the capture did.
type Realizer interface {
	// Realize binds id to a new object of t (a pointer type) named name,
	// when id is bound to a placeholder that stands in for that type. It
	// returns the new object, or false where that does not apply.
	Realize(id uint64, t reflect.Type, name string) (reflect.Value, bool)
}

// realize is the Realizer's object for a sight of id as a t named name,
// whose replay object is not a t.
func (d *Decoder) realize(id uint64, t reflect.Type, name string) (reflect.Value, bool) {
	r, ok := d.Resolver.(Realizer)
	if !ok {
		return reflect.Value{}, false
	}
	return r.Realize(id, t, name)
}
