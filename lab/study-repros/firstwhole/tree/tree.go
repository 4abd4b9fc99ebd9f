// Package tree stands for gods' redblacktree, outside the observed set.
package tree

// Tree holds keys.
type Tree struct{ keys []interface{} }

// Put adds k.
func (t *Tree) Put(k interface{}) { t.keys = append(t.keys, k) }

// Size returns the number of keys.
func (t *Tree) Size() int { return len(t.keys) }
