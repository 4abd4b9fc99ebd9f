package eventlog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// FormatVersion is the version of the log format this package writes
// (docs/log-format.md, "Compatibility"). Readers accept every version up to
// their own and reject newer ones with an error that says to upgrade.
// Version 2 changed only the encoding of struct values in the Values column
// (runtime/value: TagRecord, no type name); players read version 1 values
// through value.Upgrade. Version 3 writes an observed object of struct type
// that leaves the observed set on first sight with its exported fields only
// (runtime/value: TagExported); players encode the replayed code's objects
// of a version 1 or 2 log whole, as those logs hold them
// (value.LastWholeObjectFormat). Version 4 adds a CRC-32C checksum to every
// dictionary and record batch (MetaChecksum); its columns and values are
// version 3's. Version 5 adds the CHECKPOINT and NO_CHECKPOINT kinds and
// the segment metadata key (MetaSegmentFrom) of a log cut at a checkpoint;
// a log without them reads as version 4's. Version 6 writes a pointer to a
// type of no package (`*[]float64`) or to a math/big number as an object
// with its pointee at every sight, where earlier versions wrote a bare
// reference; players of earlier logs encode such pointers bare
// (value.LastBarePointeeFormat); it also numbers observed function values
// by their closure, not their code (probe: closureFormat). Version 7 writes a slice of non-zero
// capacity as a view of its backing array (runtime/value: TagView: the
// array's object ID, the capacity, then the elements as before); players
// of earlier logs write slices by value (value.LastPlainSliceFormat).
// Version 8 adds, to an outcall's RETURN_OUT, the post-call contents of its
// map receiver and map arguments and the pointee of an owned address it gets
// as its receiver or as an interface argument; players of earlier logs leave
// that memory as it was (probe.LastUnwrittenOutFormat). Version 9 adds
// the post-call pointee of an address the observed code marked owned at run
// time, of an argument pointing to a struct of an observed type, and of the
// receiver of a method promoted from an external struct embedded by value;
// players of earlier logs leave that memory as it was
// (probe.LastUnmarkedOutFormat). Version 10 adds, to an outcall's
// RETURN_OUT, the post-call pointee of memory an incall's reflected
// argument brought in and of memory reflect.New made; records an incall
// parameter reflected over through an observed struct deeply, with what
// the call wrote; nests in an outcall a WRITE_IN of a watched field that
// external code wrote before calling observed code back; and writes an
// error of a slice, array, map, bool or float type by value where its type
// is registered; after an incall, a reflected parameter holding an error
// written by its message is nil whatever its kind. Players of earlier
// logs read none of these and write such parameters and errors as those
// logs do (probe.LastUnrebuiltOutFormat,
// probe.LastShallowObservedStructFormat,
// value.LastPlainCollectionErrorFormat, probe.LastWrittenPlainErrorFormat).
// Version 11 says where an object lies in another one: a pointer into a
// heap object past its start (&ctx.Params) is numbered as before, and a
// value.TagAt prefix before a reference gives that ID's enclosing object
// and offset, once, at the first sight of whichever of the two crosses
// second; players of earlier logs compare values byte for byte, as
// before (probe.LastUnlocatedFormat).
// It also adds, to an outcall's RETURN_OUT, the post-call pointee of
// memory observed code made with reflect.MakeSlice, reflect.Append or
// reflect.AppendSlice, and of each pointer, to such memory or to memory a
// reflected argument brought in (a pointer to a type of no package
// included), that its receiver or an interface argument holds by value,
// and of an error that crossed by its pointee (value.TagTypedError) that
// the outcall gets as its receiver or an argument; players of earlier logs
// leave that memory as it was (probe.LastUnmadeOutFormat,
// probe.LastUnwrittenTypedErrorFormat). And it counts the values' depth
// limit within each object's contents, so that objects nested deeper than
// it keep their contents; players of earlier logs count it over the whole
// value (value.LastPerLevelDepthFormat).
// Version 12 writes, after the exported fields of an observed object
// leaving the set on first sight, its unexported embedded pointers to
// observed types (`*cache` in `type Cache struct{ *cache }`), whose objects
// external code reaches as the receivers of promoted methods; players of
// earlier logs leave them out (value.LastUntiedEmbedFormat).
// It also records observed code's reads of addresses as integers
// (reflect.Value's Pointer and UnsafeAddr, uintptr(unsafe.Pointer(p)) whose
// integer stays data) as an outcall pair of the read's site: the object at
// the CALL_OUT (a reference, or its number among the objects address reads
// alone met), the integer at the RETURN_OUT; players of earlier logs read
// addresses natively, as those logs' captures did
// (probe.LastUnrecordedAddressFormat).
// It also writes by value a slice over the memory of a string that the
// observed code took (unsafe.StringData, or the string's header read
// through unsafe.Pointer), where earlier versions wrote a view of its
// array; players of earlier logs write such slices as views
// (probe.LastStringViewFormat). And it adds, to the RETURN_OUT of an
// outcall that gets an object keeping owned addresses (one an earlier
// outcall returned after it got them), for each such address, whether its
// pointee changed and, if so, the pointee; players of earlier logs make no
// keepers and leave that memory as it was (probe.LastUnkeptOutFormat).
const FormatVersion = 12

// Column names, in schema order. They are part of the format.
const (
	ColSeq      = "seq"
	ColStream   = "stream"
	ColKind     = "kind"
	ColParent   = "parent"
	ColSite     = "site"
	ColPos      = "pos"
	ColRecvType = "recv_type"
	ColRecvID   = "recv_id"
	ColValues   = "values"
)

// Schema metadata keys (docs/log-format.md, "Schema metadata").
const (
	MetaFormatVersion    = "rules_capture.format_version"
	MetaObservedPackages = "rules_capture.observed_packages" // JSON array of import paths
	MetaSourceHash       = "rules_capture.source_hash"
	MetaGoVersion        = "rules_capture.go_version"
	MetaBuildLabel       = "rules_capture.build_label"
	MetaStartTime        = "rules_capture.start_time" // RFC 3339, nanoseconds, UTC
	MetaRunID            = "rules_capture.run_id"
	MetaSegmentFrom      = "rules_capture.segment_from" // format 5: the seq of the checkpoint a segment starts with
	MetaStatus           = "rules_capture.status"       // fixed-width, rewritten in place while capturing
	// MetaRotation is, in a log the recorder rotated (CAPTURE_ROTATE), how
	// this file came to be: "segment=N limit=L deferred=D failed=F".
	MetaRotation = "rules_capture.rotation"
)

// Meta is the metadata of a log: who wrote it and, when read, how the
// writing ended.
type Meta struct {
	FormatVersion    int      // set by the writer; as found in the file when read
	ObservedPackages []string // import paths of the observed set
	SourceHash       string   // hash of the observed packages' sources (computed by the build)
	GoVersion        string   // runtime.Version() of the capturing program if empty
	BuildLabel       string   // e.g. the Bazel label of the capture binary
	StartTime        time.Time
	RunID            string // random, host-independent; generated if empty
	// SegmentFrom is, for a segment (a log cut at a checkpoint: capture
	// cut), the sequence number in run RunID of the checkpoint it starts
	// with; 0 for a log of a whole run.
	SegmentFrom uint64
	// Rotation is, for a file of a rotated log (CAPTURE_ROTATE), its
	// segment number in the run (from 1), the limit, and what delayed its
	// start past the limit: "segment=3 limit=64MiB deferred=0 failed=0"
	// (MetaRotation; empty otherwise).
	Rotation string

	// Status is filled by the reader (the writer ignores it).
	Status Status
}

// Status is the state of a log as last recorded by its writer. While
// capturing, the writer rewrites it in place after every flush, so a log
// whose writer was killed still says how far it got.
type Status struct {
	Closed  bool      // the writer was closed cleanly (false: still writing, or killed)
	Events  uint64    // events written as of the last flush
	Dropped uint64    // events not in the log: dropped by the Drop policy, oversized, or Lost
	Blocked uint64    // Appends that had to wait for the writer (Block policy)
	EndTime time.Time // time of the last flush (zero if none)

	// Lost counts the events (included in Dropped) that the writer could
	// not write: a write error such as a full disk, or the size cap
	// (Options.MaxBytes). The writer retries at every later batch, so a
	// log may have lost events in the middle and go on after them.
	Lost uint64
	// LostWhy says why the latest events were lost: an errno name
	// (ENOSPC, EDQUOT, EIO...), "size_cap", or "error"; empty if none.
	LostWhy string
	// LostSince is when the latest run of losses began (zero if none).
	LostSince time.Time
	// PID is the writing process (0 in logs written before it was
	// recorded): capture compact names it when it refuses a live log.
	PID uint64
}

// Complete reports whether the log holds every event that was appended:
// the writer was closed and dropped nothing.
func (s Status) Complete() bool { return s.Closed && s.Dropped == 0 }

// The status value has a fixed width so that the writer can overwrite it in
// the already-written schema message without moving anything. Fields are
// key=value separated by spaces; readers ignore keys they do not know, and
// a status written before a key existed reads as its zero value.
const statusPrefix = "state="

// lostWhyWidth is the width of the lost_why value, padded with spaces
// (the longest errno names, ENAMETOOLONG and ENOTRECOVERABLE, are cut).
const lostWhyWidth = 12

func formatStatus(s Status) string {
	state := "open"
	if s.Closed {
		state = "done"
	}
	b := make([]byte, 0, statusWidth)
	b = append(b, statusPrefix+state+" events="...)
	b = appendPadded(b, s.Events)
	b = append(b, " dropped="...)
	b = appendPadded(b, s.Dropped)
	b = append(b, " blocked="...)
	b = appendPadded(b, s.Blocked)
	b = append(b, " end_unix_ns="...)
	b = appendTime(b, s.EndTime)
	b = append(b, " lost="...)
	b = appendPadded(b, s.Lost)
	b = append(b, " lost_since_ns="...)
	b = appendTime(b, s.LostSince)
	b = append(b, " pid="...)
	b = appendPadded(b, s.PID)
	b = append(b, " lost_why="...)
	why := s.LostWhy
	if len(why) > lostWhyWidth {
		why = why[:lostWhyWidth]
	}
	for i := 0; i < len(why); i++ {
		if c := why[i]; c <= ' ' || c == '=' || c >= 0x7f {
			why = "error" // the value must stay one field
			break
		}
	}
	b = append(b, why...)
	for i := len(why); i < lostWhyWidth; i++ {
		b = append(b, ' ')
	}
	return string(b)
}

// appendTime appends t in Unix nanoseconds as appendPadded does, 0 for
// the zero time; before 1970 as fmt's %020d.
func appendTime(b []byte, t time.Time) []byte {
	var ns int64
	if !t.IsZero() {
		ns = t.UnixNano()
	}
	if ns < 0 {
		b = append(b, '-')
		s := strconv.FormatUint(uint64(-ns), 10)
		for i := len(s); i < 19; i++ {
			b = append(b, '0')
		}
		return append(b, s...)
	}
	return appendPadded(b, uint64(ns))
}

// appendPadded appends v in decimal, zero-padded to 20 digits (fmt's
// %020d: the width of the largest uint64).
func appendPadded(b []byte, v uint64) []byte {
	var d [20]byte
	for i := len(d) - 1; i >= 0; i-- {
		d[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, d[:]...)
}

// statusWidth is len(formatStatus(s)), the same for every s. Logs written
// before the lost, lost_since_ns, pid and lost_why fields end after
// end_unix_ns (statusWidthV1); their readers never depend on the width.
const (
	statusWidthV1 = len("state=open events= dropped= blocked= end_unix_ns=") + 4*20
	statusWidth   = statusWidthV1 + len(" lost= lost_since_ns= pid= lost_why=") + 3*20 + lostWhyWidth
)

func parseStatus(v string) (Status, error) {
	var s Status
	if v == "" {
		return s, nil
	}
	for _, f := range strings.Fields(v) {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			return s, fmt.Errorf("malformed status field %q", f)
		}
		switch key {
		case "state":
			// Only the two states: a damaged "done" must not read as a
			// log whose writer was killed (which is read to where it ends).
			if val != "open" && val != "done" {
				return s, fmt.Errorf("malformed status field %q", f)
			}
			s.Closed = val == "done"
			continue
		case "lost_why":
			s.LostWhy = val
			continue
		case "events", "dropped", "blocked", "end_unix_ns", "lost", "lost_since_ns", "pid":
		default:
			continue // a later writer's field
		}
		n, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			return s, fmt.Errorf("malformed status field %q", f)
		}
		switch key {
		case "events":
			s.Events = n
		case "dropped":
			s.Dropped = n
		case "blocked":
			s.Blocked = n
		case "end_unix_ns":
			if n != 0 {
				s.EndTime = time.Unix(0, int64(n)).UTC()
			}
		case "lost":
			s.Lost = n
		case "lost_since_ns":
			if n != 0 {
				s.LostSince = time.Unix(0, int64(n)).UTC()
			}
		case "pid":
			s.PID = n
		}
	}
	return s, nil
}

// colType is the type of one column, as much of Arrow's type system as the
// format uses: unsigned and signed integers, binary, utf8, and dictionaries
// of utf8 with integer indices.
type colType struct {
	id      byte  // typeInt, typeBinary or typeUtf8 (of the values, for a dictionary)
	bits    int32 // typeInt
	signed  bool  // typeInt
	dict    bool  // dictionary-encoded: idxBits, idxSigned and ordered apply
	idxBits int32
	idxSign bool
	ordered bool
}

var (
	uint32Type    = colType{id: typeInt, bits: 32}
	uint64Type    = colType{id: typeInt, bits: 64}
	binaryType    = colType{id: typeBinary}
	kindDictType  = colType{id: typeUtf8, dict: true, idxBits: 8, idxSign: true}
	stringDictTyp = colType{id: typeUtf8, dict: true, idxBits: 32, idxSign: true}
)

// String names the type as Arrow Go does (arrow.DataType.String).
func (t colType) String() string {
	v := intName(t.bits, t.signed)
	switch t.id {
	case typeBinary:
		v = "binary"
	case typeUtf8:
		v = "utf8"
	case typeInt:
	default:
		v = fmt.Sprintf("type%d", t.id)
	}
	if !t.dict {
		return v
	}
	return fmt.Sprintf("dictionary<values=%s, indices=%s, ordered=%t>", v, intName(t.idxBits, t.idxSign), t.ordered)
}

func intName(bits int32, signed bool) string {
	if signed {
		return "int" + strconv.Itoa(int(bits))
	}
	return "uint" + strconv.Itoa(int(bits))
}

type schemaField struct {
	name string
	typ  colType
}

// schemaFields is the fixed column list. All columns are non-nullable: an
// absent receiver is recv_type "" and recv_id 0, an absent parent is 0.
var schemaFields = []schemaField{
	{ColSeq, uint64Type},
	{ColStream, uint32Type},
	{ColKind, kindDictType},
	{ColParent, uint64Type},
	{ColSite, stringDictTyp},
	{ColPos, stringDictTyp},
	{ColRecvType, stringDictTyp},
	{ColRecvID, uint64Type},
	{ColValues, binaryType},
}

const (
	colSeq = iota
	colStream
	colKind
	colParent
	colSite
	colPos
	colRecvType
	colRecvID
	colValues
	numCols
)

// metadataFor is the schema metadata of a log, keys in format order.
func metadataFor(m Meta, st Status) (keys, vals []string) {
	pk := appendJSONStrings(nil, m.ObservedPackages)
	keys = []string{MetaFormatVersion, MetaObservedPackages, MetaSourceHash, MetaGoVersion,
		MetaBuildLabel, MetaStartTime, MetaRunID, MetaStatus}
	vals = []string{strconv.Itoa(m.FormatVersion), string(pk), m.SourceHash, m.GoVersion,
		m.BuildLabel, m.StartTime.UTC().Format(time.RFC3339Nano), m.RunID, formatStatus(st)}
	if m.SegmentFrom != 0 {
		// Only in segments, so that the logs of whole runs keep the
		// metadata (and schema message bytes) of version 4.
		keys = append(keys, MetaSegmentFrom)
		vals = append(vals, strconv.FormatUint(m.SegmentFrom, 10))
	}
	if m.Rotation != "" {
		keys = append(keys, MetaRotation)
		vals = append(vals, m.Rotation)
	}
	return withMetadataChecksum(keys, vals)
}

// appendJSONStrings appends ss as a JSON array of strings ("[]" if empty),
// byte for byte as encoding/json's Marshal writes it (TestJSONStrings):
// Marshal's first use builds its encoders by reflection, which cost every
// capture process 0.06 ms.
func appendJSONStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}

// appendJSONString is encoding/json's appendString with HTML escaping.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other control bytes, <, >, &
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// schemaInfo is a decoded schema message: what the reader checks.
type schemaInfo struct {
	fields []schemaField
	meta   [][2]string // key, value in file order
}

// value returns the first value of key, as Arrow's Metadata.GetValue.
func (s *schemaInfo) value(key string) (string, bool) {
	for _, kv := range s.meta {
		if kv[0] == key {
			return kv[1], true
		}
	}
	return "", false
}

// checkSchema verifies that s is a rules_capture event log schema that this
// reader understands and returns its metadata.
func checkSchema(s *schemaInfo) (Meta, error) {
	var m Meta
	vs, ok := s.value(MetaFormatVersion)
	if !ok {
		return m, fmt.Errorf("not a rules_capture event log: schema metadata has no %q key", MetaFormatVersion)
	}
	v, err := strconv.Atoi(vs)
	if err != nil || v < 1 {
		return m, fmt.Errorf("bad %s %q", MetaFormatVersion, vs)
	}
	if v > FormatVersion {
		return m, fmt.Errorf("log format version %d is newer than this reader (version %d): upgrade rules_capture to read it", v, FormatVersion)
	}
	m.FormatVersion = v
	if len(s.fields) != len(schemaFields) {
		return m, fmt.Errorf("schema has %d columns, format version %d has %d", len(s.fields), v, len(schemaFields))
	}
	for i, f := range s.fields {
		want := schemaFields[i]
		if f != want {
			return m, fmt.Errorf("schema column %d is %s %s, want %s %s", i, f.name, f.typ, want.name, want.typ)
		}
	}
	if pk, ok := s.value(MetaObservedPackages); ok && pk != "" {
		if err := json.Unmarshal([]byte(pk), &m.ObservedPackages); err != nil {
			return m, fmt.Errorf("bad %s: %v", MetaObservedPackages, err)
		}
	}
	m.SourceHash, _ = s.value(MetaSourceHash)
	m.GoVersion, _ = s.value(MetaGoVersion)
	m.BuildLabel, _ = s.value(MetaBuildLabel)
	m.RunID, _ = s.value(MetaRunID)
	m.Rotation, _ = s.value(MetaRotation)
	if sf, ok := s.value(MetaSegmentFrom); ok {
		if m.SegmentFrom, err = strconv.ParseUint(sf, 10, 64); err != nil || m.SegmentFrom == 0 {
			return m, fmt.Errorf("bad %s %q", MetaSegmentFrom, sf)
		}
	}
	if ts, ok := s.value(MetaStartTime); ok && ts != "" {
		t, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			return m, fmt.Errorf("bad %s: %v", MetaStartTime, err)
		}
		m.StartTime = t
	}
	st, _ := s.value(MetaStatus)
	if m.Status, err = parseStatus(st); err != nil {
		return m, fmt.Errorf("bad %s: %v", MetaStatus, err)
	}
	return m, nil
}
