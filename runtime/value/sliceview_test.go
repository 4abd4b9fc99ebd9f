package value

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// arrayTable numbers arrays by their end, as the probe's tables do, and
// rebuilds views in one array per ID.
type arrayTable struct {
	*table
	ends   map[uintptr]uint64
	arrays map[uint64]reflect.Value // ID -> the whole array, as a slice
}

func newArrayTable() *arrayTable {
	return &arrayTable{table: newTable(), ends: map[uintptr]uint64{}, arrays: map[uint64]reflect.Value{}}
}

func (t *arrayTable) Array(data unsafe.Pointer, c int, elem reflect.Type) uint64 {
	end := uintptr(data) + uintptr(c)*elem.Size()
	if id, ok := t.ends[end]; ok {
		return id
	}
	t.next++
	t.ends[end] = t.next
	return t.next
}

func (t *arrayTable) View(id uint64, c int, s reflect.Value) reflect.Value {
	arr, ok := t.arrays[id]
	if !ok {
		arr = reflect.MakeSlice(reflect.SliceOf(s.Type().Elem()), c, c)
		t.arrays[id] = arr
	}
	v := arr.Slice(arr.Len()-c, arr.Len()).Slice(0, s.Len())
	reflect.Copy(v, s)
	return v.Convert(s.Type())
}

type views struct {
	Doc   []byte
	Word  []byte
	Nums  []int32
	Tail  []int32
	Named rawBytes
}

type rawBytes []byte

func TestSlicesAsViewsOfOneArray(t *testing.T) {
	doc := make([]byte, 11, 16)
	copy(doc, "alpha gamma")
	nums := []int32{1, 2, 3, 4, 5}
	in := views{Doc: doc, Word: doc[6:11], Nums: nums[:2], Tail: nums[3:], Named: rawBytes(doc[:5])}
	e := &Encoder{Objects: newArrayTable()}
	Encode(e, in)
	e.SliceBytes(doc[6:8])
	text, err := Render(e.Buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`view#1/16 []byte("alpha gamma")`, `view#1/10 []byte("gamma")`, "view#2/5 [1 2]", "view#2/2 [4 5]", `view#1/10 []byte("ga")`} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered values lack %q: %s", want, text)
		}
	}

	r := newArrayTable()
	d := &Decoder{Buf: e.Buf, Resolver: r}
	got := Decode[views](d)
	b := d.Bytes()
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if string(got.Doc) != "alpha gamma" || cap(got.Doc) != 16 || cap(got.Word) != 10 || &got.Word[0] != &got.Doc[6] {
		t.Fatalf("Word is no view of Doc: %q (cap %d), %q (cap %d)", got.Doc, cap(got.Doc), got.Word, cap(got.Word))
	}
	if &got.Named[0] != &got.Doc[0] || &b[0] != &got.Doc[6] || string(b) != "ga" {
		t.Fatalf("Named or the bytes are no views of Doc: %q, %q", got.Named, b)
	}
	if cap(got.Nums) != 5 || &got.Tail[0] != &got.Nums[:4][3] || got.Tail[1] != 5 {
		t.Fatalf("Tail is no view of Nums: %v (cap %d), %v", got.Nums, cap(got.Nums), got.Tail)
	}
	// Written through one view, read through another, as in the capture.
	got.Word[0] = 'G'
	if string(got.Doc) != "alpha Gamma" {
		t.Fatalf("Doc after a write through Word: %q", got.Doc)
	}
}

// An object table that numbers no arrays (a log of an older format, a
// comparison's table) gets slices by value.
func TestSlicesByValueWithoutArrays(t *testing.T) {
	doc := []byte("alpha gamma")
	e := &Encoder{Objects: newTable()}
	Encode(e, views{Doc: doc, Word: doc[6:]})
	e.SliceBytes(doc)
	if text, _ := Render(e.Buf); strings.Contains(text, "view#") {
		t.Fatalf("views without Arrays: %s", text)
	}
	d := &Decoder{Buf: e.Buf, Resolver: newArrayTable()}
	got := Decode[views](d)
	if d.Err != nil || cap(got.Word) != len(got.Word) || string(d.Bytes()) != "alpha gamma" {
		t.Fatalf("by value: %+v, %v", got, d.Err)
	}
}

// The views inside a map's values are numbered in the order of the sorted
// keys, as the entries are written, not in the map's iteration order:
// replay, iterating the same map in another order, must give the same
// values the same IDs (gjson's Result.Value of an object of arrays).
func TestMapValuesNumberedInKeyOrder(t *testing.T) {
	m := map[string][]int{}
	keys := "abcdefghijklmnop"
	for i, k := range keys {
		m[string(k)] = make([]int, 1, i+1)
	}
	for range 5 {
		e := &Encoder{Objects: newArrayTable()}
		Encode(e, map[string]any{"m": m})
		text, err := Render(e.Buf)
		if err != nil {
			t.Fatal(err)
		}
		for i := range keys {
			want := fmt.Sprintf("view#%d/%d ", i+1, i+1)
			if !strings.Contains(text, want) {
				t.Fatalf("rendered map lacks %q (views numbered out of key order): %s", want, text)
			}
		}
	}
}
