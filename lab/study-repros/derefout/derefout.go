// Package derefout: observed code copies a struct out of a pointer that an
// outcall returned (pflag's ipNetValue.Set and ipNetConv: `*n` after
// `_, n, err := net.ParseCIDR(s)`). The pointer is a placeholder in replay,
// so its contents were the zero net.IPNet: "different results".
package derefout

import "net"

// Network is the network of a CIDR string such as "10.0.0.0/8".
func Network(cidr string) (net.IPNet, error) {
	_, n, err := net.ParseCIDR(cidr)
	if err != nil {
		return net.IPNet{}, err
	}
	return *n, nil
}

// Value holds a network, as pflag's ipNetValue does.
type Value net.IPNet

// Set parses cidr into v.
func (v *Value) Set(cidr string) error {
	_, n, err := net.ParseCIDR(cidr)
	if err != nil {
		return err
	}
	*v = Value(*n)
	return nil
}

// String formats v.
func (v *Value) String() string {
	n := net.IPNet(*v)
	return n.String()
}
