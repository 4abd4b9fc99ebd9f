// Package decode is the observed package of the outparams corpus program:
// outcalls that write through pointers and slices the observed code owns
// (json.Unmarshal, binary.Read, fmt.Sscan, io.ReadFull, a database-style
// rows.Scan). Replay writes the recorded memory back after each outcall.
package decode

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"example.com/outparams/ext"
	"example.com/outparams/rowsdb"
)

// Header is the fixed part of a frame.
type Header struct {
	Magic uint16
	Size  uint32
}

// Config decodes a configuration (a value of an external type: an outcall
// whose out-parameter is &cfg) and describes it.
func Config(b []byte) (string, error) {
	var cfg ext.Config
	if err := json.Unmarshal(b, &cfg); err != nil {
		return "", err
	}
	limit := -1
	if cfg.Limit != nil {
		limit = *cfg.Limit
	}
	return fmt.Sprintf("%s:%d %s limit=%d", cfg.Name, cfg.Port, strings.Join(cfg.Tags, ","), limit), nil
}

// Defaults decodes b over defaults held by a pointer the function allocated.
func Defaults(b []byte) (int, error) {
	cfg := &ext.Config{Port: 80}
	err := json.Unmarshal(b, cfg)
	return cfg.Port, err
}

// Frame reads a header (binary.Read into &h) and the payload (io.ReadFull
// into a slice) from r.
func Frame(r io.Reader) (string, error) {
	var h Header
	if err := binary.Read(r, binary.BigEndian, &h); err != nil {
		return "", err
	}
	if h.Magic != 0xCAFE {
		return "", fmt.Errorf("bad magic %#x", h.Magic)
	}
	payload := make([]byte, h.Size)
	if _, err := io.ReadFull(r, payload); err != nil {
		return "", err
	}
	return string(payload), nil
}

// Pair parses "a b" (fmt.Sscan into two variables).
func Pair(s string) (int, error) {
	var a, b int
	if _, err := fmt.Sscan(s, &a, &b); err != nil {
		return 0, err
	}
	return a*10 + b, nil
}

// Adults lists the rows of db aged at least min (rows.Scan into locals).
func Adults(db *rowsdb.DB, min int) ([]string, error) {
	rows := db.Query(min)
	var out []string
	for rows.Next() {
		var name string
		var age int
		if err := rows.Scan(&name, &age); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%s(%d)", name, age))
	}
	return out, nil
}

// decodeInto forwards its destination to json.Unmarshal: still an
// out-parameter, because every call of it passes an address its caller owns.
func decodeInto(b []byte, v any) error { return json.Unmarshal(b, v) }

// Named decodes b into an external config through decodeInto.
func Named(b []byte) (string, error) {
	var cfg ext.Config
	err := decodeInto(b, &cfg)
	return cfg.Name, err
}
