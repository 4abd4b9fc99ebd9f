// Package zeroiface reproduces a fault the study found (goldmark's parser,
// with its extension's strikethrough processor): a delimiter holds its
// processor, a pointer to an empty struct of another package, in an
// interface field. An outcall gets the delimiters (out-parameters: their
// contents are recorded again after it), and a later outcall calls a method
// of the processor.
package zeroiface

// A Processor matches delimiters.
type Processor interface {
	CanOpenCloser(opener, closer *Delimiter) bool
	OnMatch(consumes int) string
}

// A Delimiter is a run of delimiter characters with its processor.
type Delimiter struct {
	Length    int
	Processor Processor
}

// NewDelimiter returns a delimiter of n characters handled by p.
func NewDelimiter(n int, p Processor) *Delimiter {
	return &Delimiter{Length: n, Processor: p}
}

// Match pairs opener and closer: the closer's processor decides, the
// opener's makes the result.
func Match(opener, closer *Delimiter) string {
	if !closer.Processor.CanOpenCloser(opener, closer) {
		return ""
	}
	return opener.Processor.OnMatch(min(opener.Length, closer.Length))
}
