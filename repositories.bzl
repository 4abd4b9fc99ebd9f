"""rules_capture's dependencies for WORKSPACE mode (Bazel 7; Bzlmod users need none of this).

    load("@rules_capture//:repositories.bzl", "rules_capture_dependencies")
    rules_capture_dependencies()

then the rule sets' own setup, and the Go modules through
`@rules_capture//:go_repositories.bzl`'s rules_capture_go_dependencies()
(docs/getting-started.md shows the whole WORKSPACE).
"""

load("@bazel_tools//tools/build_defs/repo:http.bzl", "http_archive")
load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

def rules_capture_dependencies():
    """Declares rules_go, Gazelle and bazel_skylib, each only if the workspace has not yet.

    The versions are the ones rules_capture is tested with (this repository's
    WORKSPACE and MODULE.bazel). Declare your own earlier to use another version.
    """
    maybe(
        http_archive,
        name = "io_bazel_rules_go",
        sha256 = "86d3dc8f59d253524f933aaf2f3c05896cb0b605fc35b460c0b4b039996124c6",
        urls = [
            "https://mirror.bazel.build/github.com/bazel-contrib/rules_go/releases/download/v0.60.0/rules_go-v0.60.0.zip",
            "https://github.com/bazel-contrib/rules_go/releases/download/v0.60.0/rules_go-v0.60.0.zip",
        ],
    )
    maybe(
        http_archive,
        name = "bazel_gazelle",
        sha256 = "675114d8b433d0a9f54d81171833be96ebc4113115664b791e6f204d58e93446",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/bazel-gazelle/releases/download/v0.47.0/bazel-gazelle-v0.47.0.tar.gz",
            "https://github.com/bazel-contrib/bazel-gazelle/releases/download/v0.47.0/bazel-gazelle-v0.47.0.tar.gz",
        ],
    )
    maybe(
        http_archive,
        name = "bazel_skylib",
        sha256 = "6e78f0e57de26801f6f564fa7c4a48dc8b36873e416257a92bbb0937eeac8446",
        urls = [
            "https://mirror.bazel.build/github.com/bazelbuild/bazel-skylib/releases/download/1.8.2/bazel-skylib-1.8.2.tar.gz",
            "https://github.com/bazelbuild/bazel-skylib/releases/download/1.8.2/bazel-skylib-1.8.2.tar.gz",
        ],
    )
