"""Make variables describing the capture configuration, for x_defs stamping."""

load(":providers.bzl", "CaptureModeInfo", "ObservedSetInfo")

def _capture_vars_impl(ctx):
    return [platform_common.TemplateVariableInfo({
        "CAPTURE_MODE": ctx.attr._mode[CaptureModeInfo].mode,
        "CAPTURE_OBSERVED": ",".join(ctx.attr._observe[ObservedSetInfo].entries),
    })]

capture_vars = rule(
    implementation = _capture_vars_impl,
    attrs = {
        "_mode": attr.label(default = "//rules:mode"),
        "_observe": attr.label(default = "//rules:observe"),
    },
    doc = """Make variables `$(CAPTURE_MODE)` and `$(CAPTURE_OBSERVED)` (the observed set, comma-separated)
of the current configuration; `//rules:capture_stamp` links them into capture binaries.""",
)
