"""go_replay_test: replays event logs against the current code of the observed set."""

load("@io_bazel_rules_go//go:def.bzl", "GoArchive", "go_test")
load(":constants.bzl", "PROBE_IMPORTPATH")
load(":observe.bzl", "canonical_observe")
load(":transition.bzl", "TRANSITION_ATTRS", "capture_transition")

# The check levels, strictest first (runtime/probectl.CheckLevels; its
# TestCheckLevelsMatchStarlark reads this list).
CHECK_LEVELS = ["strict", "returns", "crash"]

_HARNESS = "//rules/private/harness"

# The package of the generated sources (tool/internal/harnessgen.TestPackage).
_TEST_PACKAGE = "capture_replay_test"

def _rlocation(ctx, f):
    # Runfiles path as the Go runfiles libraries spell it: <repo>/<path>.
    if f.short_path.startswith("../"):
        return f.short_path[3:]
    return ctx.workspace_name + "/" + f.short_path

def _replay_main_impl(ctx):
    if ctx.attr.check not in CHECK_LEVELS:
        fail("{}: check must be one of {}, got {}".format(ctx.label, ", ".join(CHECK_LEVELS), repr(ctx.attr.check)))
    logs = sorted(ctx.files.logs, key = lambda f: f.short_path)
    imports = []
    for dep in ctx.attr.observe:
        ip = dep[GoArchive].data.importpath
        if ip not in imports:
            imports.append(ip)

    # The CaptureHarness action writes both sources from one Go template
    # (tool/internal/harnessgen, as `capture replay` writes its harness): the
    # test main, and the generic instantiations the logs call (Go contains
    # an instantiation only where code names it). One it cannot name is
    # reported on the action's stderr, and replaying its call diverges,
    # naming it.
    main = ctx.actions.declare_file(ctx.label.name + "_test.go")
    instances = ctx.actions.declare_file(ctx.label.name + "_instances_test.go")
    args = ctx.actions.args()
    args.add("harness")
    args.add("-package", _TEST_PACKAGE)
    args.add("-target", str(ctx.label).removesuffix("_main"))
    args.add("-check", ctx.attr.check)
    args.add("-shards", ctx.attr.shard_count)
    args.add_all(sorted(imports), before_each = "-observe")
    args.add_all(sorted([d[GoArchive].data.importpath for d in ctx.attr.deps]), before_each = "-dep")
    args.add_all([_rlocation(ctx, f) for f in logs], before_each = "-runfile")
    args.add("-main", main)
    args.add("-o", instances)
    args.add_all(logs)
    ctx.actions.run(
        executable = ctx.executable._transform,
        arguments = [args],
        inputs = logs,
        outputs = [main, instances],
        mnemonic = "CaptureHarness",
        progress_message = "Writing the replay harness of %{label}",
    )
    return [DefaultInfo(files = depset([main, instances]))]

replay_main = rule(
    implementation = _replay_main_impl,
    attrs = {
        "observe": attr.label_list(providers = [GoArchive], mandatory = True),
        "deps": attr.label_list(providers = [GoArchive]),
        "logs": attr.label_list(allow_files = [".arrow"]),
        "check": attr.string(default = "strict"),
        "shard_count": attr.int(default = 0),
        "_transform": attr.label(
            default = "//rules/private:transform_tool",
            executable = True,
            cfg = "exec",
        ),
    },
    doc = "Generates the Go test sources of a go_replay_test: the test main and the generic instantiations its logs call.",
)

def _go_replay_test_impl(ctx):
    binary = ctx.attr.binary[0]
    info = binary[DefaultInfo]
    exe = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = exe, target_file = info.files_to_run.executable, is_executable = True)
    providers = [DefaultInfo(executable = exe, runfiles = info.default_runfiles)]

    # rules_go's go_test runs in the package directory only when its
    # environment says it runs under Bazel; forward that environment.
    if RunEnvironmentInfo in binary:
        providers.append(binary[RunEnvironmentInfo])
    return providers

_go_replay_test = rule(
    implementation = _go_replay_test_impl,
    attrs = dict(TRANSITION_ATTRS, **{
        "binary": attr.label(
            mandatory = True,
            executable = True,
            cfg = capture_transition,
            doc = "The generated go_test, built in replay mode.",
        ),
        "observed": attr.string_list(mandatory = True, allow_empty = False),
        "_capture_mode": attr.string(default = "replay"),
    }),
    test = True,
    doc = "Runs the replay test binary built in the replay configuration.",
)

def go_replay_test(name, observe, logs, check = "strict", shard_count = None, deps = [], **kwargs):
    """Replays captured event logs against today's code of the observed set.

    Each log is a subtest (`TestReplay/<log file>`). The harness instantiates the
    generic functions and methods of the observed set that the logs call; one whose
    type arguments it cannot name (see `deps`) is reported by the build and its
    replayed call diverges, naming it. With `shard_count`, Bazel's test
    sharding splits the logs across shards. Divergence reports are written to
    `$TEST_UNDECLARED_OUTPUTS_DIR` (bazel-testlogs/<pkg>/<name>/test.outputs/).

    Args:
      name: test name.
      observe: labels of the observed go_library targets (the same set the logs were
        captured with).
      logs: event logs (.arrow files), e.g. `glob(["testdata/capture/*.arrow"])`.
      check: `strict` (every outgoing event must match), `returns` (incall results and
        panics must match) or `crash` (only new or changed panics fail).
      shard_count: Bazel shard count; logs are dealt round-robin to shards.
      deps: other go_library targets the harness links, so that it can instantiate
        generic incalls of the logs whose type arguments are declared there (the
        harness names every instantiation the logs call; it can import the observed
        packages, these and the standard library).
      **kwargs: common test attributes (size, default "small"; timeout, tags, flaky,
        visibility, ...).
    """
    if check not in CHECK_LEVELS:
        fail("go_replay_test {}: check must be one of {}, got {}".format(name, ", ".join(CHECK_LEVELS), repr(check)))
    observed = canonical_observe(observe)
    observe_labels = [o for o in observed if o.startswith("@") or o.startswith("//")]
    if len(observe_labels) != len(observed):
        fail("go_replay_test {}: observe must list go_library labels (import paths are not enough to link them): {}".format(
            name,
            [o for o in observed if o not in observe_labels],
        ))
    testonly_tags = ["manual"] + kwargs.get("tags", [])
    replay_main(
        name = name + "_main",
        observe = observe_labels,
        logs = logs,
        deps = deps,
        check = check,
        shard_count = shard_count or 0,
        tags = testonly_tags,
        testonly = True,
        visibility = ["//visibility:private"],
    )
    go_test(
        name = name + "_bin",
        srcs = [":" + name + "_main"],
        deps = observe_labels + deps + [Label(_HARNESS)],
        data = logs,
        # The probe runtime starts the player instead of the recorder.
        x_defs = {PROBE_IMPORTPATH + ".buildMode": "replay"},
        tags = testonly_tags,
        visibility = ["//visibility:private"],
    )

    # Replaying a log takes well under a minute; without a size Bazel assumes "medium"
    # and warns on every run that the size is too big. Long logs pass size = "medium".
    kwargs.setdefault("size", "small")
    _go_replay_test(
        name = name,
        binary = ":" + name + "_bin",
        observed = observed,
        shard_count = shard_count,
        **kwargs
    )
