module github.com/rules-capture/rules_capture

go 1.26

require (
	github.com/apache/arrow/go/v15 v15.0.2 // indirect
	github.com/bazelbuild/bazel-gazelle v0.47.0 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	golang.org/x/sys v0.29.0 // indirect
)
