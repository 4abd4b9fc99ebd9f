// Package values holds flag values the way pflag does, with the three
// constructs the study found replay faults in: a struct copied out
// of a pointer an outcall returned (`*n` after net.ParseCIDR), records
// formatted through a csv.Writer into the code's own buffer, and a registry
// that an in-package test file's variable initialisers fill while the
// package initialises.
package values

import (
	"bytes"
	"encoding/csv"
	"net"
	"sort"
	"strings"
)

// Network is the network of a CIDR string such as "10.0.0.0/8".
func Network(cidr string) (net.IPNet, error) {
	_, n, err := net.ParseCIDR(cidr)
	if err != nil {
		return net.IPNet{}, err
	}
	return *n, nil
}

// IPNet is a flag value holding a network, as pflag's ipNetValue.
type IPNet net.IPNet

// Set parses cidr into v.
func (v *IPNet) Set(cidr string) error {
	_, n, err := net.ParseCIDR(strings.TrimSpace(cidr))
	if err != nil {
		return err
	}
	*v = IPNet(*n)
	return nil
}

// String formats v.
func (v *IPNet) String() string {
	n := net.IPNet(*v)
	return n.String()
}

// Format formats m as "[k1=v1,k2=v2]" in key order, CSV-quoted, as pflag's
// stringToStringValue.String.
func Format(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	records := make([]string, 0, len(keys))
	for _, k := range keys {
		records = append(records, k+"="+m[k])
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.Write(records); err != nil {
		panic(err)
	}
	w.Flush()
	return "[" + strings.TrimSpace(buf.String()) + "]"
}

var registry = map[string]*int{}

// Define registers name with a default and returns where its value lives.
func Define(name string, value int) *int {
	p := new(int)
	*p = value
	registry[name] = p
	return p
}

// Names lists the registered names, sorted.
func Names() string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}
