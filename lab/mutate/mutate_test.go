package mutate

import (
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"
)

const sample = `package p

const limit = 10

var table [4]int

func Clamp(x int) int {
	if x > limit {
		return limit
	}
	switch x {
	case 1:
		x++
	}
	var buf [8]byte
	_ = buf
	total := 0
	total = total + x
	record(x)
	return total
}

func (c *Counter) Add(n int) { c.n += n }

type Counter struct{ n int }

func record(int) {}
`

func TestCandidatesFindEachOperatorInFunctionBodiesOnly(t *testing.T) {
	ms, err := Candidates("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, string(m.Operator)+" "+m.Old+" -> "+m.New+" in "+m.Func)
	}
	want := []string{
		"flip-comparison > -> <= in Clamp",
		"drop-statement x++ -> /* dropped by mutant */ in Clamp",
		"drop-statement _ = buf -> /* dropped by mutant */ in Clamp",
		"off-by-one 0 -> 1 in Clamp",
		"drop-statement total = total + x -> /* dropped by mutant */ in Clamp",
		"drop-statement record(x) -> /* dropped by mutant */ in Clamp",
		"drop-statement c.n += n -> /* dropped by mutant */ in (*Counter).Add",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Not mutated: the const, the array lengths, the case expression "1".
	for _, m := range ms {
		if m.Old == "10" || m.Old == "4" || m.Old == "8" || (m.Operator == OffByOne && m.Old == "1") {
			t.Errorf("mutated a constant that must stay: %v", m)
		}
	}
}

func TestApplyEditsOnlyTheSiteAndStillParses(t *testing.T) {
	ms, err := Candidates("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		out, err := m.Apply([]byte(sample))
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(sample)-len(m.Old)+len(m.New) || string(out[:m.Offset]) != sample[:m.Offset] {
			t.Errorf("%v: edit outside the site", m)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
			t.Errorf("%v: mutant does not parse: %v", m, err)
		}
	}
	m := ms[0]
	m.Offset++
	if _, err := m.Apply([]byte(sample)); err == nil || !strings.Contains(err.Error(), "regenerate") {
		t.Errorf("stale mutant applied: %v", err)
	}
}

func TestPickIsDeterministicAndSpreadsOperators(t *testing.T) {
	ms, err := Candidates("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	a := Pick(append([]Mutant(nil), ms...), 3, 42)
	b := Pick(append([]Mutant(nil), ms...), 3, 42)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different picks:\n%v\n%v", a, b)
	}
	ops := map[Operator]bool{}
	for _, m := range a {
		ops[m.Operator] = true
	}
	if len(ops) != 3 {
		t.Errorf("3 picks from 3 operators should cover all of them: %v", a)
	}
	if all := Pick(append([]Mutant(nil), ms...), 100, 1); len(all) != len(ms) {
		t.Errorf("asking for more than exist: got %d, want all %d", len(all), len(ms))
	}
	differ := false
	for seed := int64(1); seed < 20 && !differ; seed++ {
		differ = !reflect.DeepEqual(Pick(append([]Mutant(nil), ms...), 3, seed), a)
	}
	if !differ {
		t.Error("the seed does not change the pick")
	}
}
