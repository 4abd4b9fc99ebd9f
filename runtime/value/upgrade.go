package value

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// Upgrade rewrites encoded values of log format 1 (LastNamedStructFormat)
// into the current encoding: every TagStruct (type name, fields) becomes a
// TagRecord (fields only), a reference inside an interface value of its own
// type loses its repeated type name, and map entries are sorted again by
// their rewritten keys. Replay compares values byte for byte, so a player
// reads an old log's values through Upgrade before comparing them with what
// the code of today encodes. Values without TagStruct and TagIface bytes
// come back unchanged (b itself, unchecked); other corrupt input gives an
// error wrapping ErrCorrupt.
func Upgrade(b []byte) ([]byte, error) {
	if bytes.IndexByte(b, TagStruct) < 0 && bytes.IndexByte(b, TagIface) < 0 {
		return b, nil // nothing to rewrite (the tag bytes appear nowhere)
	}
	d := &Decoder{Buf: b}
	out := make([]byte, 0, len(b))
	for d.Off < len(b) && d.Err == nil {
		out = upgradeOne(out, d, 0)
	}
	if d.Err != nil {
		return nil, d.Err
	}
	return out, nil
}

// upgradeOne copies the value at d into out, rewritten.
func upgradeOne(out []byte, d *Decoder, depth int) []byte {
	if depth > MaxDepth*2 {
		d.fail("values nested too deeply")
		return out
	}
	start := d.Off
	tag := d.byte()
	if d.Err != nil {
		return out
	}
	// copied appends the bytes read since start unchanged.
	copied := func() []byte { return append(out, d.Buf[start:d.Off]...) }
	switch tag {
	case TagNil, TagFalse, TagTrue, TagTruncated:
		return copied()
	case TagInt:
		d.varint()
		return copied()
	case TagUint:
		d.uvarint()
		return copied()
	case TagFloat:
		d.raw(8)
		return copied()
	case TagComplex:
		d.raw(16)
		return copied()
	case TagString, TagBytes, TagSentinel, TagReflectType:
		d.name()
		return copied()
	case TagRef:
		d.name()
		d.uvarint()
		return copied()
	case TagOpaque:
		d.name()
		d.name()
		return copied()
	case TagTime:
		d.varint()
		d.uvarint()
		d.name()
		d.varint()
		if d.byte() == 1 {
			d.uvarint()
			d.varint()
		}
		return copied()
	case TagImplements:
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			d.name()
		}
		out = copied()
		return upgradeOne(out, d, depth+1)
	case TagTypedError:
		d.name()
		out = copied()
		return upgradeOne(out, d, depth+1)
	case TagIface:
		name := d.name()
		out = copied()
		if inner := d.peek(); inner == TagRef || inner == TagObject {
			// A reference of the interface value's dynamic type: its own
			// name is left empty.
			d.Off++
			rname := d.name()
			idStart := d.Off
			d.uvarint()
			if d.Err != nil {
				return out
			}
			out = append(out, inner)
			if rname == name {
				rname = ""
			}
			out = appendName(out, rname)
			out = append(out, d.Buf[idStart:d.Off]...)
			if inner == TagObject {
				return upgradeOne(out, d, depth+1) // TagNil or the pointee
			}
			return out
		}
		return upgradeOne(out, d, depth+1)
	case TagObject:
		d.name()
		d.uvarint()
		out = copied()
		return upgradeOne(out, d, depth+1) // TagNil or the pointee
	case TagList:
		n := d.count()
		out = copied()
		for i := 0; i < n && d.Err == nil; i++ {
			out = upgradeOne(out, d, depth+1)
		}
		return out
	case TagStruct, TagRecord:
		if tag == TagStruct {
			d.name()
		}
		n := d.count()
		out = append(out, TagRecord)
		out = binary.AppendUvarint(out, uint64(n))
		for i := 0; i < n && d.Err == nil; i++ {
			out = upgradeOne(out, d, depth+1)
		}
		return out
	case TagMap:
		n := d.count()
		out = copied()
		type entry struct{ k, v []byte }
		entries := make([]entry, 0, n)
		for i := 0; i < n && d.Err == nil; i++ {
			k := upgradeOne(nil, d, depth+1)
			v := upgradeOne(nil, d, depth+1)
			entries = append(entries, entry{k, v})
		}
		slices.SortStableFunc(entries, func(a, b entry) int { return bytes.Compare(a.k, b.k) })
		for _, en := range entries {
			out = append(out, en.k...)
			out = append(out, en.v...)
		}
		return out
	case TagError:
		d.name() // type
		d.name() // message
		for i, n := 0, d.count(); i < n && d.Err == nil; i++ {
			d.name()
		}
		n := d.count()
		out = copied()
		for i := 0; i < n && d.Err == nil; i++ {
			out = upgradeOne(out, d, depth+1)
		}
		return out
	}
	d.Off--
	d.fail("unknown tag %d", tag)
	return out
}
