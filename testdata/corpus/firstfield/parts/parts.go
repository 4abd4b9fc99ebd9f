// Package parts has structs that embed other observed structs first, at
// their own address (go-cmp's teststructs: ParentStructD embeds
// PublicStruct). External code reaches the embedded part's methods before
// the whole struct's, so a log names one object first by the part's type,
// then by the whole's (study repro firstfield).
package parts

// Part is the first field of Whole and of Mid.
type Part struct {
	Public  int
	private int
}

// SetPrivate sets the part's unexported field.
func (p *Part) SetPrivate(i int) { p.private = i }

// Private returns it.
func (p *Part) Private() int { return p.private }

// Whole embeds Part first.
type Whole struct {
	Part
	Public  int
	private int
}

// SetPrivate sets the whole's own unexported field.
func (w *Whole) SetPrivate(i int) { w.private = i }

// Sum adds what the methods set on the part and on the whole.
func (w *Whole) Sum() int { return w.Part.private*10 + w.private }

// Total adds the public fields: the part's and the whole's own, which
// external code sets (the whole's fields set before the whole crossed,
// and after: both must replay).
func (w *Whole) Total() int { return w.Part.Public + w.Public }

// Mid holds a Part at its start, and Nest holds a Mid at its start: a
// pointer to the Part is a pointer to the Nest.
type Mid struct {
	Part
	Label string
}

// Nest is three levels deep.
type Nest struct {
	Mid   Mid
	Count int
}

// Bump counts on the nest and reports the part's unexported field, which
// only the part's own method set.
func (n *Nest) Bump() int {
	n.Count++
	return n.Count*100 + n.Mid.private
}

// NewWhole makes a whole in observed code: replay numbers it when its
// event's turn comes (corpus freshids), between the objects the log makes.
func NewWhole(i int) *Whole {
	w := &Whole{}
	w.Part.private = i
	return w
}
