"""The wrapped go_library: the switch between original and transformed sources.

`go_library` here is a macro with the signature of rules_go's go_library (Gazelle
points at it with `# gazelle:map_kind go_library go_library @rules_capture//rules:defs.bzl`).
It expands to two targets:

  <name>_capture_srcs  capture_sources: hands the compiler either the original
                       files (mode off, or the library is not observed) or the
                       output of one transform action per package;
  <name>               rules_go's go_library, srcs = [":<name>_capture_srcs"].

Outside capture/replay configurations capture_sources returns the very File
objects it was given and adds no dependency, so the compile action, and with it
the archive and the linked binary, are the ones rules_go would produce without
rules_capture (tested by //rules/tests/identity).
"""

load("@io_bazel_rules_go//go:def.bzl", "GoArchive", "go_context", _rules_go_library = "go_library")
load(":observe.bzl", "package_key")
load(":providers.bzl", "CaptureEntryInfo", "CaptureModeInfo", "CaptureSourcesInfo", "ObservedSetInfo")

# Non-Go sources (assembly, cgo C files, headers) are never transformed.
_GO_EXT = ".go"

# The file the transform adds to an observed package. The rule declares it and
# names it to the action (-generated_file), which writes it under that name.
_GENERATED_FILE = "zz_capture_gen.go"

def _library_keys(library, importpath):
    """All the spellings under which the observed set may name this library."""
    lbl = Label(library)
    pkg = lbl.package
    keys = [
        str(lbl),
        "//{}:{}".format(pkg, lbl.name),
        "@//{}:{}".format(pkg, lbl.name),
        "@@//{}:{}".format(pkg, lbl.name),  # buildifier: disable=canonical-repository
    ]
    if lbl.workspace_name:
        keys.append("@{}//{}:{}".format(lbl.workspace_name, pkg, lbl.name))
        keys.append("@@{}//{}:{}".format(lbl.workspace_name, pkg, lbl.name))  # buildifier: disable=canonical-repository
    if pkg.split("/")[-1] == lbl.name:
        keys.extend([k[:-len(":" + lbl.name)] for k in keys if k.endswith(":" + lbl.name)])
    if importpath:
        keys.append(importpath)
    return keys

def _is_observed(entries, library, importpath):
    for key in _library_keys(library, importpath):
        if key in entries:
            return True
    return False

def _dep_archive_arg(archive):
    d = archive.data
    return "{}={}={}".format(d.importpath, d.importmap, d.export_file.path if d.export_file else d.file.path)

def _capture_sources_impl(ctx):
    mode = ctx.attr._mode[CaptureModeInfo].mode

    # A tool is never instrumented. Bazel 7's exec transition carries Starlark
    # flags over, so a code generator built for a capture configuration would
    # otherwise link probes and capture while the build runs it.
    # (ctx.configuration.is_tool_configuration() is private API in Bazel 7;
    # exec configurations are the output directories named *-exec*.)
    if _in_exec_configuration(ctx):
        mode = "off"
    entries = ctx.attr._observe[ObservedSetInfo].entries
    observed = mode != "off" and _is_observed(entries, ctx.attr.library, ctx.attr.importpath)

    if not observed and mode == "capture" and package_key(Label(ctx.attr.library)) in ctx.attr._entry[CaptureEntryInfo].packages:
        return _exit_sources(ctx, mode)

    if not observed:
        return _sources_providers(ctx, mode, ctx.files.srcs, observed = False, constraints = [])

    if not ctx.attr.importpath:
        fail("{}: an observed go_library needs an importpath (the transform names events by it)".format(ctx.attr.library))

    go = go_context(ctx)
    archives = [dep[GoArchive] for dep in ctx.attr.deps]

    # The observed set as import paths, as far as this package can see it:
    # itself and its direct dependencies. Calls among observed packages are not
    # boundary crossings, so the transform must know which imports are observed.
    observed_imports = [ctx.attr.importpath]
    for dep in ctx.attr.deps:
        a = dep[GoArchive].data
        if _is_observed(entries, str(dep.label), a.importpath):
            observed_imports.append(a.importpath)
    observed_imports.extend([e for e in entries if not e.startswith("@") and not e.startswith("//") and e not in observed_imports])

    out_dir = ctx.attr.library_name + ".capture"
    outputs, go_srcs, _ = _declare_go_outputs(ctx, out_dir)
    transformed = [o for o in outputs if o.is_source == False]

    # The transform adds one file to the package: wrappers, outcall helpers and
    # the registration with the probe API.
    gen = ctx.actions.declare_file("{}/{}".format(out_dir, _GENERATED_FILE))
    transformed.append(gen)
    outputs.append(gen)

    constraints = _constraint_list(go)
    args = ctx.actions.args()
    args.add("-mode", mode)
    args.add("-importpath", ctx.attr.importpath)
    args.add_all(constraints)
    args.add("-stdlib", go.stdlib.root_file.dirname)
    args.add_all(observed_imports, before_each = "-observe")
    args.add_all(archives, before_each = "-arc", map_each = _dep_archive_arg)
    args.add("-out_dir", gen.dirname)
    args.add("-generated_file", gen.basename)

    # The package's own test files name the unexported functions and methods
    # that tests call from outside the observed set: they are incalls too, in
    # the capture and replay builds alike (parsed only, no export data needed).
    test_srcs = [f for f in ctx.files.test_srcs if f.basename.endswith("_test" + _GO_EXT)]
    args.add_all(test_srcs, before_each = "-test_src")
    args.add_all(go_srcs)
    args.use_param_file("-param=%s")
    args.set_param_file_format("multiline")

    export_files = [a.data.export_file if a.data.export_file else a.data.file for a in archives]
    ctx.actions.run(
        executable = ctx.executable._transform,
        arguments = [args],
        inputs = depset(go_srcs + test_srcs + export_files, transitive = [go.stdlib.libs]),
        outputs = transformed,
        mnemonic = "CaptureTransform",
        progress_message = "Inserting capture probes into %{label}",
    )

    return _sources_providers(ctx, mode, outputs, observed = True, constraints = constraints) + [
        OutputGroupInfo(capture_transformed = depset(transformed)),
    ]

def _sources_providers(ctx, mode, srcs, observed, constraints):
    """What capture_sources returns: the package's sources as built (srcs) and what they came from."""
    return [
        DefaultInfo(files = depset(srcs)),
        CaptureSourcesInfo(
            library = ctx.attr.library,
            importpath = ctx.attr.importpath,
            mode = mode,
            observed = observed,
            srcs = srcs,
            original_srcs = ctx.files.srcs,
            constraints = constraints,
        ),
    ]

def _declare_go_outputs(ctx, out_dir):
    """Declares out_dir/<name> for each .go source: the package's rewritten copy.

    Returns the package's sources as built (the declared files in place of
    the .go sources, the others as they are), the .go sources, and the
    declared files.
    """
    outputs = []
    go_srcs = []
    produced = []
    for src in ctx.files.srcs:
        if not src.basename.endswith(_GO_EXT):
            outputs.append(src)
            continue
        out = ctx.actions.declare_file("{}/{}".format(out_dir, src.basename))
        go_srcs.append(src)
        outputs.append(out)
        produced.append(out)
    return outputs, go_srcs, produced

def _in_exec_configuration(ctx):
    return "-exec" in ctx.bin_dir.path.split("/")[1]

def _constraint_list(go):
    """The build-constraint flags of the transform tool, for this configuration."""
    return [
        "-goos",
        go.mode.goos,
        "-goarch",
        go.mode.goarch,
        "-tags",
        ",".join(go.mode.tags),
        "-cgo=" + ("false" if go.mode.pure else "true"),
    ]

def _exit_sources(ctx, mode):
    """Instruments the main package of a capture binary to close the log at exit.

    The log is closed when main returns or the program calls os.Exit
    (tool/transform.InstrumentExit); nothing else changes.
    """
    go = go_context(ctx)
    outputs, go_srcs, produced = _declare_go_outputs(ctx, ctx.attr.library_name + ".capture")
    if produced:
        args = ctx.actions.args()
        args.add("-exit_only")
        args.add("-mode", mode)
        args.add_all(_constraint_list(go))
        args.add("-out_dir", produced[0].dirname)
        args.add_all(go_srcs)
        ctx.actions.run(
            executable = ctx.executable._transform,
            arguments = [args],
            inputs = go_srcs,
            outputs = produced,
            mnemonic = "CaptureExit",
            progress_message = "Closing the capture log at exit of %{label}",
        )
    return _sources_providers(ctx, mode, outputs, observed = False, constraints = [])

capture_sources = rule(
    implementation = _capture_sources_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True, doc = "The go_library's srcs."),
        "test_srcs": attr.label_list(
            allow_files = True,
            doc = "The _test.go files of the library's directory: the unexported functions and methods its in-package tests call are wrapped as incalls.",
        ),
        "deps": attr.label_list(
            providers = [GoArchive],
            doc = "The go_library's deps; their export data type-checks the package before the transform.",
        ),
        "library": attr.string(mandatory = True, doc = "Canonical label of the go_library (matched against the observed set)."),
        "library_name": attr.string(mandatory = True, doc = "Name of the go_library target (names the output directory)."),
        "importpath": attr.string(doc = "Import path of the go_library."),
        "_mode": attr.label(default = "//rules:mode"),
        "_observe": attr.label(default = "//rules:observe"),
        "_entry": attr.label(default = "//rules:entry"),
        "_transform": attr.label(
            default = "//rules/private:transform_tool",
            executable = True,
            cfg = "exec",
        ),
        "_go_context_data": attr.label(default = "@io_bazel_rules_go//:go_context_data"),
    },
    toolchains = ["@io_bazel_rules_go//go:toolchain"],
    doc = """Selects the sources a wrapped go_library compiles: the originals, or in a capture or
replay configuration where the library is observed, the output of the transform action.""",
)

def go_library(name, srcs = [], deps = [], importpath = "", **kwargs):
    """rules_go's go_library, compiled with capture probes when the library is observed.

    Same attributes as rules_go's go_library. Outside a capture or replay configuration
    the result is exactly rules_go's go_library of the same attributes.

    Args:
      name: target name.
      srcs: the package's sources.
      deps: the package's direct Go dependencies.
      importpath: the import path; required for a library that is observed.
      **kwargs: passed on to rules_go's go_library.
    """
    library = native.package_relative_label(name)
    capture_sources(
        name = name + "_capture_srcs",
        srcs = srcs,
        # A go_test embeds the library and is a target of its own, so the
        # library does not know its tests: the directory's test files stand
        # for them (the transform keeps those of the library's package).
        test_srcs = native.glob(["*_test.go"], allow_empty = True),
        deps = deps,
        library = str(library),
        library_name = name,
        importpath = importpath,
        # Visible where the library is (for tests and tooling inspecting it).
        visibility = kwargs.get("visibility"),
        tags = ["manual"],
        testonly = kwargs.get("testonly", False),
    )

    # Probes call into the probe API; only a capture or replay configuration
    # adds the edge, so the normal build's dependency graph is untouched. The
    # runtime packages themselves are never instrumented (that would be a cycle).
    probe_deps = []
    if not _is_runtime_package(library):
        probe_deps = select({
            Label("//rules:capture_mode_capture"): [Label("//rules:probe"), Label("//rules:capture_stamp")],
            Label("//rules:capture_mode_replay"): [Label("//rules:probe")],
            "//conditions:default": [],
        })
    _rules_go_library(
        name = name,
        srcs = [":" + name + "_capture_srcs"],
        deps = deps + probe_deps,
        importpath = importpath,
        **kwargs
    )

def _is_runtime_package(library):
    own = Label("//runtime:__pkg__")
    return library.workspace_name == own.workspace_name and (library.package == "runtime" or library.package.startswith("runtime/"))
