package eventlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
)

// MetaChecksum is the key, in the custom_metadata of an IPC Message (not of
// the schema), of a batch's checksum: 8 lowercase hex digits of the CRC-32C
// (Castagnoli) of the message's FlatBuffers metadata as stored (padding
// included) with these 8 digits read as "00000000", followed by its body.
// Arrow readers ignore message metadata they do not know, so a log with
// checksums stays plain Arrow IPC (docs/log-format.md, "Checksums").
//
// CRC-32C because it is what a checksum against accidental damage needs
// (every burst of up to 32 flipped bits, every odd number of flips, and all
// but 2^-32 of other damage is detected) at 5-8 GB/s, a few nanoseconds
// per event as stored: hash/crc32 uses the CPU's CRC32 instructions (SSE
// 4.2, ARMv8). zstd's own frame checksum would cover only compressed
// buffers, not uncompressed batches or the headers, and hash the
// uncompressed bytes. A checksum does not protect against someone who
// edits the file on purpose: they can recompute it, as with any unkeyed
// checksum.
const MetaChecksum = "rules_capture.crc32c"

// MetaMetadataChecksum is the schema metadata key of the checksum of the
// schema's other metadata: 8 lowercase hex digits of the CRC-32C of every
// other entry in file order, each as its key's length (uvarint), key,
// value's length (uvarint), value, leaving out rules_capture.status, which
// the writer rewrites in place after every flush (damage there shows as a
// malformed status, or as a count that the events do not match).
const MetaMetadataChecksum = "rules_capture.metadata_crc32c"

// withMetadataChecksum appends the metadata checksum entry to keys, vals.
func withMetadataChecksum(keys, vals []string) ([]string, []string) {
	var buf [checksumDigits]byte
	putChecksum(buf[:], metadataChecksum(keys, vals))
	return append(keys, MetaMetadataChecksum), append(vals, string(buf[:]))
}

// metadataChecksum is the checksum of the entries of keys, vals other
// than the status and the checksum itself.
func metadataChecksum(keys, vals []string) uint32 {
	var c uint32
	var b []byte
	for i, k := range keys {
		if k == MetaStatus || k == MetaMetadataChecksum {
			continue
		}
		b = binary.AppendUvarint(b[:0], uint64(len(k)))
		b = append(b, k...)
		b = binary.AppendUvarint(b, uint64(len(vals[i])))
		b = append(b, vals[i]...)
		c = crc32.Update(c, castagnoli, b)
	}
	return c
}

// checkMetadataChecksum verifies the checksum of a schema's metadata: it
// must be there from format version 4 on, and match wherever it is.
func checkMetadataChecksum(path string, s *schemaInfo, version int) error {
	var keys, vals []string
	found, sum, ok := 0, uint32(0), false
	for _, kv := range s.meta {
		if kv[0] == MetaMetadataChecksum {
			found++
			sum, ok = parseChecksum(kv[1])
			continue
		}
		keys, vals = append(keys, kv[0]), append(vals, kv[1])
	}
	var what string
	switch {
	case found == 0 && version >= firstChecksumFormat:
		what = "has no checksum (format version 4 requires one)"
	case found == 0:
		return nil
	case found > 1:
		what = "has two checksums"
	case !ok || metadataChecksum(keys, vals) != sum:
		what = "fails its checksum"
	default:
		return nil
	}
	return &logError{
		msg:  fmt.Sprintf("log %s: the schema's metadata (format version, observed packages, source hash, ...) %s: the file is corrupt", path, what),
		kind: ErrChecksum,
	}
}

// firstChecksumFormat is the first format version whose logs have a
// checksum on every batch. Older logs read without; Compact writes them.
const firstChecksumFormat = 4

// checksumDigits is the width of the checksum's value.
const checksumDigits = 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// zeroDigits stands in for the checksum's own digits while it is computed.
var zeroDigits = []byte("00000000")

// messageChecksum is the CRC-32C of a message whose FlatBuffers metadata
// (as framed: padded, without the 8-byte prefix) is meta, with the
// checksum's digits at meta[at:at+8] read as zeros, and whose body is body.
func messageChecksum(meta []byte, at int, body []byte) uint32 {
	c := crc32.Update(0, castagnoli, meta[:at])
	c = crc32.Update(c, castagnoli, zeroDigits)
	c = crc32.Update(c, castagnoli, meta[at+checksumDigits:])
	return crc32.Update(c, castagnoli, body)
}

// putChecksum writes c as 8 lowercase hex digits into b.
func putChecksum(b []byte, c uint32) {
	const hex = "0123456789abcdef"
	for i := checksumDigits - 1; i >= 0; i-- {
		b[i] = hex[c&0xf]
		c >>= 4
	}
}

// parseChecksum parses the value written by putChecksum.
func parseChecksum(s string) (uint32, bool) {
	if len(s) != checksumDigits {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(s, 16, 32)
	return uint32(v), err == nil
}

// ErrChecksum is wrapped by the error of a batch whose checksum does not
// match its bytes (errors.Is(err, ErrChecksum); such errors wrap ErrCorrupt
// too).
var ErrChecksum = errors.New("batch fails its checksum")

// ErrTruncated is wrapped by the error of a log whose writer closed it but
// that holds fewer events than the writer recorded (the file was cut or
// lost batches after it was closed); such errors wrap ErrCorrupt too.
var ErrTruncated = errors.New("closed log is truncated")

// logError is an error about the content of a log that has its own
// sentence (the kind is for errors.Is); it wraps ErrCorrupt.
type logError struct {
	msg  string
	kind error
}

func (e *logError) Error() string   { return e.msg }
func (e *logError) Unwrap() []error { return []error{ErrCorrupt, e.kind} }

// ignoreChecksums makes the reader skip checksum verification: the fuzz
// and mutation tests switch it on so that their inputs reach the parser
// behind the checksum (a hostile file can carry a valid checksum).
var ignoreChecksums = false

// Commas formats n in decimal with a comma between groups of three
// digits (1,658), as the reader's errors and capture's tools print counts.
func Commas(n uint64) string {
	s := strconv.FormatUint(n, 10)
	if len(s) <= 3 {
		return s
	}
	b := make([]byte, 0, len(s)+len(s)/3)
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// batchName names a batch for errors: record batch n (1-based) and the
// events it holds (positions in the file, 1-based), or a dictionary batch
// and the events it precedes.
func batchName(msg *message, recordBatches, events uint64) string {
	if msg.htype == headerDictBatch {
		col := "unknown column"
		if msg.dictID >= 0 && msg.dictID < int64(len(dictColumnNames)) {
			col = dictColumnNames[msg.dictID]
		}
		return fmt.Sprintf("dictionary batch of %s before event %s (offset %d)", col, Commas(events+1), msg.off)
	}
	if msg.rows <= 0 {
		return fmt.Sprintf("batch %s (empty, offset %d)", Commas(recordBatches+1), msg.off)
	}
	return fmt.Sprintf("batch %s (events %s-%s, offset %d)", Commas(recordBatches+1), Commas(events+1), Commas(events+uint64(msg.rows)), msg.off)
}
