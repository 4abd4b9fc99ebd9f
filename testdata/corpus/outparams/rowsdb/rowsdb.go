// Package rowsdb is external to the observed set: a database/sql-like
// result set whose Scan writes the current row into the pointers it is given.
package rowsdb

import (
	"fmt"
	"reflect"
)

// DB holds rows of (name, age).
type DB struct{ rows [][]any }

// Open returns a database with a few rows.
func Open() *DB {
	return &DB{rows: [][]any{{"ada", 36}, {"bob", 41}, {"cyd", 29}}}
}

// Query returns all rows whose age is at least min.
func (db *DB) Query(min int) *Rows {
	r := &Rows{i: -1}
	for _, row := range db.rows {
		if row[1].(int) >= min {
			r.rows = append(r.rows, row)
		}
	}
	return r
}

// Rows is a cursor.
type Rows struct {
	rows [][]any
	i    int
}

// Next advances to the next row.
func (r *Rows) Next() bool {
	r.i++
	return r.i < len(r.rows)
}

// Scan copies the current row into dest, which must be pointers.
func (r *Rows) Scan(dest ...any) error {
	row := r.rows[r.i]
	if len(dest) != len(row) {
		return fmt.Errorf("rowsdb: %d destinations for %d columns", len(dest), len(row))
	}
	for i, d := range dest {
		rv := reflect.ValueOf(d)
		if rv.Kind() != reflect.Pointer || rv.IsNil() {
			return fmt.Errorf("rowsdb: destination %d is not a pointer", i)
		}
		rv.Elem().Set(reflect.ValueOf(row[i]))
	}
	return nil
}
