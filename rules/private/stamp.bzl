"""The capture binary's stamp: the observed set and the hash of its sources.

Every log of a capture binary carries, in its metadata, the import paths of the
observed packages and a hash of their sources (runtime/probe's observedList and
sourceHash, set with -X by `capture build`). Under Bazel neither is known when
x_defs are fixed (analysis reads no file), so //rules:capture_stamp links
placeholders of a reserved width, and go_capture_binary's CaptureStamp action
overwrites them, same length, in a copy of the linked binary
(`capture_bazel_transform stamp`). A capture-mode binary not built through
go_capture_binary keeps the placeholders: it still captures, its logs name the
observed set as written (labels) and the source hash `(source unknown)`.
"""

load(":providers.bzl", "CaptureModeInfo", "CaptureSourcesInfo", "ObservedSetInfo", "ObservedSourcesInfo")

# sourceHash as linked: as wide as transform.SourceHash's 16 hex digits.
HASH_PLACEHOLDER = "(source unknown)"

# Room reserved for the import paths, per entry of the observed set and in all.
_BYTES_PER_ENTRY = 200
_BYTES_EXTRA = 256

def observed_placeholder(entries):
    """observedList as linked for an observed set: the entries as written, then commas.

    The runtime splits observedList at commas and skips empty entries, so the
    padding is invisible to an unstamped binary and leaves room for the stamp.

    Args:
      entries: the observed set (the value of //rules:observe).

    Returns:
      The placeholder string.
    """
    written = ",".join(entries)
    return written + "," * (_BYTES_EXTRA + _BYTES_PER_ENTRY * len(entries))

def _capture_vars_impl(ctx):
    entries = ctx.attr._observe[ObservedSetInfo].entries
    return [platform_common.TemplateVariableInfo({
        "CAPTURE_MODE": ctx.attr._mode[CaptureModeInfo].mode,
        "CAPTURE_OBSERVED": ",".join(entries),
        "CAPTURE_OBSERVED_STAMP": observed_placeholder(entries),
        "CAPTURE_HASH_STAMP": HASH_PLACEHOLDER,
    })]

capture_vars = rule(
    implementation = _capture_vars_impl,
    attrs = {
        "_mode": attr.label(default = "//rules:mode"),
        "_observe": attr.label(default = "//rules:observe"),
    },
    doc = """Make variables of the current configuration: `$(CAPTURE_MODE)`, `$(CAPTURE_OBSERVED)` (the
observed set, comma-separated), and the placeholders `$(CAPTURE_OBSERVED_STAMP)` and
`$(CAPTURE_HASH_STAMP)` that //rules:capture_stamp links and go_capture_binary overwrites.""",
)

# The attributes along which a Go binary reaches the sources of its packages:
# go_binary/go_library embed and deps, and go_library's srcs, which for a
# wrapped library is its capture_sources target.
_ASPECT_ATTRS = ["embed", "deps", "srcs"]

def _observed_sources_aspect_impl(target, ctx):
    srcs, files, constraints = [], [], []
    if CaptureSourcesInfo in target:
        info = target[CaptureSourcesInfo]
        if info.observed:
            go = [f for f in info.original_srcs if f.basename.endswith(".go")]
            srcs = ["{}={}".format(info.importpath, f.path) for f in go]
            files = go
            constraints = [tuple(info.constraints)]
    trans = []
    for name in _ASPECT_ATTRS:
        for dep in getattr(ctx.rule.attr, name, None) or []:
            if type(dep) == "Target" and ObservedSourcesInfo in dep:
                trans.append(dep[ObservedSourcesInfo])
    return [ObservedSourcesInfo(
        srcs = depset(srcs, transitive = [t.srcs for t in trans]),
        files = depset(files, transitive = [t.files for t in trans]),
        constraints = depset(constraints, transitive = [t.constraints for t in trans]),
    )]

observed_sources_aspect = aspect(
    implementation = _observed_sources_aspect_impl,
    attr_aspects = _ASPECT_ATTRS,
    doc = "Collects the original sources of the observed packages a Go binary links (ObservedSourcesInfo).",
)
