package eventlog

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path"
)

// realisticMix generates the event stream of a plausible service, the input
// of BenchmarkLogSize (docs/log-format.md, "Size"): incalls on 30 entry
// points, each making 1-5 outcalls drawn from ~200 sites with a skewed
// (Zipf) distribution, on 6 streams. Every site has a fixed signature:
// 0-3 parameters, each an int or a short string, and results that end in
// an error. Ints are half the time one of a few per-site favourites, else
// uniform in [0,1000); strings come from a small vocabulary; errors are nil
// 95% of the time; one site in 16 is clock-like and returns a nanosecond
// timestamp. The encoding imitates runtime/value: a tag byte, then a varint
// or a length-prefixed string.
type realisticMix struct {
	rng   *rand.Rand
	seq   uint64
	queue []Event
	buf   []byte
	sites []siteSig
	words []string
	zipf  *rand.Zipf
	clock int64
}

type siteSig struct {
	name, pos string
	params    []bool // true: string, false: int
	results   []bool
	clock     bool
	favs      [4]int64
}

const (
	tagNil    = 0
	tagInt    = 3
	tagString = 7
	tagError  = 15
)

func newRealisticMix(seed uint64) *realisticMix {
	m := &realisticMix{rng: rand.New(rand.NewPCG(seed, 1)), clock: 1_763_800_000_000_000_000}
	pkgs := []string{"example.com/shop/pricing", "example.com/shop/cart", "database/sql", "net/http", "time", "os"}
	for i := 0; i < 200; i++ {
		p := pkgs[i%len(pkgs)]
		s := siteSig{
			name:  fmt.Sprintf("%s.Func%d", p, i),
			pos:   fmt.Sprintf("%s/file%d.go:%d", path.Base(p), i%9, 20+i*7%300),
			clock: i%16 == 5,
		}
		for n := m.rng.IntN(4); n > 0; n-- {
			s.params = append(s.params, m.rng.IntN(3) == 0)
		}
		for n := m.rng.IntN(2); n > 0; n-- {
			s.results = append(s.results, m.rng.IntN(3) == 0)
		}
		for j := range s.favs {
			s.favs[j] = int64(m.rng.IntN(100))
		}
		m.sites = append(m.sites, s)
	}
	m.words = []string{"ok", "EUR", "user-42", "sku-1001", "GET", "/api/v1/cart", "pending", "paid", "", "de-DE"}
	m.zipf = rand.NewZipf(m.rng, 1.2, 1, uint64(len(m.sites)-1))
	return m
}

func (m *realisticMix) encode(s *siteSig, types []bool, withErr bool) []byte {
	b := m.buf[:0]
	for _, isString := range types {
		switch {
		case isString:
			w := m.words[m.rng.IntN(len(m.words))]
			b = append(b, tagString)
			b = binary.AppendUvarint(b, uint64(len(w)))
			b = append(b, w...)
		case s.clock:
			m.clock += int64(m.rng.IntN(50_000))
			b = append(b, tagInt)
			b = binary.AppendVarint(b, m.clock)
		case m.rng.IntN(2) == 0:
			b = append(b, tagInt)
			b = binary.AppendVarint(b, s.favs[m.rng.IntN(len(s.favs))])
		default:
			b = append(b, tagInt)
			b = binary.AppendVarint(b, int64(m.rng.IntN(1000)))
		}
	}
	if withErr {
		if m.rng.IntN(20) == 0 {
			msg := "sql: no rows in result set"
			b = append(b, tagError)
			b = binary.AppendUvarint(b, uint64(len(msg)))
			b = append(b, msg...)
		} else {
			b = append(b, tagNil)
		}
	}
	m.buf = b
	return append([]byte(nil), b...)
}

// next returns the next event (Seq is assigned by the writer, but the mix
// tracks it to fill Parent).
func (m *realisticMix) next() *Event {
	if len(m.queue) == 0 {
		stream := uint32(m.rng.IntN(6) + 1)
		entry := &m.sites[int(m.zipf.Uint64())%30]
		call := m.seq + 1
		m.queue = append(m.queue, Event{Stream: stream, Kind: KindCallIn, Site: entry.name, Pos: entry.pos, Values: m.encode(entry, entry.params, false)})
		for n := m.rng.IntN(5) + 1; n > 0; n-- {
			s := &m.sites[int(m.zipf.Uint64())]
			out := call + uint64(len(m.queue))
			e := Event{Stream: stream, Kind: KindCallOut, Parent: call, Site: s.name, Pos: s.pos, Values: m.encode(s, s.params, false)}
			if len(s.name)%4 == 0 {
				e.RecvType, e.RecvID = "*database/sql.DB", 1
			}
			res := s.results
			if s.clock {
				res = []bool{false}
			}
			m.queue = append(m.queue, e, Event{Stream: stream, Kind: KindReturnOut, Parent: out, Site: e.Site, Pos: e.Pos, Values: m.encode(s, res, !s.clock)})
		}
		m.queue = append(m.queue, Event{Stream: stream, Kind: KindReturnIn, Parent: call, Site: entry.name, Pos: entry.pos, Values: m.encode(entry, entry.results, true)})
	}
	e := &m.queue[0]
	m.queue = m.queue[1:]
	m.seq++
	return e
}
