"""Analysis tests of rules_capture: what each configuration compiles, and the errors."""

load("@bazel_skylib//lib:unittest.bzl", "analysistest", "asserts")
load("//rules/private:providers.bzl", "CaptureBinaryInfo", "CaptureSourcesInfo")

_MODE = str(Label("//rules:mode"))
_OBSERVE = str(Label("//rules:observe"))
_ENTRY = str(Label("//rules:entry"))
_GREET_IP = "github.com/rules-capture/rules_capture/rules/tests/app/greet"

def _mnemonics(env):
    return [a.mnemonic for a in analysistest.target_actions(env)]

def _basenames(files):
    return sorted([f.basename for f in files])

# Mode off: the wrapped library hands the compiler its own source files and
# registers nothing: the normal build cannot differ from plain rules_go.
def _off_is_passthrough_impl(ctx):
    env = analysistest.begin(ctx)
    t = analysistest.target_under_test(env)
    info = t[CaptureSourcesInfo]
    asserts.false(env, info.observed)
    asserts.equals(env, "off", info.mode)
    asserts.equals(env, ["greet.go"], _basenames(info.srcs))
    asserts.true(env, all([f.is_source for f in info.srcs]), "off mode must forward the source files themselves")
    asserts.equals(env, [], _mnemonics(env))
    return analysistest.end(env)

off_is_passthrough_test = analysistest.make(_off_is_passthrough_impl)

def _capture_observed_impl(ctx):
    env = analysistest.begin(ctx)
    t = analysistest.target_under_test(env)
    info = t[CaptureSourcesInfo]
    asserts.true(env, info.observed)
    asserts.equals(env, ctx.attr.mode, info.mode)
    asserts.equals(env, ["greet.go", "zz_capture_gen.go"], _basenames(info.srcs))
    asserts.false(env, any([f.is_source for f in info.srcs]), "observed sources must be the transform's outputs")
    actions = [a for a in analysistest.target_actions(env) if a.mnemonic == "CaptureTransform"]
    asserts.equals(env, 1, len(actions), "one transform action per package")
    a = actions[0]
    argv = " ".join(a.argv)
    for want in ["-mode " + ctx.attr.mode, "-importpath " + _GREET_IP, "-observe " + _GREET_IP, "-arc github.com/rules-capture/rules_capture/rules/tests/app/clock="]:
        asserts.true(env, want in argv, "transform arguments lack {}: {}".format(want, argv))

    # Type-checked against the export data of the deps, like nogo.
    inputs = [f.basename for f in a.inputs.to_list()]
    asserts.true(env, "clock.x" in inputs, "the dependency's export data (clock.x) is not an input: {}".format(inputs))
    asserts.true(env, "greet.go" in inputs)
    return analysistest.end(env)

capture_observed_by_label_test = analysistest.make(
    _capture_observed_impl,
    attrs = {"mode": attr.string(default = "capture")},
    config_settings = {_MODE: "capture", _OBSERVE: ["//rules/tests/app/greet:greet"]},
)

capture_observed_by_short_label_test = analysistest.make(
    _capture_observed_impl,
    attrs = {"mode": attr.string(default = "capture")},
    config_settings = {_MODE: "capture", _OBSERVE: ["//rules/tests/app/greet"]},
)

capture_observed_by_importpath_test = analysistest.make(
    _capture_observed_impl,
    attrs = {"mode": attr.string(default = "capture")},
    config_settings = {_MODE: "capture", _OBSERVE: [_GREET_IP]},
)

replay_observed_test = analysistest.make(
    _capture_observed_impl,
    attrs = {"mode": attr.string(default = "replay")},
    config_settings = {_MODE: "replay", _OBSERVE: ["//rules/tests/app/greet"]},
)

# In capture mode a library outside the observed set compiles unchanged.
def _unobserved_is_passthrough_impl(ctx):
    env = analysistest.begin(ctx)
    info = analysistest.target_under_test(env)[CaptureSourcesInfo]
    asserts.false(env, info.observed)
    asserts.equals(env, ctx.attr.mode, info.mode)
    asserts.true(env, all([f.is_source for f in info.srcs]))
    asserts.equals(env, [], _mnemonics(env))
    return analysistest.end(env)

unobserved_is_passthrough_test = analysistest.make(
    _unobserved_is_passthrough_impl,
    attrs = {"mode": attr.string(default = "capture")},
    config_settings = {_MODE: "capture", _OBSERVE: ["//rules/tests/app/greet"]},
)

# The observed set is a set of packages: a library with the same name in
# another package is not observed.
observed_set_is_exact_test = analysistest.make(
    _unobserved_is_passthrough_impl,
    attrs = {"mode": attr.string(default = "capture")},
    config_settings = {_MODE: "capture", _OBSERVE: ["//rules/tests/app/greet:clock", "//rules/tests/app"]},
)

# The main package of the captured binary closes the log at exit; nothing else.
def _entry_main_impl(ctx):
    env = analysistest.begin(ctx)
    info = analysistest.target_under_test(env)[CaptureSourcesInfo]
    asserts.false(env, info.observed)
    asserts.equals(env, ["main.go"], _basenames(info.srcs))
    asserts.false(env, info.srcs[0].is_source)
    asserts.equals(env, ["CaptureExit"], _mnemonics(env))
    return analysistest.end(env)

entry_main_test = analysistest.make(
    _entry_main_impl,
    config_settings = {_MODE: "capture", _OBSERVE: ["//rules/tests/app/greet"], _ENTRY: ["//rules/tests/app/cmd"]},
)

# Replay builds never close a capture log: the entry setting is ignored.
entry_ignored_in_replay_test = analysistest.make(
    _unobserved_is_passthrough_impl,
    attrs = {"mode": attr.string(default = "replay")},
    config_settings = {_MODE: "replay", _OBSERVE: ["//rules/tests/app/greet"], _ENTRY: ["//rules/tests/app/cmd"]},
)

# go_capture_binary canonicalises its observed set and finds the main package.
def _capture_binary_impl(ctx):
    env = analysistest.begin(ctx)
    info = analysistest.target_under_test(env)[CaptureBinaryInfo]
    asserts.equals(env, ["//rules/tests/app/greet:greet"], [s.lstrip("@") for s in info.observed])
    asserts.equals(env, ["//rules/tests/app/cmd"], info.entry)

    # The executable is the linked binary stamped with the observed import
    # paths and the hash of their sources (rules/private/stamp.bzl).
    stamps = [a for a in analysistest.target_actions(env) if a.mnemonic == "CaptureStamp"]
    asserts.equals(env, 1, len(stamps), "one CaptureStamp action")
    argv = stamps[0].argv
    asserts.equals(env, "stamp", argv[1])
    argv = " ".join(argv)
    for want in [
        "-hash_placeholder (source unknown)",
        "//rules/tests/app/greet:greet,,,",
        "-src " + _GREET_IP + "=rules/tests/app/greet/greet.go",
        "-goos linux",
    ]:
        asserts.true(env, want in argv, "stamp arguments lack {}: {}".format(want, argv))
    asserts.false(env, "/clock/clock.go" in argv, "an unobserved package's sources are not hashed: {}".format(argv))
    inputs = [f.basename for f in stamps[0].inputs.to_list()]
    asserts.true(env, "greet.go" in inputs and "app" in inputs, "stamp inputs lack the binary or the observed sources: {}".format(inputs))
    return analysistest.end(env)

capture_binary_test = analysistest.make(_capture_binary_impl)

# A tool (exec configuration) never compiles instrumented sources, even when
# the configuration it is built for captures it: Bazel 7 carries Starlark
# flags into the exec configuration.
_ToolSourcesInfo = provider(doc = "CaptureSourcesInfo of a library seen as a tool.", fields = ["info"])

def _as_tool_impl(ctx):
    return [_ToolSourcesInfo(info = ctx.attr.lib[CaptureSourcesInfo])]

as_tool = rule(
    implementation = _as_tool_impl,
    attrs = {"lib": attr.label(cfg = "exec", mandatory = True)},
    doc = "Test helper: depends on a wrapped library's capture_sources in the exec configuration.",
)

def _exec_is_never_instrumented_impl(ctx):
    env = analysistest.begin(ctx)
    info = analysistest.target_under_test(env)[_ToolSourcesInfo].info
    asserts.false(env, info.observed, "a library built as a tool was instrumented")
    asserts.equals(env, "off", info.mode)
    asserts.true(env, all([f.is_source for f in info.srcs]), "a tool must compile the original sources")
    return analysistest.end(env)

exec_is_never_instrumented_test = analysistest.make(
    _exec_is_never_instrumented_impl,
    config_settings = {_MODE: "capture", _OBSERVE: ["//rules/tests/app/greet"]},
)

# Bad input fails analysis with a message naming the fix.
def _fails_with_impl(ctx):
    env = analysistest.begin(ctx)
    asserts.expect_failure(env, ctx.attr.message)
    return analysistest.end(env)

fails_with_test = analysistest.make(
    _fails_with_impl,
    expect_failure = True,
    attrs = {"message": attr.string(mandatory = True)},
)

bad_mode_test = analysistest.make(
    _fails_with_impl,
    expect_failure = True,
    attrs = {"message": attr.string(mandatory = True)},
    config_settings = {_MODE: "record"},
)
