// Package probe_stub stands in for runtime/probe while it does not exist yet.
// TEMPORARY: removed when runtime/probe lands.
package probe_stub
