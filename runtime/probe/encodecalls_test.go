package probe

import (
	"testing"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/value"
)

var encodedErrSite = &Site{Name: "(example.com/enc.Errors).Error"}

// encodedErr stands for an error type of the observed set: its Error
// method is an incall wrapper, as the transform writes one.
type encodedErr struct{}

func (encodedErr) Error() string {
	if s := In(encodedErrSite); s != nil {
		f := s.Call()
		s.String("nested")
		s.Return(f)
	}
	return "boom"
}

// TestErrorMethodsCalledByTheEncoderAreNotEvents: an observed error passed
// into an incall is encoded with its message, which the encoder gets by
// calling its Error method, observed code: that call is not a boundary
// event (it ran in the middle of the CALL_IN being built, whose values a
// nested CALL_IN overwrote: govalidator's Errors passed to ValidateStruct's
// callers), and the message is in the CALL_IN.
func TestErrorMethodsCalledByTheEncoderAreNotEvents(t *testing.T) {
	var events []eventlog.Event
	CaptureTo(func(e *eventlog.Event) uint64 {
		c := e.Clone()
		c.Seq = uint64(len(events) + 1)
		events = append(events, c)
		return c.Seq
	})
	defer CaptureTo(nil)
	site := &Site{Name: "example.com/enc.Check"}
	s := In(site)
	if s == nil {
		t.Fatal("no incall")
	}
	s.Error(encodedErr{})
	f := s.Call()
	s.Return(f)
	CaptureTo(nil)
	if len(events) != 2 || events[0].Kind != eventlog.KindCallIn || events[0].Site != site.Name || events[1].Kind != eventlog.KindReturnIn {
		for _, e := range events {
			t.Logf("%d %v %s", e.Seq, e.Kind, e.Site)
		}
		t.Fatalf("%d events, want the CALL_IN and RETURN_IN of %s alone", len(events), site.Name)
	}
	d := value.Decoder{Buf: events[0].Values}
	if err := d.DecodeError(); d.Err != nil || err == nil || err.Error() != "boom" {
		t.Errorf("the CALL_IN holds %v (decoding: %v), want the error \"boom\"", err, d.Err)
	}
	if s := current(); len(s.frames) != 0 || s.inside {
		t.Errorf("after the incall the stream has %d frames, inside %v", len(s.frames), s.inside)
	}
}
