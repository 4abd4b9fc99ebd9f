package flags

// The package's last file (in name order) before the transform's
// zz_capture_gen.go, with an init function. The transform used to end the
// package's initialisation at the end of this file, before the generated
// file's init registered Default and Usage (pflag's uint_slice.go).
func init() {
	Default.n = 10
}
