package value

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
)

var tagNames = [...]string{
	TagNil: "nil", TagFalse: "false", TagTrue: "true", TagInt: "int", TagUint: "uint",
	TagFloat: "float", TagComplex: "complex", TagString: "string", TagBytes: "bytes",
	TagList: "list", TagMap: "map", TagStruct: "struct", TagRef: "reference",
	TagObject: "observed object", TagIface: "interface value", TagError: "error",
	TagSentinel: "sentinel", TagTypedError: "typed error", TagTime: "time",
	TagTruncated: "truncated value", TagOpaque: "opaque value", TagImplements: "implements prefix",
	TagRecord: "struct", TagExported: "exported fields", TagRedacted: "redacted value",
	TagReflectType: "reflect.Type", TagView: "slice view", TagReflectValue: "reflect.Value", TagAt: "location",
}

func tagName(t byte) string {
	if int(t) < len(tagNames) {
		return tagNames[t]
	}
	return "tag " + strconv.Itoa(int(t))
}

// Render renders a sequence of encoded values (an event's Values) as text,
// e.g. `3, "abc", &example.com/a.T#2{...}, error(*errors.errorString "boom")`.
// It needs no types from the program. Corrupt input gives an error.
func Render(b []byte) (string, error) {
	var sb strings.Builder
	d := &Decoder{Buf: b}
	for i := 0; d.Off < len(b) && d.Err == nil; i++ {
		if i > 0 {
			sb.WriteString(", ")
		}
		render(&sb, d, 0)
	}
	return sb.String(), d.Err
}

// RenderOne renders the value starting at b[off:] and returns the offset
// after it.
func RenderOne(b []byte, off int) (string, int, error) {
	var sb strings.Builder
	d := &Decoder{Buf: b, Off: off}
	render(&sb, d, 0)
	return sb.String(), d.Off, d.Err
}

// MaxObjectID returns the largest object ID that the encoded values b refer
// to (0 if none).
func MaxObjectID(b []byte) (uint64, error) {
	var top uint64
	d := &Decoder{Buf: b, seenRef: func(id uint64, _ string) { top = max(top, id) }}
	for d.Off < len(b) && d.Err == nil {
		d.Skip()
	}
	return top, d.Err
}

// Split returns the byte ranges of the top-level values in b.
func Split(b []byte) ([][]byte, error) {
	var out [][]byte
	d := &Decoder{Buf: b}
	for d.Off < len(b) && d.Err == nil {
		start := d.Off
		d.Skip()
		out = append(out, b[start:d.Off])
	}
	return out, d.Err
}

func render(sb *strings.Builder, d *Decoder, depth int) {
	outer := d.ifaceName // for this value only (seenRef's type names)
	d.ifaceName = ""
	if depth > MaxDepth*2 {
		d.fail("values nested too deeply")
		return
	}
	tag := d.byte()
	if d.Err != nil {
		return
	}
	switch tag {
	case TagAt:
		renderAt(sb, d)
		d.ifaceName = outer // the reference after it is the interface value's
		render(sb, d, depth+1)
	case TagImplements:
		start := d.Off - 1
		sb.WriteString("implements(")
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(d.name())
		}
		sb.WriteString(") ")
		if d.implSpan != nil && d.Err == nil {
			d.implSpan(start, d.Off)
		}
		render(sb, d, depth+1)
	case TagNil:
		sb.WriteString("nil")
	case TagFalse:
		sb.WriteString("false")
	case TagTrue:
		sb.WriteString("true")
	case TagInt:
		sb.WriteString(strconv.FormatInt(d.varint(), 10))
	case TagUint:
		sb.WriteString(strconv.FormatUint(d.uvarint(), 10))
	case TagFloat:
		b := d.raw(8)
		if d.Err == nil {
			sb.WriteString(strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', -1, 64))
		}
	case TagComplex:
		b := d.raw(16)
		if d.Err == nil {
			c := complex(math.Float64frombits(binary.LittleEndian.Uint64(b)), math.Float64frombits(binary.LittleEndian.Uint64(b[8:])))
			sb.WriteString(strconv.FormatComplex(c, 'g', -1, 128))
		}
	case TagString:
		sb.WriteString(strconv.Quote(d.name()))
	case TagRedacted:
		h := d.decodeRedacted()
		if d.Err == nil {
			sb.WriteString("redacted(")
			sb.WriteString(hex.EncodeToString(h[:]))
			sb.WriteString(")")
		}
	case TagView:
		renderView(sb, d)
		render(sb, d, depth+1)
	case TagBytes:
		b := d.raw(d.uvarint())
		sb.WriteString("[]byte(")
		sb.WriteString(strconv.Quote(string(b)))
		sb.WriteString(")")
	case TagList:
		n := d.count()
		sb.WriteString("[")
		for i := 0; i < n && d.Err == nil; i++ {
			if i > 0 {
				sb.WriteString(" ")
			}
			render(sb, d, depth+1)
		}
		sb.WriteString("]")
	case TagMap:
		n := d.count()
		sb.WriteString("map[")
		for i := 0; i < n && d.Err == nil; i++ {
			if i > 0 {
				sb.WriteString(" ")
			}
			render(sb, d, depth+1)
			sb.WriteString(":")
			render(sb, d, depth+1)
		}
		sb.WriteString("]")
	case TagStruct, TagRecord:
		if tag == TagStruct {
			sb.WriteString(d.name())
		}
		n := d.count()
		sb.WriteString("{")
		for i := 0; i < n && d.Err == nil; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			render(sb, d, depth+1)
		}
		sb.WriteString("}")
	case TagExported:
		n := d.count()
		sb.WriteString("{")
		for i := 0; i < n && d.Err == nil; i++ {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(d.name())
			sb.WriteString(": ")
			render(sb, d, depth+1)
		}
		sb.WriteString("}")
	case TagRef, TagObject:
		name := d.name()
		sb.WriteString(name)
		sb.WriteString("#")
		id := d.uvarint()
		sb.WriteString(strconv.FormatUint(id, 10))
		if d.seenRef != nil && d.Err == nil {
			if name == "" {
				name = outer
			}
			d.seenRef(id, name)
		}
		if tag == TagRef {
			break
		}
		if d.peek() == TagNil {
			d.Off++
		} else {
			sb.WriteString("=")
			// An object's contents start again at depth 0 (contents).
			if d.objNest > maxDecodedNesting {
				d.fail("objects nested too deeply")
				return
			}
			d.objNest++
			render(sb, d, 0)
			d.objNest--
		}
	case TagIface:
		name := d.name()
		sb.WriteString(name)
		sb.WriteString("(")
		d.ifaceName = name
		render(sb, d, depth+1)
		sb.WriteString(")")
	case TagError:
		typ := d.name()
		msg := d.name()
		sb.WriteString("error(")
		sb.WriteString(typ)
		sb.WriteString(" ")
		sb.WriteString(strconv.Quote(msg))
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			sb.WriteString(" is " + d.name())
		}
		n := d.count()
		for i := 0; i < n && d.Err == nil; i++ {
			sb.WriteString(" wraps ")
			render(sb, d, depth+1)
		}
		sb.WriteString(")")
	case TagSentinel:
		sb.WriteString(d.name())
	case TagReflectValue:
		renderReflectValue(sb, d, depth)
	case TagReflectType:
		sb.WriteString("reflect.Type(")
		sb.WriteString(d.name())
		sb.WriteString(")")
	case TagTypedError:
		sb.WriteString("error(")
		sb.WriteString(d.name())
		sb.WriteString(" ")
		render(sb, d, depth+1)
		sb.WriteString(")")
	case TagTime:
		sec := d.varint()
		nsec := d.uvarint()
		zone := d.name()
		off := d.varint()
		if d.byte() == 1 {
			d.uvarint()
			d.varint()
		}
		if d.Err == nil {
			t := time.Unix(sec, int64(nsec)).In(time.FixedZone(zone, int(off)))
			sb.WriteString("time(" + t.Format(time.RFC3339Nano) + ")")
		}
	case TagTruncated:
		sb.WriteString("...")
	case TagOpaque:
		sb.WriteString(d.name())
		sb.WriteString("(")
		sb.WriteString(d.name())
		sb.WriteString(")")
	default:
		d.Off--
		d.fail("unknown tag %d", tag)
	}
}
