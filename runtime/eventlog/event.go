// Package eventlog is the event log of rules_capture: the in-memory event
// record, the Arrow IPC writer used while capturing and the streaming reader.
// It is the only package of the project that imports Apache Arrow.
package eventlog

import "strings"

// Kind says what crossed the boundary of the observed set
// (docs/design/boundary-model.md, "Events").
type Kind uint8

// The event kinds. The numeric values are part of the log format
// (docs/log-format.md): never renumber, only append.
const (
	KindInvalid      Kind = iota
	KindCallIn            // external code calls into the observed set
	KindReturnIn          // an incall returns; Values holds every result
	KindPanicOut          // a panic leaves the observed set
	KindCallOut           // observed code calls external code
	KindReturnOut         // an outcall returns; Values holds results and out-parameter memory
	KindPanicIn           // a panic enters the observed set from an outcall
	KindReadOut           // observed code reads an external field or package variable
	KindWriteOut          // observed code writes an external field or package variable
	KindWriteIn           // external code changed an exported variable/field of the observed set
	KindGo                // observed code starts a goroutine (links parent and child streams)
	KindChanTurn          // a goroutine of the observed set received from a channel it shares with others (Values: the channel's number, the receive's count)
	KindLockTurn          // a goroutine of the observed set acquired (or failed to try) a sync.Mutex or RWMutex of the observed set (Values: the lock's number, its write and read counts, acquired)
	KindCheckpoint        // the observed set's state at a quiescent point, from which replay can start (runtime/probe checkpoint.go; format 5)
	KindNoCheckpoint      // a quiescent point where no checkpoint could be taken (Values: the reason, a string)
	numKinds
)

var kindNames = [...]string{
	KindInvalid:   "INVALID",
	KindCallIn:    "CALL_IN",
	KindReturnIn:  "RETURN_IN",
	KindPanicOut:  "PANIC_OUT",
	KindCallOut:   "CALL_OUT",
	KindReturnOut: "RETURN_OUT",
	KindPanicIn:   "PANIC_IN",
	KindReadOut:   "READ_OUT",
	KindWriteOut:  "WRITE_OUT",
	KindWriteIn:   "WRITE_IN",
	KindGo:        "GO",
	KindChanTurn:  "CHAN_TURN",
	KindLockTurn:  "LOCK_TURN",

	KindCheckpoint:   "CHECKPOINT",
	KindNoCheckpoint: "NO_CHECKPOINT",
}

// String returns the name used in the log's kind column, e.g. "CALL_IN".
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "INVALID"
}

// ParseKind is the inverse of Kind.String; it returns KindInvalid, false for
// an unknown name.
func ParseKind(s string) (Kind, bool) {
	for k := KindCallIn; k < numKinds; k++ {
		if kindNames[k] == s {
			return k, true
		}
	}
	return KindInvalid, false
}

// Event is one row of the log. It is the contract between the recorder and
// player (runtime/...) and the log's writer and reader (this package).
//
// Strings are expected to come from a small set (sites, positions, type
// names): the writer dictionary-encodes them, so callers pass them without
// copying. Values is opaque to this package: it holds the arguments or results
// in the encoding of runtime/value (docs/log-format.md, "Values").
type Event struct {
	Seq      uint64 // global sequence number: 1-based, dense; assigned by Writer.Append
	Stream   uint32 // logical goroutine; 0 is package initialisation
	Kind     Kind
	Parent   uint64 // Seq of the enclosing CALL_IN / CALL_OUT (0: none); for RETURN_*/PANIC_* the Seq of the call it ends; for GO the Seq of the event in the parent stream that started it
	Site     string // what was called or accessed, e.g. "example.com/shop/pricing.Quote", "time.Now", "(*net/http.Client).Do"
	Pos      string // original source position of the probe, "pricing/quote.go:42" (informational: replay never matches on it)
	RecvType string // dynamic type of the receiver for method and interface calls, "" if none
	RecvID   uint64 // object ID of the receiver (0: none or passed by value)
	Values   []byte // arguments (CALL_*) or results (RETURN_*), panic value (PANIC_*), field value (READ/WRITE)
}

// The writer and reader API (implemented in writer.go and reader.go):
//
//	func Create(path string, meta Meta, opts Options) (*Writer, error)
//	func (w *Writer) Append(e *Event) uint64 // safe for concurrent use; assigns e.Seq (file order is Seq order), copies what it keeps
//	func (w *Writer) Flush() error           // everything appended so far is durable and readable
//	func (w *Writer) Close() error
//
//	func Open(path string) (*Reader, error)  // a capture-time log or a compacted file
//	func (r *Reader) Meta() Meta
//	func (r *Reader) Next() (*Event, error)  // io.EOF at the end; the event is valid until the next call
//	func (r *Reader) Close() error

// Clone returns a copy of e that owns its values and strings: the events a
// Reader returns share buffers it reuses for the next event.
func (e *Event) Clone() Event {
	c := *e
	c.Values = append([]byte(nil), e.Values...)
	c.Site, c.Pos, c.RecvType = strings.Clone(e.Site), strings.Clone(e.Pos), strings.Clone(e.RecvType)
	return c
}
