package probe

import (
	"reflect"
	"sync"
	"testing"
)

// BenchmarkPrivateNoneCrossed: Private while no sync object has crossed
// the boundary, the common case (one atomic load). Run it on its own
// (-run '^$' -bench NoneCrossed): any crossing noted before, by a test or
// BenchmarkCrossed, ends the fast path for the process.
func BenchmarkPrivateNoneCrossed(b *testing.B) {
	mine := new(sync.WaitGroup)
	for b.Loop() {
		if !Private(mine) {
			b.Fatal("not private")
		}
	}
}

// BenchmarkCrossed: the run-time decision of a sync method call through a
// pointer (Private) and of a channel operation (crossed), in capture, for
// an object that never crossed the boundary and for one that did.
func BenchmarkCrossed(b *testing.B) {
	mine, theirs := new(sync.WaitGroup), new(sync.WaitGroup)
	myCh, theirCh := make(chan int), make(chan int)
	objectTable().ID(reflect.ValueOf(theirs), "*sync.WaitGroup", true)
	objectTable().ID(reflect.ValueOf(theirCh), "chan int", true)
	appendNumberingEvent()
	b.Run("sync/private", func(b *testing.B) {
		for b.Loop() {
			if !Private(mine) {
				b.Fatal("not private")
			}
		}
	})
	b.Run("sync/crossed", func(b *testing.B) {
		for b.Loop() {
			if Private(theirs) {
				b.Fatal("private")
			}
		}
	})
	b.Run("chan/private", func(b *testing.B) {
		for b.Loop() {
			if crossed(myCh) {
				b.Fatal("crossed")
			}
		}
	})
	b.Run("chan/crossed", func(b *testing.B) {
		for b.Loop() {
			if !crossed(theirCh) {
				b.Fatal("not crossed")
			}
		}
	})
}
