"""The transform front end as an exec tool, built outside any capture configuration."""

load(":transition.bzl", "TRANSITION_ATTRS", "capture_off_transition")

def _capture_tool_impl(ctx):
    tool = ctx.attr.binary[0][DefaultInfo]
    exe = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = exe, target_file = tool.files_to_run.executable, is_executable = True)
    return [DefaultInfo(executable = exe, runfiles = tool.default_runfiles)]

capture_tool = rule(
    implementation = _capture_tool_impl,
    attrs = dict(TRANSITION_ATTRS, **{
        # Starlark flags are carried into the exec configuration: reset them so the
        # tool is built once, not once per observed set, and never instrumented.
        "binary": attr.label(mandatory = True, executable = True, cfg = capture_off_transition),
    }),
    executable = True,
    doc = "Forwards a Go tool binary built with the capture settings reset to off.",
)
