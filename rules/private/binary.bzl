"""go_capture_binary: a go_binary built with probes in the observed set."""

load("@io_bazel_rules_go//go:def.bzl", "GoArchive", "go_binary")
load(":observe.bzl", "canonical_observe", "package_key")
load(":providers.bzl", "CaptureBinaryInfo", "ObservedSourcesInfo")
load(":stamp.bzl", "HASH_PLACEHOLDER", "observed_placeholder", "observed_sources_aspect")
load(":transition.bzl", "TRANSITION_ATTRS", "capture_transition")

def _go_capture_binary_impl(ctx):
    binary = ctx.attr.binary[0]  # a 1:1 transition still yields a list
    info = binary[DefaultInfo]
    src = info.files_to_run.executable
    if not src:
        fail("{}: binary {} is not executable".format(ctx.label, ctx.attr.binary[0].label))

    # The executable is a copy of the linked binary with the observed import
    # paths and the hash of their sources written over the placeholders that
    # //rules:capture_stamp linked (rules/private/stamp.bzl).
    exe = ctx.actions.declare_file(ctx.label.name)
    _stamp(ctx, binary, src, exe)
    return [
        DefaultInfo(
            executable = exe,
            files = depset([exe]),
            runfiles = _runfiles_without(ctx, info.default_runfiles, src).merge(ctx.runfiles([exe])),
        ),
        CaptureBinaryInfo(observed = ctx.attr.observed, entry = ctx.attr.entry, executable = exe),
        OutputGroupInfo(capture_binary = depset([src])),
    ] + [binary[p] for p in [GoArchive] if p in binary]

def _stamp(ctx, binary, src, exe):
    sources = binary[ObservedSourcesInfo]
    constraints = sources.constraints.to_list()
    if not constraints:
        fail("{}: {} links none of the observed libraries {} (are they its dependencies, and wrapped by rules_capture's go_library?)".format(
            ctx.label,
            binary.label,
            ctx.attr.observed,
        ))
    observed = sorted({e: None for e in ctx.attr.observed}.keys())  # as the transition sets it
    subcommand = ctx.actions.args()
    subcommand.add("stamp")
    args = ctx.actions.args()
    args.add("-in", src)
    args.add("-out", exe)
    args.add("-observed_placeholder", observed_placeholder(observed))
    args.add("-hash_placeholder", HASH_PLACEHOLDER)
    args.add_all(list(constraints[0]))
    args.add_all(sources.srcs, before_each = "-src")
    args.use_param_file("-param=%s")
    args.set_param_file_format("multiline")
    ctx.actions.run(
        executable = ctx.executable._transform,
        arguments = [subcommand, args],
        inputs = depset([src], transitive = [sources.files]),
        outputs = [exe],
        mnemonic = "CaptureStamp",
        progress_message = "Stamping %{label} with the observed set and its source hash",
    )

def _runfiles_without(ctx, runfiles, exclude):
    # The wrapped binary's own executable sits at the same runfiles path as the
    # normal build's (the configuration is not part of the path): forwarding it
    # would silently shadow the normal binary in any runfiles tree holding both.
    return ctx.runfiles(
        files = [f for f in runfiles.files.to_list() if f != exclude],
        symlinks = runfiles.symlinks,
        root_symlinks = runfiles.root_symlinks,
    )

_go_capture_binary = rule(
    implementation = _go_capture_binary_impl,
    attrs = dict(TRANSITION_ATTRS, **{
        "binary": attr.label(
            mandatory = True,
            executable = True,
            cfg = capture_transition,
            aspects = [observed_sources_aspect],
            doc = "The go_binary to build in capture mode.",
        ),
        "observed": attr.string_list(
            mandatory = True,
            allow_empty = False,
            doc = "The observed set: canonical labels of wrapped go_library targets, or import paths.",
        ),
        "entry": attr.string_list(
            doc = "Packages of the binary's main package (`//pkg`): its wrapped go_library closes the log at exit.",
        ),
        "_capture_mode": attr.string(default = "capture"),
        "_transform": attr.label(
            default = "//rules/private:transform_tool",
            executable = True,
            cfg = "exec",
        ),
    }),
    executable = True,
    doc = "Builds `binary` in the capture configuration for `observed`.",
)

def go_capture_binary(name, observe, binary = None, embed = None, **kwargs):
    """A capture variant of a Go program.

    Exactly one of `binary` (an existing go_binary) and `embed` (go_library targets
    of package main, as for go_binary) is given. The binary and everything it links
    is built in a configuration where the capture mode is `capture` and the observed
    set is `observe`; observed libraries compile with probes, every other package
    compiles unchanged.

    Args:
      name: target name; the executable is `<name>` in the package's output directory.
      observe: labels of the observed go_library targets (wrapped by rules_capture's
        go_library), or Go import paths.
      binary: label of the go_binary to instrument.
      embed: alternatively, go_library targets to link as a new go_binary `<name>_bin`.
      **kwargs: common attributes (tags, visibility, testonly, ...); with `embed`,
        go_binary attributes such as `deps`, `x_defs`, `gc_linkopts` go to `<name>_bin`.
    """
    if (binary == None) == (embed == None):
        fail("go_capture_binary {}: give exactly one of binary (a go_binary label) or embed (go_library labels)".format(name))
    common = {k: kwargs.pop(k) for k in ["tags", "visibility", "testonly", "target_compatible_with"] if k in kwargs}
    if embed != None:
        go_binary(
            name = name + "_bin",
            embed = embed,
            tags = ["manual"] + common.get("tags", []),
            visibility = ["//visibility:private"],
            testonly = common.get("testonly", False),
            **kwargs
        )
        binary = ":" + name + "_bin"
        entry = [package_key(native.package_relative_label(e)) for e in embed]
    else:
        if kwargs:
            fail("go_capture_binary {}: unknown attributes {} (go_binary attributes are only accepted with embed)".format(name, sorted(kwargs.keys())))

        # Gazelle's layout: the go_binary embeds the go_library of package main
        # of its own directory.
        entry = [package_key(native.package_relative_label(binary))]
    _go_capture_binary(
        name = name,
        binary = binary,
        entry = sorted({e: None for e in entry}.keys()),
        observed = canonical_observe(observe),
        **common
    )
