package value

import (
	"encoding/binary"
	"reflect"
	"unsafe"
)

// What of an observed object leaving the set the capture reads
// (TestObjectLeavingCarriesExportedFieldsOnly in runtime/probe). The object
// is observed code's own: replay's code makes it again, so the log needs its
// identity, not its contents, and its unexported fields are internal to the
// set, checked through the set's behaviour at the boundary. Reading them as
// the object leaves races with the goroutines the set started (a reaper
// sweeping a cache under the cache's own lock): the capture holds none of
// the program's locks, and iterating a map another goroutine writes kills
// the program. So such an object is written with what external code can read
// directly, its exported fields; an object entering the set keeps its whole
// contents, which replay must rebuild.

// An exportedField is an exported field of a struct, or of an unexported
// struct it embeds by value (external code reads it promoted), at off
// from the struct's start.
type exportedField struct {
	name string
	off  uintptr
	pl   *encPlan
	// embed: an unexported embedded pointer (`type Cache struct{ *cache }`),
	// written after the exported fields (format 12 on) when it points to an
	// observed type. External code cannot name it, but it reaches the
	// object it holds as the receiver of the methods promoted from it
	// (`c.Set(k, v)` calls `(*cache).Set` on `c.cache`), so that object's
	// identity is part of what leaves: without it the log does not tie the
	// inner object to the outer one, and the first promoted incall would be
	// the inner object's first sight, which replay makes anew while
	// observed code (a janitor goroutine, a registry) works on the one the
	// outer object holds.
	embed bool
}

// LastUntiedEmbedFormat is the last log format version whose observed
// objects leaving the set carry their exported fields only, without the
// objects their unexported embedded pointers hold. A player of such a log
// writes them so too (SetUntiedEmbeds), so that its values compare equal.
const LastUntiedEmbedFormat = 11

// untiedEmbeds: leaving objects are written without their unexported
// embedded pointers, as logs of LastUntiedEmbedFormat and before hold
// them. Set by replay of such a log before any stream runs.
var untiedEmbeds bool

// SetUntiedEmbeds makes the encoders leave out the unexported embedded
// pointers of a leaving object (true), or write those to observed types
// after its exported fields (false, the default).
func SetUntiedEmbeds(untied bool) { untiedEmbeds = untied }

// exportedFields writes the pointee at p of plan pl, a struct, as
// TagExported: its exported fields by name.
func (e *Encoder) exportedFields(pl *encPlan, p unsafe.Pointer, depth int) {
	fs := exportedOf(pl)
	n := 0
	for _, f := range *fs {
		if f.written() {
			n++
		}
	}
	e.Buf = append(e.Buf, TagExported)
	e.Buf = binary.AppendUvarint(e.Buf, uint64(n))
	for _, f := range *fs {
		if !f.written() {
			continue
		}
		e.Buf = appendName(e.Buf, f.name)
		if depth+1 > MaxDepth {
			e.Buf = append(e.Buf, TagTruncated)
			continue
		}
		f.pl.enc(e, f.pl, unsafe.Add(p, f.off), depth+1)
	}
}

// exportedOf returns the exported fields of pl's struct type, made on
// first use.
func exportedOf(pl *encPlan) *[]exportedField {
	fs := pl.exported.Load()
	if fs == nil {
		fs = exportedFieldsOf(pl.t)
		pl.exported.Store(fs)
	}
	return fs
}

// written reports whether f is written: an exported field always; an
// unexported embedded pointer from format 12 on, when it points to an
// observed type (the object is the set's own, which replay makes again and
// binds by its ID).
func (f *exportedField) written() bool {
	return !f.embed || !untiedEmbeds && f.pl.observedElem()
}

// exportedFieldsOf is ExportedFields with each field's plan, then the
// unexported embedded pointers (hiddenEmbeds).
func exportedFieldsOf(t reflect.Type) *[]exportedField {
	visible, _ := ExportedFields(t)
	embeds := hiddenEmbeds(t)
	fs := make([]exportedField, len(visible), len(visible)+len(embeds))
	for i, f := range visible {
		pl := planFor(f.Type)
		if desc := fieldRedaction(t, f.Name, f.Type); desc != "" {
			planMu.Lock()
			pl = secretPlan(f.Type, desc)
			planMu.Unlock()
		}
		fs[i] = exportedField{name: f.Name, off: f.Offset, pl: pl}
	}
	for _, f := range embeds {
		fs = append(fs, exportedField{name: f.Name, off: f.Offset, pl: planFor(f.Type), embed: true})
	}
	return &fs
}

// hiddenEmbeds lists the unexported embedded pointer fields of struct type
// t (`*cache` in `struct{ *cache }`), and those of the unexported structs t
// embeds by value, in the order ExportedFields visits them, a shallower
// name hiding a deeper one: the pointers whose methods external code calls
// promoted. They are not watched for WRITE_IN: external code cannot write
// them.
func hiddenEmbeds(t reflect.Type) []Field {
	var out []Field
	seen := map[string]bool{}
	var collect func(t reflect.Type, base uintptr)
	collect = func(t reflect.Type, base uintptr) {
		var embedded []reflect.StructField
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			switch {
			case f.IsExported() || !f.Anonymous:
			case f.Type.Kind() == reflect.Struct:
				embedded = append(embedded, f)
			case f.Type.Kind() == reflect.Pointer && !seen[f.Name]:
				seen[f.Name] = true
				out = append(out, Field{Name: f.Name, Offset: base + f.Offset, Type: f.Type})
			}
		}
		for _, f := range embedded {
			collect(f.Type, base+f.Offset)
		}
	}
	collect(t, 0)
	return out
}

// A Field is a field of a struct type as external code sees it: its name
// (promoted through unexported embedded structs), offset from the start of
// the struct and type.
type Field struct {
	Name   string
	Offset uintptr
	Type   reflect.Type
}

// A Span is memory of a struct: offset and size.
type Span struct{ Offset, Size uintptr }

// ExportedFields lists what external code can read of struct type t: its
// exported fields in declaration order, then those of the unexported
// structs it embeds by value; a name seen at a shallower depth hides
// deeper ones, as in Go, and zero-size fields are left out. unexported is
// the memory of the unexported fields between them. Both the leaving
// objects' TagExported and the probe's WRITE_IN field watching
// (runtime/probe/writefields.go) use it, so the log's exported fields are
// the watched ones.
func ExportedFields(t reflect.Type) (exported []Field, unexported []Span) {
	seen := map[string]bool{}
	var collect func(t reflect.Type, base uintptr)
	collect = func(t reflect.Type, base uintptr) {
		var embedded []reflect.StructField
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			switch {
			case f.IsExported():
				if f.Type.Size() == 0 || seen[f.Name] {
					continue
				}
				seen[f.Name] = true
				exported = append(exported, Field{Name: f.Name, Offset: base + f.Offset, Type: f.Type})
			case f.Anonymous && f.Type.Kind() == reflect.Struct:
				embedded = append(embedded, f)
			default:
				unexported = append(unexported, Span{base + f.Offset, f.Type.Size()})
			}
		}
		for _, f := range embedded {
			collect(f.Type, base+f.Offset)
		}
	}
	collect(t, 0)
	return exported, unexported
}

// decodeExported reads a TagExported value (its tag already read) into the
// struct v: each field by name, as exportedFieldsOf found it. A name this
// build's type does not have as such a field is skipped. Only outgoing
// values hold TagExported, which replay compares rather than decodes; this
// serves a decode of them all the same (a tool, a changed program).
func (d *Decoder) decodeExported(v reflect.Value, depth int) {
	fs := exportedOf(planFor(v.Type()))
	base := unsafe.Pointer(v.UnsafeAddr())
	n := d.count()
	for i := 0; i < n && d.Err == nil; i++ {
		name := d.name()
		if d.Err != nil {
			return
		}
		found := false
		for _, f := range *fs {
			if f.name == name {
				d.whereT, d.whereF = v.Type(), name
				d.decode(reflect.NewAt(f.pl.t, unsafe.Add(base, f.off)).Elem(), depth+1)
				found = true
				break
			}
		}
		if !found {
			d.Skip()
		}
	}
}
