package transform

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"slices"
	"strings"
)

// PackageSources are the Go files of one observed package that the compiler
// sees (after build constraints), for SourceHash.
type PackageSources struct {
	ImportPath string
	Files      []SourceFile
}

// SourceFile is one source file: its base name and its text.
type SourceFile struct {
	Name string
	Text []byte
}

// SourceHash is the log metadata's rules_capture.source_hash: the first 16
// hex digits of a SHA-256 over every package (in import-path order) and
// every file of it (in name order), each field length-prefixed. The go
// command front end (`capture build`) and the Bazel rules (go_capture_binary)
// both use it, so the same sources give the same hash whichever built the
// binary, and the order the observed set was written in does not matter.
func SourceHash(pkgs []PackageSources) string {
	pkgs = slices.Clone(pkgs)
	slices.SortFunc(pkgs, func(a, b PackageSources) int { return strings.Compare(a.ImportPath, b.ImportPath) })
	h := sha256.New()
	for _, p := range pkgs {
		writeField(h, []byte(p.ImportPath))
		files := slices.Clone(p.Files)
		slices.SortFunc(files, func(a, b SourceFile) int { return strings.Compare(a.Name, b.Name) })
		binary.Write(h, binary.BigEndian, uint64(len(files)))
		for _, f := range files {
			writeField(h, []byte(f.Name))
			writeField(h, f.Text)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
