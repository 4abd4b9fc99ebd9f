package eventlog

import (
	"encoding/binary"

	flatbuffers "github.com/google/flatbuffers/go"
)

// schemaMessage returns the framed IPC schema message of a log with
// metadata m and an "open" status with zero counts. Its bytes are exactly
// those of Arrow Go's IPC writer for the same schema and metadata
// (TestSchemaMessageIsArrows): the FlatBuffers are built with the same
// builder calls in the same order as Arrow's schemaToFB and writeMessageFB
// (arrow/ipc/metadata.go, v15), so that the file stays Arrow's without this
// package linking Arrow's Go library, whose package initialisation alone
// cost a short capture process about 3 ms.
func schemaMessage(m Meta) []byte {
	keys, vals := metadataFor(m, Status{})
	b := flatbuffers.NewBuilder(1024)
	fields := make([]flatbuffers.UOffsetT, len(schemaFields))
	for i, f := range schemaFields {
		fields[i] = fieldFB(b, f, schemaDictIDs[i])
	}
	b.StartVector(4, len(fields), 4)
	for i := len(fields) - 1; i >= 0; i-- {
		b.PrependUOffsetT(fields[i])
	}
	fieldVec := b.EndVector(len(fields))
	kvs := make([]flatbuffers.UOffsetT, len(keys))
	for i := range keys {
		k := b.CreateString(keys[i])
		v := b.CreateString(vals[i])
		b.StartObject(2) // KeyValue
		b.PrependUOffsetTSlot(0, k, 0)
		b.PrependUOffsetTSlot(1, v, 0)
		kvs[i] = b.EndObject()
	}
	b.StartVector(4, len(kvs), 4)
	for i := len(kvs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(kvs[i])
	}
	metaVec := b.EndVector(len(kvs))
	b.StartObject(4)            // Schema
	b.PrependInt16Slot(0, 0, 0) // endianness: Little
	b.PrependUOffsetTSlot(1, fieldVec, 0)
	b.PrependUOffsetTSlot(2, metaVec, 0)
	schema := b.EndObject()
	b.StartObject(5) // Message
	b.PrependInt16Slot(0, metadataV5, 0)
	b.PrependByteSlot(1, headerSchema, 0)
	b.PrependUOffsetTSlot(2, schema, 0)
	b.PrependInt64Slot(3, 0, 0) // body length
	b.Finish(b.EndObject())
	return frameMessage(nil, b.FinishedBytes())
}

// fieldFB builds one Field table (Arrow's fieldVisitor.result).
func fieldFB(b *flatbuffers.Builder, f schemaField, dictID int64) flatbuffers.UOffsetT {
	name := b.CreateString(f.name)
	var typ flatbuffers.UOffsetT
	switch f.typ.id {
	case typeInt:
		typ = intFB(b, f.typ.bits, f.typ.signed)
	default: // Binary, Utf8: empty tables
		b.StartObject(0)
		typ = b.EndObject()
	}
	b.StartVector(4, 0, 4) // children
	kids := b.EndVector(0)
	var dict flatbuffers.UOffsetT
	if f.typ.dict {
		idx := intFB(b, f.typ.idxBits, f.typ.idxSign)
		b.StartObject(4) // DictionaryEncoding
		b.PrependInt64Slot(0, dictID, 0)
		b.PrependUOffsetTSlot(1, idx, 0)
		b.PrependBoolSlot(2, f.typ.ordered, false)
		dict = b.EndObject()
	}
	b.StartObject(7) // Field
	b.PrependUOffsetTSlot(0, name, 0)
	b.PrependBoolSlot(1, false, false) // nullable
	b.PrependByteSlot(2, f.typ.id, 0)
	b.PrependUOffsetTSlot(3, typ, 0)
	b.PrependUOffsetTSlot(4, dict, 0)
	b.PrependUOffsetTSlot(5, kids, 0)
	b.PrependUOffsetTSlot(6, 0, 0) // no custom metadata
	return b.EndObject()
}

func intFB(b *flatbuffers.Builder, bits int32, signed bool) flatbuffers.UOffsetT {
	b.StartObject(2) // Int
	b.PrependInt32Slot(0, bits, 0)
	b.PrependBoolSlot(1, signed, false)
	return b.EndObject()
}

// frameMessage appends the framed message with FlatBuffers meta and no body:
// continuation marker, length, meta padded so that the framing ends on 8
// bytes (Arrow's writeMessage).
func frameMessage(dst, meta []byte) []byte {
	padded := (len(meta) + 8 + 7) &^ 7
	dst = binary.LittleEndian.AppendUint32(dst, ipcContinuation)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(padded-8))
	dst = append(dst, meta...)
	for i := len(meta) + 8; i < padded; i++ {
		dst = append(dst, 0)
	}
	return dst
}
