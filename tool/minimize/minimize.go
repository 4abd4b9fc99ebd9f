package minimize

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rules-capture/rules_capture/runtime/eventlog"
	"github.com/rules-capture/rules_capture/runtime/probectl"
	"github.com/rules-capture/rules_capture/runtime/segment"
	"github.com/rules-capture/rules_capture/runtime/value"
)

// Options of Minimize.
type Options struct {
	// Failure picks the failure of a log that replays as recorded and
	// records several panics of the observed code: the N-th panic, from
	// 1; 0 is the first, -1 the last. A log that diverges has one failure
	// to minimize, its first divergence (replay stops there), and any
	// other choice than the first is an error.
	Failure int
	// WholeLog: minimize the whole log even where it has checkpoints
	// before the failure.
	WholeLog bool
}

// Result is what Minimize found.
type Result struct {
	// Log is the log that Keep, Failure and FailSeq refer to: the log
	// given, or the segment of it cut at the checkpoint From.
	Log     *Log
	From    uint64  // seq, in the log given, of the checkpoint Log starts at (0: none)
	Keep    []int   // the units of the smallest failing log found, in order
	Failure Failure // the original failure
	FailSeq uint64  // Log's event where it diverged (0: a crash)
	Slice   string  // which slice ddmin started from
	Sliced  int     // units in that slice
	Replays int
	Elapsed time.Duration
	Stopped bool // the time limit ended the search: Keep fails, but may not be 1-minimal
}

// Minimize reduces l, whose replay with r fails, to a log that fails the
// same way: first the smallest of a few slices that still fails (the
// units the failing incall reaches through object IDs; then those before
// the failure), then ddmin over the units of that slice, by stream first
// when there are several, then by unit. The failing incall is kept in every
// candidate. Where l has checkpoints before the failure, it minimizes the
// segment cut at the latest of them whose replay fails the same way
// instead (fromCheckpoint). When ctx ends, the result is the smallest
// failing log so far. Progress lines go to progress.
func Minimize(ctx context.Context, l *Log, r *Replayer, opt Options, progress io.Writer) (*Result, error) {
	start := time.Now()
	res := &Result{Log: l}
	input := l
	say := func(format string, args ...any) {
		fmt.Fprintf(progress, "minimize: %s  [%d replays, %s]\n", fmt.Sprintf(format, args...), r.Replays, time.Since(start).Round(100*time.Millisecond))
	}
	want, seq, err := r.Original(ctx, l, opt.Failure)
	if err != nil {
		return nil, err
	}
	say("%d events, %d incalls; the failure: %s (seq %d)", len(l.Events), len(l.Units), want, seq)
	if !opt.WholeLog {
		s, err := r.fromCheckpoint(ctx, l, want, seq, say)
		switch {
		case err != nil && ctx.Err() != nil:
			// Stopped before minimizing: the whole log is the smallest
			// failing log so far.
		case err != nil:
			return nil, err
		case s != nil:
			l, want, seq = s.log, s.want, s.seq
			res.Log, res.From = l, s.from
		}
	}
	res.Failure, res.FailSeq = want, seq
	all := make([]int, len(l.Units))
	for i := range all {
		all[i] = i
	}

	var fixed []int
	if u := l.UnitOf(seq); u >= 0 {
		fixed = []int{u}
	}
	cache := map[string]Outcome{}
	test := func(units []int) (Outcome, error) {
		keep := union(fixed, units)
		key := keyOf(keep)
		if o, ok := cache[key]; ok {
			return o, nil
		}
		o, err := r.Try(ctx, l, keep, want)
		if err != nil {
			return Unresolved, err
		}
		cache[key] = o
		return o, nil
	}
	best := all
	finish := func(stopped bool) (*Result, error) {
		res.Keep = best
		res.Replays = r.Replays
		res.Elapsed = time.Since(start)
		res.Stopped = stopped
		say("done: %d of %d incalls%s", len(best), len(input.Units), map[bool]string{true: " (time limit: smallest failing log so far)"}[stopped])
		return res, nil
	}
	stop := func(err error) (*Result, error) {
		if ctx.Err() != nil {
			return finish(true)
		}
		return nil, err
	}

	if ctx.Err() != nil {
		return finish(true)
	}

	// Slicing.
	res.Slice, res.Sliced = "all", len(all)
	for _, s := range l.slices(seq, fixed) {
		if len(s.units) >= len(best) {
			continue
		}
		o, err := test(minus(s.units, fixed))
		if err != nil {
			return stop(err)
		}
		say("slice %s: %d incalls: %s", s.name, len(s.units), o)
		if o == FailSame {
			best = s.units
			res.Slice, res.Sliced = s.name, len(s.units)
			break
		}
	}

	// ddmin, by stream first when the candidates span several.
	c := minus(best, fixed)
	if groups := l.unitsByStream(c); len(groups) > 1 {
		g, err := ddmin(groups, func(gs [][]int) (Outcome, error) { return test(slices.Concat(gs...)) }, func(n int) {
			say("ddmin over streams: %d of %d streams", n, len(groups))
		})
		c = slices.Concat(g...)
		best = union(fixed, c)
		if err != nil {
			return stop(err)
		}
	}
	items := make([][]int, len(c))
	for i, u := range c {
		items[i] = []int{u}
	}
	m, err := ddmin(items, func(us [][]int) (Outcome, error) { return test(slices.Concat(us...)) }, func(n int) {
		say("ddmin: %d incalls", n+len(fixed))
	})
	best = union(fixed, slices.Concat(m...))
	if err != nil {
		return stop(err)
	}
	return finish(false)
}

// ddmin is Zeller's minimizing delta debugging: it returns a 1-minimal
// subset of c whose test is FailSame, assuming c's is. On an error (the
// time limit) it returns the smallest failing subset found so far with
// it. sized reports each smaller failing subset found.
func ddmin[T any](c []T, test func([]T) (Outcome, error), sized func(int)) ([]T, error) {
	n := 2
	for len(c) > 0 {
		if n > len(c) {
			n = len(c)
		}
		parts := split(c, n)
		reduced := false
		if len(c) == 1 {
			// The only subset left to try is the empty one.
			o, err := test(nil)
			if err != nil {
				return c, err
			}
			if o == FailSame {
				c = nil
				sized(0)
			}
			return c, nil
		}
		for _, p := range parts {
			o, err := test(p)
			if err != nil {
				return c, err
			}
			if o == FailSame {
				c, n, reduced = p, 2, true
				break
			}
		}
		if !reduced && n > 2 { // with two parts, the complements are the parts
			for i := range parts {
				comp := slices.Concat(slices.Concat(parts[:i]...), slices.Concat(parts[i+1:]...))
				o, err := test(comp)
				if err != nil {
					return c, err
				}
				if o == FailSame {
					c, n, reduced = comp, max(n-1, 2), true
					break
				}
			}
		}
		if reduced {
			sized(len(c))
			continue
		}
		if n >= len(c) {
			return c, nil
		}
		n = min(2*n, len(c))
	}
	return c, nil
}

// split cuts c into n parts of nearly equal length.
func split[T any](c []T, n int) [][]T {
	var parts [][]T
	start := 0
	for i := range n {
		end := start + (len(c)-start)/(n-i)
		parts = append(parts, c[start:end])
		start = end
	}
	return parts
}

type slice struct {
	name  string
	units []int
}

// slices lists the candidate slices for a failure at seq, smallest first:
//
//   - "objects": the failing incall and the units it reaches through
//     object IDs, transitively, among the units that began before the
//     failure: any unit that names an ID it names, except for IDs that
//     most units name (a service object every request goes through, which
//     would keep everything), where only the unit that named the ID first
//     is kept (replay needs an object's first sight, which carries its
//     contents);
//   - "objects+shared": the same with every ID followed;
//   - "before": every unit that began before the failure.
//
// Package state is not followed (the log does not show it): a slice that
// drops an incall whose state the failure needs does not fail the same
// way, and the next one is tried.
func (l *Log) slices(seq uint64, fixed []int) []slice {
	if len(fixed) == 0 {
		return nil // a crash: no failing incall to slice from
	}
	ids := make([]map[uint64]bool, len(l.Units))
	mentions := map[uint64][]int{} // id -> units naming it, in order
	for i := range l.Events {
		u := l.Unit[i]
		if u < 0 {
			continue
		}
		if ids[u] == nil {
			ids[u] = map[uint64]bool{}
		}
		add := func(id uint64) {
			if id != 0 && !ids[u][id] {
				ids[u][id] = true
				mentions[id] = append(mentions[id], u)
			}
		}
		add(l.Events[i].RecvID)
		_ = value.ObjectIDs(l.Events[i].Values, add)
	}
	hub := max(4, len(l.Units)/4)
	closure := func(followShared bool) []int {
		in := map[int]bool{}
		work := append([]int(nil), fixed...)
		for _, u := range fixed {
			in[u] = true
		}
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			for id := range ids[u] {
				ms := mentions[id]
				if !followShared && len(ms) > hub {
					ms = ms[:1]
				}
				for _, v := range ms {
					if !in[v] && l.Units[v].First < seq {
						in[v] = true
						work = append(work, v)
					}
				}
			}
		}
		out := make([]int, 0, len(in))
		for u := range in {
			out = append(out, u)
		}
		sort.Ints(out)
		return out
	}
	var before []int
	for u := range l.Units {
		if l.Units[u].First < seq || slices.Contains(fixed, u) {
			before = append(before, u)
		}
	}
	return []slice{{"objects", closure(false)}, {"objects+shared", closure(true)}, {"before", before}}
}

// Original replays l unchanged (as a candidate keeping every unit, so that
// its events are written as every candidate's are) and returns its
// failure and the seq of the event where it diverged.
func (r *Replayer) Original(ctx context.Context, l *Log, nth int) (Failure, uint64, error) {
	all := make([]int, len(l.Units))
	for i := range all {
		all[i] = i
	}
	c := l.Candidate(all)
	path := r.Dir + "/original.arrow"
	if err := c.Write(path, l.Meta); err != nil {
		return Failure{}, 0, err
	}
	rep, err := r.replay(ctx, r.Harness, path)
	if err != nil {
		return Failure{}, 0, fmt.Errorf("replay of the log: %w", err)
	}
	f, failed := failureOf(rep, l, c)
	seq := uint64(0)
	switch {
	case failed && nth != 0 && nth != 1:
		return Failure{}, 0, fmt.Errorf("-failure %d picks among the panics a log records, but this log's replay fails (%s), and replay stops at that first failure", nth, f)
	case failed && f.Kind != "":
		seq = c.OriginalSeq(rep.Divergence.Seq)
	case failed:
	case rep.Verdict != probectl.Pass:
		return Failure{}, 0, fmt.Errorf("replay of the log: verdict %s without a divergence", rep.Verdict)
	default:
		// A log that replays as recorded fails only if what it recorded
		// is a failure: a panic of the observed code, which today's code
		// still makes.
		ps := l.RecordedPanics()
		if len(ps) == 0 {
			return Failure{}, 0, errors.New("the log replays without a divergence against this code and records no panic of the observed code: there is no failure to minimize")
		}
		i := nth - 1
		switch {
		case nth == 0:
			i = 0
		case nth < 0:
			i = len(ps) - 1
		case nth > len(ps):
			return Failure{}, 0, fmt.Errorf("-failure %d: the log records %d panic(s) of the observed code", nth, len(ps))
		}
		f, seq = ps[i].Failure, ps[i].Seq
		if r.Check == probectl.CheckCrash {
			return Failure{}, 0, errors.New("the failure is a recorded panic, which -check crash does not judge (a call that returns where the capture panicked is a note there): use -check strict or returns")
		}
	}
	if r.Baseline != "" {
		rep, err := r.replay(ctx, r.Baseline, path)
		if err != nil {
			return Failure{}, 0, fmt.Errorf("replay of the log on the baseline: %w", err)
		}
		if r.classify(rep, l, c, f) != Pass {
			return Failure{}, 0, fmt.Errorf("the log fails on the baseline too (%s): a baseline is code the failure does not show on", baselineSays(rep, f))
		}
	}
	return f, seq, nil
}

// segmentStart is a segment of a log, cut at a checkpoint, whose replay
// fails the way the log's does: want and seq are the failure in the
// segment's numbering, from the checkpoint's seq in the log.
type segmentStart struct {
	log  *Log
	want Failure
	seq  uint64
	from uint64
}

// fromCheckpoint starts from the nearest checkpoint before the failure, as
// JINSI suggests for long runs: the incalls before a checkpoint are
// replaced by the state it restores, so minimization works on the incalls
// after it only. It cuts l at the latest CHECKPOINT event before the
// failing incall (capture cut's segment, to the log's end) and replays the
// segment; if it does not fail the same way (the state the failure needs
// was set up wrong by a call before the checkpoint, and the checkpoint
// holds the capture's correct state), it tries earlier ones: the 2nd,
// 4th, 8th... latest, then bisects between the latest that did not fail
// and the earliest that did, taking a segment that starts earlier to fail
// whenever a later one does (where that does not hold, the segment found
// still fails the same way, only longer than needed). It returns nil when
// no segment does, or l has no checkpoint before the failure.
func (r *Replayer) fromCheckpoint(ctx context.Context, l *Log, want Failure, seq uint64, say func(string, ...any)) (*segmentStart, error) {
	bound := uint64(math.MaxUint64) // a crash: any checkpoint of the log
	switch {
	case want.Panic:
		bound = want.PanicCall
	case seq != 0:
		bound = seq
		if u := l.UnitOf(seq); u >= 0 {
			bound = l.Units[u].First
		}
	}
	var cps []int
	for i := range l.Events {
		if i > l.start && l.Events[i].Kind == eventlog.KindCheckpoint && l.Events[i].Seq < bound {
			cps = append(cps, i)
		}
	}
	if len(cps) == 0 {
		return nil, nil
	}
	try := func(k int) (Outcome, *segmentStart, error) { // the k-th latest checkpoint, from 1
		i := cps[len(cps)-k]
		at := l.InputSeq(l.Events[i].Seq)
		seg, err := segment.Cut(l.Events, l.Meta, i, len(l.Events))
		if err != nil {
			say("checkpoint at seq %d: %v", at, err)
			return Unresolved, nil, nil
		}
		from := make([]uint64, len(seg.Orig))
		for j, o := range seg.Orig {
			from[j] = l.InputSeq(o)
		}
		s := &segmentStart{log: newLog(seg.Meta, seg.Events, from), want: want, from: at}
		segSeq := func(orig uint64) uint64 {
			if j, ok := slices.BinarySearch(seg.Orig, orig); ok {
				return uint64(j + 1)
			}
			return 0
		}
		s.seq = segSeq(seq)
		if want.Panic {
			s.want.PanicCall, s.want.PanicEnd = segSeq(want.PanicCall), segSeq(want.PanicEnd)
		}
		all := make([]int, len(s.log.Units))
		for u := range all {
			all[u] = u
		}
		o, err := r.Try(ctx, s.log, all, s.want)
		if err != nil {
			return Unresolved, nil, err
		}
		say("segment from the checkpoint at seq %d (%d of %d): %d incalls, %d events: %s", at, len(cps)-k+1, len(cps), len(s.log.Units), len(s.log.Events), o)
		return o, s, nil
	}
	found := map[int]*segmentStart{}
	k, err := latestFailing(len(cps), func(k int) (bool, error) {
		o, s, err := try(k)
		if o == FailSame {
			found[k] = s
		}
		return o == FailSame, err
	})
	if err != nil || k == 0 {
		if err == nil {
			say("no segment from a checkpoint fails the same way: minimizing the whole log")
		}
		return nil, err
	}
	return found[k], nil
}

// latestFailing returns the smallest k in 1..n for which fails(k) holds
// (0 if none), trying k = 1, 2, 4, ... n, then bisecting between the
// largest k tried that did not fail and the smallest that did. For a
// predicate that holds from some k on, that is the first such k, in
// O(log k) calls; otherwise it is some k that fails.
func latestFailing(n int, fails func(k int) (bool, error)) (int, error) {
	prev, k := 0, 1 // prev: the largest k tried that did not fail
	for {
		if k > n {
			return 0, nil
		}
		ok, err := fails(k)
		if err != nil {
			return 0, err
		}
		if ok {
			break
		}
		prev = k
		if k == n {
			return 0, nil
		}
		k = min(2*k, n)
	}
	for k-prev > 1 {
		mid := (prev + k) / 2
		ok, err := fails(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			k = mid
		} else {
			prev = mid
		}
	}
	return k, nil
}

func baselineSays(rep *probectl.Report, f Failure) string {
	switch {
	case f.Panic && rep.Verdict == probectl.Pass:
		return "it panics there as recorded"
	case rep.Divergence != nil:
		return strings.TrimSpace(rep.Divergence.String())
	}
	return "verdict " + rep.Verdict
}

func union(a, b []int) []int {
	out := slices.Concat(a, b)
	sort.Ints(out)
	return slices.Compact(out)
}

func minus(a, b []int) []int {
	return slices.DeleteFunc(slices.Clone(a), func(u int) bool { return slices.Contains(b, u) })
}

func keyOf(units []int) string {
	var b strings.Builder
	for _, u := range units {
		b.WriteString(strconv.Itoa(u))
		b.WriteByte(',')
	}
	return b.String()
}
