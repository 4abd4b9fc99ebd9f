// Package tree is external to the firstwhole corpus program's observed set:
// a container whose methods observed code calls on a field of its own.
package tree

// Tree holds keys in insertion order.
type Tree struct {
	keys []string
}

// Put adds k.
func (t *Tree) Put(k string) { t.keys = append(t.keys, k) }

// Keys returns the keys.
func (t *Tree) Keys() []string { return append([]string(nil), t.keys...) }

// Size returns the number of keys.
func (t *Tree) Size() int { return len(t.keys) }
