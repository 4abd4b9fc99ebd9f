module github.com/rules-capture/rules_capture

go 1.26

require (
	github.com/bazelbuild/bazel-gazelle v0.47.0
	golang.org/x/mod v0.20.0
)

require (
	github.com/bazelbuild/buildtools v0.0.0-20250930140053-2eb4fccefb52 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	golang.org/x/sys v0.29.0 // indirect
	golang.org/x/tools/go/vcs v0.1.0-deprecated // indirect
)
