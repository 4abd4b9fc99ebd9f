"""Build settings of rules_capture: the capture mode and the observed set.

Both are ordinary Starlark flags, so they can be set on the command line
(`--@rules_capture//rules:mode=capture`) as well as by the transitions in
transition.bzl, which is how go_capture_binary and go_replay_test set them.
"""

load(":providers.bzl", "CaptureModeInfo", "ObservedSetInfo")

CAPTURE_MODES = ["off", "capture", "replay"]

def _capture_mode_flag_impl(ctx):
    mode = ctx.build_setting_value
    if mode not in CAPTURE_MODES:
        fail("{}: capture mode must be one of {}, got {}".format(
            ctx.label,
            ", ".join(CAPTURE_MODES),
            repr(mode),
        ))
    return [CaptureModeInfo(mode = mode)]

capture_mode_flag = rule(
    implementation = _capture_mode_flag_impl,
    build_setting = config.string(flag = True),
    doc = "The capture mode: `off` (normal build), `capture` or `replay`.",
)

def _observed_set_flag_impl(ctx):
    return [ObservedSetInfo(entries = ctx.build_setting_value)]

observed_set_flag = rule(
    implementation = _observed_set_flag_impl,
    build_setting = config.string_list(flag = True),
    doc = """The observed set: labels of go_library targets (`//pkg:name`, `@repo//pkg:name`)
or Go import paths. Only libraries wrapped by rules_capture's `go_library` can be observed.""",
)
