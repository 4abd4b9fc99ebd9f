"""Public API of rules_capture: selective capture and replay for Go.

    load("@rules_capture//rules:defs.bzl", "go_capture_binary", "go_library", "go_replay_test")

See docs/rules.md for the reference.
"""

load("//rules/private:binary.bzl", _go_capture_binary = "go_capture_binary")
load("//rules/private:library.bzl", _go_library = "go_library")
load(
    "//rules/private:providers.bzl",
    _CaptureBinaryInfo = "CaptureBinaryInfo",
    _CaptureSourcesInfo = "CaptureSourcesInfo",
)
load("//rules/private:replay.bzl", _go_replay_test = "go_replay_test")

go_library = _go_library
go_capture_binary = _go_capture_binary
go_replay_test = _go_replay_test
CaptureBinaryInfo = _CaptureBinaryInfo
CaptureSourcesInfo = _CaptureSourcesInfo
