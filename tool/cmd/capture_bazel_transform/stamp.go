package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rules-capture/rules_capture/tool/transform"
)

// The stamp step (`capture_bazel_transform stamp ...`, the CaptureStamp
// action of go_capture_binary) writes what `capture build` passes to the
// linker with -X: the import paths of the observed set and the hash of their
// sources, which every log of the binary carries in its metadata. Bazel knows
// neither when it links (x_defs are fixed at analysis, before any source is
// read), so //rules:capture_stamp links placeholders of a reserved width and
// this step overwrites them, same length, in a copy of the linked binary.
//
//	capture_bazel_transform stamp -in BIN -out OUT \
//	    -observed_placeholder P -hash_placeholder H \
//	    -goos linux -goarch amd64 -tags t1,t2 -cgo=false \
//	    -src IMPORTPATH=FILE ...
//
// P is the runtime's observedList as linked: the observed set as written,
// then commas (empty entries, which the runtime skips) reserving room for the
// import paths. H is the sourceHash placeholder, as wide as a hash.

type stampRequest struct {
	in, out     string
	observedPH  string
	hashPH      string
	ctxt        build.Context
	srcs        map[string][]string // import path -> source files
	packageKeys []string
}

func parseStampArgs(args []string) (*stampRequest, error) {
	args, err := expandParams(args)
	if err != nil {
		return nil, err
	}
	fs := flag.NewFlagSet("capture_bazel_transform stamp", flag.ContinueOnError)
	r := stampRequest{srcs: map[string][]string{}, ctxt: build.Default}
	var tags, goos, goarch string
	var cgo bool
	var srcs multiFlag
	fs.StringVar(&r.in, "in", "", "the linked capture binary")
	fs.StringVar(&r.out, "out", "", "the stamped copy")
	fs.StringVar(&r.observedPH, "observed_placeholder", "", "observedList as linked")
	fs.StringVar(&r.hashPH, "hash_placeholder", "", "sourceHash as linked")
	fs.StringVar(&goos, "goos", "", "target GOOS (build constraints)")
	fs.StringVar(&goarch, "goarch", "", "target GOARCH (build constraints)")
	fs.StringVar(&tags, "tags", "", "comma-separated build tags")
	fs.BoolVar(&cgo, "cgo", false, "whether cgo is enabled (build constraints)")
	fs.Var(&srcs, "src", "IMPORTPATH=FILE: a source file of an observed package (repeated)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if r.in == "" || r.out == "" || r.observedPH == "" || r.hashPH == "" {
		return nil, errors.New("stamp: -in, -out, -observed_placeholder and -hash_placeholder are required")
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("stamp: unexpected arguments %q", fs.Args())
	}
	if len(srcs) == 0 {
		return nil, errors.New("stamp: no -src: the binary links no observed package (is the observed set one of its dependencies, and wrapped by rules_capture's go_library?)")
	}
	for _, s := range srcs {
		ip, file, ok := strings.Cut(s, "=")
		if !ok || ip == "" || file == "" {
			return nil, fmt.Errorf("stamp: -src %q: want IMPORTPATH=FILE", s)
		}
		if _, seen := r.srcs[ip]; !seen {
			r.packageKeys = append(r.packageKeys, ip)
		}
		r.srcs[ip] = append(r.srcs[ip], file)
	}
	slices.Sort(r.packageKeys)
	setConstraints(&r.ctxt, goos, goarch, tags, cgo)
	return &r, nil
}

// setConstraints makes ctxt match files the way the compile action will.
func setConstraints(ctxt *build.Context, goos, goarch, tags string, cgo bool) {
	if goos != "" {
		ctxt.GOOS = goos
	}
	if goarch != "" {
		ctxt.GOARCH = goarch
	}
	ctxt.CgoEnabled = cgo
	ctxt.BuildTags = nil
	if tags != "" {
		ctxt.BuildTags = strings.Split(tags, ",")
	}
}

// stampValues computes what the placeholders become: the observed import
// paths (sorted, comma-separated, padded with commas to the placeholder's
// width) and the source hash of the files the compiler saw.
func stampValues(r *stampRequest) (observed, hash string, err error) {
	var pkgs []transform.PackageSources
	for _, ip := range r.packageKeys {
		p := transform.PackageSources{ImportPath: ip}
		for _, file := range r.srcs[ip] {
			ok, err := r.ctxt.MatchFile(filepath.Dir(file), filepath.Base(file))
			if err != nil {
				return "", "", fmt.Errorf("%s: %v", file, err)
			}
			if !ok {
				continue
			}
			text, err := os.ReadFile(file)
			if err != nil {
				return "", "", err
			}
			p.Files = append(p.Files, transform.SourceFile{Name: filepath.Base(file), Text: text})
		}
		pkgs = append(pkgs, p)
	}
	observed = strings.Join(r.packageKeys, ",")
	if len(observed) > len(r.observedPH) {
		return "", "", fmt.Errorf("stamp: the observed import paths (%d bytes) do not fit the %d bytes reserved by //rules:capture_vars; raise the reservation in rules/private/stamp.bzl", len(observed), len(r.observedPH))
	}
	observed += strings.Repeat(",", len(r.observedPH)-len(observed))
	hash = transform.SourceHash(pkgs)
	if len(hash) != len(r.hashPH) {
		return "", "", fmt.Errorf("stamp: hash placeholder %q is %d bytes, a hash is %d", r.hashPH, len(r.hashPH), len(hash))
	}
	return observed, hash, nil
}

// replaceOnce overwrites the single occurrence of old in bin with new (same
// length). A placeholder that is missing or not unique means the binary was
// not linked with this stamp (or the placeholder is ambiguous): refuse rather
// than patch the wrong bytes.
func replaceOnce(bin []byte, what, old, new string) error {
	if len(old) != len(new) {
		return fmt.Errorf("stamp: %s: replacement is %d bytes, placeholder %d", what, len(new), len(old))
	}
	switch n := bytes.Count(bin, []byte(old)); n {
	case 1:
	case 0:
		return fmt.Errorf("stamp: %s placeholder not found in the binary: it was not linked with //rules:capture_stamp in mode capture (is the observed set linked into it?)", what)
	default:
		return fmt.Errorf("stamp: %s placeholder occurs %d times in the binary, want once", what, n)
	}
	i := bytes.Index(bin, []byte(old))
	copy(bin[i:], new)
	return nil
}

func runStamp(args []string) error {
	r, err := parseStampArgs(args)
	if err != nil {
		return err
	}
	observed, hash, err := stampValues(r)
	if err != nil {
		return err
	}
	bin, err := os.ReadFile(r.in)
	if err != nil {
		return err
	}
	if err := replaceOnce(bin, "observed set", r.observedPH, observed); err != nil {
		return err
	}
	if err := replaceOnce(bin, "source hash", r.hashPH, hash); err != nil {
		return err
	}
	return os.WriteFile(r.out, bin, 0o755)
}
