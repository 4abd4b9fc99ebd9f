package probe

import (
	"reflect"
	"strings"

	"github.com/rules-capture/rules_capture/runtime/value"
)

// Realize is value.Realizer: id is bound to a generated placeholder that
// stands in for the type name names (an interface value of a dynamic type
// the decoding there did not rebuild), and a later sight gives the object
// as that type t with its contents (a reflected incall argument, which
// replay rebuilds with the binary's own types). The capture saw one object;
// its placeholder held no state (its uses are outcalls), so a new t takes
// the ID from here on. The placeholder keeps the ID at its own address:
// observed code that still holds it encodes it by the ID and name the
// capture gave, and its calls stay outcalls answered from the log.
func (p *player) Realize(id uint64, t reflect.Type, name string) (reflect.Value, bool) {
	if t.Kind() != reflect.Pointer || value.TypeName(t) != name {
		return reflect.Value{}, false
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	old, ok := p.byID[id]
	if !ok {
		return reflect.Value{}, false
	}
	c := concrete(old)
	if c.Kind() != reflect.Pointer || c.IsNil() || !strings.HasPrefix(c.Type().Elem().Name(), value.PlaceholderPrefix) {
		return reflect.Value{}, false
	}
	if o, ok := p.ids[p.key(old)]; !ok || o.id != id || o.name != name || o.standIn != nil {
		return reflect.Value{}, false
	}
	obj := reflect.New(t.Elem())
	p.bindLocked(id, obj, name)
	// Its contents are decoded now, from this sight: the replayed code's
	// encoding of the sight gives them again, as the capture's did (Bind).
	k := p.key(obj)
	o := p.ids[k]
	o.fresh, o.size = true, 0
	p.ids[k] = o
	return obj, true
}
